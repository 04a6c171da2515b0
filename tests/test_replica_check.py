"""`Replica.check(step) -> Tentative` is pure (issue 28): checking a step, good or bad,
changes nothing of the replica or of its decks' seats; the step's deck messages are
taken on a copy of their deck seat (`DeckSeat.fork`), and only `commit` applies the
tentative. The hash a check computes is the one every seat ACKed (SPEC §4.4)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from p2p_rommy.deck import DeckSeat
from p2p_rommy.deck.messages import Shuffle
from p2p_rommy.deck.messages import decode as decode_deck
from p2p_rommy.deck.messages import encode as encode_deck
from p2p_rommy.engine.moves import Discard
from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.messages import Ack, DeckStep, MoveStep, Record, Step
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.wire.identity import envelope_body
from tests.deck_table import Counter
from tests.peer_table import PeerTable

CHECKER = 1
"""The seat whose replica checks the others' steps."""


def deck_digest(seat: DeckSeat) -> bytes:
    """Everything a deck seat holds that a message changes, as one digest."""
    parts = (
        seat.phase.value,
        seat.context,
        sorted(seat.commitments.items()),
        sorted(seat.seeds),
        sorted(seat.chain.items()),
        sorted(seat.assigned.items()),
        sorted(seat.known.items()),
        sorted(seat.public.items()),
        [opened.raw for opened in seat.transcript],
        [(p.index, sorted(p.keys.items()), p.decks) for p in seat.passes],
        [(type(task).__name__, task.cursor) for task in seat.tasks],
        len(seat.deferred),
        len(seat.unproven),
        seat.quiet,
    )
    return hashlib.sha256(repr(parts).encode()).digest()


def replica_digest(replica: SeatedReplica) -> bytes:
    """The committed state of a replica and of its open decks, as one digest."""
    parts: list[object] = [
        replica.n,
        replica.state,
        replica.state_hash(),
        replica.committed_hash,
        replica.tentative,
        replica.last_claims,
        replica.buy_window,
        replica.ended,
    ]
    for deck in replica.open_decks:
        parts += [
            deck_digest(deck.seat),
            deck.log,
            deck.steps,
            list(deck.outbox),
            deck.rebuilt,
            deck.dealt,
        ]
    return hashlib.sha256(repr(parts).encode()).digest()


def acked_state(record: Record) -> bytes:
    """The state hash every seat ACKed for `record`'s step."""
    ack = decode_log(envelope_body(record.acks[0]))
    assert isinstance(ack, Ack)
    return ack.state


@pytest.fixture(scope="module")
def played() -> PeerTable:
    """Three bots some way into a rummy round (past the deal, some turns played)."""
    table = PeerTable("rummy", 3, {"target_score": "15"})
    table.run(until=lambda: table.peers[0].replica.n >= 70)
    return table


def checker(table: PeerTable) -> SeatedReplica:
    """Seat `CHECKER` again, from nothing, with its round seeds (it replays the log)."""
    old = table.peers[CHECKER].replica
    seeds = {deck.seat.params.round_no: deck.seat.seed.value for deck in old.open_decks}
    return SeatedReplica(
        table.config, CHECKER, table.identities[CHECKER], Counter(b"again"), seeds=seeds
    )


def forged(table: PeerTable, step: Step, body: DeckStep | MoveStep) -> bytes:
    """`step` with another body, signed by its own proposer (a proposer that lies)."""
    return table.identities[step.seat].sign(replace(step, body=body).encode())


def test_checking_a_step_twice_changes_nothing_and_gives_the_hash_every_seat_acked(played):
    replica = checker(played)
    checked = {"deck": 0, "move": 0, "reveal": 0}
    for record in played.peers[0].records:
        step = record.decoded_step()
        if step.seat != CHECKER and step.kind in ("deck", "move"):
            before = replica_digest(replica)
            first = replica.check(step)
            second = replica.check(step)
            assert replica_digest(replica) == before  # nothing changed, by digest
            assert first.hash == second.hash == acked_state(record)
            assert replica.tentative is None
            checked[step.kind] += 1
            if isinstance(step.body, MoveStep) and step.body.reveal is not None:
                checked["reveal"] += 1
                assert first.deck is not None and replica.deck is not None
                assert first.deck.seat is not replica.deck.seat  # taken on a copy
        replica.restore(record.step, record.acks)
    assert checked["deck"] >= 10 and checked["move"] >= 5 and checked["reveal"] >= 1, checked
    assert replica.state_hash() == played.peers[0].replica.committed_hash


