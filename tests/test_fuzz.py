"""Fuzzing the untrusted edges: the frame reader, the codec, envelopes and every message
decoder, and a live peer's `receive`. Garbage either parses or raises the protocol
error (never anything else), leaves the peer's state alone, and memory stays bounded."""

from __future__ import annotations

import asyncio
import contextlib
import tracemalloc

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_rommy.deck.messages import decode as decode_deck
from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.events import records, sends
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.messages import decode_record
from p2p_rommy.net.framing import read_frame
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.identity import Identity, open_envelope
from tests.peer_table import PeerTable

TABLE = PeerTable("rummy", 3, {"target_score": "15"})
PEER = TABLE.peers[1]
FIRST = sends(TABLE.peers[0].start())  # seat 0's first step and its ACK

msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=64)
    | st.text(max_size=32),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)
kinds = st.sampled_from(
    [
        "log/step",
        "log/ack",
        "log/nack",
        "log/sync",
        "buy/answer",
        "deck/commit",
        "deck/shuffle",
        "deck/shares",
        "deck/seed",
        "hello",
    ]
)


def read(data: bytes) -> bytes:
    async def go() -> bytes:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return await read_frame(reader, cap=4096, timeout=1)

    return asyncio.run(go())


@given(st.binary(max_size=600))
@settings(max_examples=300, deadline=None)
def test_the_frame_reader_returns_a_frame_or_refuses(data):
    try:
        payload = read(data)
    except (ProtocolError, asyncio.IncompleteReadError):
        return
    size = int.from_bytes(data[:4], "big")
    assert payload == data[4 : 4 + size] and size <= 4096


def decoders(data: bytes) -> None:
    for decode in (unpack, decode_log, decode_deck, decode_record):
        with contextlib.suppress(ProtocolError):  # anything else fails the test
            decode(data)
    with contextlib.suppress(ProtocolError):
        open_envelope(data, PEER.replica.roster)


@given(st.binary(max_size=400))
@settings(max_examples=400, deadline=None)
def test_random_bytes_parse_or_raise_the_protocol_error(data):
    decoders(data)


@given(kinds, msgpack_values, msgpack_values)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_valid_msgpack_of_the_wrong_shape_raises_the_protocol_error(kind, body, extra):
    for value in (body, {"kind": kind, "x": body, "n": extra}, [1, b"k" * 16, body, extra]):
        try:
            data = msgpack.packb(value)
        except (OverflowError, ValueError):
            continue
        decoders(data)


@given(st.one_of(st.binary(max_size=300), msgpack_values.map(msgpack.packb)))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_peer_refuses_garbage_without_changing_state(data):
    before = (PEER.replica.n, PEER.replica.state_hash(), PEER.replica.tentative, PEER.frozen)
    out = PEER.receive(data, via=2)
    assert sends(out) == [] and records(out) == []
    assert (PEER.replica.n, PEER.replica.state_hash(), PEER.replica.tentative, PEER.frozen) == (
        before
    )


