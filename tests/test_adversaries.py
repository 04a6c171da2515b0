"""Adversarial peers over real TCP: one cheating peer, one behaviour each, against
honest peers running the production code. Each test says where the cheat is caught
(at once, at the end of the round, or by a timeout), checks that the culprit is
named, and that no honest peer committed a bad state: the honest peers' committed
records agree and verify as FAIR with `rommy verify`.
"""

from __future__ import annotations

import asyncio

import pytest

from p2p_rommy.verify import verify_transcript
from tests import adversaries as adv
from tests.adversaries import Cheat, Table, play_against


def run(cheat: Cheat, cheater: int, until, **kwargs) -> Table:
    return asyncio.run(play_against(cheat, cheater, until, **kwargs))


def assert_nothing_bad_committed(table: Table) -> None:
    logs = [s.peer.records for s in table.honest]
    shortest = min(len(records) for records in logs)
    assert all(records[:shortest] == logs[0][:shortest] for records in logs)
    report = verify_transcript(table.transcript)
    assert report.fair, report.text()


def assert_frozen_naming(table: Table, *words: str) -> None:
    for session in table.honest:
        peer = session.peer
        assert peer.culprit == table.cheater, peer.frozen
        assert f"seat {table.cheater + 1}" in peer.frozen  # people count from 1
        for word in words:
            assert word in peer.frozen, peer.frozen
    assert_nothing_bad_committed(table)


def assert_refused_and_finished(table: Table, *words: str) -> None:
    for session in table.honest:
        peer = session.peer
        assert peer.frozen is None and peer.replica.over
        hits = [r for r in peer.trouble.refused if all(w in r for w in words)]
        assert hits, peer.trouble.refused
    assert_nothing_bad_committed(table)
    report = verify_transcript(table.transcript)
    assert report.finished


# --- caught at once; the bad message is dropped and the game goes on ---------


def test_a_forged_signature_is_refused_and_the_game_finishes():
    table = run(Cheat(session=adv.ForgedSignature), 1, adv.all_over)
    assert_refused_and_finished(table, "from seat 1", "bad signature")


def test_a_replayed_old_step_is_refused_and_the_game_finishes():
    table = run(Cheat(session=adv.Replay), 2, adv.all_over)
    assert_refused_and_finished(table, "from seat 2", "step 5 again", "replay")


def test_a_step_for_another_game_is_refused_and_the_game_finishes():
    table = run(Cheat(session=adv.OtherGame), 0, adv.all_over)
    assert_refused_and_finished(table, "from seat 0", "another game")


def test_a_move_out_of_turn_is_refused_and_the_game_finishes():
    table = run(Cheat(session=adv.OutOfTurn), 1, adv.all_over)
    assert_refused_and_finished(table, "seat 1 proposed step", "out of turn")


def test_a_second_buy_answer_after_the_window_closed_is_named_never_refused():
    """Issue 30, item 13: an answer that arrives after its window closed is jitter, not
    misbehaviour: never a refusal (those are strikes that cut the link). But this cheat
    had answered in the window already, so its late claim is a second, different signed
    answer: proof, as in an open window (SPEC §4.7), and every honest seat names it. A
    seat still in the window holds both whatever the timing, so a seat that had closed
    it must name it too, or the table splits (issue 31: the simulator's seed 213, where
    the others then ended the game without the seat that had named the cheat)."""
    sent_at: list[int] = []

    class CountedLateClaim(adv.LateClaim):
        def tamper(self, out):
            extra = super().tamper(out)
            if extra:
                sent_at.append(self.peer.replica.n)
            return extra

    adv_seat = 2
    table = run(
        Cheat(session=CountedLateClaim),
        adv_seat,
        adv.all_frozen,
        variant="lp",
        house={},
        timeout=300,
    )
    assert sent_at
    assert_frozen_naming(table, "two different Køb! answers")
    for session in table.honest:
        assert not any("window" in r for r in session.peer.trouble.refused)


def test_a_reencoded_envelope_frames_nobody_and_the_game_finishes():
    """Trust issue, attack 1: another seat's signed step or ACK in a longer msgpack form
    (same body, same signature) is refused as not canonical; nobody is named."""
    table = run(Cheat(session=adv.Reencode), 2, adv.all_over)
    assert_refused_and_finished(table, "from seat 2", "canonical")
    for session in table.honest:
        assert session.peer.culprit is None and not session.peer.trouble.evidence
        assert sum("canonical" in r for r in session.peer.trouble.refused) == 2


def test_a_forgery_under_a_weak_key_is_refused_and_the_game_finishes():
    """Trust issue, attack 4: (R = identity, S = 0) under the identity-point key."""
    table = run(Cheat(session=adv.WeakKeyForgery), 1, adv.all_over)
    assert_refused_and_finished(table, "from seat 1", "not seated")


def test_a_chat_line_with_escapes_and_newlines_is_shown_inert():
    """Trust issue, attack 7: a chat line cannot fake another line or steer a terminal."""
    table = run(Cheat(session=adv.ChatInjection), 2, adv.all_over)
    for session in table.honest:
        (line,) = [text for seat, text in session.peer.chat.lines if seat == 2]
        assert line.isprintable() and "\n" not in line and "\x1b" not in line
        assert "I can see your hand" in line
    assert_nothing_bad_committed(table)


