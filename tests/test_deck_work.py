"""Performance issue: the work of one shuffle proof runs on every core with the
same bytes as on one, a proof verified once in a process is not verified again
(seats sharing a process) while any other proof is still checked in full, and the
next shuffler shuffles before it verifies the shuffle it takes (pipelining) but never
shares a card before."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_rommy.deck import ALL, DeckParams, group, parallel, proofs
from p2p_rommy.deck.derive import permutation_from_stream
from p2p_rommy.deck.messages import Shares, Shuffle, decode
from p2p_rommy.deck.parallel import each
from p2p_rommy.deck.proofs import (
    ProofError,
    ShuffleContext,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from p2p_rommy.errors import CheatDetected
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import open_envelope
from tests.deck_table import DeckTable
from tests.test_deck_cheats import tampered_shuffle


def a_shuffle(cards: int = 12):
    entropy = StreamEntropy(b"work")
    inp = tuple(group.hash_to_point(entropy(32)) for _ in range(cards))
    scalar = group.scalar_reduce(entropy(64))
    key = group.mul_base(scalar)
    permutation = permutation_from_stream(b"perm" + entropy(32), cards)
    out = shuffle(scalar, permutation, inp)
    context = ShuffleContext(bytes(32), 1, 0, 2, bytes(32))
    return context, scalar, key, permutation, inp, out


def test_work_split_over_cores_comes_back_in_order():
    items = list(range(101))
    assert each(lambda x: x * x, items, cores=3) == [x * x for x in items]
    assert each(lambda x: x, [], cores=2) == []


def test_a_proof_is_the_same_bytes_on_one_core_or_many(monkeypatch):
    context, scalar, key, permutation, inp, out = a_shuffle()
    many = prove_shuffle(context, scalar, key, permutation, inp, out, StreamEntropy(b"p"))
    monkeypatch.setattr(parallel, "each", lambda f, items: [f(i) for i in items])
    one = prove_shuffle(context, scalar, key, permutation, inp, out, StreamEntropy(b"p"))
    assert many == one


def test_a_round_s_shares_are_the_same_bytes_on_one_core_or_many(monkeypatch):
    """#27: a seat makes and checks the items of a `deck/shares` on every core, with
    each item's randomness drawn first, in order."""

    def dealt() -> list[bytes]:
        proofs.forget_verified()
        table = DeckTable(DeckParams(bytes(32), 0, 3, 0, 24), seed=b"cores")
        table.start()
        table.everyone(lambda seat: seat.deal([*((k, k % 3) for k in range(9)), (9, ALL)]))
        assert all(seat.idle for seat in table.seats)
        return table.log

    many = dealt()
    monkeypatch.setattr(parallel, "each", lambda f, items: [f(i) for i in items])
    assert dealt() == many
    assert sum(1 for e in many if b"deck/shares" in e) == 3


def test_a_verified_proof_is_not_verified_again_but_any_other_is(monkeypatch):
    context, scalar, key, permutation, inp, out = a_shuffle()
    proof = prove_shuffle(context, scalar, key, permutation, inp, out, StreamEntropy(b"v"))
    proofs.forget_verified()
    calls = []
    real = proofs._verify_shuffle
    monkeypatch.setattr(proofs, "_verify_shuffle", lambda *args: (calls.append(1), real(*args))[1])
    verify_shuffle(context, key, inp, out, proof)
    verify_shuffle(context, key, inp, out, proof)
    assert len(calls) == 1  # the second seat's check was the first one's
    forged = dataclasses.replace(proof, k_b=proof.k_a)
    with pytest.raises(ProofError):
        verify_shuffle(context, key, inp, out, forged)
    other = dataclasses.replace(context, seat=1)
    with pytest.raises(ProofError):  # the same proof for another seat: checked, refused
        verify_shuffle(other, key, inp, out, proof)
    assert len(calls) == 3


def test_the_next_shuffler_shuffles_at_once_and_verifies_while_the_others_check_it():
    # SPEC §3.3: the next shuffler starts from the previous deck before verifying it
    table = DeckTable(DeckParams(bytes(32), 0, 3, 0, 12))
    first = []
    for seat in table.seats:
        first += seat.start()
    for envelope in first:  # every commit to every other seat
        sender = open_envelope(envelope, table.seats[0].roster).seat
        for seat in table.seats:
            if seat.seat != sender:
                table.post(seat.seat, seat.receive(envelope))
    (dealer_shuffle,) = table.log  # seat 0 (the dealer) shuffled when the last commit came
    out = table.seats[1].receive(dealer_shuffle)
    assert len(out) == 1 and decode(open_envelope(out[0], table.seats[0].roster).body).seat == 1
    assert len(table.seats[1].deferred) == 1  # shuffled on, not yet verified
    assert table.seats[2].receive(dealer_shuffle) == []  # seat 2 verified it at once
    assert table.seats[2].deferred == []
    table.seats[1].check_deferred()
    assert table.seats[1].deferred == []


def test_a_bad_shuffle_taken_on_trust_is_caught_before_any_card_is_shared():
    """Two seats: the second shuffles on the first's deck before verifying it, and is the
    only one who checks it. The cheat is named before the second seat builds a share."""

    def substitute(deck, shuffled):
        deck[3] = group.hash_to_point(b"a card of nobody's deck")

    table = DeckTable(DeckParams(bytes(32), 0, 2, 0, 12), cheats={0: tampered_shuffle(substitute)})
    with pytest.raises(CheatDetected, match="bad shuffle") as caught:
        table.start()
        table.everyone(lambda seat: seat.deal([(0, 0), (1, 1), (2, ALL)]))
    assert caught.value.sender == 0
    bodies = [decode(open_envelope(e, table.seats[0].roster).body) for e in table.log]
    assert any(isinstance(body, Shuffle) and body.seat == 1 for body in bodies)  # pipelined
    assert not any(isinstance(body, Shares) and body.seat == 1 for body in bodies)