def test_a_bad_step_is_refused_and_changes_nothing(played):
    """A discard that names another card than its reveal shows, and a shuffle whose deck
    was changed after its proof: each refused deep in the deck's checks, after the copy
    took part of it; the replica and its deck seats are as they were."""
    replica = checker(played)
    refused: list[str] = []
    for record in played.peers[0].records:
        step = record.decoded_step()
        body = step.body
        bad: bytes | None = None
        if step.seat != CHECKER and isinstance(body, MoveStep) and body.reveal is not None:
            move = body.move
            if isinstance(move, Discard) and "move" not in refused:
                lie = replace(move, card=(move.card + 1) % 52)
                bad = forged(played, step, MoveStep(lie, body.reveal))
                refused.append("move")
        if step.seat != CHECKER and isinstance(body, DeckStep) and "shuffle" not in refused:
            message = decode_deck(envelope_body(body.envelope))
            # seat 2's shuffle: the checker never shuffles right after it here, so its
            # proof is verified at once (not deferred, SPEC §3.3)
            if isinstance(message, Shuffle) and message.seat == 2:
                deck = (message.deck[1], message.deck[0], *message.deck[2:])
                envelope = played.identities[step.seat].sign(
                    encode_deck(replace(message, deck=deck))
                )
                bad = forged(played, step, DeckStep(envelope))
                refused.append("shuffle")
        if bad is not None:
            lie_step = decode_log(envelope_body(bad))
            assert isinstance(lie_step, Step)
            before = replica_digest(replica)
            with pytest.raises(ProtocolError) as refusal:
                replica.check(lie_step)
            assert "not the one claimed" in str(refusal.value) or "bad shuffle" in str(
                refusal.value
            )
            assert replica_digest(replica) == before
            # `validate` first settles what the seat owes before another's step (the
            # proofs it shuffled on, SPEC §3.3), then holds only what checked
            replica.check_deferred()
            settled = replica_digest(replica)
            with pytest.raises(ProtocolError):
                replica.validate(lie_step)
            assert replica_digest(replica) == settled
        replica.restore(record.step, record.acks)
    assert sorted(refused) == ["move", "shuffle"]


def test_a_checked_deck_step_is_answered_on_its_copy_and_the_answer_waits_for_commit(played):
    """The seat's own next deck message (its shuffle, its shares) is made as soon as
    another seat's step checks (`validate`: pipelined, SPEC §3.3), but on the held copy:
    it reaches the deck's outbox when the step commits, not before."""
    replica = checker(played)
    replica.wake()  # not replaying: it makes its own messages
    for record in played.peers[0].records:
        step = record.decoded_step()
        if step.seat != CHECKER and step.kind == "deck":
            outbox = list(replica.outbox)
            tentative = replica.validate(step)
            taken = tentative.deck
            assert taken is not None
            if taken.made:
                assert list(replica.outbox) == outbox  # not before it commits
                made = list(taken.made)
                replica.restore(record.step, record.acks)  # commits the step held
                assert list(taken.round.outbox)[-len(made) :] == made
                return
        replica.restore(record.step, record.acks)
    pytest.fail("the checking seat never owed a deck message after another's step")


def test_every_committed_hash_is_worked_out_afresh(monkeypatch):
    """A replica keeps its last `_hash_after` answers with their inputs (issue #31: the
    hash a step's check worked out is asked again once it commits); every seat's
    committed hash after every commit of a game (deals, moves, Køb!, round ends, the
    next round's deck) is still the one SPEC §4.4 gives for what it holds then."""
    from p2p_rommy.engine.encoding import state_hash
    from p2p_rommy.log.replica import Replica
    from p2p_rommy.log.tentative import STATE_DOMAIN
    from p2p_rommy.sim import Spec, run_game

    def afresh(replica: Replica) -> bytes:
        current = replica.deck.seat.context if replica.deck is not None else b""
        later = replica.next_deck.seat.context if replica.next_deck is not None else b""
        return hashlib.sha256(
            STATE_DOMAIN
            + replica.game
            + replica.n.to_bytes(8, "big")
            + state_hash(replica.state)
            + current.ljust(32, b"\0")
            + later.ljust(32, b"\0")
        ).digest()

    checked = []
    commit = Replica._commit

    def checking(replica: Replica, tentative) -> None:
        commit(replica, tentative)
        if replica.ended is None:
            assert replica.committed_hash == afresh(replica), replica.n
            checked.append(replica.n)

    monkeypatch.setattr(Replica, "_commit", checking)
    outcome = run_game(Spec(seed=3, variant="lp", players=3, house=(), bot="easy"), 0.0)
    assert not outcome.violations
    assert len(checked) > 600 and max(checked) == outcome.steps
