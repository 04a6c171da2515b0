"""Spec issue: SPEC §4.10 gives the type and range of every field of every message, and
peers with other limits would disagree at the edges. Three sources must agree: the
SPEC's table (read here from the text), `messages.json` → `fields` (each row with values
at its limits and just past them), and the decoders' own checks. A kind or a field the
decoders know without a row, or a ranged field without its edge values, fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgpack
import pytest

ROOT = Path(__file__).parent.parent
SPEC = (ROOT / "protocol" / "SPEC.md").read_text()
ROWS = json.loads((ROOT / "protocol" / "vectors" / "messages.json").read_text())["fields"]
SECTION = SPEC.split("### 4.10 Field types and ranges", 1)[1]


def spec_table() -> dict[tuple[str, str], str]:
    table = {}
    for kind, field, kind_type in re.findall(
        r"^\| `([^`]+)` \| `([^`]+)` \| (.+?) \|$", SECTION, re.MULTILINE
    ):
        table[(kind, field)] = kind_type
    return table


def decoder_fields() -> dict[tuple[str, str], object]:
    """Every (kind, field) the decoders check, with the check, listed from the decoders."""
    from p2p_rommy.config import _CONFIG
    from p2p_rommy.deck import messages as deck_messages
    from p2p_rommy.lobby import messages as lobby_messages
    from p2p_rommy.log import messages as log_messages
    from p2p_rommy.log import move_codec
    from p2p_rommy.net import handshake

    schemas = [_CONFIG, handshake._HELLO, handshake._AUTH]
    schemas += [v for v in vars(lobby_messages).values() if type(v).__name__ == "Schema"]
    schemas += [*log_messages._SCHEMAS.values(), *deck_messages._SCHEMAS.values()]
    found = {(s.kind, f): check for s in schemas for f, check in s.fields.items()}
    for kind, schema in log_messages._BODIES.items():
        found |= {(f"log/step:{kind}", f): check for f, check in schema.fields.items()}
    for kind, checks in move_codec._SCHEMAS.items():
        found |= {(f"move:{kind}", str(i + 1)): check for i, check in enumerate(checks)}
    return found


def test_the_spec_table_the_vectors_and_the_decoders_list_the_same_fields():
    table = spec_table()
    vectors = {(r["kind"], r["field"]): r["type"] for r in ROWS}
    decoders = set(decoder_fields())
    assert decoders - set(vectors) == set(), "a field the decoders check has no vector"
    assert set(vectors) == decoders, "a vector for a field no decoder checks"
    assert table == vectors, "SPEC §4.10 and messages.json disagree"
    kinds = {kind for kind, _ in decoders}
    assert {"hello", "config", "log/step:end", "move:lay", "deck/shuffle"} <= kinds


def _limits(kind_type: str) -> tuple[str, int, int] | None:
    """A simple field's limits from the SPEC's notation: ("int", low, high), ("bin", n, n),
    ("bin", 0, n) or ("str", 0, n); None for a compound type."""
    number = r"(\d+|2\^40)"
    if m := re.fullmatch(rf"int {number}–{number}", kind_type):
        low, high = (2**40 if g == "2^40" else int(g) for g in m.groups())
        return ("int", low, high)
    if m := re.fullmatch(r"bin (\d+)", kind_type):
        return ("bin", int(m[1]), int(m[1]))
    if m := re.fullmatch(r"bin ≤(\d+)", kind_type):
        return ("bin", 0, int(m[1]))
    if m := re.fullmatch(r"str ≤(\d+)", kind_type):
        return ("str", 0, int(m[1]))
    return None


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['kind']}.{r['field']}")
def test_edges_from_the_text_and_through_the_decoders(row):
    """The SPEC's range read from the text decides what the edge values must be; the
    decoder's check of that field accepts the ones at the limits and refuses the rest."""
    from p2p_rommy.wire.codec import SchemaError

    kind_type = spec_table()[(row["kind"], row["field"])]
    accepted = [msgpack.unpackb(bytes.fromhex(v), raw=False) for v in row["accepted"]]
    refused = [msgpack.unpackb(bytes.fromhex(v), raw=False) for v in row["refused"]]
    limits = _limits(kind_type)
    if limits is not None:
        what, low, high = limits
        assert accepted, f"{row['kind']}.{row['field']}: a ranged field without edge values"
        if what == "int":
            assert accepted == [low, high] and refused == [low - 1, high + 1]
        elif what == "str":
            assert [len(v) for v in accepted] == [high] and [len(v) for v in refused] == [high + 1]
        elif low == high:
            assert [len(v) for v in accepted] == [low]
            assert [len(v) for v in refused] == [low - 1, low + 1]
        else:
            assert all(len(v) <= high for v in accepted)
    check = decoder_fields()[(row["kind"], row["field"])]
    for value in accepted:
        check(value, row["field"])
    for value in refused:
        with pytest.raises(SchemaError):
            check(value, row["field"])


def test_n_and_window_reach_2_to_the_40():
    """The issue's example: `n` and `window` go up to 2^40 inclusive, for every kind."""
    table = spec_table()
    for key in [("log/step", "n"), ("log/ack", "n"), ("buy/answer", "window")]:
        assert table[key] == "int 0–2^40"