def test_a_second_different_buy_answer_is_proof_naming_its_seat():
    # SPEC §4.7 (v5): two different signed answers from one seat for one window are
    # equivocation, kept as proof (issue 25; before v5 the second was only refused)
    def named(honest):
        return all(s.peer.frozen for s in honest) or adv.all_over(honest)

    table = run(Cheat(session=adv.DoubleAnswer), 2, named, variant="lp", house={}, timeout=300)
    assert_frozen_naming(table, "two different Køb! answers")
    for session in table.honest:
        (first, second) = session.peer.trouble.evidence[0]
        assert first != second


def test_claims_listed_in_another_order_change_nothing():
    """Trust issue, attack 3: the order of the answers in a resolution is not a choice."""

    def resolved_reordered(honest):
        return adv.ReorderingSequencer.reordered >= 1 and all(
            s.peer.replica.n >= 80 for s in honest
        )

    adv.ReorderingSequencer.reordered = 0
    table = run(
        Cheat(replica=adv.ReorderingSequencer),
        1,
        resolved_reordered,
        variant="lp",
        players=4,
        house={},
        timeout=300,
    )
    for session in table.honest:
        assert session.peer.frozen is None
    assert_nothing_bad_committed(table)


# --- caught at once; the table stops, naming the culprit ------------------------


def test_an_illegal_meld_stops_the_table_naming_the_cheat():
    table = run(Cheat(replica=adv.IllegalMeld), 1, adv.all_frozen)
    assert_frozen_naming(table, "illegal move")


def test_a_card_not_in_hand_stops_the_table_naming_the_cheat():
    table = run(Cheat(replica=adv.CardNotInHand), 2, adv.all_frozen)
    assert_frozen_naming(table, "illegal move", "not in")


def test_a_wrong_decryption_share_stops_the_table_naming_the_cheat():
    table = run(Cheat(replica=adv.cheating_deck(adv.WrongShare)), 1, adv.all_frozen)
    assert_frozen_naming(table, "bad share")
    assert all(s.peer.replica.state.round_index == 0 for s in table.honest)


def test_a_duplicate_point_in_a_shuffle_stops_the_table_before_the_deal():
    shuffle = adv.tampered_shuffle(adv.duplicate_point)
    table = run(Cheat(replica=adv.cheating_deck(shuffle)), 1, adv.all_frozen)
    assert_frozen_naming(table, "duplicated point")
    for session in table.honest:  # no card was dealt
        assert not session.peer.replica.deck.seat.known


def test_a_first_shuffler_that_substitutes_a_card_is_caught_before_the_deal():
    shuffle = adv.tampered_shuffle(adv.substitute_card)
    # seed 3 with 3 players: seat 0 deals the first round and shuffles first
    table = run(Cheat(replica=adv.cheating_deck(shuffle)), 0, adv.all_frozen, seed=3)
    assert_frozen_naming(table, "bad shuffle")
    for session in table.honest:
        assert session.peer.replica.deck.seat.params.shuffle_order()[0] == 0
        assert not session.peer.replica.deck.seat.known


def test_a_sequencer_that_leaves_out_a_claim_stops_the_table_naming_it():
    """Trust issue, attack 3: the seat in turn cannot steer a Køb by dropping claims
    (or by their order: the winner follows from the set of answers)."""
    table = run(Cheat(replica=adv.SteeringSequencer), 1, adv.all_frozen, variant="lp", house={})
    assert_frozen_naming(table, "leaves out the answers")


def test_equivocation_is_proven_with_both_signed_steps():
    table = run(Cheat(session=adv.Equivocation), 1, adv.all_frozen)
    assert_frozen_naming(table, "signed two different steps")
    for session in table.honest:
        first, second = session.peer.trouble.evidence[0]
        assert first != second  # both envelopes carry seat 1's valid signature


# --- caught at the end of the round -------------------------------------------


def test_a_commitment_that_does_not_open_is_caught_at_the_round_end():
    table = run(Cheat(replica=adv.cheating_deck(adv.UnopenableCommitment)), 1, adv.all_frozen)
    assert_frozen_naming(table, "does not open its commitment")
    assert all(s.peer.replica.state.round_scores for s in table.honest)  # at the round end


def test_lying_about_the_hand_at_scoring_is_caught_at_the_round_end():
    # seed 1: another seat goes out, so the cheater must show its hand (seeded games
    # follow the config: at seed 5 the cheater itself goes out since v5's config)
    table = run(Cheat(replica=adv.LyingHand), 2, adv.all_frozen, seed=1)
    assert_frozen_naming(table)
    for session in table.honest:
        assert "not the one claimed" in session.peer.frozen or "illegal" in session.peer.frozen


# --- a seat that leaves, or refuses a valid step: ended out, and it forfeits -------


