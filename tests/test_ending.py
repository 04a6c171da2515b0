"""Ending a game without a seat, attacked and raced with production `Peer`s on a
logical clock (tests/clocked_table.py): an end needs time measured by each signer
(SPEC §4.4 "Ending without a seat"), its ACKs may come before it (issue 31, 1), and the
step it replaces is never evidence against its proposer (issue 24, 8)."""

from __future__ import annotations

from collections import deque

import pytest

from p2p_rommy.engine.moves import DrawStock, TakeDiscard
from p2p_rommy.log.events import Frozen, sends
from p2p_rommy.log.messages import Ack, EndStep, MoveStep, Step, decode, step_digest
from p2p_rommy.wire.codec import unpack
from tests.clocked_table import ClockedTable


def message(envelope: bytes) -> object:
    return decode(unpack(envelope)[2])


def acks(envelopes: list[bytes]) -> list[bytes]:
    return [e for e in envelopes if isinstance(message(e), Ack)]


def own_acks(envelopes: list[bytes], seat: int) -> set[bytes]:
    """The ACKs `seat` signed among `envelopes` (a committed end goes to all once more
    with every ACK of it: SPEC §4.4 "Catch-up and resync")."""
    return {e for e in acks(envelopes) if getattr(message(e), "seat", None) == seat}


def the_step(envelopes: list[bytes]) -> bytes:
    (step,) = [e for e in envelopes if isinstance(message(e), Step)]
    return step


def thinking(players: int = 3) -> ClockedTable:
    """The last seat, a person, is in turn and thinking; every peer saw its turn begin at
    t = 100."""
    table = ClockedTable(players, people=frozenset({players - 1}))
    table.now = 100.0
    table.start()
    table.run()
    assert table.peers[-1].replica.my_turn()
    return table


def forged_end(table: ClockedTable, proposer: int, absent: int) -> tuple[bytes, bytes]:
    """An end step and its proposer's ACK, made without the proposer's own clock (as a
    cheating proposer would)."""
    replica = table.peers[proposer].replica
    step = replica.propose_end((absent,), "did not come back")
    assert replica.tentative is not None
    envelope = replica.identity.sign(step.encode())
    ack = Ack(replica.game, step.n, proposer, step_digest(envelope), replica.tentative.hash)
    return envelope, replica.identity.sign(ack.encode())


# --- an end needs time, measured by each signer (issue 24, 1) ---------------------------


def test_the_proposer_does_not_end_a_seat_that_has_been_in_turn_for_a_moment():
    table = thinking()
    assert table.peers[0].end_game(2, 100.05) == []
    assert table.peers[0].replica.tentative is None


def test_a_signer_holds_an_early_end_until_it_has_waited_itself_then_signs():
    """Issue 24, 1: seat 1 ended seat 3 out 0.05 s into its turn, and seat 2 signed at
    once. Now seat 2 holds the end until its own clock says it has waited the stall
    limit (30 s) for seat 3's move, then ACKs it."""
    table = thinking()
    step, ack0 = forged_end(table, 0, 2)
    table.now = 100.05
    assert acks(sends(table.peers[1].receive(step, 100.05, 0))) == []
    assert acks(sends(table.peers[1].receive(ack0, 100.05, 0))) == []
    assert acks(sends(table.peers[1].tick(129.0))) == []  # 29 s: not yet
    out = table.peers[1].tick(130.1)
    assert len(own_acks(sends(out), 1)) == 1
    assert table.peers[1].replica.ended == ((2,), "did not come back")


def test_a_held_end_is_dropped_once_the_seat_moves():
    table = thinking()
    step, ack0 = forged_end(table, 0, 2)
    table.peers[0].replica.tentative = None  # the cheat takes its end back
    table.peers[1].receive(step, 100.05, 0)
    table.peers[1].receive(ack0, 100.05, 0)
    # the person moves after 20 s: the table moves on
    mover = table.peers[2]
    table.now = 120.0
    table.post(2, mover.submit(DrawStock(2), 120.0))
    table.run()
    assert table.peers[1].replica.n == mover.replica.n
    assert acks(sends(table.peers[1].tick(131.0))) == []
    assert table.peers[1].replica.ended is None and table.peers[1].frozen is None


