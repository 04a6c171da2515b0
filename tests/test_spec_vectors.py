"""Spec issue: no vector the code would refuse, and every vector re-derived from the text.

Each vector of protocol/vectors/messages.json goes two ways: through the production
decoders and validators (`rommy verify` for the transcripts, the replica's rules for the
end step and the buy window, the frame reader, the discovery parser), and through the
SPEC's rules with independent tools (msgpack, `cryptography`, hashlib, zlib). Every
signature in the file is checked against a key the file gives."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).parent.parent
V = json.loads((ROOT / "protocol" / "vectors" / "messages.json").read_text())
ENVELOPE_DOMAIN = b"p2p-rommy/v1/envelope\x00"
KEY_ID_DOMAIN = b"p2p-rommy/v1/key-id\x00"
LOG_STATE_DOMAIN = b"p2p-rommy/v1/log-state\x00"
MAGIC = b"P2P-ROMMY TRANSCRIPT 1\n"
KEY_FIELDS = {"signer_key", "other_key", "creator_key", "public_key", "public"}
KEY_LISTS = {"keys", "members", "seat_keys"}


def h(value: str) -> bytes:
    return bytes.fromhex(value)


def canonical(data: bytes) -> Any:
    value = msgpack.unpackb(data, raw=False, strict_map_key=True)
    assert msgpack.packb(value, use_bin_type=True) == data, "not the canonical encoding"
    return value


def key_id(key: bytes) -> bytes:
    return hashlib.sha256(KEY_ID_DOMAIN + key).digest()[:16]


def open_spec(envelope: bytes, key: bytes) -> Any:
    """§3.9 from the text: the key id is the key's, the signature verifies, the body is
    canonical; returns the decoded body."""
    version, kid, body, signature = canonical(envelope)
    assert version == "env1" and kid == key_id(key)
    Ed25519PublicKey.from_public_bytes(key).verify(signature, ENVELOPE_DOMAIN + body)
    return canonical(body)


def transcript_frames(data: bytes) -> list[bytes]:
    """§4.8: the magic line, then u32 length || payload || u32 CRC-32 (zlib's)."""
    assert data.startswith(MAGIC)
    rest, frames = data[len(MAGIC) :], []
    while rest:
        size = int.from_bytes(rest[:4], "big")
        payload, crc = rest[4 : 4 + size], rest[4 + size : 8 + size]
        assert int.from_bytes(crc, "big") == zlib.crc32(payload)
        frames.append(payload)
        rest = rest[8 + size :]
    return frames


def game_id(config: bytes) -> bytes:
    return hashlib.sha256(b"p2p-rommy/v1/game-id\x00" + config).digest()


# --- every signature has its key in the file -----------------------------------------


def _keys_in(value: Any, name: str = "") -> set[bytes]:
    keys: set[bytes] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            keys |= _keys_in(v, k)
    elif isinstance(value, list):
        for item in value:
            keys |= _keys_in(item, name)
    elif isinstance(value, str) and name in KEY_FIELDS | KEY_LISTS and len(value) == 64:
        keys.add(h(value))
    return keys


def _envelopes_in(data: bytes) -> list[bytes]:
    """Envelopes in `data`: itself, a frame's, a transcript's, and those inside bodies."""
    if data.startswith(MAGIC):
        return [e for frame in transcript_frames(data) for e in _envelopes_in(frame)]
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception:
        if len(data) > 5 and int.from_bytes(data[:4], "big") == len(data) - 4:
            return _envelopes_in(data[5:])  # a frame: u32 length, a type byte, an envelope
        return []
    found = []
    if isinstance(value, list) and len(value) == 4 and value[0] == "env1":
        found.append(data)
        value = value[2]
        try:
            value = msgpack.unpackb(value, raw=False, strict_map_key=False)
        except Exception:
            return found
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bytes):
            found += _envelopes_in(item)
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, dict):
            stack += item.values()
    return found


