"""In-process seats of the deck protocol joined by a broadcast queue of envelopes.

Each seat object only ever receives bytes: the signed envelopes the others sent,
in the order they were sent (what the log will guarantee on the network).
"""

from __future__ import annotations

from collections import deque

from p2p_rommy.deck import DeckParams, DeckSeat
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity

Counter = StreamEntropy
"""Deterministic entropy for tests: SHAKE-256 of a label and a counter."""


class DeckTable:
    def __init__(self, params: DeckParams, seat_class=DeckSeat, cheats=None, seed: bytes = b"t"):
        self.params = params
        self.identities = [
            Identity.generate(Counter(seed + b"id%d" % s)) for s in range(params.players)
        ]
        keys = [identity.public_key for identity in self.identities]
        self.public_keys = keys
        cheats = cheats or {}
        self.seats = [
            cheats.get(s, seat_class)(
                params, s, self.identities[s], keys, Counter(seed + b"seat%d" % s)
            )
            for s in range(params.players)
        ]
        self.queue: deque[tuple[int, bytes]] = deque()
        self.log: list[bytes] = []

    def post(self, sender: int, envelopes: list[bytes]) -> None:
        for envelope in envelopes:
            self.queue.append((sender, envelope))
            self.log.append(envelope)

    def run(self) -> None:
        """Deliver until nobody has anything more to say."""
        while self.queue:
            sender, envelope = self.queue.popleft()
            for seat in self.seats:
                if seat.seat != sender:
                    self.post(seat.seat, seat.receive(envelope))

    def everyone(self, call) -> None:
        """Make the same request of every seat (as the shared game state would)."""
        for seat in self.seats:
            self.post(seat.seat, call(seat))
        self.run()

    def start(self) -> None:
        self.everyone(lambda seat: seat.start())
