"""The deck's group (SPEC §3.1) against the SPEC's own reading of it: the point check and
Elligator 2 of `tests/spec_deck.py`, in plain integers, agree with libsodium's, and the
edges of scalars and sums raise rather than hand back the identity."""

from __future__ import annotations

import hashlib

import pytest
from nacl import bindings as sodium

from p2p_rommy.deck import group
from tests import spec_deck as spec

ORDER8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def sample(label: str, count: int) -> list[bytes]:
    return [hashlib.sha256(b"%s %d" % (label.encode(), i)).digest() for i in range(count)]


def test_the_point_check_is_the_spec_check():
    # arbitrary bytes (about one in sixteen is a point of the group), hashed points, the
    # same points with torsion added, and every non-canonical encoding
    p = spec.P
    hashed = [group.hash_to_point(data) for data in sample("hashed", 50)]
    tainted = [sodium.crypto_core_ed25519_add(point, ORDER8) for point in hashed]
    non_canonical = [
        ((p + y) | sign << 255).to_bytes(32, "little") for y in range(19) for sign in (0, 1)
    ]
    candidates = sample("bytes", 400) + hashed + tainted + non_canonical
    verdicts = [group.is_point(data) for data in candidates]
    assert verdicts == [spec.valid(data) for data in candidates]
    assert all(verdicts[400:450]) and not any(verdicts[450:])


def test_hash_to_point_is_elligator_as_the_spec_writes_it():
    for data in sample("card", 100):
        uniform = hashlib.sha256(group.POINT_DOMAIN + data).digest()
        assert group.hash_to_point(data) == spec.from_uniform(uniform) == spec.hash_to_point(data)
    assert spec.from_uniform(bytes(32)) == b"\x01" + bytes(31)  # the map's one bad input


def test_base_point():
    assert group.BASE == spec.B and spec.valid(group.BASE)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, False), (1, True), (group.ORDER - 1, True), (group.ORDER, False), (2**256 - 1, False)],
)
def test_canonical_scalars(value, expected):
    assert group.is_scalar(value.to_bytes(32, "little")) is expected


def test_the_identity_is_never_a_result():
    point = group.hash_to_point(b"p")
    with pytest.raises(group.GroupError):
        group.mul_base(group.ORDER.to_bytes(32, "little"))  # libsodium lets l itself through
    with pytest.raises(group.GroupError):
        group.mul(bytes(32), point)
    negated = group.mul(group.scalar_from_int(-1), point)
    with pytest.raises(group.GroupError):
        group.add(point, negated)
    with pytest.raises(group.GroupError):
        group.scalar_invert(bytes(32))


def as_int(scalar: bytes) -> int:
    return int.from_bytes(scalar, "little")


def test_scalar_arithmetic_is_arithmetic_mod_l():
    a, b = (
        int.from_bytes(hashlib.sha512(x).digest(), "little") % group.ORDER for x in (b"a", b"b")
    )
    sa, sb = group.scalar_from_int(a), group.scalar_from_int(b)
    assert as_int(group.scalar_mul(sa, sb)) == a * b % group.ORDER
    assert as_int(group.scalar_add(sa, sb)) == (a + b) % group.ORDER
    assert as_int(group.scalar_sub(sa, sb)) == (a - b) % group.ORDER
    assert as_int(group.scalar_invert(sa)) == pow(a, -1, group.ORDER)
    point = group.hash_to_point(b"q")
    assert group.mul(group.scalar_mul(sa, sb), point) == group.mul(sa, group.mul(sb, point))
    assert group.add(group.mul(sa, point), group.mul(sb, point)) == group.mul(
        group.scalar_add(sa, sb), point
    )
