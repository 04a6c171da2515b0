"""In-memory peers joined by a broadcast queue: the log without sockets."""

from __future__ import annotations

import random
from collections import deque

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.log.events import sends
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.wire.identity import Identity
from tests.deck_table import Counter


def make_config(
    variant: str, players: int, house=None, seed: bytes = b"cfg"
) -> tuple[GameConfig, list[Identity]]:
    identities = [Identity.generate(Counter(seed + b"id%d" % s)) for s in range(players)]
    seats = tuple(Seat(f"P{s + 1}", identity.public_key) for s, identity in enumerate(identities))
    config = GameConfig(variant, tuple((house or {}).items()), seats, first_dealer=0)
    return config, identities


class PeerTable:
    def __init__(self, variant: str, players: int, house=None, seed: int = 1, players_factory=None):
        self.config, self.identities = make_config(variant, players, house)
        rng = random.Random(seed)
        self.peers = []
        for s in range(players):
            replica = SeatedReplica(
                self.config, s, self.identities[s], Counter(b"peer%d-%d" % (s, seed))
            )
            player = (
                players_factory or (lambda s: RandomPlayer(random.Random(rng.getrandbits(32))))
            )(s)
            self.peers.append(Peer(replica, player))
        self.queue: deque[tuple[int, bytes]] = deque()
        self.lanes: dict[int, dict[int, deque[bytes]]] = {}
        self.delivered = 0

    def post(self, sender: int, envelopes: list[bytes]) -> None:
        self.queue.extend((sender, e) for e in envelopes)
        for recipient in self.lanes:
            if recipient != sender:
                self.lanes[recipient][sender].extend(envelopes)

    def run(
        self, limit: int = 10_000_000, until=None, reorder: random.Random | None = None
    ) -> None:
        """Deliver until quiet (or `until()` holds). With `reorder`, each recipient gets
        the senders' messages interleaved at random (each sender's own order kept), as
        a network with several connections would."""
        self.lanes = {p.seat: {q.seat: deque() for q in self.peers} for p in self.peers}
        self.queue.clear()
        for peer in self.peers:
            self.post(peer.seat, sends(peer.start()))
        while self.delivered < limit and not (until and until()):
            if reorder is None:
                if not self.queue:
                    return
                sender, envelope = self.queue.popleft()
                targets = [peer for peer in self.peers if peer.seat != sender]
                for lanes in self.lanes.values():
                    if lanes[sender]:
                        lanes[sender].popleft()
            else:
                ready = [(r, s) for r, lanes in self.lanes.items() for s, q in lanes.items() if q]
                if not ready:
                    return
                recipient, sender = reorder.choice(ready)
                envelope = self.lanes[recipient][sender].popleft()
                targets = [self.peers[recipient]]
            self.delivered += 1
            for peer in targets:
                self.post(peer.seat, sends(peer.receive(envelope)))
