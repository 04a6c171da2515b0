"""The v2 additions re-derived from protocol/vectors/v2.json with the SPEC's formulas
(short code §4.1, table code §4.2, buy lot §4.7, one encoding §1), and checked against
the code."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from p2p_rommy.config import short_code
from p2p_rommy.errors import ProtocolError
from p2p_rommy.net.lobby import table_code
from p2p_rommy.wire.codec import unpack

V = json.loads((Path(__file__).parent.parent / "protocol" / "vectors" / "v2.json").read_text())
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def spec_code(digest: bytes) -> str:
    """SPEC §4.1: the first 8 bytes big-endian; character i is alphabet[(x >> 5i) & 31]."""
    x = int.from_bytes(digest[:8], "big")
    return "".join(ALPHABET[(x >> (5 * i)) & 31] for i in range(6))


def test_short_code():
    digest = bytes.fromhex(V["short_code"]["digest"])
    assert spec_code(digest) == V["short_code"]["code"] == short_code(digest)


def test_table_code():
    t = V["table_code"]
    lobby, creator = bytes.fromhex(t["lobby"]), bytes.fromhex(t["creator_key"])
    digest = hashlib.sha256(b"p2p-rommy/v1/table-code\x00" + lobby + creator).digest()
    assert spec_code(digest) == t["code"] == table_code(lobby, creator)


def test_buy_lot():
    b = V["buy_lot"]
    game, window = bytes.fromhex(b["game"]), b["window"]
    commitments = b"".join(bytes.fromhex(c) for c in b["commitments"])
    nonces = b"".join(bytes.fromhex(n) for n in b["nonces"])  # v5: the sealed nonces
    lots = [
        hashlib.sha256(
            b"p2p-rommy/v5/buy-lot\x00"
            + game
            + window.to_bytes(8, "big")
            + commitments
            + nonces
            + bytes([s])
        ).hexdigest()
        for s in range(len(b["commitments"]))
    ]
    assert lots == b["lots"]
    assert sorted(range(len(lots)), key=lambda s: lots[s]) == b["order"]


@pytest.mark.parametrize("case", V["encodings"]["refused"], ids=lambda c: c["why"])
def test_refused_encodings(case):
    with pytest.raises(ProtocolError, match="canonical"):
        unpack(bytes.fromhex(case["bytes"]))


@pytest.mark.parametrize("data", V["encodings"]["accepted"])
def test_accepted_encodings(data):
    unpack(bytes.fromhex(data))