def test_a_signer_that_heard_from_the_seat_since_waits_again():
    """ "With nothing from that seat since": a NACK, an ACK or a step from the awaited
    seat restarts the signer's clock."""
    table = thinking()
    peer = table.peers[1]
    step, ack0 = forged_end(table, 0, 2)
    # seat 3 sends a new ACK for the step in flight (any new word on it counts)
    ahead = Ack(peer.replica.game, peer.replica.n + 1, 2, bytes(32), bytes(32))
    peer.receive(table.peers[2].replica.identity.sign(ahead.encode()), 125.0, 2)
    assert acks(sends(peer.receive(step, 126.0, 0))) == []
    assert acks(sends(peer.receive(ack0, 126.0, 0))) == []
    assert acks(sends(peer.tick(131.0))) == []  # 30 s since the turn began, 6 s since
    assert len(own_acks(sends(peer.tick(155.1)), 1)) == 1


def test_an_honest_end_after_the_stall_limit_forfeits_the_seat_and_verify_names_the_signers():
    table = thinking()
    table.tick(130.5)
    table.post(0, table.peers[0].end_game(2, 130.5))
    table.run()
    assert all(p.replica.ended is not None for p in table.peers[:2])
    report = table.report(0)
    assert report.status == "fair" and report.forfeited == (2,), report.text()
    assert report.ended_by == (0, 1)
    assert "on the word of seats 1 (P1) and 2 (P2)" in report.text()
    assert "(forfeited)" in report.text()


def test_a_seat_cut_off_from_a_signer_proposes_no_end_until_it_hears_from_it():
    """SPEC §4.4 (`CUT_OFF_S`, session 16, seed 21668): seat 1 asks seat 2 again and
    again while the table waits and hears nothing (it is the one cut off, for all it
    can tell): it proposes no end, even past the stall limit, until seat 2 answers."""
    table = thinking()
    proposer = table.peers[0]
    for now in (105.0, 110.0, 115.0, 120.0, 125.0, 130.5):  # its asks go unanswered
        proposer.tick(now)
    assert proposer.catch_up.cut_off(1, 130.5)
    assert proposer.end_set(130.5) == () and proposer.end_game(2, 130.5) == []
    assert proposer.replica.tentative is None
    table.tick(130.5, seats=[1])
    table.run()  # seat 2 is heard from again (its answer, its ACKs)
    assert not proposer.catch_up.cut_off(1, 130.6)
    assert proposer.end_set(130.6) == (2,)
    table.post(0, proposer.end_game(2, 130.6))
    table.run()
    assert all(p.replica.ended is not None for p in table.peers[:2])


def test_the_seat_an_end_leaves_out_commits_it_too_once_every_signer_has_acked():
    """SPEC §4.4: a seat never signs an end that leaves it out, but once it holds the
    ACK of every seat the end does not leave out, the table has ended the game without
    it: it commits the end too, and its own transcript says it forfeited (before
    session 15 it refused the end and waited for ever on seats that had moved on)."""
    table = thinking()
    table.tick(130.5)
    table.post(0, table.peers[0].end_game(2, 130.5))
    table.run()
    left_out = table.peers[2]
    assert left_out.replica.ended is not None and left_out.ousted is None
    assert [p.records[-1].step for p in table.peers[:2]] == [left_out.records[-1].step] * 2
    report = table.report(2)
    assert report.status == "fair" and report.forfeited == (2,), report.text()