def _hex_strings(value: Any) -> list[bytes]:
    if isinstance(value, dict):
        return [b for v in value.values() for b in _hex_strings(v)]
    if isinstance(value, list):
        return [b for v in value for b in _hex_strings(v)]
    if isinstance(value, str) and len(value) > 64 and len(value) % 2 == 0:
        try:
            return [h(value)]
        except ValueError:
            return []
    return []


def test_every_signature_in_the_file_has_its_key_in_the_file():
    """§3.9: every envelope anywhere in the vector files (alone, in a frame, a transcript,
    a step, a buy step's answers, a lobby entry or relay) is signed by a key the same
    file gives as a key, and its signature verifies under it."""
    files = [V] + [
        json.loads((ROOT / "protocol" / "vectors" / name).read_text())
        for name in ("deck.json", "v2.json", "state-hash.json")
    ]
    checked = set()
    for data, keys in (
        (data, {key_id(key): key for key in _keys_in(file)})
        for file in files
        for data in _hex_strings(file)
    ):
        for envelope in _envelopes_in(data):
            if envelope in checked:
                continue
            kid = canonical(envelope)[1]
            assert kid in keys, f"an envelope signed by a key the file does not give: {kid.hex()}"
            open_spec(envelope, keys[kid])
            checked.add(envelope)
    assert len(checked) > 1000


# --- the transcripts pass `rommy verify` ----------------------------------------------


@pytest.mark.parametrize("name", ["round", "buy_window", "ended"])
def test_the_transcripts_start_with_the_genesis_and_pass_rommy_verify(name):
    """§4.8: the genesis (§4.1: the config and every seat's envelope over its bytes) is
    the first frame; then one `[step, [ACK by seat]]` per committed step. `rommy verify`
    (production) finds each fair: the ended game FAIR with seat 2 forfeiting, the others
    fair as far as they go."""
    from p2p_rommy.verify import verify_transcript

    vector = V[name]
    data, config = h(vector["transcript"]), h(vector["config"])
    first, *records = transcript_frames(data)
    config_bytes, signatures = canonical(first)
    assert config_bytes == config
    keys = [h(k) for k in vector["keys"]]
    assert [s[1] for s in canonical(config)["seats"]] == keys
    assert len(signatures) == len(keys)
    for seat, envelope in enumerate(signatures):
        assert open_spec(envelope, keys[seat]) == canonical(config)
    for n, record in enumerate(records, start=1):
        step, acks = canonical(record)
        assert open_spec(step, keys[_seat(step, keys)])["n"] == n
        assert len(acks) == len(keys)
    report = verify_transcript(data)
    assert report.fair and report.damage is None and report.culprit is None, report.text()
    assert report.steps == len(records)
    if name == "ended":
        assert report.status == "fair" and report.exit_code == 0
        assert report.absent == tuple(vector["absent"]) == report.forfeited
    else:
        assert report.status == "incomplete" and report.exit_code == 4


def _seat(envelope: bytes, keys: list[bytes]) -> int:
    kid = canonical(envelope)[1]
    return next(s for s, k in enumerate(keys) if key_id(k) == kid)


def _observer_before(vector: dict, n: int):
    """A production observer replica that has committed the transcript's records before
    step `n`."""
    from p2p_rommy.config import decode_config
    from p2p_rommy.log.messages import decode, step_digest
    from p2p_rommy.log.replica import Observer
    from p2p_rommy.log.transcript import parse
    from p2p_rommy.wire.identity import open_envelope

    parsed = parse(h(vector["transcript"]))
    observer = Observer(decode_config(h(vector["config"])))
    for record in parsed.records[: n - 1]:
        opened = open_envelope(record.step, observer.roster)
        observer.check_certificate(
            decode(opened.body, opened.seat), record.acks, step_digest(record.step)
        )
        observer.commit()
    return observer


def _step(observer, envelope: bytes):
    from p2p_rommy.log.messages import decode
    from p2p_rommy.wire.identity import open_envelope

    opened = open_envelope(envelope, observer.roster)
    return decode(opened.body, opened.seat)


# --- ending without a seat ------------------------------------------------------------