def test_declared_sizes_do_not_allocate():
    # headers that announce 4 GiB strings, arrays and maps, and a 1 MiB blob of garbage
    lies = [b"\xc6\xff\xff\xff\xff", b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff"]
    tracemalloc.start()
    for data in [*lies, b"\xdc\xff\xff" + b"\xc0" * (1 << 20)]:
        decoders(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 16 << 20  # well under what the announced sizes would take
    assert sends(PEER.receive(FIRST[0]))  # and the honest step still goes through


# --- the lobby: every decoder a joiner or the creator runs, and both state machines ---

LOBBY = bytes(32)
CREATOR = Identity.generate()
MEMBER = Identity.generate()
lobby_kinds = st.sampled_from(
    [
        "lobby/state",
        "lobby/begin",
        "lobby/join",
        "lobby/relay",
        "coin/commit",
        "coin/reveal",
        "config",
    ]
)


def lobby_decoders(value: object) -> None:
    from p2p_rommy.lobby.messages import Member, from_creator, from_member

    packed = msgpack.packb(value) if not isinstance(value, float) else b""
    for decode in (
        lambda v: Member.from_wire(v, LOBBY),
        lambda v: from_creator(CREATOR.public_key, CREATOR.sign(packed), LOBBY),
        lambda v: from_member(MEMBER.public_key, MEMBER.sign(packed), LOBBY, "Bo"),
        lambda v: Member.from_entry(MEMBER.public_key, MEMBER.sign(packed), LOBBY),
    ):
        with contextlib.suppress(ProtocolError):  # anything else fails the test
            decode(value)


@given(lobby_kinds, msgpack_values, msgpack_values)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_lobby_messages_of_any_shape_parse_or_raise_the_protocol_error(kind, body, extra):
    members = [[CREATOR.public_key, body], [extra, body]]
    for value in (
        body,
        {"kind": kind, "lobby": LOBBY, "members": members},
        {"kind": kind, "lobby": LOBBY, "table": body, "variant": extra, "members": body},
        {"kind": kind, "lobby": LOBBY, "stage": body, "items": extra},
        {"kind": kind, "lobby": LOBBY, "digest": body},
        [CREATOR.public_key, body],
        [extra, CREATOR.sign(msgpack.packb(body) if not isinstance(body, float) else b"")],
    ):
        lobby_decoders(value)


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_lobby_entries_of_random_bytes_are_refused(data):
    from p2p_rommy.lobby import Member

    with contextlib.suppress(ProtocolError):
        Member.from_entry(CREATOR.public_key, data, LOBBY)


def lobby_settings():
    from p2p_rommy.lobby import TableSettings
    from p2p_rommy.rules import ruleset

    rules = ruleset("rummy")
    return TableSettings("T", "rummy", rules.house.values, rules.max_players)


@given(st.lists(st.one_of(st.binary(max_size=200), msgpack_values.map(msgpack.packb)), max_size=4))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_relayed_coin_items_parse_or_raise_the_protocol_error(items):
    from p2p_rommy.lobby import Coin, Member, join_entry
    from p2p_rommy.lobby.messages import STAGES

    members = tuple(
        Member.from_entry(i.public_key, join_entry(i, LOBBY, name, []), LOBBY)
        for i, name in ((CREATOR, "Ann"), (MEMBER, "Bo"))
    )
    signed = [MEMBER.sign(item) for item in items]
    for batch in (items, signed):
        coin = Coin(LOBBY, MEMBER, lobby_settings(), members, bytes(32))
        for stage in STAGES:
            with contextlib.suppress(ProtocolError):
                coin.take_relay(stage, tuple(batch))


def signed_lobby_message(identity: Identity, kind: str, body: object, extra: object) -> bytes:
    fields = {"kind": kind, "lobby": LOBBY}
    if isinstance(body, dict):
        fields.update(body)
    else:
        fields["value"] = body
    fields["extra"] = extra
    return identity.sign(msgpack.packb(fields))


@given(st.lists(st.tuples(lobby_kinds, msgpack_values, msgpack_values, st.booleans()), max_size=8))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_lobby_machines_refuse_garbage_without_changing_state(messages):
    """Bounded issue: the `Host` takes any signed garbage from a member as a strike
    (never an exception, never a change of its members or phase), and a `Joiner`
    refuses garbage from the creator with the protocol error, its state unchanged."""
    from p2p_rommy.lobby import Drop, Host, Joiner, join_entry
    from p2p_rommy.lobby.messages import Member

    host = Host(CREATOR, "Ann", lobby_settings(), [], LOBBY, bytes(32))
    host.join(MEMBER.public_key, join_entry(MEMBER, LOBBY, "Bo", []), 0.0)
    joiner = Joiner(MEMBER, "Bo", [], LOBBY, CREATOR.public_key, bytes(32), 0.0)
    joiner.receive(host.state(), 0.0)
    members = list(host.members)
    for i, (kind, body, extra, raw) in enumerate(messages):
        garbage = (
            MEMBER.sign(msgpack.packb(body))
            if raw
            else signed_lobby_message(MEMBER, kind, body, extra)
        )
        effects = host.receive(MEMBER.public_key, garbage, float(i))
        assert all(isinstance(e, Drop) for e in effects)  # strikes, at most a drop
        assert host.members == members and host.phase == "open"
        from_creator = signed_lobby_message(CREATOR, kind, body, extra)
        state = joiner.state
        with contextlib.suppress(ProtocolError):
            joiner.receive(from_creator, float(i))
            raise AssertionError("garbage from the creator was taken")
        assert joiner.state == state and joiner.coin is None
    assert isinstance(members[1], Member)
