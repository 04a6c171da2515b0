"""`rommy verify` does each thing once (issue #27): every envelope opened once, every
body decoded once, and a finished round's proofs left to the round's replay from the
seeds, which shows what each proof claims; where that replay is not clean (or never
comes) the proofs are checked after all, and the first bad one is named exactly as a
check at its step would have named it (docs/decisions.md, "Verify does each thing
once")."""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter
from collections.abc import Callable

import pytest

from p2p_rommy import verify as verify_module
from p2p_rommy.deck import ALL, DeckParams, DeckSeat, audit_round, proofs
from p2p_rommy.deck import audit as audit_module
from p2p_rommy.deck import messages as deck_messages
from p2p_rommy.deck import seat as seat_module
from p2p_rommy.deck.derive import card_point
from p2p_rommy.errors import CheatDetected, ProtocolError
from p2p_rommy.log import buy_checks, certificates
from p2p_rommy.log import replica as replica_module
from p2p_rommy.verify import verify_transcript
from tests import adversaries as adv
from tests.adversaries import Cheat, play_against
from tests.deck_table import DeckTable
from tests.test_deck_cheats import tampered_shuffle

GAME = hashlib.sha256(b"verify once").digest()
PARAMS = DeckParams(GAME, 0, 3, 0, 12)


@pytest.fixture(scope="module")
def clean(clean_rummy: bytes) -> bytes:
    return clean_rummy  # played once for this module and tests/test_verify.py


def counting(monkeypatch, module, name: str, key: Callable[..., bytes], seen: Counter) -> None:
    real = getattr(module, name)

    def counted(*args, **kwargs):
        seen[key(*args)] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_verify_opens_each_envelope_and_decodes_each_body_once(monkeypatch, clean):
    opened: Counter[bytes] = Counter()
    decoded: Counter[bytes] = Counter()
    replica_modules = (replica_module, buy_checks, certificates)  # the replica's parts
    for module in (verify_module, *replica_modules, seat_module, audit_module):
        counting(monkeypatch, module, "open_envelope", lambda data, roster: data, opened)
    # an ACK is compared with the envelope it must be and its signature checked, once
    counting(monkeypatch, certificates, "is_envelope_of", lambda data, *rest: data, opened)
    counting(monkeypatch, verify_module, "decode", lambda data, sender=None: data, decoded)
    for module in (buy_checks, certificates):
        counting(monkeypatch, module, "decode_log", lambda data, sender=None: data, decoded)
    for module in (seat_module, audit_module):
        counting(monkeypatch, module, "decode", lambda data, sender=None: data, decoded)
    shuffles_checked: list[int] = []
    shares_checked: list[int] = []
    real_shuffle, real_share = proofs._verify_shuffle, seat_module.verify_shares
    monkeypatch.setattr(
        proofs,
        "_verify_shuffle",
        lambda *a: shuffles_checked.append(a[0].round_no) or real_shuffle(*a),
    )
    monkeypatch.setattr(
        seat_module, "verify_shares", lambda *a: shares_checked.append(1) or real_share(*a)
    )
    proofs.forget_verified()

    report = verify_transcript(clean)

    assert report.status == "fair", report.text()
    assert report.rounds and all(r.round_no == i for i, r in enumerate(report.rounds))
    assert len(opened) > 3 * report.steps  # every step, its ACKs and the deck messages
    assert max(opened.values()) == 1, [n for n in opened.values() if n > 1]
    assert max(decoded.values()) == 1
    # every round finished and its audit replayed it from the seeds: no proof of it
    # checked; only the next round's deck, shuffled in the background and dropped when
    # the match ended (SPEC §3.3: no seeds, no replay), has its shuffles checked, once
    assert report.finished and not shares_checked
    assert set(shuffles_checked) <= {len(report.rounds)}, shuffles_checked
    assert len(shuffles_checked) <= 3


def deck_log_with(cheats) -> list[bytes]:
    """A round's deck envelopes up to (and with) the first one an honest seat refuses."""
    table = DeckTable(PARAMS, cheats=cheats)
    with pytest.raises(CheatDetected):
        table.start()
    return table.log


def substitute(deck, shuffled):
    deck[3] = card_point(GAME, 0, 0, 99)


@pytest.mark.parametrize("cheater", [0, 1, 2])
def test_a_bad_shuffle_left_to_the_replay_is_named_as_at_its_step(cheater):
    log = deck_log_with({cheater: tampered_shuffle(substitute)})
    keys = DeckTable(PARAMS).public_keys
    checking = DeckSeat(PARAMS, -1, None, keys, eager=False)
    replaying = DeckSeat(PARAMS, -1, None, keys, eager=False, replay_proofs=True)
    with pytest.raises(CheatDetected) as at_once:
        for envelope in log:
            checking.receive(envelope)
    for envelope in log:  # takes the bad shuffle on the replay's word
        replaying.receive(envelope)
    assert replaying.unproven
    with pytest.raises(CheatDetected) as later:
        replaying.check_unproven()
    assert (later.value.sender, later.value.reason, later.value.step) == (
        at_once.value.sender,
        at_once.value.reason,
        at_once.value.step,
    )
    assert later.value.sender == cheater and "bad shuffle" in later.value.reason


