"""Zero-knowledge proofs of the deck protocol (protocol/SPEC.md §3.4, §3.5).

**Share proof (Chaum-Pedersen DLEQ).** A seat with key ``E = e*B`` removes its
layer from a point: ``out = e^-1 * inp``. It proves ``log_B(E) = log_out(inp)``
without showing ``e``: nonce ``t`` (fresh, never sent), ``A1 = t*B``,
``A2 = t*out``, challenge ``c`` = hash of the context (game, round, pass,
position, sender, recipient) and all six points, response ``s = t - c*e``. The
context in the hash is what stops a proof being replayed for another position
or round.

**Shuffle proof (cut-and-choose, Fiat-Shamir).** A shuffler shows
``out[k] = e * inp[pi[k]]`` for its committed ``E = e*B`` and a secret ``pi``.
It makes `lam` shadow shuffles ``S_t[k] = a_t * inp[rho_t[k]]`` with
``A_t = a_t*B``; the hash of everything gives one bit per shadow. Bit 0: open
the shadow (``a_t``, ``rho_t``). Bit 1: show how the shadow maps onto the output
(``w_t = a_t/e``, ``tau_t = rho_t^-1 . pi``: ``S_t[tau_t[k]] = w_t * out[k]`` and
``A_t = w_t * E``). A shuffler that did anything but scale-and-permute with its
committed key can answer at most one bit per shadow, so it passes with
probability ``2^-lam``. The verifier recomputes every ``S_t`` and ``A_t`` from the
answers, so the proof carries only scalars and permutations.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_rommy.deck import group, parallel
from p2p_rommy.deck.derive import compose, invert, permutation_from_stream, u8, u16, u32
from p2p_rommy.limits import VERIFIED_PROOFS_KEPT
from p2p_rommy.wire.identity import Entropy

ALL = 255
"""The recipient value of a share that reveals a card to everyone."""

DLEQ_DOMAIN = b"p2p-rommy/v1/dleq\x00"
SHUFFLE_DOMAIN = b"p2p-rommy/v1/shuffle\x00"
SHADOW_DOMAIN = b"p2p-rommy/v1/shadow\x00"
DECK_DOMAIN = b"p2p-rommy/v1/deck\x00"
BINDING_DOMAIN = b"p2p-rommy/v1/round-binding\x00"


def round_binding(commitments: Sequence[bytes]) -> bytes:
    """A value fixed by the round's seed commitments (every seat's, in seat order) that
    the shuffle challenge hashes: no single seat controls it and nobody knows it before
    the round's commit phase ends, so no proof can be ground offline in advance."""
    return hashlib.sha256(BINDING_DOMAIN + b"".join(commitments)).digest()


MIN_LAMBDA = 64
MAX_LAMBDA = 256
"""A `deck/shuffle` message carries at most 256 answers (SPEC §3.7): a larger proof
parameter could never be proven, so the config refuses it (SPEC §4.1)."""
"""Fiat-Shamir lets a cheater re-roll shadows for free, so 2^-lam must be out of reach."""


class ProofError(ValueError):
    """A proof that does not verify; the caller names the culprit."""


@dataclass(frozen=True, slots=True)
class ShareContext:
    """What a share proof is bound to."""

    game: bytes
    round_no: int
    shuffle_pass: int
    position: int
    sender: int
    recipient: int

    def encode(self) -> bytes:
        return (
            self.game
            + u32(self.round_no)
            + u32(self.shuffle_pass)
            + u16(self.position)
            + u8(self.sender)
            + u8(self.recipient)
        )


@dataclass(frozen=True, slots=True)
class DleqProof:
    challenge: bytes
    response: bytes


def _dleq_challenge(
    context: ShareContext, key: bytes, out: bytes, inp: bytes, a1: bytes, a2: bytes
) -> bytes:
    return group.hash_to_scalar(DLEQ_DOMAIN, context.encode(), group.BASE, out, key, inp, a1, a2)


def prove_share(
    context: ShareContext, scalar: bytes, key: bytes, inp: bytes, out: bytes, entropy: Entropy
) -> DleqProof:
    """Prove ``inp = scalar * out`` and ``key = scalar * B`` (``out`` is the stripped point)."""
    while True:
        nonce = group.scalar_reduce(entropy(64))
        if not group.is_scalar(nonce):
            continue
        a1, a2 = group.mul_base(nonce), group.mul(nonce, out)
        challenge = _dleq_challenge(context, key, out, inp, a1, a2)
        response = group.scalar_sub(nonce, group.scalar_mul(challenge, scalar))
        if group.is_scalar(challenge) and group.is_scalar(response):
            return DleqProof(challenge, response)