def test_at_two_seats_one_seats_word_forfeits_nobody():
    """Issue 24, 1: at a table of two the proposer's own ACK suffices; the game it ends
    is recorded as abandoned, without a standing."""
    table = thinking(players=2)
    table.tick(130.5)
    table.post(0, table.peers[0].end_game(1, 130.5))
    assert table.peers[0].replica.ended is not None
    report = table.report(0)
    assert report.status == "fair" and report.forfeited == (), report.text()
    assert report.ended_by == (0,)
    assert "standing:" not in report.text() and "(forfeited)" not in report.text()
    assert "abandoned on the word of seat 1 (P1) alone" in report.text()
    replica = table.peers[0].replica
    assert replica.forfeited == () and replica.abandoned
    from p2p_rommy.narrate import score_sheet

    sheet = score_sheet(replica.state, ["P1", "P2"], replica.forfeited, abandoned=True)
    assert "Abandoned: no standing" in sheet and "1. P1" not in sheet


# --- an ACK of the end before the end itself (issue 31, 1) ---------------------------------


def test_an_early_ack_of_an_end_is_kept_when_nothing_is_pending():
    """Issue 31, 1: with nothing pending, an ACK of the end that came before the end
    was dropped, and that seat never committed the end."""
    table = thinking(players=4)
    table.tick(131.0)
    step, ack0 = sends(table.peers[0].end_game(3, 131.0))
    (ack1,) = acks(sends(table.peers[1].receive(step, 131.0, 0)))
    late = table.peers[2]
    late.receive(ack1, 131.0, 1)  # seat 2's ACK travels faster than seat 1's end
    late.receive(step, 131.0, 0)
    late.receive(ack0, 131.0, 0)
    assert late.frozen is None
    assert late.replica.ended is not None and late.replica.ended[0] == (3,)


def stuck_on_an_ack(players: int = 4, deck: bool = False) -> ClockedTable:
    """The last seat left while a step of seat 1's (a deck step if `deck`) was in flight
    (past step 20): every other seat holds it with their ACKs and waits for the last one."""
    table = ClockedTable(players)
    table.start()
    first = table.peers[0]

    def seat_1_proposed() -> bool:
        pending = first.pending if first.replica.n >= 20 else None
        return (
            pending is not None
            and pending.step.seat == 0
            and (pending.step.kind == "deck" or not deck)
        )

    table.run(until=seat_1_proposed)
    table.down.add(players - 1)
    table.run()
    n = first.replica.n + 1
    for peer in table.peers[:-1]:
        assert peer.pending is not None and peer.pending.n == n
        assert sorted(peer.pending.acks) == list(range(players - 1))
        assert players != 4 or peer.pending.step.seat == 0  # the end's proposer's own
    return table


def test_an_early_ack_of_an_end_that_replaces_a_pending_step_frames_nobody():
    """Issue 31, 1: with a step pending, an ACK of the end that came before the end froze
    the table naming an honest seat: "seat 2 signed two different ACKs"."""
    table = stuck_on_an_ack()
    table.tick(31.0)
    step, ack0 = sends(table.peers[0].end_game(3, 31.0))
    (ack1,) = acks(sends(table.peers[1].receive(step, 31.0, 0)))
    late = table.peers[2]
    events = late.receive(ack1, 31.0, 1)
    assert not [e for e in events if isinstance(e, Frozen)] and late.frozen is None
    late.receive(step, 31.0, 0)
    late.receive(ack0, 31.0, 0)
    assert late.frozen is None and late.culprit is None
    assert late.replica.ended is not None and late.replica.ended[0] == (3,)


# --- the step an end replaced is no evidence (issue 24, 8) -----------------------------


