"""Cheating seats, one behaviour each: every cheat is caught at once, the culprit
named, and the honest seats' state is left as it was."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from nacl import bindings as sodium

from p2p_rommy.deck import ALL, DeckParams, DeckSeat, audit_round, group
from p2p_rommy.deck.derive import card_point, round_permutation
from p2p_rommy.deck.messages import SeedReveal, Shuffle, encode
from p2p_rommy.deck.proofs import (
    SharesContext,
    ShuffleContext,
    prove_shares,
    prove_shuffle,
    shuffle,
)
from p2p_rommy.errors import CheatDetected, ProtocolError
from tests.deck_table import DeckTable

GAME = hashlib.sha256(b"cheat tests").digest()
PARAMS = DeckParams(GAME, 0, 3, 0, 12)


def tampered_shuffle(tamper):
    """A seat that shuffles honestly, tampers with the output, and proves as best it can."""

    class Cheater(DeckSeat):
        def _my_shuffle(self, shuffled):
            honest = super()._my_shuffle(shuffled)
            deck = list(honest.deck)
            tamper(deck, shuffled)
            p = self.params
            source = shuffled.decks[-1] if shuffled.decks else shuffled.points
            scalar = self._scalar(shuffled.index)
            permutation = round_permutation(
                p.game, p.round_no, self.seat, shuffled.index, shuffled.size, self.seed
            )
            context = ShuffleContext(p.game, p.round_no, shuffled.index, self.seat, self.binding)
            try:
                proof = prove_shuffle(
                    context, scalar, honest.key, permutation, source, deck, self.entropy
                )
            except group.GroupError:  # a deck holding a non-point cannot be proven at all
                proof = honest.proof
            return replace(honest, deck=tuple(deck), proof=proof)

    return Cheater


def caught(table: DeckTable, culprit: int, match: str, start=True, then=None):
    with pytest.raises(ProtocolError, match=match) as info:
        if start:
            table.start()
        if then is not None:
            then(table)
    assert info.value.sender == culprit
    return info.value


def test_the_2x_tag_by_the_first_shuffler():
    # ARCHITECTURE: "replace a card by 2*X for a chosen card X and then track X"
    def tag(deck, shuffled):
        deck[0] = group.add(deck[1], deck[1])

    error = caught(DeckTable(PARAMS, cheats={0: tampered_shuffle(tag)}), 0, "bad shuffle")
    assert isinstance(error, CheatDetected)


def test_a_substituted_card():
    def substitute(deck, shuffled):
        deck[3] = card_point(GAME, 0, 0, 99)

    caught(DeckTable(PARAMS, cheats={1: tampered_shuffle(substitute)}), 1, "bad shuffle")


def test_two_output_cards_swapped_after_proving():
    # issue #27: a swapped output is refused by the argument (the challenge hashes the
    # output, and the committed permutation no longer maps it)
    class Swapped(DeckSeat):
        def _my_shuffle(self, shuffled):
            honest = super()._my_shuffle(shuffled)
            deck = list(honest.deck)
            deck[0], deck[1] = deck[1], deck[0]
            return replace(honest, deck=tuple(deck))

    caught(DeckTable(PARAMS, cheats={1: Swapped}), 1, "bad shuffle")


def test_a_wrong_scalar_on_one_card():
    def rescale(deck, shuffled):
        deck[3] = group.mul(group.scalar_from_int(3), deck[3])

    caught(DeckTable(PARAMS, cheats={2: tampered_shuffle(rescale)}), 2, "bad shuffle")


def test_a_proof_made_under_another_round_binding():
    # SPEC §3.5: the challenge hashes the round binding; a proof ground for other
    # commitments (another round, or before this round's were in) is refused
    class Replayed(DeckSeat):
        def _my_shuffle(self, shuffled):
            honest = super()._my_shuffle(shuffled)
            p = self.params
            source = shuffled.decks[-1] if shuffled.decks else shuffled.points
            permutation = round_permutation(
                p.game, p.round_no, self.seat, shuffled.index, shuffled.size, self.seed
            )
            elsewhere = ShuffleContext(p.game, p.round_no, shuffled.index, self.seat, bytes(32))
            proof = prove_shuffle(
                elsewhere,
                self._scalar(shuffled.index),
                honest.key,
                permutation,
                source,
                honest.deck,
                self.entropy,
            )
            return replace(honest, proof=proof)

    caught(DeckTable(PARAMS, cheats={0: Replayed}), 0, "bad shuffle")


def test_a_duplicated_card():
    def duplicate(deck, shuffled):
        deck[3] = deck[4]

    caught(DeckTable(PARAMS, cheats={1: tampered_shuffle(duplicate)}), 1, "duplicated point")


FIELD_PRIME = 2**255 - 19
ORDER8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
"""A point of order 8 on edwards25519 (a generator of its torsion)."""


def test_a_point_outside_the_subgroup():
    # SPEC §3.1: a card plus a torsion point is on the curve but not of order l; taken,
    # it would leak the cofactor part through every later multiplication
    def torsion(deck, shuffled):
        deck[2] = sodium.crypto_core_ed25519_add(deck[2], ORDER8)

    caught(DeckTable(PARAMS, cheats={2: tampered_shuffle(torsion)}), 2, "not a valid group point")


@pytest.mark.parametrize("small", [ORDER8, b"\x01" + bytes(31)], ids=["order 8", "identity"])
def test_a_point_of_small_order(small):
    assert not group.is_point(small)

    def planted(deck, shuffled):
        deck[4] = small

    caught(DeckTable(PARAMS, cheats={1: tampered_shuffle(planted)}), 1, "not a valid group point")


def non_canonical_encodings() -> list[bytes]:
    """Every encoding that is not canonical: y written as y + p (y < 19, both signs of
    x), and x = 0 written with the sign bit set. A lax decoder reducing y mod p, or
    ignoring the sign of a zero x, would read each as a point of the curve."""
    twins = [
        ((FIELD_PRIME + y) | sign << 255).to_bytes(32, "little")
        for y in range(19)
        for sign in (0, 1)
    ]
    negative_zeros = [(y | 1 << 255).to_bytes(32, "little") for y in (1, FIELD_PRIME - 1)]
    return twins + negative_zeros


def test_a_point_written_non_canonically():
    # SPEC §3.1: one encoding per point, or two decks that the proofs and the audit see
    # as different would hold the same cards
    encodings = non_canonical_encodings()
    assert not any(group.is_point(encoding) for encoding in encodings)

    def alias(deck, shuffled):
        deck[2] = encodings[2]  # y = p + 1: the identity to a lax decoder

    caught(DeckTable(PARAMS, cheats={2: tampered_shuffle(alias)}), 2, "not a valid group point")


def test_a_point_not_on_the_curve():
    def garbage(deck, shuffled):
        deck[5] = b"\x02" + b"\xff" * 31  # y = 2^255 - 254 < p: no x on the curve
        assert not group.is_point(deck[5])

    caught(DeckTable(PARAMS, cheats={0: tampered_shuffle(garbage)}), 0, "not a valid group point")


def test_a_shuffle_under_another_key_than_the_committed_one():
    class OtherKey(DeckSeat):
        def _scalar(self, shuffle_pass):
            if self.phase.value == "running":  # after committing, shuffle with another scalar
                return group.scalar_reduce(hashlib.sha512(b"other").digest())
            return super()._scalar(shuffle_pass)

    caught(DeckTable(PARAMS, cheats={1: OtherKey}), 1, "key other than the committed one")

    class OtherScalarSameKey(DeckSeat):
        def _my_shuffle(self, shuffled):
            honest = super()._my_shuffle(shuffled)
            other = group.scalar_reduce(hashlib.sha512(b"other").digest())
            p = self.params
            permutation = round_permutation(
                p.game, p.round_no, self.seat, 0, shuffled.size, self.seed
            )
            source = shuffled.decks[-1] if shuffled.decks else shuffled.points
            deck = shuffle(other, permutation, source)
            proof = prove_shuffle(
                ShuffleContext(p.game, p.round_no, 0, self.seat, self.binding),
                other,
                honest.key,
                permutation,
                source,
                deck,
                self.entropy,
            )
            return replace(honest, deck=deck, proof=proof)

    caught(DeckTable(PARAMS, cheats={2: OtherScalarSameKey}), 2, "bad shuffle")


def _dealt(table: DeckTable):
    table.start()
    return table


def wrong_share(mutate):
    class Cheater(DeckSeat):
        def _my_shares(self, task):
            honest = super()._my_shares(task)
            return replace(honest, items=tuple(mutate(self, item) for item in honest.items))

    return Cheater


def test_a_wrong_share():
    def random_point(seat, item):
        return replace(item, point=card_point(GAME, 0, 0, 77))

    table = DeckTable(PARAMS, cheats={1: wrong_share(random_point)})
    table.start()
    error = caught(
        table,
        1,
        "bad share",
        start=False,
        then=lambda t: t.everyone(lambda s: s.deal([(0, 0), (1, 2)])),
    )
    assert isinstance(error, CheatDetected)
    for seat in table.seats:
        if seat.seat != 1:  # the refused shares were not applied: only commit and shuffle
            assert [o.seat for o in seat.transcript].count(1) == 2
            assert 0 not in seat.known and 1 not in seat.known


def reproven_shares(context_of, mutate=lambda seat, items: items):
    """A seat whose shares are the honest points, changed by `mutate`, with a proof it
    makes itself for the context `context_of` gives (the honest one but for a field)."""

    class Cheater(DeckSeat):
        def _my_shares(self, task):
            honest = super()._my_shares(task)
            items = mutate(self, honest.items)
            scalar = self._scalar(0)
            inputs = [self._chain_point(item.position) for item in items]
            pairs = tuple((item.position, item.recipient) for item in items)
            context = context_of(self, SharesContext(GAME, 0, 0, self.seat, pairs))
            proof = prove_shares(
                context,
                scalar,
                self.passes[0].keys[self.seat],
                inputs,
                [item.point for item in items],
                self.entropy,
            )
            return replace(honest, items=items, proofs=(proof,))

    return Cheater


def test_the_honest_reproof_is_accepted():
    # the cheaters below differ from this seat in one field each
    table = DeckTable(PARAMS, cheats={1: reproven_shares(lambda seat, context: context)})
    table.start()
    table.everyone(lambda s: s.deal([(0, 0), (1, 2)]))
    assert all(seat.idle for seat in table.seats)


def test_a_share_proof_for_other_positions():
    # each item is right, but the proof names other positions: replayed elsewhere
    def other_positions(seat, context):
        return replace(context, items=tuple((p + 1, r) for p, r in context.items))

    table = DeckTable(PARAMS, cheats={1: reproven_shares(other_positions)})
    table.start()
    caught(
        table,
        1,
        "bad share",
        start=False,
        then=lambda t: t.everyone(lambda s: s.deal([(0, 0), (1, 2)])),
    )


def test_two_right_shares_swapped_between_positions():
    # each point is some position's honest share, proven for the swapped order
    def swap(seat, items):
        first, second = items[0], items[1]
        return (replace(first, point=second.point), replace(second, point=first.point))

    table = DeckTable(PARAMS, cheats={1: reproven_shares(lambda seat, c: c, swap)})
    table.start()
    caught(
        table,
        1,
        "bad share",
        start=False,
        then=lambda t: t.everyone(lambda s: s.deal([(0, 0), (1, 2)])),
    )


def test_a_share_proof_from_another_round():
    def other_round(seat, context):
        return replace(context, round_no=1)

    table = DeckTable(PARAMS, cheats={2: reproven_shares(other_round)})
    table.start()
    caught(
        table,
        2,
        "bad share",
        start=False,
        then=lambda t: t.everyone(lambda s: s.deal([(0, 0), (1, 1), (2, ALL)])),
    )


def test_one_share_off_by_one_in_a_110_card_message():
    # issue #27: one batched proof per message still catches a single wrong share: the
    # last of 110 items is the honest point plus B, proven as well as the seat can
    params = DeckParams(GAME, 0, 2, 0, 110)

    def off_by_one(seat, items):
        last = items[-1]
        return (*items[:-1], replace(last, point=group.add(last.point, group.BASE)))

    table = DeckTable(params, cheats={1: reproven_shares(lambda seat, c: c, off_by_one)})
    table.start()
    error = caught(
        table,
        1,
        "bad shares of pass 0",
        start=False,
        then=lambda t: t.everyone(lambda s: s.deal([(k, 0) for k in range(110)])),
    )
    assert isinstance(error, CheatDetected)
    assert 0 not in table.seats[0].known  # refused: nothing was applied


def test_a_commitment_that_does_not_open():
    class Liar(DeckSeat):
        def finish(self):
            p = self.params
            lie = SeedReveal(p.game, p.round_no, self.seat, self.context, b"\x01" * 32)
            return [self.identity.sign(encode(lie))]

    table = DeckTable(PARAMS, cheats={0: Liar})
    table.start()
    table.everyone(lambda s: s.deal([(0, 0), (1, 1), (2, 2)]))
    with pytest.raises(CheatDetected, match="does not open its commitment") as info:
        table.everyone(lambda s: s.finish())
    assert info.value.sender == 0
    report = audit_round(PARAMS, table.public_keys, table.log)
    assert any(f.seat == 0 and "does not open" in f.what for f in report.findings)


def test_different_decks_to_different_seats_is_caught_before_any_card_is_dealt():
    # ARCHITECTURE: "a peer that sends different decks to different peers is caught before
    # any card is dealt": every message names the transcript before it.
    class TwoFaced(DeckSeat):
        def _my_shuffle(self, shuffled):
            self.before = self.context
            return super()._my_shuffle(shuffled)

        def other_shuffle(self):
            shuffled = self.passes[0]
            p = self.params
            scalar = self._scalar(0)
            permutation = tuple(reversed(range(shuffled.size)))
            deck = shuffle(scalar, permutation, shuffled.points)
            key = shuffled.keys[self.seat]
            proof = prove_shuffle(
                ShuffleContext(p.game, p.round_no, 0, self.seat, self.binding),
                scalar,
                key,
                permutation,
                shuffled.points,
                deck,
                self.entropy,
            )
            message = Shuffle(p.game, p.round_no, self.seat, self.before, 0, key, deck, proof)
            return self.identity.sign(encode(message))

    table = DeckTable(PARAMS, cheats={0: TwoFaced})
    dealer, one, two = table.seats
    commits = [seat.start()[0] for seat in table.seats]
    sent_by_dealer = []
    for sender, envelope in enumerate(commits):
        for seat in table.seats:
            if seat.seat != sender:
                out = seat.receive(envelope)
                if seat is dealer:
                    sent_by_dealer += out
    (shown_to_one,) = sent_by_dealer  # the dealer's honest shuffle, once all commits are in
    shown_to_two = dealer.other_shuffle()
    answer = one.receive(shown_to_one)  # seat 1 shuffles on top of deck A
    assert two.receive(shown_to_two) == []  # a valid shuffle on its own: seat 2 takes deck B
    with pytest.raises(ProtocolError, match="does not follow"):
        two.receive(answer[0])
    assert not two.known and two.passes[0].decks[-1] != one.passes[0].decks[-1]
