"""The log with in-memory peers: buy claims that arrive in different orders at different
peers, and the transcript of a match."""

from __future__ import annotations

import random

import pytest

from p2p_rommy.engine.state import Phase
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import DeckStep, decode
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


@pytest.mark.parametrize("priority", ["seat", "lot"])
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
    answers = decode(unpack(step.step)[2]).body.answers
    claimants = [decode(unpack(a)[2]).seat for a in answers]
    assert sorted(claimants) == sorted(eligible) and len(claimants) >= 3
    if priority == "lot":
        replica = table.peers[0].replica
        lot = sorted(claimants, key=lambda seat: _lot(table, step, seat, eligible))
        assert winner == lot[0]  # the window's lot, whatever the order they were listed in
        assert replica.config.rules.buy_priority == "lot"
    else:
        assert winner == eligible[0]  # nearest after the discarder, whatever the order
    assert all(p.records == table.peers[0].records for p in table.peers)
    # the client's log names the others who called: every peer ranks them the same way
    ranked = (
        sorted(claimants, key=lambda seat: _lot(table, step, seat, eligible))
        if priority == "lot"
        else [seat for seat in eligible if seat in claimants]
    )
    assert all(p.replica.last_claims == tuple(ranked) for p in table.peers)
    assert ranked[0] == winner


class SlowNearest(Claimer):
    """Claims every discard at once, but takes its time (like a person) when it is the
    claimant nearest after the discarder, until `released` is set; after that only the
    released seat answers, so the table stops in the next window."""

    def __init__(self, seat: int, released: list[bool]) -> None:
        super().__init__(seat)
        self.seat, self.released = seat, released

    def wants_buy(self, view):
        nearest = view.state.buy_eligible[0] == self.seat
        if self.released:
            return True if nearest else None
        return None if nearest else True


def _deliver(table: PeerTable, posts: list[tuple[int, bytes]]) -> None:
    queue = list(posts)
    while queue:
        sender, envelope = queue.pop(0)
        for peer in table.peers:
            if peer.seat != sender:
                queue += [(peer.seat, e) for e in sends(peer.receive(envelope))]


def test_a_slow_claimant_nearest_the_discarder_wins_against_fast_bots():
    """Trust issue, attack 3: the resolution waits for every eligible seat's own answer,
    so bots answering in milliseconds cannot close the window on a person; under
    buy_priority = seat the person nearest after the discarder buys."""
    released: list[bool] = []
    table = PeerTable(
        "lp",
        4,
        {"buy_priority": "seat"},
        seed=5,
        players_factory=lambda s: SlowNearest(s, released),
    )
    table.run(until=lambda: False)  # runs until quiet: the table waits in the buy window
    states = [p.replica.state for p in table.peers]
    assert all(s.phase is Phase.BUY for s in states)
    slow = states[0].buy_eligible[0]
    assert len(states[0].buy_eligible) >= 2  # contested: the others have claimed already
    for peer in table.peers:
        waiting = peer.waiting(0.0)
        assert waiting is not None and waiting.seat == slow and "Køb" in str(waiting.what)
    released.append(True)
    posts = [(p.seat, e) for p in table.peers for e in sends(p.tick(1.0))]
    _deliver(table, posts)
    buys = {p.replica.state.buys for p in table.peers}
    assert len(buys) == 1
    (counts,) = buys
    assert counts[slow] == 1 and sum(counts) == 1


def _lot(table: PeerTable, record, seat: int, eligible) -> bytes:
    """`seat`'s lot in the window `record` resolved, from SPEC §4.7's formula: the
    round's commitments, then the eligible seats' sealed nonces in field 19's order."""
    import hashlib

    body = decode(unpack(record.step)[2]).body
    game = table.config.game_id
    commitments = _round_commitments(table, body.window)
    answers = {a.seat: a.nonce for a in (decode(unpack(e)[2]) for e in body.answers)}
    return hashlib.sha256(
        b"p2p-rommy/v5/buy-lot\x00"
        + game
        + body.window.to_bytes(8, "big")
        + b"".join(commitments)
        + b"".join(answers[s] for s in eligible)
        + bytes([seat])
    ).digest()


def _round_commitments(table: PeerTable, before: int) -> list[bytes]:
    """Every seat's seed commitment of the round running at step `before`."""
    from p2p_rommy.deck.messages import Commit
    from p2p_rommy.deck.messages import decode as decode_deck

    found: dict[int, bytes] = {}
    for record in table.peers[0].records[:before]:
        body = decode(unpack(record.step)[2]).body
        if not isinstance(body, DeckStep):
            continue
        message = decode_deck(unpack(body.envelope)[2])
        if isinstance(message, Commit):
            if len(found) == table.config.players:
                found = {}
            found[message.seat] = message.commitment
    return [found[s] for s in sorted(found)]


def _kind(envelope: bytes) -> str:
    return decode(unpack(envelope)[2]).kind


def test_reordered_delivery_still_reaches_the_same_state():
    table = PeerTable("rummy", 3, {"target_score": 15}, seed=4)
    table.run(reorder=random.Random(9))
    assert all(p.frozen is None for p in table.peers)
    assert all(p.replica.state.phase is Phase.MATCH_OVER for p in table.peers)
    assert all(p.records == table.peers[0].records for p in table.peers)