def test_the_end_step_from_the_text():
    """§4.4 "Ending without a seat": `absent` a sorted, non-empty list of seats (v6);
    proposed by the lowest seat not in it, at step n+1 on the committed state; every
    other seat ACKs the log-state hash `... || engine state hash || "ended" || u8 of
    each absent seat`; the record holds an empty byte string in each absent seat's place."""
    e = V["ended"]
    keys = [h(k) for k in e["keys"]]
    game = game_id(h(e["config"]))
    absent = e["absent"]
    assert isinstance(absent, list) and absent == sorted(set(absent)) and absent
    step = open_spec(h(e["step"]), keys[_seat(h(e["step"]), keys)])
    assert step["body"] == {"kind": "end", "absent": absent, "reason": step["body"]["reason"]}
    assert step["seat"] == min(s for s in range(len(keys)) if s not in absent)
    n = e["committed"] + 1
    assert step["n"] == n and step["game"] == game
    expected = hashlib.sha256(
        LOG_STATE_DOMAIN
        + game
        + n.to_bytes(8, "big")
        + h(e["committed_engine_hash"])
        + b"ended"
        + bytes(absent)
    ).digest()
    assert expected.hex() == e["state_hash"]
    for seat, ack in enumerate(e["acks"]):
        if seat in absent:
            assert ack == ""
            continue
        value = open_spec(h(ack), keys[seat])
        assert (value["kind"], value["n"], value["seat"], value["state"]) == (
            "log/ack",
            n,
            seat,
            expected,
        )
    # the transcript's last record is this step with these ACKs
    last = canonical(transcript_frames(h(e["transcript"]))[-1])
    assert last == [h(e["step"]), [h(a) for a in e["acks"]]]


def test_the_end_step_passes_the_replicas_end_rule_and_the_wrong_proposer_does_not():
    from p2p_rommy.errors import ProtocolError

    e = V["ended"]
    observer = _observer_before(e, e["committed"] + 1)
    assert observer.n == e["committed"]
    tentative = observer.validate(_step(observer, h(e["step"])))
    assert tentative.hash.hex() == e["state_hash"] and tentative.kind == "end"
    (refused,) = e["refused"]
    observer = _observer_before(e, e["committed"] + 1)
    with pytest.raises(ProtocolError, match="proposes ending"):
        observer.validate(_step(observer, h(refused["envelope"])))


# --- a buy window with a claim ----------------------------------------------------------


def test_the_buy_window_from_the_text():
    """§4.7: under `buy_priority = first` (the default) every seat's answer, signed by
    its key, with its observation; the resolution carries them all; each answer votes
    for the first claimant its `seen` lists, most votes win (ties to the seat nearest
    after the discarder, §2 field 19's order), and the winner takes the card and a
    penalty card from the stock."""
    b = V["buy_window"]
    keys = [h(k) for k in b["keys"]]
    game = game_id(h(b["config"]))
    config = canonical(h(b["config"]))
    assert dict(config["house"])["buy_priority"] == "first"
    before, after = canonical(h(b["state_before"])), canonical(h(b["state_after"]))
    assert before[7] == "buy"
    eligible = before[19]
    answers = {}
    for seat, envelope in b["answers"]:
        answer = open_spec(h(envelope), keys[seat])
        assert (answer["kind"], answer["game"], answer["window"], answer["seat"]) == (
            "buy/answer",
            game,
            b["window"],
            seat,
        )
        assert len(set(answer["seen"])) == len(answer["seen"]) <= 6
        if answer["claim"]:
            assert seat in eligible and seat in answer["seen"], "a call lists itself"
        answers[seat] = answer
    claims = [seat for seat, _ in b["answers"] if answers[seat]["claim"]]
    assert claims == b["claims"] and claims, "a window with a claim"
    assert sorted(answers) == list(range(before[3])), "every seat answers under first"
    votes = dict.fromkeys(claims, 0)
    for answer in answers.values():
        first = next((s for s in answer["seen"] if s in claims), None)
        if first is not None:
            votes[first] += 1
    assert {str(s): n for s, n in votes.items()} == b["votes"]
    step = open_spec(h(b["step"]), keys[_seat(h(b["step"]), keys)])
    assert step["body"]["kind"] == "buy" and step["body"]["window"] == b["window"]
    assert sorted(step["body"]["answers"]) == sorted(h(e) for _, e in b["answers"])
    assert step["seat"] == before[8], "the seat in turn sequences the window"
    winner = min(claims, key=lambda seat: (-votes[seat], eligible.index(seat)))
    assert winner == b["winner"]
    card, penalty = before[11][-1], before[10][0]
    assert after[12][winner] == before[12][winner] + [card, penalty]
    assert after[16][winner] == before[16][winner] + 1
    assert (after[7], after[17], after[18], after[19]) == ("play", None, None, [])


