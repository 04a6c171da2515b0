"""Zero-knowledge proofs of the deck protocol (protocol/SPEC.md §3.4, §3.5).

**Share proof (Chaum-Pedersen DLEQ).** A seat with key ``E = e*B`` removes its
layer from a point: ``out = e^-1 * inp``. It proves ``log_B(E) = log_out(inp)``
without showing ``e``: nonce ``t`` (fresh, never sent), ``A1 = t*B``,
``A2 = t*out``, challenge ``c`` = hash of the context (game, round, pass,
position, sender, recipient) and all six points, response ``s = t - c*e``. The
context in the hash is what stops a proof being replayed for another position
or round.

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

from p2p_rommy.deck import group, shuffle_argument
from p2p_rommy.deck.derive import u8, u16, u32
from p2p_rommy.deck.shuffle_argument import Commitment, ShuffleProof
from p2p_rommy.i18n import N_

__all__ = [
    "ALL",
    "Commitment",
    "DleqProof",
    "ProofError",
    "ShareContext",
    "ShuffleContext",
    "ShuffleProof",
    "check_deck_shape",
    "check_shuffle_form",
    "commit_permutation",
    "deck_digest",
    "forget_verified",
    "prove_share",
    "prove_shuffle",
    "round_binding",
    "shuffle",
    "verify_share",
    "verify_shuffle",
]
from p2p_rommy.limits import VERIFIED_PROOFS_KEPT
from p2p_rommy.wire.identity import Entropy

ALL = 255
"""The recipient value of a share that reveals a card to everyone."""

DLEQ_DOMAIN = b"p2p-rommy/v1/dleq\x00"
BINDING_DOMAIN = b"p2p-rommy/v1/round-binding\x00"


def round_binding(commitments: Sequence[bytes]) -> bytes:
    """A value fixed by the round's seed commitments (every seat's, in seat order) that
    the shuffle challenge hashes: no single seat controls it and nobody knows it before
    the round's commit phase ends, so no proof can be ground offline in advance."""
    return hashlib.sha256(BINDING_DOMAIN + b"".join(commitments)).digest()


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
        raise ProofError(N_("share proof scalars are not canonical"))
    try:
        a1 = group.add(group.mul_base(proof.response), group.mul(proof.challenge, key))
        a2 = group.add(group.mul(proof.response, out), group.mul(proof.challenge, inp))
    except group.GroupError:
        raise ProofError(N_("share point is not a valid group point")) from None
    if _dleq_challenge(context, key, out, inp, a1, a2) != proof.challenge:
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
