"""The audit replays a round from the seeds: the second, independent line of defence."""

from __future__ import annotations

import hashlib

import msgpack

from p2p_rommy.deck import ALL, DeckParams, DeckSeat, audit_round
from p2p_rommy.deck.messages import Shuffle
from p2p_rommy.deck.proofs import ShuffleContext, prove_shuffle, shuffle
from tests.deck_table import DeckTable

PARAMS = DeckParams(hashlib.sha256(b"audit tests").digest(), 2, 3, 1, 12)


def finished_table(cheats=None) -> DeckTable:
    table = DeckTable(PARAMS, cheats=cheats)
    table.start()
    table.everyone(lambda s: s.deal([(0, 0), (1, 1), (2, 2), (3, ALL)]))
    table.everyone(lambda s: s.draw(4, 2))
    table.everyone(lambda s: s.reveal(2, [4]))
    table.everyone(lambda s: s.finish())
    return table


def test_a_clean_round_is_fair_and_yields_every_card():
    table = finished_table()
    report = audit_round(PARAMS, table.public_keys, table.log)
    assert report.fair and report.complete
    assert sorted(report.cards.values()) == list(range(12))
    assert report.given == {0: 0, 1: 1, 2: 2, 3: ALL, 4: 2}
    assert report.shown == {3: report.cards[3], 4: report.cards[4]}


def test_an_unfinished_round_is_checked_as_far_as_it_can_be():
    table = DeckTable(PARAMS)
    table.start()
    table.everyone(lambda s: s.deal([(0, 0), (1, 1)]))
    report = audit_round(PARAMS, table.public_keys, table.log, finished=False)
    assert report.fair and not report.complete and "not over" in report.pending[0]
    forfeit = audit_round(PARAMS, table.public_keys, table.log)
    assert {f.seat for f in forfeit.findings} == {0, 1, 2}
    assert all("forfeit" in f.what for f in forfeit.findings)


def test_a_shuffle_with_a_valid_proof_but_not_from_the_seed_is_caught_at_the_audit():
    # the proof shows a correct shuffle under the committed key; only the audit sees the
    # permutation was not the one the committed seed derives
    class OwnPermutation(DeckSeat):
        def _my_shuffle(self, shuffled):
            p = self.params
            scalar = self._scalar(shuffled.index)
            key = shuffled.keys[self.seat]
            permutation = tuple(reversed(range(shuffled.size)))
            source = shuffled.decks[-1] if shuffled.decks else shuffled.points
            deck = shuffle(scalar, permutation, source)
            proof = prove_shuffle(
                ShuffleContext(p.game, p.round_no, 0, self.seat, self.binding),
                scalar,
                key,
                permutation,
                source,
                deck,
                self.entropy,
            )
            return Shuffle(p.game, p.round_no, self.seat, self.context, 0, key, deck, proof)

    table = finished_table(cheats={2: OwnPermutation})
    report = audit_round(PARAMS, table.public_keys, table.log)
    assert [(f.seat, "does not replay from the seed" in f.what) for f in report.findings] == [
        (2, True)
    ]
    step = report.findings[0].step
    assert msgpack.unpackb(msgpack.unpackb(table.log[step])[2])["kind"] == "deck/shuffle"


def test_a_flipped_signature_byte_is_a_finding_at_its_step():
    table = finished_table()
    log = list(table.log)
    version, key, body, signature = msgpack.unpackb(log[5])
    signature = bytes([signature[0] ^ 1]) + signature[1:]
    log[5] = msgpack.packb([version, key, body, signature])
    report = audit_round(PARAMS, table.public_keys, log)
    assert any(f.step == 5 and "bad signature" in f.what for f in report.findings)