def test_the_buy_window_passes_the_replica():
    b = V["buy_window"]
    step_n = len(transcript_frames(h(b["transcript"]))) - 1
    observer = _observer_before(b, step_n)
    tentative = observer.validate(_step(observer, h(b["step"])))
    assert tentative.claims[0] == b["winner"]


# --- the whole round through the production replica -------------------------------------


def _round_records() -> list[tuple[bytes, list[bytes]]]:
    play = V["round"]
    keys = [h(k) for k in play["keys"]]
    steps: dict[int, bytes] = {}
    acks: dict[int, dict[int, bytes]] = {}
    for sender, envelope in play["envelopes"]:
        value = open_spec(h(envelope), keys[sender])
        if value["kind"] == "log/step":
            steps.setdefault(value["n"], h(envelope))
        elif value["kind"] == "log/ack":
            acks.setdefault(value["n"], {})[sender] = h(envelope)
    return [(steps[n], [acks[n][s] for s in range(len(keys))]) for n in sorted(steps)]


@pytest.fixture(scope="module")
def round_replayed():
    """The round's envelopes as committed records, replayed by a production observer."""
    from p2p_rommy.config import decode_config
    from p2p_rommy.engine import encode_state, state_hash
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.log.messages import step_digest
    from p2p_rommy.log.replica import Observer

    play = V["round"]
    observer = Observer(decode_config(h(play["config"])))
    hashes, before_refused = [], None
    refused_n = play["refused"][0]["n"]
    for step_envelope, acks in _round_records():
        if observer.n + 1 == refused_n:  # on a copy: a refused step freezes a table
            before_refused = copy.deepcopy(observer)
            with pytest.raises(ProtocolError, match="the positions the game assigned"):
                before_refused.validate(_step(observer, h(play["refused"][0]["envelope"])))
        tentative = observer.check_certificate(
            _step(observer, step_envelope), acks, step_digest(step_envelope)
        )
        hashes.append(state_hash(tentative.state).hex())
        observer.commit()
    return observer, hashes, encode_state(observer.state), before_refused


def test_the_round_passes_the_production_replica(round_replayed):
    """Every step and every ACK of the whole-round vector is accepted by the replica
    `rommy verify` runs, with the engine hashes the file gives; the reordered reveal
    (`round.refused`) is refused at its step."""
    observer, hashes, final, before_refused = round_replayed
    play = V["round"]
    assert hashes == play["engine_hashes"]
    assert final.hex() == play["final_state"]
    assert observer.state_hash().hex() == play["state_hash"]
    assert before_refused is not None


def test_reveal_items_are_in_the_moves_order():
    """§3.3 "the order of a move's reveal items": the mover's shares list the cards the
    move shows in the move's order (recipient 255), not ascending; the vector has a
    meld that shows them out of slot order."""
    play = V["round"]
    keys = [h(k) for k in play["keys"]]
    out_of_order = 0
    for step_envelope, _ in _round_records():
        step = open_spec(step_envelope, keys[_seat(step_envelope, keys)])
        body = step["body"]
        if body["kind"] != "move" or body["reveal"] is None:
            continue
        move = body["move"]
        if move[0] == "lay":
            shown = [card[0] for meld in move[2] for card in meld[1]]
        elif move[0] in ("layoff", "swap"):
            shown = [move[-1][0]]
        elif move[0] == "discard":
            shown = [move[2]]
        else:
            assert move[0] == "reveal"
            shown = [pair[0] for pair in move[2]]
        items = open_spec(body["reveal"], keys[step["seat"]])["items"]
        positions = [item[0] for item in items]
        assert all(item[1] == 255 for item in items)
        assert positions == [slot for slot in shown if slot in positions], move
        out_of_order += positions != sorted(positions)
    assert out_of_order, "no vector shows the move's order against the ascending one"
    refused = play["refused"][0]
    assert refused["move_order"] != sorted(refused["move_order"])


