"""Deck message codecs round-trip; garbage either parses or raises ProtocolError;
envelopes refuse bad signatures and unseated keys."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_rommy.deck.messages import Commit, SeedReveal, ShareItem, Shares, Shuffle, decode, encode
from p2p_rommy.deck.proofs import DleqProof, ShuffleProof
from p2p_rommy.errors import ProtocolError
from p2p_rommy.wire.codec import MAX_DEPTH, _check_depth_and_types, pack, unpack
from p2p_rommy.wire.identity import Identity, open_envelope, roster_of

b32 = st.binary(min_size=32, max_size=32)
point = st.binary(min_size=32, max_size=32)  # SPEC §3.7: a point is 32 bytes
seat = st.integers(0, 5)
round_no = st.integers(0, 10_000)


@st.composite
def shuffles(draw):
    size = draw(st.integers(1, 20))
    points = st.lists(point, min_size=size, max_size=size).map(tuple)
    scalars = st.lists(b32, min_size=size, max_size=size).map(tuple)
    proof = ShuffleProof(
        draw(points),
        draw(points),
        draw(point),
        draw(point),
        draw(point),
        draw(point),
        draw(point),
        draw(point),
        draw(b32),
        draw(b32),
        draw(b32),
        draw(b32),
        draw(scalars),
        draw(b32),
    )
    return Shuffle(
        draw(b32),
        draw(round_no),
        draw(seat),
        draw(b32),
        draw(st.integers(0, 1000)),
        draw(point),
        tuple(draw(st.lists(point, min_size=size, max_size=size))),
        proof,
    )


items = st.builds(ShareItem, st.integers(0, 65535), st.integers(0, 255), point)
share_proofs = st.lists(st.builds(DleqProof, b32, b32), min_size=1, max_size=3).map(tuple)
messages = st.one_of(
    st.builds(Commit, b32, round_no, seat, b32, point),
    shuffles(),
    st.builds(
        Shares,
        b32,
        round_no,
        seat,
        b32,
        st.lists(items, min_size=1, max_size=10).map(tuple),
        share_proofs,
    ),
    st.builds(SeedReveal, b32, round_no, seat, b32, b32),
)


@settings(max_examples=300, deadline=None)
@given(messages)
def test_every_message_round_trips(message):
    assert decode(encode(message), 3) == message


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=400))
def test_garbage_parses_or_raises_protocol_error(data):
    try:
        decode(data, 1)
    except ProtocolError as error:
        assert error.sender == 1 and error.reason


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=40)
    | st.text(max_size=10)
    | st.floats(allow_nan=False),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(json_like)
def test_valid_msgpack_of_the_wrong_shape_raises_protocol_error(value):
    with pytest.raises(ProtocolError):
        decode(msgpack.packb(value, use_bin_type=True), 2)


def test_limits():
    with pytest.raises(ProtocolError, match="over the"):
        unpack(b"\x00" * (2 << 20), 0)
    deep = pack([[[[[[[[[[1]]]]]]]]]])
    with pytest.raises(ProtocolError, match="nested deeper"):
        unpack(deep, 0)
    with pytest.raises(ProtocolError, match="undecodable"):
        unpack(b"\xc7\x01\x05x", 0)  # an ext type
    with pytest.raises(ProtocolError, match="floats"):
        unpack(pack({"kind": 1.5}), 0)
    with pytest.raises(ProtocolError, match="undecodable"):
        unpack(b"\xdd\xff\xff\xff\xff", 0)  # an array claiming 4 billion items


def test_envelopes():
    alice, bob, eve = (Identity.generate() for _ in range(3))
    roster = roster_of([alice.public_key, bob.public_key])
    sealed = alice.sign(b"hello")
    opened = open_envelope(sealed, roster)
    assert (opened.seat, opened.body) == (0, b"hello")
    with pytest.raises(ProtocolError, match="not seated"):
        open_envelope(eve.sign(b"hello"), roster)
    version, key, body, signature = msgpack.unpackb(sealed)
    forged = msgpack.packb([version, key, b"hellO", signature])
    with pytest.raises(ProtocolError, match="bad signature") as info:
        open_envelope(forged, roster)
    assert info.value.sender is None  # a bad signature blames nobody
    assert "seat 0" in info.value.reason  # but says whose key it claims
    flipped = bytearray(signature)
    flipped[0] ^= 1
    with pytest.raises(ProtocolError, match="bad signature"):
        open_envelope(msgpack.packb([version, key, body, bytes(flipped)]), roster)
    with pytest.raises(ProtocolError, match="malformed envelope"):
        open_envelope(msgpack.packb([version, key, body]), roster)


def _reference_depth_and_types(value, max_depth):
    """The plain walk (every item, leaves included) the fast check must agree with."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return "nested deeper"
        if isinstance(item, float):
            return "floats"
        if isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
    return None


nested = st.recursive(
    st.one_of(st.integers(), st.binary(max_size=4), st.text(max_size=4), st.floats()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=40,
)


@settings(max_examples=500, deadline=None)
@given(nested)
def test_the_fast_depth_and_type_check_agrees_with_the_plain_walk(value):
    """Performance issue: the decoder's walk gathers types in C and skips leaves; it must
    refuse exactly what walking every item refuses (SPEC §3.9: no floats, bounded depth)."""
    if _reference_depth_and_types(value, MAX_DEPTH) is None:
        _check_depth_and_types(value, 0)
    else:  # when both are wrong, either reason may be named first
        with pytest.raises(ProtocolError, match=r"nested deeper|floats"):
            _check_depth_and_types(value, 0)


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_the_depth_limit_is_where_the_plain_walk_puts_it(depth):
    for leaf in ([], [1], {"k": 1}):
        value = leaf
        for _ in range(depth - 1):
            value = [value]
        refused = _reference_depth_and_types(value, MAX_DEPTH) is not None
        try:
            _check_depth_and_types(value, 0)
            assert not refused, (depth, leaf)
        except ProtocolError:
            assert refused, (depth, leaf)