def test_the_step_an_end_replaced_is_not_evidence_against_its_proposer():
    """Issue 24, 8: the honest seat that ended a game was later "proven" an equivocator
    by the step its end replaced (same seat, same number, another body)."""
    table = stuck_on_an_ack()
    replaced = table.peers[0].pending.envelope
    table.tick(31.0)
    table.post(0, table.peers[0].end_game(3, 31.0))
    table.run()
    for peer in table.peers[:3]:
        assert peer.replica.ended is not None
        peer.receive(replaced, 32.0, 3)  # the old step again, late or relayed
        assert peer.frozen is None and peer.culprit is None
        assert not peer.trouble.evidence
    ended = table.peers[0].records[-1].step
    assert isinstance(message(ended), Step) and isinstance(message(ended).body, EndStep)


# --- deferred proofs first (issue 24, 3) --------------------------------------------------


def bad_first_shuffle() -> ClockedTable:
    """Seat 1 (the dealer) shuffles first, substituting a card; seat 2 shuffles next and
    takes the proof on trust for now (SPEC §3.3); seat 3 verifies it at once and refuses."""
    from tests.adversaries import cheating_deck, substitute_card, tampered_shuffle

    cheat = cheating_deck(tampered_shuffle(substitute_card))
    table = ClockedTable(3, replicas={0: cheat})
    table.start()
    table.run(until=lambda: table.peers[1].replica.deferred)
    assert table.peers[1].frozen is None
    return table


def test_a_nack_is_handled_only_after_the_deferred_proof_is_verified():
    """Issue 24, 3: seat 3's NACK of the bad shuffle reached seat 2, which recorded a
    dissent and went on waiting (later signing the cheat's end without seat 3): it
    verifies the proof it deferred first, and stops the table naming the cheat."""
    table = bad_first_shuffle()
    table.run()
    refuser, trusting = table.peers[2], table.peers[1]
    assert refuser.culprit == 0
    assert trusting.culprit == 0 and "bad shuffle" in trusting.frozen
    assert not trusting.trouble.dissents


def test_an_end_is_handled_only_after_the_deferred_proof_is_verified():
    """Issue 24, 3: the bad shuffler proposes to end the game without the seat that
    refused its shuffle (whose NACK was lost); the next shuffler signed it over the
    unverified proof, the bad shuffle vanished from the record, and the honest refuser
    forfeited. Now the end is handled after the proof is verified: the table stops."""
    table = bad_first_shuffle()
    table.down.add(2)
    # seat 3's NACK is lost, and with it the copy of the step seat 1 sends on a NACK
    table.inbox[1] = deque(m for m in table.inbox[1] if isinstance(message(m[1]), Ack))
    table.run()
    trusting = table.peers[1]
    assert trusting.frozen is None and trusting.replica.deferred  # no session check here
    table.tick(100.0, seats=[0])
    end = table.peers[0].replica.propose_end((2,), "refused a shuffle and left")
    envelope = table.peers[0].replica.identity.sign(end.encode())
    out = trusting.receive(envelope, 100.0, 0)
    assert acks(sends(out)) == []
    assert trusting.culprit == 0 and "bad shuffle" in trusting.frozen
    assert trusting.replica.ended is None


# --- a wrong-hash ACK is its signer's, and the others can end without it (issue 24, 7) -----


def test_a_wrong_hash_ack_names_its_signer_and_the_others_end_without_it():
    """Issue 24, 7: one ACK of another state froze the table for good, naming nobody,
    and a frozen table could not end: a losing player escaped its forfeit. Now the
    signer is recorded as refusing the step (its signed ACK kept), the others send the
    step they hold (a two-faced proposer would be proven by it), and they end the game
    without the signer, who forfeits."""
    table = ClockedTable(3)
    table.start()
    table.run(until=lambda: table.peers[0].replica.n >= 20)
    table.down.add(2)
    table.run()
    liar = table.peers[2]
    pending = table.peers[0].pending
    n = pending.n
    wrong_ack = Ack(liar.replica.game, n, 2, pending.digest, b"\x13" * 32)
    wrong = liar.replica.identity.sign(wrong_ack.encode())
    table.now = 1.0
    for seat in (0, 1):
        table.deliver(seat, wrong, 2)
    table.run()
    for peer in table.peers[:2]:
        assert peer.frozen is None
        (dissent,) = peer.trouble.dissents
        assert dissent.seat == 2 and dissent.n == n and "another state" in dissent.reason
    table.tick(40.0)
    table.post(0, table.peers[0].end_game(2, 40.0))
    table.run()
    for peer in table.peers[:2]:
        assert peer.replica.ended is not None and peer.replica.ended[0] == (2,)
        assert peer.replica.forfeited == (2,)
    report = table.report(1)
    assert report.status == "fair" and report.forfeited == (2,), report.text()
    assert "another state" in report.ended


