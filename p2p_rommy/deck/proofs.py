"""Zero-knowledge proofs of the deck protocol (protocol/SPEC.md §3.4, §3.5).

**Shares proof (a batched Chaum-Pedersen DLEQ, since v6).** A seat with key
``E = e*B`` removes its layer from points: ``out[i] = e^-1 * inp[i]``. One proof
covers every item of one pass in a shares message: weights ``w[i]`` (1, then hashes
of the context and every point) fold the items into ``O = sum w[i]*out[i]`` and
``X = sum w[i]*inp[i]``, and a DLEQ shows ``log_B(E) = log_O(X)``: nonce ``t``
(fresh, never sent), ``A1 = t*B``, ``A2 = t*O``, challenge ``c``, response
``s = t - c*e``. A single wrong item breaks ``X = e*O`` except with probability
about 2^-252; the context (game, round, pass, sender, every position and recipient)
in the hash is what stops a proof being replayed for other positions or rounds.

**Shuffle proof (a Terelius-Wikstrom argument, Fiat-Shamir).** A shuffler shows
``out[k] = e * inp[pi[k]]`` for its committed ``E = e*B`` and a secret ``pi``, in
about 3m multiplications and 2m fixed-base ones to prove and 5m to verify (m cards),
in `shuffle_argument`
(theory, proof of security: docs/shuffle-argument.md).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_rommy.deck import group, parallel, shuffle_argument
from p2p_rommy.deck.derive import u8, u16, u32
from p2p_rommy.deck.shuffle_argument import Commitment, ShuffleProof
from p2p_rommy.i18n import N_

__all__ = [
    "ALL",
    "Commitment",
    "DleqProof",
    "ProofError",
    "SharesContext",
    "ShuffleContext",
    "ShuffleProof",
    "check_deck_shape",
    "check_shuffle_form",
    "commit_permutation",
    "deck_digest",
    "forget_verified",
    "prove_shares",
    "prove_shuffle",
    "round_binding",
    "share_weights",
    "shuffle",
    "verify_shares",
    "verify_shuffle",
]
from p2p_rommy.limits import VERIFIED_PROOFS_KEPT
from p2p_rommy.wire.identity import Entropy

ALL = 255
"""The recipient value of a share that reveals a card to everyone."""

SHARES_SEED_DOMAIN = b"p2p-rommy/v6/shares-seed\x00"
SHARES_WEIGHT_DOMAIN = b"p2p-rommy/v6/shares-weight\x00"
SHARES_DLEQ_DOMAIN = b"p2p-rommy/v6/shares-dleq\x00"
BINDING_DOMAIN = b"p2p-rommy/v1/round-binding\x00"


def round_binding(commitments: Sequence[bytes]) -> bytes:
    """A value fixed by the round's seed commitments (every seat's, in seat order) that
    the shuffle challenge hashes: no single seat controls it and nobody knows it before
    the round's commit phase ends, so no proof can be ground offline in advance."""
    return hashlib.sha256(BINDING_DOMAIN + b"".join(commitments)).digest()


class ProofError(ValueError):
    """A proof that does not verify; the caller names the culprit."""


@dataclass(frozen=True, slots=True)
class SharesContext:
    """What one shares proof is bound to: the sender's items of one pass in a
    `deck/shares` message, each ``(position, recipient)``, in the message's order."""

    game: bytes
    round_no: int
    shuffle_pass: int
    sender: int
    items: tuple[tuple[int, int], ...]

    def encode(self) -> bytes:
        return (
            self.game
            + u32(self.round_no)
            + u32(self.shuffle_pass)
            + u8(self.sender)
            + u16(len(self.items))
            + b"".join(u16(position) + u8(recipient) for position, recipient in self.items)
        )


@dataclass(frozen=True, slots=True)
class DleqProof:
    challenge: bytes
    response: bytes


_ONE = group.scalar_from_int(1)


