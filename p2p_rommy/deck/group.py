"""The group: the prime-order subgroup of edwards25519, through libsodium (PyNaCl).

Why this group (protocol v4; docs/decisions.md has the measurements): PyNaCl ships
abi3 wheels for every OS and every current CPython (it is already here for the
Ed25519 identities), and libsodium multiplies secret scalars in constant time (a
fixed window whose table entries are picked by constant-time selects), for a
variable base (``crypto_scalarmult_ed25519_noclamp``) and for ``B``
(``crypto_scalarmult_ed25519_base_noclamp``). Scalar arithmetic on secrets (reduce,
multiply, subtract, invert) is libsodium's constant-time ``scalar_*`` too.

Points are 32-byte canonical encodings of points of the subgroup of prime order
``l``, never the identity or another small-order point (protocol/SPEC.md §3.1).
libsodium checks all of that (canonical, on the curve, of order ``l``) inside
every variable-base multiplication, so `mul` on raw bytes costs what `mul_decoded`
costs, and no unchecked multiplication exists to be misused. `Decoded` is the
bytes of a point that passed the check (`decode`) or that this module computed:
only those may be added (libsodium's ``add`` checks the curve equation only).

Scalars are 32-byte little-endian integers mod ``l``, as libsodium reads them.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from typing import NewType

from nacl import bindings as sodium
from nacl.exceptions import CryptoError

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_

POINT_BYTES = 32
SCALAR_BYTES = 32
ORDER = 2**252 + 27742317777372353535851937790883648493
"""l, the order of edwards25519's prime-order subgroup."""

POINT_DOMAIN = b"p2p-rommy/v1/point\x00"

Decoded = NewType("Decoded", bytes)
"""A point's bytes that are known to be valid: checked once, or computed here."""

_IDENTITY = b"\x01" + bytes(31)
_ZERO = bytes(SCALAR_BYTES)


class GroupError(ValueError):
    """An operation on an invalid point or scalar, or one whose result is the identity."""


def decode(data: bytes) -> Decoded:
    """`data` as a checked point; `GroupError` unless it is the canonical 32-byte encoding
    of a point of order ``l`` (libsodium's ``crypto_core_ed25519_is_valid_point``: also
    refuses small-order points, the identity among them)."""
    if not is_point(data):
        raise GroupError(N_("not a point of the prime-order group"))
    return Decoded(data)


def decode_all(points: Iterable[bytes]) -> list[Decoded]:
    return [decode(point) for point in points]


def is_point(data: object) -> bool:
    """A canonical encoding of a point of the prime-order subgroup (never the identity)."""
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and sodium.crypto_core_ed25519_is_valid_point(data)
    )


def check_point(data: bytes, sender: int | str | None, what: str) -> bytes:
    if not is_point(data):
        raise ProtocolError(sender, N_("{what} is not a valid group point").format(what=what))
    return data


