"""Performance issue: the shadows of one shuffle proof run on every core with the
same bytes as on one, and a proof verified once in a process is not verified again
(seats sharing a process), while any other proof is still checked in full."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_rommy.deck import group, proofs
from p2p_rommy.deck.derive import permutation_from_stream
from p2p_rommy.deck.parallel import each
from p2p_rommy.deck.proofs import (
    ProofError,
    ShuffleContext,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from p2p_rommy.wire.entropy import StreamEntropy


def a_shuffle(cards: int = 12, lam: int = 64):
    entropy = StreamEntropy(b"work")
    inp = tuple(group.from_uniform(entropy(32)) for _ in range(cards))
    scalar = group.scalar_reduce(entropy(64))
    key = group.mul_base(scalar)
    permutation = permutation_from_stream(b"perm" + entropy(32), cards)
    out = shuffle(scalar, permutation, inp)
    context = ShuffleContext(bytes(32), 1, 0, 2, bytes(32))
    return context, scalar, key, permutation, inp, out, lam


def test_work_split_over_cores_comes_back_in_order():
    items = list(range(101))
    assert each(lambda x: x * x, items, cores=3) == [x * x for x in items]
    assert each(lambda x: x, [], cores=2) == []


def test_a_proof_is_the_same_bytes_on_one_core_or_many(monkeypatch):
    context, scalar, key, permutation, inp, out, lam = a_shuffle()
    many = prove_shuffle(context, scalar, key, permutation, inp, out, lam, StreamEntropy(b"p"))
    monkeypatch.setattr(proofs, "each", lambda f, items: [f(i) for i in items])
    one = prove_shuffle(context, scalar, key, permutation, inp, out, lam, StreamEntropy(b"p"))
    assert many == one


def test_a_verified_proof_is_not_verified_again_but_any_other_is(monkeypatch):
    context, scalar, key, permutation, inp, out, lam = a_shuffle()
    proof = prove_shuffle(context, scalar, key, permutation, inp, out, lam, StreamEntropy(b"v"))
    proofs.forget_verified()
    calls = []
    real = proofs._verify_shuffle
    monkeypatch.setattr(proofs, "_verify_shuffle", lambda *args: (calls.append(1), real(*args))[1])
    verify_shuffle(context, key, inp, out, proof, lam)
    verify_shuffle(context, key, inp, out, proof, lam)
    assert len(calls) == 1  # the second seat's check was the first one's
    first = proof.answers[0]
    flipped = dataclasses.replace(first, opened=not first.opened)
    forged = dataclasses.replace(proof, answers=(flipped, *proof.answers[1:]))
    with pytest.raises(ProofError):
        verify_shuffle(context, key, inp, out, forged, lam)
    other = dataclasses.replace(context, seat=1)
    with pytest.raises(ProofError):  # the same proof for another seat: checked, refused
        verify_shuffle(other, key, inp, out, proof, lam)
    assert len(calls) == 3