def test_field_8_stays_the_closers_through_the_reveal_phase():
    """§2 "field 8": at match_over it is the closer's seat (field 26), while the reveal
    steps after the closer went out were proposed by the other seats, lowest first."""
    play = V["round"]
    keys = [h(k) for k in play["keys"]]
    final = canonical(h(play["final_state"]))
    assert final[7] == "match_over" and final[25] == "went_out" and final[8] == final[26]
    revealers = []
    for step_envelope, _ in _round_records():
        step = open_spec(step_envelope, keys[_seat(step_envelope, keys)])
        if step["body"]["kind"] == "move" and step["body"]["move"][0] == "reveal":
            revealers.append(step["seat"])
    assert revealers and final[26] not in revealers and revealers == sorted(revealers)


# --- frames, fingerprints, adverts ------------------------------------------------------


def frame_types_the_code_knows() -> set[str]:
    from p2p_rommy.net import lobby, mesh

    assert (mesh.PING, mesh.MESSAGE, lobby.MESSAGE) == (b"\x00", b"\x01", b"\x01")
    return {"hello", "ping", "envelope", "lobby envelope"}


def test_every_frame_type_has_a_vector():
    assert {f["what"] for f in V["frames"]} >= frame_types_the_code_knows()


@pytest.mark.parametrize("vector", V["frames"], ids=lambda v: v["what"])
def test_frames_from_the_text_and_through_the_frame_reader(vector):
    """§4.3 "framing, exactly": u32 length || payload; hello bare; a ping is 0x00; an
    envelope is 0x01 || envelope, on game and lobby connections alike."""
    from p2p_rommy.net.framing import read_frame

    data = h(vector["frame"])
    size = int.from_bytes(data[:4], "big")
    payload = data[4:]
    assert size == len(payload)
    if vector["what"] == "hello":
        value = canonical(payload)
        assert list(value) == ["kind", "table", "nonce", "key", "version"]
    elif vector["what"] == "ping":
        assert payload == b"\x00"
    else:
        assert payload[0] == 1
        open_spec(payload[1:], h(vector["signer_key"]))

    async def read() -> bytes:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return await read_frame(reader)

    assert asyncio.run(read()) == payload


def test_the_fingerprint():
    """§3.9: the first 16 hex digits of the key id, lowercase, four groups joined by -."""
    from p2p_rommy.wire.identity import fingerprint

    f = V["fingerprint"]
    key = h(f["public_key"])
    digits = key_id(key).hex()[:16]
    assert key_id(key).hex() == f["key_id"]
    spec = "-".join(digits[i : i + 4] for i in range(0, 16, 4))
    assert spec == f["fingerprint"] == fingerprint(key) and len(spec) == 19


