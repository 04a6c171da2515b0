"""Whatever fails inside a step is its proposer's fault (issue 24, item 2): an envelope a
step carries signed by another seat (a victim's old ACK as a move's reveal or among a
buy step's answers) names the step's proposer, on every honest peer and in `rommy
verify`; an ACK binds the digest of the step it acknowledges, so a step replaced by
another legal one is never the ACKers' cheat. Production `Peer`s, real signatures."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.engine.moves import Discard, DrawStock, TakeDiscard
from p2p_rommy.engine.state import Phase
from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import Ack, BuyStep, MoveStep, Record, Step, step_digest
from p2p_rommy.log.replica import Observer
from p2p_rommy.log.trouble import decode_step
from p2p_rommy.verify import verify_transcript
from tests.loopback import transcript_of
from tests.peer_table import PeerTable

ATTACKER, VICTIM = 1, 0


def pump(table: PeerTable) -> None:
    """Deliver everything queued (each envelope to every other seat), until quiet."""
    while table.queue:
        sender, envelope = table.queue.popleft()
        for peer in table.peers:
            if peer.seat != sender:
                table.post(peer.seat, sends(peer.receive(envelope)))


def attacker_table() -> PeerTable:
    """A rummy table whose seat 1 (the attacker) moves only when the test says, run until
    it has drawn on its first turn (its hand now holds cards only it has seen)."""
    table = at_attackers_turn()
    attacker = table.peers[ATTACKER]
    assert attacker.replica.state.phase is Phase.DRAW
    table.post(ATTACKER, sends(attacker.submit(DrawStock(ATTACKER))))
    pump(table)
    assert attacker.replica.my_turn() and attacker.replica.state.phase is Phase.PLAY
    return table


def at_attackers_turn() -> PeerTable:
    """Bots at seats 0 and 2, the attacker's moves from the test; run to its first turn."""
    table = PeerTable(
        "rummy",
        3,
        {"target_score": "15"},
        players_factory=lambda s: None if s == ATTACKER else RandomPlayer(random.Random(s)),
    )
    table.run(until=lambda: table.peers[ATTACKER].replica.my_turn())
    pump(table)
    assert table.peers[ATTACKER].replica.my_turn()
    return table


def a_discard_with(table: PeerTable, reveal: bytes) -> tuple[Step, bytes, Step]:
    """The attacker's legal discard of a hidden card, and the same step with `reveal`
    in place of its own shares (signed by the attacker)."""
    attacker = table.peers[ATTACKER]
    rehearsal = copy.deepcopy(attacker.replica)
    slot = rehearsal.state.hands[ATTACKER][0]
    legal = rehearsal.propose_move(Discard(ATTACKER, slot, rehearsal.view().private[slot]))
    assert isinstance(legal.body, MoveStep) and legal.body.reveal is not None
    crafted = replace(legal, body=MoveStep(legal.body.move, reveal))
    return crafted, attacker.replica.identity.sign(crafted.encode()), legal


def test_a_victims_old_ack_as_a_reveal_names_the_proposer_on_every_honest_peer():
    table = attacker_table()
    victims_ack = table.peers[0].records[-1].acks[VICTIM]
    _, envelope, _ = a_discard_with(table, victims_ack)
    for seat in (0, 2):
        honest = table.peers[seat]
        honest.receive(envelope, via=ATTACKER)
        assert honest.frozen and honest.culprit == ATTACKER, honest.frozen
        assert "signed by another seat" in honest.frozen


def test_a_victims_old_ack_among_buy_answers_names_the_sequencer():
    """lp: the sequencer's resolution carries every eligible seat's answer; a victim's
    old ACK among them is the sequencer's doing, not the victim's."""
    table = PeerTable("lp", 4, seed=2)
    table.run(until=lambda: any(p.replica.state.phase is Phase.BUY for p in table.peers))
    checker = next(p for p in table.peers if p.replica.state.phase is Phase.BUY)
    replica = checker.replica
    sequencer = replica.expected_proposer()
    assert sequencer is not None and sequencer != checker.seat
    victim = next(s for s in range(4) if s not in (sequencer, checker.seat))
    victims_ack = checker.records[-1].acks[victim]
    assert replica.buy_window is not None
    step = Step(
        replica.game, replica.n + 1, sequencer, replica.state_hash(),
        BuyStep(replica.buy_window, (victims_ack,)),
    )  # fmt: skip
    with pytest.raises(ProtocolError) as refused:
        replica.validate(step)
    assert refused.value.sender == sequencer