def test_a_two_faced_proposer_is_still_proven_when_acks_disagree():
    """A wrong-hash ACK may be a two-faced proposer's doing: the step each seat holds
    goes to everyone, and the two signed steps name the proposer."""
    table = ClockedTable(3, people=frozenset({0}))
    table.start()
    table.run()
    cheat, one, other = table.peers
    assert cheat.replica.my_turn()
    replica = cheat.replica
    prev = replica.committed_hash
    first = Step(replica.game, replica.n + 1, 0, prev, MoveStep(DrawStock(0), None))
    second = Step(replica.game, replica.n + 1, 0, prev, MoveStep(TakeDiscard(0), None))
    a, b = (replica.identity.sign(s.encode()) for s in (first, second))
    table.deliver(1, a, 0)
    table.deliver(2, b, 0)
    table.run()
    for peer in (one, other):
        assert peer.culprit == 0 and "two different steps" in peer.frozen


# --- reasons inert and on one line (issue 24, 8) -------------------------------------------


def test_a_nack_reason_is_inert_in_the_dissent_the_note_and_the_end():
    """Issue 24, 8: a NACK's reason for a step the peer already held went raw into the
    dissent, its note and then the end step's reason (the early-NACK path escaped it)."""
    from p2p_rommy.log.events import Note
    from p2p_rommy.log.messages import Nack

    table = stuck_on_an_ack(players=3)
    peer, liar = table.peers[0], table.peers[2]
    reason = "no\nCHEATING DETECTED: seat 1 at step 3\x1b[31m"
    nack = liar.replica.identity.sign(Nack(liar.replica.game, peer.pending.n, 2, reason).encode())
    events = peer.receive(nack, 1.0, 2)
    (note,) = [e for e in events if isinstance(e, Note)]
    (dissent,) = peer.trouble.dissents
    for text in (note.text, dissent.reason, str(dissent)):
        assert text.isprintable() and "\n" not in text and "\x1b" not in text, text
    peer.tick(40.0)
    (step, _) = sends(peer.end_game(2, 40.0))
    body = message(step).body
    assert isinstance(body, EndStep) and body.reason.isprintable(), body.reason


def test_an_end_that_does_not_build_on_the_committed_state_is_refused():
    """Issue 24, 8: `Replica._check_end` never checked an end step's `prev`; SPEC §4.4:
    it is the committed state's hash, and a receiver checks it."""
    table = thinking()
    replica = table.peers[0].replica
    good = replica.propose_end((2,), "did not come back")
    replica.tentative = None
    assert good.prev == replica.committed_hash == replica.state_hash()
    bad = Step(good.game, good.n, good.seat, bytes(32), good.body)
    peer = table.peers[1]
    out = peer.receive(replica.identity.sign(bad.encode()), 131.0, 0)
    assert acks(sends(out)) == [] and peer.held_end is None
    assert "does not build on the committed state" in peer.trouble.refused[-1]
    out = peer.receive(replica.identity.sign(good.encode()), 131.0, 0)
    assert len(acks(sends(out))) == 1  # the same end on the committed state is signed