def verify_share(
    context: ShareContext, key: bytes, inp: bytes, out: bytes, proof: DleqProof
) -> None:
    """Raise `ProofError` unless `proof` shows ``out`` is ``inp`` with the key's layer removed.

    `key` and `inp` must already be checked points; `out` is checked here.
    """
    if not (group.is_scalar(proof.challenge) and group.is_scalar(proof.response)):
        raise ProofError("share proof scalars are not canonical")
    try:
        a1 = group.add(group.mul_base(proof.response), group.mul(proof.challenge, key))
        a2 = group.add(group.mul(proof.response, out), group.mul(proof.challenge, inp))
    except group.GroupError:
        raise ProofError("share point is not a valid group point") from None
    if _dleq_challenge(context, key, out, inp, a1, a2) != proof.challenge:
        raise ProofError("share proof does not verify")


@dataclass(frozen=True, slots=True)
class ShuffleContext:
    game: bytes
    round_no: int
    shuffle_pass: int
    seat: int
    binding: bytes
    """`round_binding` of the round's seed commitments."""

    def encode(self) -> bytes:
        return (
            self.game + u32(self.round_no) + u32(self.shuffle_pass) + u8(self.seat) + self.binding
        )


@dataclass(frozen=True, slots=True)
class ShadowAnswer:
    """One shadow's answer: `opened` (bit 0: a_t, rho_t) or mapped (bit 1: w_t, tau_t)."""

    opened: bool
    scalar: bytes
    permutation: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    answers: tuple[ShadowAnswer, ...]


def deck_digest(points: Sequence[bytes]) -> bytes:
    return hashlib.sha256(DECK_DOMAIN + b"".join(points)).digest()