def finished_record_of_attacker(table: PeerTable) -> tuple[int, list[Record]]:
    """The attacker's discard committed with every ACK: its number and the records."""
    attacker = table.peers[ATTACKER]
    _, _, legal = a_discard_with(table, b"")
    table.post(ATTACKER, sends(attacker.submit(legal.body.move)))
    pump(table)
    records = list(table.peers[0].records)
    assert decode_step(records[legal.n - 1].step).seat == ATTACKER
    return legal.n, records


def test_verify_names_the_proposer_not_the_victim_whose_ack_it_embedded():
    table = attacker_table()
    victims_ack = table.peers[0].records[-1].acks[VICTIM]
    _, envelope, _ = a_discard_with(table, victims_ack)
    n, records = finished_record_of_attacker(table)
    forged = [*records[: n - 1], Record(envelope, records[n - 1].acks)]
    report = verify_transcript(transcript_of(table.config, table.identities, forged))
    assert report.status == "cheating" and report.culprit == ATTACKER, report.verdict()
    assert report.step == n


def drawn_at(records: list[Record]) -> int:
    """The number of the attacker's draw (a deck step for its card follows it)."""
    draw = MoveStep(DrawStock(ATTACKER), None)
    return next(i + 1 for i, r in enumerate(records) if decode_step(r.step).body == draw)


def _replaced(table: PeerTable, n: int, records: list[Record]) -> bytes:
    """The attacker's committed step `n` (its draw) replaced by another legal one."""
    original = decode_step(records[n - 1].step)
    other = replace(original, body=MoveStep(TakeDiscard(ATTACKER), None))
    return table.identities[ATTACKER].sign(other.encode())


def test_a_committed_step_replaced_by_another_legal_one_names_its_proposer_in_verify():
    table = attacker_table()
    records = list(table.peers[0].records)
    n = drawn_at(records)
    forged = [*records[: n - 1], Record(_replaced(table, n, records), records[n - 1].acks)]
    report = verify_transcript(transcript_of(table.config, table.identities, forged))
    # before v5 the first honest seat "ACKed another state"; the attacker's own ACK binds
    # the step it really proposed
    assert report.status == "cheating" and report.culprit == ATTACKER, report.verdict()


def test_a_replaced_step_with_a_fresh_own_ack_is_never_fair_and_names_no_honest_seat():
    table = attacker_table()
    attacker = table.peers[ATTACKER]
    records = list(table.peers[0].records)
    n = drawn_at(records)
    step = _replaced(table, n, records)
    # the attacker ACKs its new step itself: its state hash from a replica at step n - 1
    observer = Observer(table.config)
    for record in records[: n - 1]:
        observer.check_certificate(decode_step(record.step), record.acks, step_digest(record.step))
        observer.commit()
    state = observer.validate(decode_step(step)).hash
    own = Ack(table.config.game_id, n, ATTACKER, step_digest(step), state)
    acks = list(records[n - 1].acks)
    acks[ATTACKER] = attacker.replica.identity.sign(own.encode())
    forged = [*records[: n - 1], Record(step, tuple(acks))]
    report = verify_transcript(transcript_of(table.config, table.identities, forged))
    assert report.status == "cheating", report.verdict()
    assert report.culprit is None and "another step" in (report.what or "")


def test_acks_of_two_steps_from_a_two_faced_proposer_blame_the_proposer_never_the_acker():
    """The attacker sends its draw to seat 0 and a take to seat 2: each ACKs what it got.
    The ACK of another step freezes a peer naming nobody (not the ACKer); the step it
    then sends to all proves the proposer two-faced."""
    table = at_attackers_turn()
    attacker = table.peers[ATTACKER]
    replica = attacker.replica
    draw = Step(
        replica.game, replica.n + 1, ATTACKER, replica.state_hash(),
        MoveStep(DrawStock(ATTACKER), None),
    )  # fmt: skip
    take = replace(draw, body=MoveStep(TakeDiscard(ATTACKER), None))
    to_0, to_2 = replica.identity.sign(draw.encode()), replica.identity.sign(take.encode())
    acks_0 = sends(table.peers[0].receive(to_0, via=ATTACKER))
    acks_2 = sends(table.peers[2].receive(to_2, via=ATTACKER))
    evidence_0 = sends(table.peers[0].receive(acks_2[0], via=2))
    evidence_2 = sends(table.peers[2].receive(acks_0[0], via=0))
    for peer in (table.peers[0], table.peers[2]):
        assert peer.frozen and peer.culprit is None, peer.frozen  # never the ACKer
        assert "ACKed another step" in peer.frozen
    table.peers[2].receive(evidence_0[0], via=0)
    table.peers[0].receive(evidence_2[0], via=2)
    for peer in (table.peers[0], table.peers[2]):
        assert peer.culprit == ATTACKER and "signed two different steps" in (peer.frozen or "")
