"""Production `Peer`s on one logical clock, with one inbox per seat that the test
delivers from: who hears what, and when, is the test's choice (the ending tests
reorder an ACK before its step, keep a seat's messages back, advance one peer's clock)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.log.events import Event, Send, SendTo
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.verify import VerifyReport, verify_transcript
from tests.deck_table import Counter
from tests.loopback import transcript_of
from tests.peer_table import make_config


class ClockedTable:
    """`players` peers; the seats in `people` have no bot (their moves would come from
    a client, so they only move when the test says)."""

    def __init__(
        self,
        players: int,
        people: frozenset[int] = frozenset(),
        variant: str = "rummy",
        house: dict[str, str] | None = None,
        stall_after: float = 30.0,
        seed: int = 1,
        replicas: dict[int, type[SeatedReplica]] | None = None,
    ) -> None:
        """`replicas`: another replica class for some seats (a cheat's)."""
        self.config, self.identities = make_config(
            variant, players, house or {"target_score": "15"}
        )
        rng = random.Random(seed)
        self.peers: list[Peer] = []
        for s in range(players):
            kind = (replicas or {}).get(s, SeatedReplica)
            replica = kind(self.config, s, self.identities[s], Counter(b"peer%d-%d" % (s, seed)))
            player = None if s in people else RandomPlayer(random.Random(rng.getrandbits(32)))
            self.peers.append(Peer(replica, player, stall_after))
        self.now = 0.0
        self.inbox: dict[int, deque[tuple[int, bytes]]] = {s: deque() for s in range(players)}
        self.down: set[int] = set()
        """Seats that hear nothing and whose messages are lost (a seat that left)."""

    def post(self, sender: int, events: list[Event]) -> list[Event]:
        if sender in self.down:
            return events
        for event in events:
            if isinstance(event, Send):
                for seat in self.inbox:
                    if seat != sender:
                        self.inbox[seat].append((sender, event.envelope))
            elif isinstance(event, SendTo):
                self.inbox[event.seat].append((sender, event.envelope))
        return events

    def start(self) -> None:
        for peer in self.peers:
            self.post(peer.seat, peer.start(self.now))

    def deliver(self, seat: int, envelope: bytes, via: int | None = None) -> list[Event]:
        return self.post(seat, self.peers[seat].receive(envelope, self.now, via))

    def run(self, until: Callable[[], bool] | None = None, limit: int = 2_000_000) -> None:
        """Deliver every inbox in turn, one envelope at a time, until all are empty (or
        `until()` holds)."""
        for _ in range(limit):
            moved = False
            for seat, inbox in self.inbox.items():
                if seat in self.down:
                    inbox.clear()
                elif inbox:
                    sender, envelope = inbox.popleft()
                    self.deliver(seat, envelope, sender)
                    moved = True
                if until is not None and until():
                    return
            if not moved:
                return
        raise AssertionError("the table did not settle")

    def run_shuffled(self, rng: random.Random, limit: int = 2_000_000) -> None:
        """Like `run`, in a random order that keeps each sender's order to each
        recipient (one TCP connection per pair, some faster than others)."""
        for _ in range(limit):
            for seat in self.down:
                self.inbox[seat].clear()
            ready = [seat for seat, inbox in self.inbox.items() if inbox]
            if not ready:
                return
            seat = rng.choice(ready)
            inbox = self.inbox[seat]
            sender = rng.choice(sorted({s for s, _ in inbox}))
            index = next(i for i, (s, _) in enumerate(inbox) if s == sender)
            envelope = inbox[index][1]
            del inbox[index]
            self.deliver(seat, envelope, sender)
        raise AssertionError("the table did not settle")

    def tick(self, now: float, seats: list[int] | None = None) -> None:
        """Let the clock reach `now` (at `seats` only, or every seat that is up)."""
        self.now = now
        for peer in self.peers:
            if peer.seat not in self.down and (seats is None or peer.seat in seats):
                self.post(peer.seat, peer.tick(now))

    def report(self, seat: int) -> VerifyReport:
        """`rommy verify` on `seat`'s committed records."""
        peer = self.peers[seat]
        return verify_transcript(transcript_of(self.config, self.identities, peer.records))