def _challenge_bits(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    shadows: Sequence[tuple[bytes, bytes]],
) -> list[bool]:
    material = hashlib.sha256()
    material.update(SHUFFLE_DOMAIN + context.encode() + u16(len(shadows)) + key)
    material.update(deck_digest(inp) + deck_digest(out))
    for shadow_key, shadow_digest in shadows:
        material.update(shadow_key + shadow_digest)
    stream = hashlib.shake_256(material.digest()).digest((len(shadows) + 7) // 8)
    return [bool(stream[t // 8] >> (t % 8) & 1) for t in range(len(shadows))]


def shuffle(scalar: bytes, permutation: Sequence[int], inp: Sequence[bytes]) -> tuple[bytes, ...]:
    """``out[k] = scalar * inp[permutation[k]]``; `GroupError` for an invalid point."""
    return _shuffle_decoded(scalar, permutation, group.decode_all(inp))


def _shuffle_decoded(
    scalar: bytes, permutation: Sequence[int], inp: Sequence[group.Decoded]
) -> tuple[bytes, ...]:
    return tuple(group.mul_each(scalar, [inp[source] for source in permutation]))


def prove_shuffle(
    context: ShuffleContext,
    scalar: bytes,
    key: bytes,
    permutation: tuple[int, ...],
    inp: Sequence[bytes],
    out: Sequence[bytes],
    lam: int,
    entropy: Entropy,
) -> ShuffleProof:
    inverse_scalar = group.scalar_invert(scalar)
    decoded = group.decode_all(inp)
    secrets_ = []
    for _ in range(lam):  # all entropy first, in order: the proof is the same on any cores
        a = group.scalar_reduce(entropy(64))
        while not group.is_scalar(a):
            a = group.scalar_reduce(entropy(64))
        rho = permutation_from_stream(SHADOW_DOMAIN + entropy(32), len(inp))
        secrets_.append((a, rho))

    def shadow(secret: tuple[bytes, tuple[int, ...]]) -> tuple[bytes, bytes]:
        a, rho = secret
        return group.mul_base(a), deck_digest(_shuffle_decoded(a, rho, decoded))

    shadows = parallel.each(shadow, secrets_)
    bits = _challenge_bits(context, key, inp, out, shadows)
    answers = []
    for bit, (a, rho) in zip(bits, secrets_, strict=True):
        if not bit:
            answers.append(ShadowAnswer(True, a, rho))
        else:
            answers.append(
                ShadowAnswer(
                    False, group.scalar_mul(a, inverse_scalar), compose(invert(rho), permutation)
                )
            )
    return ShuffleProof(tuple(answers))


def _is_permutation(candidate: tuple[int, ...], size: int) -> bool:
    return len(candidate) == size and sorted(candidate) == list(range(size))


def verify_shuffle(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    proof: ShuffleProof,
    lam: int,
) -> None:
    """Raise `ProofError` unless `out` is `inp` scaled by the key's scalar and permuted.

    `key` and `inp` must already be checked; the points of `out` are checked here
    (each must be valid and all distinct).

    A proof already verified in this process, on exactly these inputs, is not verified
    again: seats of one process (`rommy play`, a local table) each check every shuffle,
    and the same function on the same bytes gives the same answer. Only successes are
    remembered (the last `VERIFIED_PROOFS_KEPT`); a seat checking a proof another seat
    is checking now waits for that result.
    """
    fingerprint = _proof_fingerprint(context, key, inp, out, proof, lam)
    with _VERIFIED_LOCK:
        if fingerprint in _VERIFIED:
            _VERIFIED.move_to_end(fingerprint)
            return
        running = _VERIFYING.get(fingerprint)
        if running is None:
            _VERIFYING[fingerprint] = threading.Event()
    if running is not None:
        running.wait()
        with _VERIFIED_LOCK:
            if fingerprint in _VERIFIED:
                return
        _verify_shuffle(context, key, inp, out, proof, lam)  # the other check failed
        return
    try:
        _verify_shuffle(context, key, inp, out, proof, lam)
        with _VERIFIED_LOCK:
            _VERIFIED[fingerprint] = None
            while len(_VERIFIED) > VERIFIED_PROOFS_KEPT:
                _VERIFIED.popitem(last=False)
    finally:
        with _VERIFIED_LOCK:
            _VERIFYING.pop(fingerprint).set()


_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_VERIFYING: dict[bytes, threading.Event] = {}
_VERIFIED_LOCK = threading.Lock()


def forget_verified() -> None:
    """Forget which proofs were verified (a benchmark that must do the work itself)."""
    with _VERIFIED_LOCK:
        _VERIFIED.clear()


def _proof_fingerprint(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    proof: ShuffleProof,
    lam: int,
) -> bytes:
    """A hash of every input of `verify_shuffle`, unambiguous (fixed-size fields,
    counted lists)."""
    material = hashlib.sha256()
    encoded = context.encode()
    material.update(u32(len(encoded)) + encoded + key + u32(lam))
    material.update(u32(len(inp)) + b"".join(inp) + u32(len(out)) + b"".join(out))
    material.update(u32(len(proof.answers)))
    for answer in proof.answers:
        material.update(u8(int(answer.opened)) + u32(len(answer.scalar)) + answer.scalar)
        material.update(u32(len(answer.permutation)))
        material.update(b"".join(u32(i) for i in answer.permutation))
    return material.digest()


def check_shuffle_form(
    size: int, out: Sequence[bytes], proof: ShuffleProof, lam: int
) -> list[group.Decoded]:
    """Everything about a shuffle but its proof: `size` distinct valid points and `lam`
    well-formed answers (the output decoded). Enough to shuffle on from it at once; the
    proof itself is verified before any share is built on it (SPEC §3.3)."""
    if len(out) != size:
        raise ProofError(f"the shuffled deck has {len(out)} cards, not {size}")
    if len(set(out)) != size:
        raise ProofError("the shuffled deck holds a duplicated point")
    decoded = []
    for index, point in enumerate(out):
        try:
            decoded.append(group.decode(point))
        except group.GroupError:
            raise ProofError(
                f"card {index} of the shuffled deck is not a valid group point"
            ) from None
    if len(proof.answers) != lam:
        raise ProofError(f"the shuffle proof has {len(proof.answers)} shadows, not {lam}")
    for answer in proof.answers:
        if not group.is_scalar(answer.scalar) or not _is_permutation(answer.permutation, size):
            raise ProofError("a shuffle proof answer is malformed")
    return decoded


def _verify_shuffle(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    proof: ShuffleProof,
    lam: int,
) -> None:
    size = len(inp)
    decoded_out = check_shuffle_form(size, out, proof, lam)
    decoded_inp = group.decode_all(inp)

    def shadow(answer: ShadowAnswer) -> tuple[bytes, bytes]:
        if answer.opened:
            return group.mul_base(answer.scalar), deck_digest(
                _shuffle_decoded(answer.scalar, answer.permutation, decoded_inp)
            )
        rebuilt: list[bytes] = [b""] * size
        for slot, point in zip(
            answer.permutation, group.mul_each(answer.scalar, decoded_out), strict=True
        ):
            rebuilt[slot] = point
        return group.mul(answer.scalar, key), deck_digest(rebuilt)

    shadows = parallel.each(shadow, proof.answers)
    bits = _challenge_bits(context, key, inp, out, shadows)
    if any(bit == answer.opened for bit, answer in zip(bits, proof.answers, strict=True)):
        raise ProofError(
            "the shuffle proof does not verify: the output is not a shuffle of the "
            "input under the committed key"
        )
