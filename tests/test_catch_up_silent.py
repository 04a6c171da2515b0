"""Catch-up that a silent seat cannot block (issue 24, item 6) and that a lost ask or
answer cannot stop (issue 31, item 2): a restarted peer asks every seat, asks again on
a bounded schedule, and goes on once every seat answered or was given up on, reporting
the silent one as stalling. Production `Peer`s on a logical clock, with the catch-up
answers addressed to one seat (`SendTo`) delivered as the mesh would."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.log.events import Event, Stalled, sends, sends_to
from p2p_rommy.log.messages import Sync, decode
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.wire.identity import envelope_body
from tests.deck_table import Counter
from tests.peer_table import PeerTable

RESTARTED = 0
Drop = Callable[[int, int, bytes], bool]


class Clocked:
    """Peers on one logical clock: every envelope reaches its recipients at once (in
    order), unless `drop(sender, recipient, envelope)` says it is lost."""

    def __init__(self, table: PeerTable, drop: Drop) -> None:
        self.peers = table.peers
        self.drop = drop
        self.now = 0.0
        self.queue: deque[tuple[int, int, bytes]] = deque()
        self.events: dict[int, list[Event]] = {p.seat: [] for p in table.peers}

    def post(self, sender: int, out: list[Event]) -> None:
        self.events[sender] += out
        for envelope in sends(out):
            self.queue.extend((sender, p.seat, envelope) for p in self.peers if p.seat != sender)
        self.queue.extend((sender, seat, envelope) for seat, envelope in sends_to(out))

    def deliver(self) -> None:
        while self.queue:
            sender, recipient, envelope = self.queue.popleft()
            if not self.drop(sender, recipient, envelope):
                peer = self.peers[recipient]
                self.post(recipient, peer.receive(envelope, self.now, sender))

    def run_for(self, seconds: float, step: float = 0.1) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = round(self.now + step, 6)
            for peer in self.peers:
                self.post(peer.seat, peer.tick(self.now))
            self.deliver()


def restart(table: PeerTable, seat: int) -> Peer:
    """`seat` restarted from its committed records and its round seed (`rommy resume`)."""
    old = table.peers[seat]
    assert old.replica.deck is not None
    seeds = {old.replica.deck.seat.params.round_no: old.replica.deck.seat.seed.value}
    replica = SeatedReplica(
        table.config, seat, table.identities[seat], Counter(b"again %d" % seat), seeds=seeds
    )
    records = list(old.records)
    for record in records:
        replica.restore(record.step, record.acks)
    peer = Peer(replica, RandomPlayer(random.Random(7)), records=records)
    table.peers[seat] = peer
    return peer


def a_restarted_table() -> PeerTable:
    """Three bots some way into a rummy round; seat 0 then restarts from its files."""
    table = PeerTable("rummy", 3, {"target_score": "15"})
    table.run(until=lambda: table.peers[0].replica.n >= 40)
    table.queue.clear()
    restart(table, RESTARTED)
    return table


def is_sync_reply(envelope: bytes) -> bool:
    message = decode(envelope_body(envelope))
    return isinstance(message, Sync) and not message.ask


def test_one_lost_catch_up_answer_does_not_keep_a_restarted_seat_catching_up():
    """Issue 31 (2): seat 1's first answer to the restarted seat is lost on the way."""
    table = a_restarted_table()
    lost = []

    def drop(sender: int, recipient: int, envelope: bytes) -> bool:
        if sender == 1 and recipient == RESTARTED and is_sync_reply(envelope) and not lost:
            lost.append(envelope)
            return True
        return False

    clock = Clocked(table, drop)
    n = table.peers[RESTARTED].replica.n
    clock.post(RESTARTED, table.peers[RESTARTED].start(clock.now))
    clock.deliver()
    assert lost and table.peers[RESTARTED].catching_up
    clock.run_for(10.0)
    restarted = table.peers[RESTARTED]
    assert not restarted.catching_up
    assert restarted.replica.n > n + 5  # the game went on, with it
    assert not any(isinstance(e, Stalled) for e in clock.events[RESTARTED])


def test_a_silent_seat_cannot_keep_a_restarted_seat_from_playing():
    """Issue 24 (6): seat 2 answers the restarted seat nothing, ever (its other
    messages reach everyone). The restarted seat goes on without its answer, reports
    seat 2 as the one stalling, and nobody reports the restarted seat."""
    table = a_restarted_table()

    def drop(sender: int, recipient: int, envelope: bytes) -> bool:
        return sender == 2 and recipient == RESTARTED and is_sync_reply(envelope)

    clock = Clocked(table, drop)
    n = table.peers[RESTARTED].replica.n
    clock.post(RESTARTED, table.peers[RESTARTED].start(clock.now))
    clock.deliver()
    clock.run_for(20.0)
    restarted = table.peers[RESTARTED]
    assert not restarted.catching_up
    assert restarted.catch_up.silent == [2]
    stalls = [e.stall for e in clock.events[RESTARTED] if isinstance(e, Stalled)]
    assert [s.seat for s in stalls] == [2] and "catch-up" in str(stalls[0])
    assert restarted.replica.n > n + 5  # it plays again
    clock.run_for(STALL_AFTER_S)
    for seat in (1, 2):
        reported = [e.stall.seat for e in clock.events[seat] if isinstance(e, Stalled)]
        assert RESTARTED not in reported


def test_the_catch_up_schedule_is_bounded_and_a_late_answer_counts():
    """The asks to a silent seat: 1, 2, 4, 8 s apart, then given up on, once; a seat
    given up on that answers after all is no longer silent; nobody answering at all
    for `ALONE_AFTER_S` since the first ask leaves the seat alone (the others have
    gone); not before (a seat paused or cut off 15-25 s is no reason to leave)."""
    from p2p_rommy.limits import ALONE_AFTER_S, CATCH_UP_ASKS
    from p2p_rommy.log.catch_up import CatchUp

    catch_up = CatchUp(0, 3, restarted=True)
    catch_up.ask([1, 2], 10, 0.0)
    asked_at, now = [], 0.0
    while catch_up.catching_up and now < 60:
        now = round(now + 0.1, 6)
        again, _ = catch_up.overdue(now)
        if again:
            asked_at.append(now)
            catch_up.ask(again, 10, now)
        catch_up.caught_up()
    assert asked_at == [1.0, 3.0, 7.0] and len(asked_at) == CATCH_UP_ASKS - 1
    assert now == 15.0 and catch_up.silent == [1, 2]
    assert not catch_up.lonely(now) and not catch_up.lonely(ALONE_AFTER_S - 0.1)
    assert catch_up.lonely(ALONE_AFTER_S) and catch_up.alone
    assert not catch_up.lonely(ALONE_AFTER_S + 1)  # said once
    catch_up.ask([1], 10, now)  # a link comes up again: asked once more, not listed twice
    assert catch_up.silent == [1, 2]
    catch_up.answered(1, behind=False)
    assert catch_up.silent == [2] and not catch_up.alone
