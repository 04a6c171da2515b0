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


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _point(value: int) -> group.Decoded:
    value %= ORDER
    if value == 0:
        raise group.GroupError("the identity")
    return group.Decoded(value.to_bytes(group.POINT_BYTES, "little"))


def is_point(data: object) -> bool:
    if not isinstance(data, bytes) or len(data) != group.POINT_BYTES:
        return False
    return 0 < _int(data) < ORDER


def decode(data: bytes) -> group.Decoded:
    if not is_point(data):
        raise group.GroupError("not a point of the prime-order group")
    return group.Decoded(data)


def decode_all(points: Iterable[bytes]) -> list[group.Decoded]:
    return [decode(point) for point in points]


def hash_to_point(data: bytes) -> group.Decoded:
    return _point(_int(hashlib.sha256(group.POINT_DOMAIN + data).digest()))


def _scalar(scalar: bytes) -> int:
    value = _int(scalar) % ORDER
    if value == 0:
        raise group.GroupError("scalar multiplication of an invalid point or by zero")
    return value


def mul(scalar: bytes, point: bytes) -> group.Decoded:
    if not is_point(point):
        raise group.GroupError("scalar multiplication of an invalid point or by zero")
    return _point(_scalar(scalar) * _int(point))


def mul_each(scalar: bytes, points: Sequence[group.Decoded]) -> list[group.Decoded]:
    return [mul(scalar, point) for point in points]


def mul_base(scalar: bytes) -> group.Decoded:
    return _point(_scalar(scalar))


def add(p: group.Decoded, q: group.Decoded) -> group.Decoded:
    return _point(_int(p) + _int(q))


def sum_all(points: Sequence[group.Decoded]) -> group.Decoded:
    if not points:
        raise group.GroupError("an empty sum")
    return _point(sum(_int(point) for point in points))


def mul_sum(scalars: Sequence[bytes], points: Sequence[group.Decoded]) -> group.Decoded:
    if len(scalars) != len(points):
        raise group.GroupError("as many scalars as points")
    total = 0
    for scalar, point in zip(scalars, points, strict=True):
        if not is_point(point):
            raise group.GroupError("scalar multiplication of an invalid point or by zero")
        total += _scalar(scalar) * _int(point)
    return _point(total)


_WORD = 1 << 256


def _scalar_bytes(value: int) -> bytes:
    return (value % ORDER).to_bytes(group.SCALAR_BYTES, "little")


def is_scalar(data: object) -> bool:
    return isinstance(data, bytes) and len(data) == group.SCALAR_BYTES and 0 < _int(data) < ORDER


def scalar_reduce(wide: bytes) -> bytes:
    return _scalar_bytes(_int(wide))


def scalar_invert(scalar: bytes) -> bytes:
    value = _int(scalar)
    if value == 0:  # libsodium refuses zero bytes only (l itself inverts to zero)
        raise group.GroupError("scalar arithmetic on an invalid scalar")
    return _scalar_bytes(pow(value, ORDER - 2, ORDER))


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return _scalar_bytes(_int(a) * _int(b))


def scalar_add(a: bytes, b: bytes) -> bytes:
    # libsodium adds in 32 bytes (a carry out of them is lost), then reduces
    return _scalar_bytes((_int(a) + _int(b)) % _WORD)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    # libsodium adds the negation (reduced) the same way
    return _scalar_bytes((_int(a) + (-_int(b)) % ORDER) % _WORD)


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