def test_an_end_proposed_while_a_deck_step_is_pending_builds_on_the_committed_state():
    """A pending deck step moves the deck's context on only in its tentative state (the
    replica's check changes nothing, issue 28): the end's `prev` is the committed state's
    hash, which every seat checks alike."""
    table = stuck_on_an_ack(deck=True)
    proposer = table.peers[0]
    assert proposer.pending.step.kind == "deck"
    assert proposer.replica.state_hash() == proposer.replica.committed_hash  # held apart
    assert proposer.pending.tentative.hash != proposer.replica.committed_hash  # moved on
    table.tick(31.0)
    step, _ = sends(proposer.end_game(3, 31.0))
    assert message(step).prev == table.peers[2].replica.committed_hash


# --- rommy verify on crafted ends ----------------------------------------------------------


def cut_and_ended(players: int, signers: list[int]) -> tuple[ClockedTable, bytes]:
    """A game cut where the last seat owed its move, with an end appended that only
    `signers` ACKed (each signature real): what a seat alone could make of its file."""
    from p2p_rommy.log.messages import Record
    from p2p_rommy.log.replica import Observer
    from tests.loopback import transcript_of

    table = thinking(players)
    records = list(table.peers[0].records)
    observer = Observer(table.config)
    for record in records:
        observer.restore(record.step, record.acks)
    absent = players - 1
    proposer = table.peers[0].replica
    end = Step(
        proposer.game, observer.n + 1, 0, observer.committed_hash, EndStep((absent,), "left")
    )
    state = observer.check_end(end, end.body).hash
    slots = [b""] * players
    end_envelope = proposer.identity.sign(end.encode())
    for seat in signers:
        ack = Ack(proposer.game, end.n, seat, step_digest(end_envelope), state)
        slots[seat] = table.identities[seat].sign(ack.encode())
    ended = Record(end_envelope, tuple(slots))
    return table, transcript_of(table.config, table.identities, [*records, ended])


def test_a_self_signed_end_at_two_seats_is_an_abandoned_game_not_a_forfeit():
    """Issue 24, 1: at two seats either player could cut the file where the other owed
    a message and append a self-signed end: FAIR, the other forfeiting. Still a valid
    record, but of an abandoned game: nobody forfeits, no standing, one signer named."""
    from p2p_rommy.verify import verify_transcript

    _, data = cut_and_ended(2, [0])
    report = verify_transcript(data)
    assert report.status == "fair" and report.abandoned and report.forfeited == ()
    assert report.ended_by == (0,) and "standing:" not in report.text()


def test_an_end_with_one_signer_of_two_needed_is_damage_not_a_forfeit():
    from p2p_rommy.verify import verify_transcript

    _, data = cut_and_ended(3, [0])
    report = verify_transcript(data)  # seat 2's ACK is missing: the record is incomplete
    assert report.status == "damaged" and report.culprit is None, report.text()
    assert "seat 2's ACK" in report.damage and report.forfeited == ()
    _, data = cut_and_ended(3, [0, 1])
    report = verify_transcript(data)
    assert report.status == "fair" and report.forfeited == (2,) and report.ended_by == (0, 1)


@pytest.mark.parametrize("seed", range(12))
def test_an_end_commits_everywhere_in_any_delivery_order(seed):
    """Issue 31, 1 as a property: whatever order the end, its ACKs and the replaced
    step's ACKs arrive in (each connection keeping its own order), every seat that
    stayed commits the end, nobody is named and nothing freezes."""
    import random

    table = stuck_on_an_ack()
    rng = random.Random(seed)
    table.tick(31.0)
    table.post(0, table.peers[0].end_game(3, 31.0))
    table.run_shuffled(rng)
    table.tick(62.0)  # held ends, resyncs
    table.run_shuffled(rng)
    for peer in table.peers[:3]:
        assert peer.frozen is None and peer.culprit is None and not peer.trouble.evidence
        assert peer.replica.ended is not None and peer.replica.ended[0] == (3,)
    assert table.peers[0].records[-1] == table.peers[1].records[-1] == table.peers[2].records[-1]
