"""The log with in-memory peers: buy claims that arrive in different orders at different
peers, and the transcript of a match."""

from __future__ import annotations

import random

import pytest

from p2p_rommy.engine.state import Phase
from p2p_rommy.log.messages import decode
from p2p_rommy.wire.codec import unpack
from tests.peer_table import PeerTable


class Claimer:
    """Plays randomly, and calls "Køb!" every time it may."""

    def __init__(self, seed: int) -> None:
        from p2p_rommy.bots.random_player import RandomPlayer

        self.inner = RandomPlayer(random.Random(seed))

    def choose(self, view):
        return self.inner.choose(view)

    def wants_buy(self, view):
        return True


def first_buy_resolved(table: PeerTable, seen: list):
    def done():
        state = table.peers[0].replica.state
        if state.phase is Phase.BUY and not seen:
            seen.append(state.buy_eligible)  # in seat order after the discarder (or dealer)
        return all(any(p.replica.state.buys) for p in table.peers)

    return done


@pytest.mark.parametrize("priority", ["first", "seat"])
@pytest.mark.parametrize("order_seed", [2])
def test_concurrent_claims_one_winner_everywhere(priority, order_seed):
    # 5 players: all but the discarder and the decliner (3, or 4 for the upcard) claim at once
    table = PeerTable(
        "lp", 5, {"buy_priority": priority}, seed=order_seed, players_factory=lambda s: Claimer(s)
    )
    seen: list = []
    table.run(until=first_buy_resolved(table, seen), reorder=random.Random(order_seed))
    (eligible,) = seen
    states = [p.replica.state for p in table.peers]
    assert all(p.frozen is None for p in table.peers), [p.frozen for p in table.peers]
    buys = {s.buys for s in states}
    assert len(buys) == 1  # the same winner on every peer
    (counts,) = buys
    assert sum(counts) == 1
    winner = counts.index(1)
    # every peer committed the same resolution with three claims in it
    step = next(r for r in table.peers[0].records if _kind(r.step) == "buy")
    answers = decode(unpack(step.step)[2]).body["answers"]
    claimants = [decode(unpack(a)[2]).seat for a in answers]
    assert sorted(claimants) == sorted(eligible) and len(claimants) >= 3
    if priority == "first":
        assert winner == claimants[0]  # the sequencer's order
    else:
        assert winner == eligible[0]  # nearest after the discarder, whatever the order
    assert all(p.records == table.peers[0].records for p in table.peers)


def _kind(envelope: bytes) -> str:
    return decode(unpack(envelope)[2]).body.get("kind")


def test_reordered_delivery_still_reaches_the_same_state():
    table = PeerTable("rummy", 3, {"target_score": 15}, seed=4)
    table.run(reorder=random.Random(9))
    assert all(p.frozen is None for p in table.peers)
    assert all(p.replica.state.phase is Phase.MATCH_OVER for p in table.peers)
    assert all(p.records == table.peers[0].records for p in table.peers)