def share_weights(
    context: SharesContext, key: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes]
) -> tuple[bytes, list[bytes]]:
    """The seed of a shares proof (a hash of its context, key and every item's input and
    output point) and the items' weights: 1 for the first, ``Hs(weight domain || seed ||
    u16 i)`` for item ``i >= 1`` (SPEC §3.4)."""
    material = hashlib.sha256(SHARES_SEED_DOMAIN + context.encode() + key)
    for inp, out in zip(inputs, outputs, strict=True):
        material.update(inp + out)
    seed = material.digest()
    weights = [_ONE] + [
        group.hash_to_scalar(SHARES_WEIGHT_DOMAIN, seed, u16(i)) for i in range(1, len(inputs))
    ]
    return seed, weights


def _combine(weights: Sequence[bytes], points: Sequence[bytes]) -> group.Decoded:
    """``sum weights[i] * points[i]`` (the first weight is 1: no multiplication), split
    over the cores; `GroupError` for an invalid point or an identity sum."""
    head = group.decode(points[0])
    if len(points) == 1:
        return head
    count = len(points) - 1
    size = -(-count // max(1, parallel.CORES))

    def part(start: int) -> group.Decoded:
        return group.mul_sum(
            weights[1 + start : 1 + start + size],
            [group.Decoded(point) for point in points[1 + start : 1 + start + size]],
        )

    return group.sum_all([head, *parallel.each(part, range(0, count, size))])


def _shares_challenge(
    seed: bytes, key: bytes, combined_out: bytes, combined_in: bytes, a1: bytes, a2: bytes
) -> bytes:
    return group.hash_to_scalar(
        SHARES_DLEQ_DOMAIN, seed, group.BASE, combined_out, key, combined_in, a1, a2
    )


def prove_shares(
    context: SharesContext,
    scalar: bytes,
    key: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    entropy: Entropy,
) -> DleqProof:
    """Prove ``inputs[i] = scalar * outputs[i]`` for every item and ``key = scalar * B``
    with one DLEQ over the weighted sums (SPEC §3.4): about 2 multiplications an item
    (the outputs and their sum) instead of 3."""
    seed, weights = share_weights(context, key, inputs, outputs)
    combined_out = _combine(weights, outputs)
    combined_in = group.mul(scalar, combined_out)
    while True:
        nonce = group.scalar_reduce(entropy(64))
        if not group.is_scalar(nonce):
            continue
        a1, a2 = group.mul_base(nonce), group.mul(nonce, combined_out)
        challenge = _shares_challenge(seed, key, combined_out, combined_in, a1, a2)
        response = group.scalar_sub(nonce, group.scalar_mul(challenge, scalar))
        if group.is_scalar(challenge) and group.is_scalar(response):
            return DleqProof(challenge, response)


def verify_shares(
    context: SharesContext,
    key: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    proof: DleqProof,
) -> None:
    """Raise `ProofError` unless every ``outputs[i]`` is ``inputs[i]`` with the key's
    layer removed. One wrong item makes the weighted sums disagree except with
    probability about 2^-252 (its weight is a hash of every item).

    `key` and `inputs` must already be checked points; `outputs` are checked here.
    """
    if not (group.is_scalar(proof.challenge) and group.is_scalar(proof.response)):
        raise ProofError(N_("share proof scalars are not canonical"))
    if len(inputs) != len(outputs) or len(inputs) != len(context.items) or not inputs:
        raise ProofError(N_("a share proof covers one output for every item"))
    seed, weights = share_weights(context, key, inputs, outputs)
    try:  # each output is checked by the multiplication (or decoding) that uses it
        combined_out = _combine(weights, outputs)
        combined_in = _combine(weights, inputs)
        a1 = group.add(group.mul_base(proof.response), group.mul(proof.challenge, key))
        a2 = group.add(
            group.mul(proof.response, combined_out), group.mul(proof.challenge, combined_in)
        )
    except group.GroupError:
        raise ProofError(N_("a share is not a valid group point")) from None
    if _shares_challenge(seed, key, combined_out, combined_in, a1, a2) != proof.challenge:
        raise ProofError(N_("share proof does not verify"))


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


def deck_digest(points: Sequence[bytes]) -> bytes:
    return shuffle_argument.deck_digest(points)


def shuffle(scalar: bytes, permutation: Sequence[int], inp: Sequence[bytes]) -> tuple[bytes, ...]:
    """``out[k] = scalar * inp[permutation[k]]``; `GroupError` for an invalid point (each
    is checked by its multiplication)."""
    return tuple(group.mul_each(scalar, [inp[source] for source in permutation]))


def commit_permutation(permutation: Sequence[int], entropy: Entropy) -> Commitment:
    """The part of a shuffle proof that needs no deck (a third of it): a seat may make
    it before the deck it shuffles arrives and pass it to `prove_shuffle`."""
    return shuffle_argument.commit_permutation(permutation, entropy)


def prove_shuffle(
    context: ShuffleContext,
    scalar: bytes,
    key: bytes,
    permutation: tuple[int, ...],
    inp: Sequence[bytes],
    out: Sequence[bytes],
    entropy: Entropy,
    commitment: Commitment | None = None,
) -> ShuffleProof:
    """Prove ``out[k] = scalar * inp[permutation[k]]`` under ``key = scalar*B`` (SPEC §3.5)."""
    decoded = [group.Decoded(point) for point in inp]  # checked where they are multiplied
    encoded = context.encode()
    while True:
        if commitment is None or commitment.permutation != tuple(permutation):
            commitment = commit_permutation(permutation, entropy)
        try:
            proof = shuffle_argument.prove(
                encoded, scalar, key, commitment, decoded, inp, out, entropy
            )
        except group.GroupError:  # a sum was the identity: probability ~2^-250
            commitment = None
            continue
        if all(group.is_scalar(s) for s in proof.scalars()):
            return proof
        commitment = None


def verify_shuffle(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    proof: ShuffleProof,
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
    fingerprint = _proof_fingerprint(context, key, inp, out, proof)
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
        _verify_shuffle(context, key, inp, out, proof)  # the other check failed
        return
    try:
        _verify_shuffle(context, key, inp, out, proof)
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
) -> bytes:
    """A hash of every input of `verify_shuffle`, unambiguous (fixed-size fields,
    counted lists)."""
    material = hashlib.sha256()
    encoded = context.encode()
    material.update(u32(len(encoded)) + encoded + key)
    for items in (inp, out, *proof.lists()):
        material.update(u32(len(items)))
        for item in items:
            material.update(u32(len(item)) + item)
    for single in proof.singles():
        material.update(u32(len(single)) + single)
    return material.digest()


def check_deck_shape(size: int, out: Sequence[bytes]) -> None:
    """The first of `check_shuffle_form`'s checks: `size` distinct items."""
    if len(out) != size:
        raise ProofError(
            N_("the shuffled deck has {value} cards, not {size}").format(value=len(out), size=size)
        )
    if len(set(out)) != size:
        raise ProofError(N_("the shuffled deck holds a duplicated point"))


def check_shuffle_form(size: int, out: Sequence[bytes], proof: ShuffleProof) -> list[group.Decoded]:
    """Everything about a shuffle but its proof's equations: `size` distinct valid points
    and a proof of the right shape (the output decoded). Enough to shuffle on from it at
    once; the proof itself is verified before any share is built on it (SPEC §3.3)."""
    check_deck_shape(size, out)
    decoded = []
    for index, point in enumerate(out):
        try:
            decoded.append(group.decode(point))
        except group.GroupError:
            raise ProofError(
                N_("card {index} of the shuffled deck is not a valid group point").format(
                    index=index
                )
            ) from None
    try:
        shuffle_argument.check_form(size, proof)
    except shuffle_argument.ArgumentError as error:
        raise ProofError(str(error)) from None
    return decoded


def _verify_shuffle(
    context: ShuffleContext,
    key: bytes,
    inp: Sequence[bytes],
    out: Sequence[bytes],
    proof: ShuffleProof,
) -> None:
    check_deck_shape(len(inp), out)
    try:  # each point is checked by the multiplication that uses it
        shuffle_argument.verify(context.encode(), key, inp, inp, out, out, proof)
    except shuffle_argument.ArgumentError as error:
        check_shuffle_form(len(inp), out, proof)  # an invalid card is named as one
        raise ProofError(str(error)) from None