def test_a_bad_share_left_to_the_replay_is_named_as_at_its_step():
    class BadShare(DeckSeat):
        def _my_shares(self, task):
            honest = super()._my_shares(task)
            first = honest.items[0]
            broken = deck_messages.ShareItem(
                first.position, first.recipient, card_point(GAME, 0, 0, 50)
            )
            return deck_messages.Shares(
                honest.game,
                honest.round_no,
                honest.seat,
                honest.prev,
                (broken, *honest.items[1:]),
                honest.proofs,
            )

    table = DeckTable(PARAMS, cheats={1: BadShare})
    table.start()
    with pytest.raises(CheatDetected):
        table.everyone(lambda seat: seat.deal([(0, 0), (1, 2)]))
    checking = DeckSeat(PARAMS, -1, None, table.public_keys, eager=False)
    replaying = DeckSeat(PARAMS, -1, None, table.public_keys, eager=False, replay_proofs=True)
    for seat in (checking, replaying):
        seat.deal([(0, 0), (1, 2)])
    with pytest.raises(ProtocolError) as at_once:
        for envelope in table.log:
            checking.receive(envelope)
    for envelope in table.log:
        replaying.receive(envelope)
    with pytest.raises(CheatDetected) as later:
        replaying.check_unproven()
    assert (later.value.sender, later.value.reason, later.value.step) == (
        at_once.value.sender,
        at_once.value.reason,
        at_once.value.step,
    )
    assert later.value.sender == 1 and "bad share" in later.value.reason


def test_verify_names_a_bad_shuffle_where_a_check_at_its_step_would(monkeypatch):
    """The round never reaches its seeds: the proofs left to its replay are checked when
    the transcript ends, and the finding is the one a proof check at once makes."""
    shuffle = adv.tampered_shuffle(adv.substitute_card)
    table = asyncio.run(
        play_against(
            Cheat(replica=adv.cheating_deck(shuffle)), 1, adv.all_frozen, players=2, seed=3
        )
    )
    replayed = verify_transcript(table.transcript)
    monkeypatch.setattr(verify_module._Verifier, "replay_proofs", False)
    proofs.forget_verified()
    checked = verify_transcript(table.transcript)
    assert replayed.culprit == checked.culprit == 1
    assert "bad shuffle" in replayed.text()
    assert (replayed.step, replayed.what, replayed.steps, replayed.status) == (
        checked.step,
        checked.what,
        checked.steps,
        checked.status,
    )


def test_the_audit_follows_the_seeds_permutations_to_the_cards_each_seat_learned():
    """Where every shuffle replays from its seed the audit composes the permutations
    instead of stripping every layer off the final deck: the same cards, for free."""
    table = DeckTable(PARAMS)
    table.start()
    table.everyone(lambda seat: seat.deal([(0, 0), (1, 1), (2, 2), (3, 0), (4, ALL)]))
    table.everyone(lambda seat: seat.finish())
    multiplied: list[int] = []
    real = audit_module._mul_or_nothing
    audit_module._mul_or_nothing = lambda *a: multiplied.append(1) or real(*a)
    try:
        report = audit_round(PARAMS, table.public_keys, table.log)
    finally:
        audit_module._mul_or_nothing = real
    assert report.fair and report.complete
    assert sorted(report.cards.values()) == list(range(12))
    for seat in table.seats:
        assert seat.known and all(report.cards[p] == card for p, card in seat.known.items())
    assert len(multiplied) == 4 * 2 + 3  # the shares alone: two strippers, three for all


def test_a_record_s_acks_are_checked_without_decoding_them(monkeypatch, clean):
    """Issue #27: an ACK's body is known before it is read (this step's digest, the state
    computed here), so each ACK is compared with the one envelope it must be and its
    signature checked: no ACK body is decoded on a clean transcript, and every ACK's
    signature is still checked once (`tests/test_verify.py` has the altered ones)."""
    decoded: list[str] = []
    for module in (buy_checks, certificates):  # the replica's parts that decode log bodies
        real_decode = module.decode_log
        monkeypatch.setattr(
            module,
            "decode_log",
            lambda data, sender=None, real_decode=real_decode: (
                decoded.append(type(real := real_decode(data, sender)).__name__) or real
            ),
        )
    checked: Counter[bytes] = Counter()
    counting(monkeypatch, certificates, "is_envelope_of", lambda data, *rest: data, checked)
    report = verify_transcript(clean)
    assert report.status == "fair", report.text()
    assert "Ack" not in decoded
    players = len(report.config.seats)
    assert sum(checked.values()) == players * report.steps and max(checked.values()) == 1
