"""The group: the prime-order subgroup of edwards25519, through libsodium (PyNaCl).

Thin primitives named as in libsodium, on 32-byte encodings. Every point that
came from a peer is checked with `check_point` before use; `mul` also refuses an
invalid point (libsodium checks canonical encoding, curve, main subgroup and
small order in ``crypto_scalarmult_ed25519_noclamp``), but `add`/`sub` check
nothing, so never feed them an unchecked point. PyNaCl >= 1.6.2 is required:
earlier releases let a tagged point through the subgroup check (CVE-2025-69277).
"""

from __future__ import annotations

import hashlib

from nacl import bindings as sodium

from p2p_rommy.errors import ProtocolError

POINT_BYTES = 32
SCALAR_BYTES = 32
ORDER = 2**252 + 27742317777372353535851937790883648493
"""l, the order of the prime-order subgroup."""

BASE = sodium.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


class GroupError(ValueError):
    """An operation on an invalid point or a zero scalar."""


def is_point(data: object) -> bool:
    """A canonical encoding of a point of the prime-order subgroup, not the identity."""
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and bool(sodium.crypto_core_ed25519_is_valid_point(data))
    )


def check_point(data: bytes, sender: int | str | None, what: str) -> bytes:
    if not is_point(data):
        raise ProtocolError(sender, f"{what} is not a valid group point")
    return data


def is_scalar(data: object) -> bool:
    """A canonical non-zero scalar (little-endian, < l)."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        return False
    value = int.from_bytes(data, "little")
    return 0 < value < ORDER


def from_uniform(data: bytes) -> bytes:
    """Hash-to-group (Elligator 2 with cofactor clearing): a point nobody knows a log of."""
    return sodium.crypto_core_ed25519_from_uniform(data)


def mul(scalar: bytes, point: bytes) -> bytes:
    """scalar * point; raises `GroupError` for an invalid point or an identity result."""
    try:
        return sodium.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except Exception:
        raise GroupError("scalar multiplication refused an invalid point") from None


def mul_base(scalar: bytes) -> bytes:
    try:
        return sodium.crypto_scalarmult_ed25519_base_noclamp(scalar)
    except Exception:
        raise GroupError("scalar multiplication by a zero scalar") from None


def add(p: bytes, q: bytes) -> bytes:
    return sodium.crypto_core_ed25519_add(p, q)


def scalar_reduce(wide: bytes) -> bytes:
    """64 bytes reduced mod l."""
    return sodium.crypto_core_ed25519_scalar_reduce(wide)


def scalar_invert(scalar: bytes) -> bytes:
    return sodium.crypto_core_ed25519_scalar_invert(scalar)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return sodium.crypto_core_ed25519_scalar_mul(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    return sodium.crypto_core_ed25519_scalar_sub(a, b)


def hash_to_scalar(*parts: bytes) -> bytes:
    """SHA-512 over the parts, reduced mod l (may be zero only with negligible probability)."""
    digest = hashlib.sha512()
    for part in parts:
        digest.update(part)
    return scalar_reduce(digest.digest())


def scalar_from_int(value: int) -> bytes:
    return (value % ORDER).to_bytes(32, "little")