def is_scalar(data: object) -> bool:
    """A canonical non-zero scalar (little-endian, < l), tested in constant time: it is
    also asked of secrets (a fresh nonce, a round key)."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        return False
    reduced = sodium.crypto_core_ed25519_scalar_reduce(data + _ZERO)
    return hmac.compare_digest(reduced, data) and not hmac.compare_digest(data, _ZERO)


def hash_to_point(data: bytes) -> Decoded:
    """A point nobody knows a logarithm of, from public input:
    ``from_uniform(SHA-256(domain || data))`` (libsodium's Elligator 2 map with the
    cofactor cleared, SPEC §3.1)."""
    digest = hashlib.sha256(POINT_DOMAIN + data).digest()
    point = sodium.crypto_core_ed25519_from_uniform(digest)
    if point == _IDENTITY:  # only for an input of negligible probability
        raise GroupError(N_("the hash maps to the identity"))
    return Decoded(point)


def mul(scalar: bytes, point: bytes) -> Decoded:
    """scalar * point in constant time in the scalar; `GroupError` for an invalid point
    (libsodium checks it), a zero scalar or an identity result."""
    try:
        return Decoded(sodium.crypto_scalarmult_ed25519_noclamp(scalar, point))
    except CryptoError:
        raise GroupError(N_("scalar multiplication of an invalid point or by zero")) from None


def mul_decoded(scalar: bytes, point: Decoded) -> Decoded:
    """scalar * point for a checked point (libsodium checks it again: it has no
    multiplication that does not)."""
    return mul(scalar, point)


def mul_each(scalar: bytes, points: Sequence[bytes]) -> list[Decoded]:
    """``[scalar * p for p in points]``; `GroupError` if any point is invalid (libsodium
    checks each one it multiplies)."""
    multiply = sodium.crypto_scalarmult_ed25519_noclamp
    try:
        return [Decoded(multiply(scalar, point)) for point in points]
    except CryptoError:
        raise GroupError(N_("scalar multiplication of an invalid point or by zero")) from None


def mul_base(scalar: bytes) -> Decoded:
    """scalar * B in constant time; `GroupError` for a scalar that is zero mod l."""
    try:
        point = sodium.crypto_scalarmult_ed25519_base_noclamp(scalar)
    except CryptoError:
        raise GroupError(N_("scalar multiplication by an invalid scalar")) from None
    if point == _IDENTITY:  # libsodium refuses only the zero bytes, not l itself
        raise GroupError(N_("scalar multiplication by a multiple of the order"))
    return Decoded(point)


BASE = mul_base((1).to_bytes(SCALAR_BYTES, "little"))


def add(p: Decoded, q: Decoded) -> Decoded:
    """p + q of checked points; `GroupError` for an identity result."""
    try:
        point = sodium.crypto_core_ed25519_add(p, q)
    except CryptoError:
        raise GroupError(N_("addition of an invalid point")) from None
    if point == _IDENTITY:
        raise GroupError(N_("the sum is the identity"))
    return Decoded(point)


def sum_all(points: Sequence[Decoded]) -> Decoded:
    """``points[0] + points[1] + ...`` of checked points (a shuffle argument's
    equations); `GroupError` for no points or an identity sum. Intermediate sums may be
    the identity (libsodium adds it like any point); only the result is refused."""
    if not points:
        raise GroupError(N_("an empty sum"))
    total: bytes = points[0]
    add_points = sodium.crypto_core_ed25519_add
    try:
        for point in points[1:]:
            total = add_points(total, point)
    except CryptoError:
        raise GroupError(N_("addition of an invalid point")) from None
    if total == _IDENTITY:
        raise GroupError(N_("the sum is the identity"))
    return Decoded(total)


def mul_sum(scalars: Sequence[bytes], points: Sequence[Decoded]) -> Decoded:
    """``sum scalars[i] * points[i]``; `GroupError` for an invalid scalar or point, or an
    identity sum. As many multiplications as terms: libsodium has no multi-scalar one."""
    if len(scalars) != len(points):
        raise GroupError(N_("as many scalars as points"))
    multiply = sodium.crypto_scalarmult_ed25519_noclamp
    try:
        terms = [
            Decoded(multiply(scalar, point)) for scalar, point in zip(scalars, points, strict=True)
        ]
    except CryptoError:
        raise GroupError(N_("scalar multiplication of an invalid point or by zero")) from None
    return sum_all(terms)


def _scalar_op(operation: Callable[..., bytes], *arguments: bytes) -> bytes:
    try:
        return operation(*arguments)
    except CryptoError:
        raise GroupError(N_("scalar arithmetic on an invalid scalar")) from None


def scalar_reduce(wide: bytes) -> bytes:
    """64 bytes, little-endian, reduced mod l (constant time)."""
    return _scalar_op(sodium.crypto_core_ed25519_scalar_reduce, wide)


def scalar_invert(scalar: bytes) -> bytes:
    """1/scalar mod l (constant time); `GroupError` for zero."""
    return _scalar_op(sodium.crypto_core_ed25519_scalar_invert, scalar)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _scalar_op(sodium.crypto_core_ed25519_scalar_mul, a, b)


def scalar_add(a: bytes, b: bytes) -> bytes:
    return _scalar_op(sodium.crypto_core_ed25519_scalar_add, a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return _scalar_op(sodium.crypto_core_ed25519_scalar_sub, a, b)


def hash_to_scalar(*parts: bytes) -> bytes:
    """SHA-512 over the parts, read little-endian and reduced mod l (zero only with
    negligible probability)."""
    digest = hashlib.sha512()
    for part in parts:
        digest.update(part)
    return scalar_reduce(digest.digest())


def scalar_from_int(value: int) -> bytes:
    """A public integer as a scalar (never for secrets: Python's integers are not
    constant-time)."""
    return (value % ORDER).to_bytes(SCALAR_BYTES, "little")
