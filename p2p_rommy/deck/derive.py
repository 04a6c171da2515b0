"""Everything a seat derives from its round seed, and the card points.

A seat's 32-byte seed is the only secret of its round: the commitment hides it
until the audit, and from it come the round scalars (one per shuffle pass: the
deal, and each reshuffle of the discard pile) and the permutations. Anyone
holding the revealed seeds re-derives all of it (protocol/SPEC.md §3.2).

Hash inputs are fixed-width big-endian integers and raw bytes, each hash with its
own domain string ending in a zero byte.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from p2p_rommy.deck import group
from p2p_rommy.wire.identity import Entropy

SEED_BYTES = 32
GAME_ID_BYTES = 32


def u8(value: int) -> bytes:
    return value.to_bytes(1, "big")


def u16(value: int) -> bytes:
    return value.to_bytes(2, "big")


def u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


@dataclass(frozen=True, slots=True)
class Seed:
    """A seat's secret for one round. `generate` is the only source of its randomness."""

    value: bytes

    def __post_init__(self) -> None:
        if len(self.value) != SEED_BYTES:
            raise ValueError("a seed is 32 bytes")

    @classmethod
    def generate(cls, entropy: Entropy = secrets.token_bytes) -> Seed:
        return cls(entropy(SEED_BYTES))

    def __repr__(self) -> str:  # never print a live secret by accident
        return "Seed(<hidden>)"


def commitment(game: bytes, round_no: int, seat: int, seed: Seed) -> bytes:
    """commit = H("p2p-rommy/v1/commit" 0x00 || game || u32 round || u8 seat || seed)."""
    return hashlib.sha256(
        b"p2p-rommy/v1/commit\x00" + game + u32(round_no) + u8(seat) + seed.value
    ).digest()


def round_scalar(game: bytes, round_no: int, seat: int, shuffle_pass: int, seed: Seed) -> bytes:
    """The seat's scalar e for one shuffle pass: SHA-512 of the inputs, reduced, never zero."""
    for counter in range(256):
        digest = hashlib.sha512(
            b"p2p-rommy/v1/key\x00"
            + game
            + u32(round_no)
            + u8(seat)
            + u32(shuffle_pass)
            + u8(counter)
            + seed.value
        ).digest()
        scalar = group.scalar_reduce(digest)
        if group.is_scalar(scalar):
            return scalar
    raise AssertionError("unreachable: 256 zero scalars in a row")


class _XofReader:
    """Reads a SHAKE-256 stream in order (hashlib's digest() restarts each call)."""

    def __init__(self, material: bytes) -> None:
        self._material = material
        self._buffer = b""
        self._used = 0
        self._size = 0

    def read(self, count: int) -> bytes:
        if self._used + count > self._size:
            self._size = max(2 * self._size, self._used + count, 1024)
            self._buffer = hashlib.shake_256(self._material).digest(self._size)
        chunk = self._buffer[self._used : self._used + count]
        self._used += count
        return chunk


def _uniform_below(stream: _XofReader, bound: int) -> int:
    """An unbiased integer in [0, bound) from a SHAKE stream (rejection sampling)."""
    limit = (1 << 32) - ((1 << 32) % bound)
    while True:
        chunk = int.from_bytes(stream.read(4), "big")
        if chunk < limit:
            return chunk % bound


def permutation_from_stream(material: bytes, size: int) -> tuple[int, ...]:
    """Fisher-Yates driven by SHAKE-256(material): a uniform permutation of range(size)."""
    stream = _XofReader(material)
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = _uniform_below(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def round_permutation(
    game: bytes, round_no: int, seat: int, shuffle_pass: int, size: int, seed: Seed
) -> tuple[int, ...]:
    """The seat's permutation pi for one pass: output position k takes input position pi[k]."""
    material = (
        b"p2p-rommy/v1/perm\x00"
        + game
        + u32(round_no)
        + u8(seat)
        + u32(shuffle_pass)
        + u16(size)
        + seed.value
    )
    return permutation_from_stream(material, size)


def card_point(game: bytes, round_no: int, shuffle_pass: int, label: int) -> bytes:
    """The point of card label `label` in pass `shuffle_pass`: hash_to_point(H(...)).

    Every physical card (twins and jokers too) has its own label, and nobody knows
    a linear relation between any two points (never i*B).
    """
    digest = hashlib.sha256(
        b"p2p-rommy/v1/card\x00" + game + u32(round_no) + u32(shuffle_pass) + u16(label)
    ).digest()
    return group.hash_to_point(digest)


def card_points(game: bytes, round_no: int, shuffle_pass: int, count: int) -> tuple[bytes, ...]:
    return tuple(card_point(game, round_no, shuffle_pass, label) for label in range(count))


def compose(first: tuple[int, ...], then: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation of applying `first` then `then`: out[k] = in[first[then[k]]]."""
    return tuple(first[index] for index in then)


def invert(permutation: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(permutation)
    for position, source in enumerate(permutation):
        inverse[source] = position
    return tuple(inverse)