def assert_ended_without(table: Table, what: str) -> None:
    for session in table.honest:
        peer = session.peer
        assert peer.frozen is None, peer.frozen
        assert peer.replica.ended is not None and peer.replica.ended[0] == (table.cheater,)
    assert_nothing_bad_committed(table)
    report = verify_transcript(table.transcript)
    assert report.status == "fair" and report.forfeited == (table.cheater,), report.text()
    assert "(forfeited)" in report.text() and what in report.ended
    standing = report.text().split("standing: ")[1].splitlines()[0]
    assert standing.endswith("(forfeited)")  # last, whatever its score


def test_a_player_who_leaves_is_ended_out_and_forfeits():
    """Trust issue, attack 5: leaving (say, after seeing a bad hand) never keeps a lead."""
    table = run(
        Cheat(session=adv.Quitter), 1, adv.all_over, stall_after=2.0, end_after=4.0, timeout=90
    )
    assert_ended_without(table, "did not come back")


def test_a_seat_that_refuses_a_valid_step_is_recorded_and_ended_out():
    """Trust issue, attack 5: one NACK no longer stops the table for good: who refused
    and why is recorded, and the others end the game without it."""
    table = run(
        Cheat(session=adv.FalseRefusal),
        2,
        adv.all_over,
        stall_after=2.0,
        end_after=4.0,
        timeout=90,
    )
    for session in table.honest:
        (dissent,) = session.peer.trouble.dissents
        assert dissent.seat == 2 and dissent.reason == "I do not like this step"
    assert_ended_without(table, "refused step")
    assert "I do not like this step" in verify_transcript(table.transcript).ended


# --- caught by a timeout that names the seat -------------------------------------

WITHHELD_STALL_S = 5.0
"""The stall limit while a seat withholds: the test waits it out, and it stays well
above any honest seat's step (a shuffle included) on a loaded machine, so the one stall
reported is the withholder's."""


@pytest.mark.parametrize(
    ("cheat", "awaited"),
    [
        (Cheat(session=adv.WithholdAck), "its confirmation of the last move"),
        (Cheat(replica=adv.cheating_deck(adv.WithholdSeed)), "its secret for round 1"),
    ],
    ids=["ack", "seed"],
)
def test_a_seat_that_withholds_is_named_after_the_timeout(cheat, awaited):
    table = run(cheat, 2, adv.all_stalled, stall_after=WITHHELD_STALL_S)
    for session in table.honest:
        peer = session.peer
        (stall,) = peer.stall_watch.stalls
        assert stall.seat == 2 and awaited in str(stall.what)
        assert stall.seconds >= WITHHELD_STALL_S
        assert f"seat 3 has not sent {awaited}" in str(stall)  # 1-based, as players count
        assert peer.frozen is None
    assert_nothing_bad_committed(table)


def test_a_bad_shuffle_the_next_shuffler_took_on_trust_stops_the_table_before_any_share():
    """Pipelining (SPEC §3.3): at a table of two, the second seat ACKs the first shuffle
    after checking its form only and shuffles on at once, so nobody has verified the
    first proof when it commits. The second seat verifies it while the first checks its
    shuffle, and stops the table naming the cheater before it shares a single card."""
    shuffle = adv.tampered_shuffle(adv.substitute_card)
    # seed 3 with 2 players: seat 1 deals the first round and shuffles first
    table = run(Cheat(replica=adv.cheating_deck(shuffle)), 1, adv.all_frozen, players=2, seed=3)
    (honest,) = table.honest
    deck = honest.peer.replica.deck.seat
    assert deck.params.shuffle_order() == (1, 0)
    # the bad shuffle, committed on trust; the honest one on top of it was proposed and
    # never committed, so the committed deck does not hold it (issue 28: a step in
    # flight changes only its own copy of the deck)
    assert len(deck.passes[0].decks) == 1
    assert [r.decoded_step().kind for r in honest.peer.records] == ["deck"] * 3
    assert honest.peer.culprit == 1 and "bad shuffle" in honest.peer.frozen
    assert not deck.known and not deck.chain  # not one card shared or learned
    # the bad shuffle was committed (taken on trust); the transcript proves whose it is
    report = verify_transcript(table.transcript)
    assert not report.fair and report.culprit == 1 and "bad shuffle" in report.text()


def all_ended(honest) -> bool:
    return all(s.peer.replica.ended is not None for s in honest)


@pytest.mark.parametrize(
    "cheat", [Cheat(replica=adv.IllegalMeld), Cheat(session=adv.Equivocation)], ids=str
)
def test_a_table_frozen_by_a_cheat_is_ended_without_it_and_it_forfeits(cheat):
    """Issue 24: a frozen table could not end, and the cheat escaped the forfeit that
    leaving costs. Bots' peers (`end_after`) end it at once without the seat their own
    checking named; over TCP their sessions stay open for that end."""
    table = run(cheat, 1, all_ended, end_after=300.0)
    for session in table.honest:
        replica = session.peer.replica
        assert session.peer.culprit == 1 and replica.ended is not None
        assert replica.ended[0] == (1,) and replica.forfeited == (1,)
        assert "seat 2" in replica.ended[1] and "caught cheating" in replica.ended[1]
    report = verify_transcript(table.transcript)
    assert report.fair and report.forfeited == (1,) and report.ended_by == (0, 2), report.text()
