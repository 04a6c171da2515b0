"""The group: secp256k1, through libsecp256k1 (coincurve).

secp256k1 has prime order ``n``: no cofactor, no small subgroup, so a point that
decodes is a point of the group, and the identity has no encoding at all. A
multiplication here costs a third of libsodium's checked edwards25519 one
(protocol/SPEC.md §3.1; measured and decided in docs/decisions.md).

Points are 33-byte SEC1 compressed encodings. Every point that came from a peer is
decoded (`decode`, `is_point`, or inside `mul`) before use; decoding is the whole
check. Scalars are 32-byte big-endian integers in ``[1, n)``; scalar arithmetic is
plain integer arithmetic mod ``n``.

The hot paths (a shuffle, its proof and its verification) decode a deck once and
multiply the decoded points (`mul_each`): decoding is an eighth of a multiplication's
cost.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from coincurve import PublicKey

from p2p_rommy.errors import ProtocolError

POINT_BYTES = 33
SCALAR_BYTES = 32
ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""n, the order of secp256k1."""

POINT_DOMAIN = b"p2p-rommy/v1/point\x00"

Decoded = PublicKey
"""A point decoded once, to be multiplied many times."""


class GroupError(ValueError):
    """An operation on an invalid point or scalar, or one whose result is the identity."""


def _scalar_bytes(value: int) -> bytes:
    return value.to_bytes(SCALAR_BYTES, "big")


BASE = PublicKey.from_secret(_scalar_bytes(1)).format()


def decode(data: bytes) -> Decoded:
    """The point `data` encodes; `GroupError` unless it is 33 bytes, compressed (0x02
    or 0x03 then ``x < p``) and on the curve."""
    if len(data) != POINT_BYTES or data[0] not in (2, 3):
        raise GroupError("not a compressed point")
    try:
        return PublicKey(data)
    except ValueError:
        raise GroupError("not a point of the curve") from None


def decode_all(points: Iterable[bytes]) -> list[Decoded]:
    return [decode(point) for point in points]


def is_point(data: object) -> bool:
    """A compressed encoding of a point of the group (never the identity)."""
    if not isinstance(data, bytes):
        return False
    try:
        decode(data)
    except GroupError:
        return False
    return True


def check_point(data: bytes, sender: int | str | None, what: str) -> bytes:
    if not is_point(data):
        raise ProtocolError(sender, f"{what} is not a valid group point")
    return data


def is_scalar(data: object) -> bool:
    """A canonical non-zero scalar (big-endian, < n)."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        return False
    return 0 < int.from_bytes(data, "big") < ORDER


def hash_to_point(data: bytes) -> bytes:
    """A point nobody knows a logarithm of (try-and-increment over public input): the
    first ``c = 0, 1, ...`` for which ``0x02 || SHA-256(domain || data || u8 c)`` is a
    point. Half of all x-coordinates are, so two tries on average."""
    for counter in range(256):
        candidate = b"\x02" + hashlib.sha256(POINT_DOMAIN + data + bytes([counter])).digest()
        if is_point(candidate):
            return candidate
    raise GroupError("no point in 256 tries")  # probability 2^-256


def mul_decoded(scalar: bytes, point: Decoded) -> bytes:
    """scalar * point for a point already decoded."""
    try:
        return point.multiply(scalar).format()
    except ValueError:
        raise GroupError("scalar multiplication by an invalid scalar") from None


def mul(scalar: bytes, point: bytes) -> bytes:
    """scalar * point; raises `GroupError` for an invalid point or scalar."""
    return mul_decoded(scalar, decode(point))


def mul_each(scalar: bytes, points: Sequence[Decoded]) -> list[bytes]:
    """``[scalar * p for p in points]``."""
    return [mul_decoded(scalar, point) for point in points]


def mul_sum(scalars: Sequence[bytes], points: Sequence[Decoded]) -> bytes:
    """``sum scalars[i] * points[i]`` (a shuffle argument's equations); `GroupError` for
    an invalid scalar or an identity sum. Generic: as many multiplications as terms,
    but no point is encoded or decoded between them."""
    try:
        terms = [point.multiply(scalar) for scalar, point in zip(scalars, points, strict=True)]
        return PublicKey.combine_keys(terms).format()
    except ValueError:
        raise GroupError("an invalid scalar, or the sum is the identity") from None


def sum_all(points: Sequence[Decoded]) -> bytes:
    """``points[0] + points[1] + ...``; `GroupError` for an identity sum."""
    try:
        return PublicKey.combine_keys(list(points)).format()
    except ValueError:
        raise GroupError("the sum is the identity") from None


def mul_base(scalar: bytes) -> bytes:
    try:
        return PublicKey.from_secret(scalar).format()
    except ValueError:
        raise GroupError("scalar multiplication by an invalid scalar") from None


def add(p: bytes, q: bytes) -> bytes:
    """p + q; raises `GroupError` for an invalid point or an identity result."""
    points = [decode(p), decode(q)]
    try:
        return PublicKey.combine_keys(points).format()
    except ValueError:
        raise GroupError("the sum is the identity") from None


def _int(scalar: bytes) -> int:
    return int.from_bytes(scalar, "big")


def scalar_reduce(wide: bytes) -> bytes:
    """Any number of bytes (64 in practice), big-endian, reduced mod n."""
    return _scalar_bytes(_int(wide) % ORDER)


def scalar_invert(scalar: bytes) -> bytes:
    return _scalar_bytes(pow(_int(scalar), -1, ORDER))


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _scalar_bytes(_int(a) * _int(b) % ORDER)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return _scalar_bytes((_int(a) - _int(b)) % ORDER)


def hash_to_scalar(*parts: bytes) -> bytes:
    """SHA-512 over the parts, reduced mod n (may be zero only with negligible probability)."""
    digest = hashlib.sha512()
    for part in parts:
        digest.update(part)
    return scalar_reduce(digest.digest())


def scalar_from_int(value: int) -> bytes:
    return _scalar_bytes(value % ORDER)
