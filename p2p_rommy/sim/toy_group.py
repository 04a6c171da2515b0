"""The deck's group written additively as the integers mod ``l``: the simulator's
fast group (a seam used by nothing else; docs/decisions.md says why).

edwards25519's prime-order subgroup is cyclic of order ``l``, so ``x -> x*B`` maps
the integers mod ``l`` onto it and every equation a proof or a check writes holds in
one exactly when it holds in the other: an honest proof verifies and a malformed one
(a wrong share, a tampered shuffle, a point off the list) fails the same way. What
is lost is only hardness: here everyone can take logarithms, so nothing is secret
from a party that does. The simulator's seats never do; they use the protocol as
written. A multiplication costs a Python integer product (about 1 µs) instead of
libsodium's 120 µs, which is what lets CI play a thousand whole tables a run. A
share of the games keeps the real group (`sim/runner.py`).

A point is the 32-byte little-endian encoding of a non-zero integer below ``l``.
`real_group` / `toy_group` swap the functions of `p2p_rommy.deck.group` the deck
modules call (they call them through the module, at call time) and clear the caches
of points computed in the other group.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Iterator, Sequence

from p2p_rommy.deck import group, shuffle_argument

ORDER = group.ORDER
_BYTES = group.POINT_BYTES
_from_bytes = int.from_bytes
# Every function below reads and writes bytes exactly as before issue #31, with the
# conversions written out in each (no helper call, no `group.Decoded` wrapper: a
# `NewType` is a call that returns its argument): a shuffle argument makes tens of
# thousands of these calls, and their cost was mostly the calls around the arithmetic.
# Two nonzero residues of the prime ``l`` multiply to a nonzero one, so a product of
# a checked point and a nonzero scalar needs no identity check.


def _int(data: bytes) -> int:
    return _from_bytes(data, "little")


def _point(value: int) -> bytes:
    value %= ORDER
    if value == 0:
        raise group.GroupError("the identity")
    return value.to_bytes(_BYTES, "little")


def is_point(data: object) -> bool:
    return (
        isinstance(data, bytes) and len(data) == _BYTES and 0 < _from_bytes(data, "little") < ORDER
    )


def decode(data: bytes) -> bytes:
    if not is_point(data):
        raise group.GroupError("not a point of the prime-order group")
    return data


def decode_all(points: Iterable[bytes]) -> list[bytes]:
    return [decode(point) for point in points]


def hash_to_point(data: bytes) -> bytes:
    return _point(_int(hashlib.sha256(group.POINT_DOMAIN + data).digest()))


def _scalar(scalar: bytes) -> int:
    value = _from_bytes(scalar, "little") % ORDER
    if value == 0:
        raise group.GroupError("scalar multiplication of an invalid point or by zero")
    return value


def _bad_multiplication() -> group.GroupError:
    return group.GroupError("scalar multiplication of an invalid point or by zero")


def mul(scalar: bytes, point: bytes) -> bytes:
    if not isinstance(point, bytes) or len(point) != _BYTES:
        raise _bad_multiplication()
    value = _from_bytes(point, "little")
    if not 0 < value < ORDER:
        raise _bad_multiplication()
    factor = _from_bytes(scalar, "little") % ORDER
    if factor == 0:
        raise _bad_multiplication()
    return (factor * value % ORDER).to_bytes(_BYTES, "little")


def mul_each(scalar: bytes, points: Sequence[group.Decoded]) -> list[bytes]:
    return [mul(scalar, point) for point in points]


def mul_base(scalar: bytes) -> bytes:
    return _scalar(scalar).to_bytes(_BYTES, "little")


def add(p: group.Decoded, q: group.Decoded) -> bytes:
    return _point(_from_bytes(p, "little") + _from_bytes(q, "little"))


def sum_all(points: Sequence[group.Decoded]) -> bytes:
    if not points:
        raise group.GroupError("an empty sum")
    return _point(sum(_from_bytes(point, "little") for point in points))


def mul_sum(scalars: Sequence[bytes], points: Sequence[group.Decoded]) -> bytes:
    if len(scalars) != len(points):
        raise group.GroupError("as many scalars as points")
    total = 0
    for scalar, point in zip(scalars, points, strict=True):
        if not is_point(point):
            raise _bad_multiplication()
        total += _scalar(scalar) * _from_bytes(point, "little")
    return _point(total)


_WORD = 1 << 256


def _scalar_bytes(value: int) -> bytes:
    return (value % ORDER).to_bytes(group.SCALAR_BYTES, "little")


def is_scalar(data: object) -> bool:
    return (
        isinstance(data, bytes)
        and len(data) == group.SCALAR_BYTES
        and 0 < _from_bytes(data, "little") < ORDER
    )


def scalar_reduce(wide: bytes) -> bytes:
    return (_from_bytes(wide, "little") % ORDER).to_bytes(group.SCALAR_BYTES, "little")


def scalar_invert(scalar: bytes) -> bytes:
    value = _from_bytes(scalar, "little")
    if value == 0:  # libsodium refuses zero bytes only (l itself inverts to zero)
        raise group.GroupError("scalar arithmetic on an invalid scalar")
    return _scalar_bytes(pow(value, ORDER - 2, ORDER))


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return (_from_bytes(a, "little") * _from_bytes(b, "little") % ORDER).to_bytes(
        group.SCALAR_BYTES, "little"
    )


def scalar_add(a: bytes, b: bytes) -> bytes:
    # libsodium adds in 32 bytes (a carry out of them is lost), then reduces
    total = (_from_bytes(a, "little") + _from_bytes(b, "little")) % _WORD
    return (total % ORDER).to_bytes(group.SCALAR_BYTES, "little")


def scalar_sub(a: bytes, b: bytes) -> bytes:
    # libsodium adds the negation (reduced) the same way
    total = (_from_bytes(a, "little") + (-_from_bytes(b, "little")) % ORDER) % _WORD
    return (total % ORDER).to_bytes(group.SCALAR_BYTES, "little")


_TOY: dict[str, object] = {
    "is_point": is_point,
    "decode": decode,
    "decode_all": decode_all,
    "hash_to_point": hash_to_point,
    "mul": mul,
    "mul_decoded": mul,
    "mul_each": mul_each,
    "mul_base": mul_base,
    "add": add,
    "sum_all": sum_all,
    "mul_sum": mul_sum,
    "BASE": _point(1),
    # Scalars are the integers mod l in both groups: the same bytes as libsodium's
    # (it reduces every result mod l), without a foreign call each (a shuffle
    # argument does tens of thousands).
    "is_scalar": is_scalar,
    "scalar_reduce": scalar_reduce,
    "scalar_invert": scalar_invert,
    "scalar_mul": scalar_mul,
    "scalar_add": scalar_add,
    "scalar_sub": scalar_sub,
}
_REAL: dict[str, object] = {name: getattr(group, name) for name in _TOY}


def _install(functions: dict[str, object]) -> None:
    for name, value in functions.items():
        setattr(group, name, value)
    # points the shuffle argument computed once, in the group that was in place
    shuffle_argument._generator.cache_clear()


@contextlib.contextmanager
def toy_group(on: bool = True) -> Iterator[None]:
    """Inside: the deck computes in the integers mod ``l`` (with `on`; else the real
    group). The real group is back on the way out."""
    _install(_TOY if on else _REAL)
    try:
        yield
    finally:
        _install(_REAL)