def test_the_advert_from_the_text_and_through_the_browser():
    """§4.6: the TXT strings `key=value` in order (v, table, variant, seats, state,
    creator, lobby), each a length byte and UTF-8; the instance name; and discovery's
    parser reads the same table from the record."""
    from zeroconf.asyncio import AsyncServiceInfo

    from p2p_rommy.net.discovery import _parse

    a = V["advert"]
    txt = dict(a["txt"])
    order = ["v", "table", "variant", "seats", "state", "creator", "lobby"]
    assert [k for k, _ in a["txt"]] == order
    rdata = b"".join(
        len(s).to_bytes(1, "big") + s for s in (f"{k}={v}".encode() for k, v in a["txt"])
    )
    assert rdata.hex() == a["txt_rdata"]
    digits = key_id(h(a["creator_key"])).hex()[:16]
    assert txt["creator"] == "-".join(digits[i : i + 4] for i in range(0, 16, 4))
    assert txt["v"] == str(V["protocol_version"]) and len(h(txt["lobby"])) == 32
    assert txt["lobby"] == txt["lobby"].lower()
    safe = "".join(ch for ch in txt["table"] if ch.isprintable() and ch != ".")[:40]
    assert a["instance"] == f"{safe or 'table'} {txt['creator']}.{a['service']}"
    info = AsyncServiceInfo(a["service"], a["instance"], port=1, properties=h(a["txt_rdata"]))
    ad = _parse(info)
    assert ad is not None
    assert (ad.table, ad.variant, f"{ad.taken}/{ad.seats}", ad.creator, ad.lobby.hex()) == (
        txt["table"],
        txt["variant"],
        txt["seats"],
        txt["creator"],
        txt["lobby"],
    )
    assert ad.open == (txt["state"] == "open") and ad.version == int(txt["v"])


# --- every named vector through the production decoders ---------------------------------


def test_every_named_vector_through_the_production_decoders():
    """The handshake's schemas, the lobby's, the config's and the log's decoders accept
    every vector of its kind (the deck's messages: `round_replayed`)."""
    from p2p_rommy.config import decode_config
    from p2p_rommy.lobby import messages as lobby_messages
    from p2p_rommy.log.messages import decode
    from p2p_rommy.net.handshake import _AUTH, _HELLO
    from p2p_rommy.wire.codec import unpack
    from p2p_rommy.wire.identity import open_envelope, roster_of

    hello, auth = V["handshake"]
    _HELLO.check(unpack(h(hello["body"])))
    _AUTH.check(unpack(h(auth["body"])))
    lobby_schemas = {
        v.kind: v for v in vars(lobby_messages).values() if type(v).__name__ == "Schema"
    }
    for vector in V["lobby"] + V["log"]:
        key = h(vector["signer_key"])
        opened = open_envelope(h(vector["envelope"]), roster_of([key]))
        kind = vector["kind"].split(":")[0]
        if kind == "config":
            decode_config(opened.body)
        elif kind in lobby_schemas:
            lobby_schemas[kind].check(unpack(opened.body))
        else:
            decode(opened.body)  # a one-key roster: the seat is the body's own
    decode_config(h(V["coin"]["config"]))


def test_depth_is_counted_as_the_text_says():
    """§3.9 "nesting depth": the outermost value at level 1, at most level 8."""
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.wire.codec import unpack

    def deepest(value: Any, level: int = 1) -> int:
        if isinstance(value, list) and value:
            return max(deepest(item, level + 1) for item in value)
        return level

    depth = json.loads((ROOT / "protocol" / "vectors" / "v2.json").read_text())["depth"]
    for data in depth["accepted"]:
        assert deepest(canonical(h(data))) <= 8
        unpack(h(data))
    for data in depth["refused"]:
        assert deepest(canonical(h(data))) > 8
        with pytest.raises(ProtocolError, match="nested"):
            unpack(h(data))
    assert "9191919191919191" + "01" in depth["refused"]  # [[[[[[[[1]]]]]]]]


def test_the_lobby_state_lists_what_the_creator_chose_and_the_config_every_rule():
    """§4.2: `lobby/state.house` holds the creator's choices (here one rule); the config
    built from it (§4.1) lists every rule of the variant in spec order, defaults filled in."""
    from tests.test_spec_state import spec_house

    state = next(v for v in V["lobby"] if v["kind"] == "lobby/state")
    body = open_spec(h(state["envelope"]), h(state["signer_key"]))
    config = canonical(h(V["coin"]["config"]))
    assert body["variant"] == config["variant"] and "lam" not in body and "lambda" not in config
    assert body["house"] == [["target_score", 1]]
    assert config["house"] == spec_house(config["variant"], dict(body["house"]))
