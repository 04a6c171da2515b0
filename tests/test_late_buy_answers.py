"""Køb! answers that arrive after their window closed (issue 30, item 13).

On a slow table a seat's pass (or claim) often reaches a seat only after the seat in
turn resolved the window with it: that is jitter, not misbehaviour. Such an answer is
simply too late — dropped quietly, never a `Refused` (the session counts those as
strikes and the mesh cuts the link after `MAX_STRIKES`), never shown to the player."""

from __future__ import annotations

from collections import deque

from p2p_rommy.engine.state import Phase
from p2p_rommy.limits import MAX_STRIKES
from p2p_rommy.log.events import Event, Refused, sends
from p2p_rommy.log.messages import BuyAnswer, decode
from p2p_rommy.log.peer import Peer
from p2p_rommy.wire.codec import unpack
from tests.peer_table import PeerTable
from tests.test_peers_log import Claimer


def buy_answer(envelope: bytes) -> BuyAnswer | None:
    _, _, body, _ = unpack(envelope)
    message = decode(body)
    return message if isinstance(message, BuyAnswer) else None


def closed_at(peer: Peer, answer: BuyAnswer) -> bool:
    replica = peer.replica
    still_open = replica.buy_window == answer.window and replica.state.phase is Phase.BUY
    return not still_open and answer.window <= replica.n


def play_with_late_answers(table: PeerTable, enough: int) -> tuple[list[Refused], dict[bool, int]]:
    """Run the table on a logical clock; every Køb! answer reaches the seat in turn at
    once and every other seat only after its window closed there. Returns the refusals
    and how many late passes (False) and claims (True) were delivered."""
    peers = table.peers
    now = 0.0
    queue: deque[tuple[int, int, bytes]] = deque()
    late: list[tuple[int, int, BuyAnswer, bytes]] = []
    refused: list[Refused] = []
    strikes = dict.fromkeys(range(len(peers)), 0)  # what the mesh would count per link
    delivered = {False: 0, True: 0}

    def post(sender: int, events: list[Event]) -> None:
        for envelope in sends(events):
            answer = buy_answer(envelope)
            resolver = peers[sender].replica.state.turn
            for peer in peers:
                if peer.seat == sender:
                    continue
                if answer is not None and peer.seat != resolver:
                    late.append((sender, peer.seat, answer, envelope))
                else:
                    queue.append((sender, peer.seat, envelope))

    def deliver(sender: int, recipient: int, envelope: bytes) -> None:
        nonlocal now
        now += 0.001
        events = peers[recipient].receive(envelope, now, sender)
        found = [event for event in events if isinstance(event, Refused)]
        refused.extend(found)
        strikes[sender] += bool(found)
        assert strikes[sender] < MAX_STRIKES, "the mesh would cut this link"
        post(recipient, events)

    for peer in peers:
        post(peer.seat, peer.start(now))
    while queue and not all(p.replica.over for p in peers):
        deliver(*queue.popleft())
        for item in [item for item in late if closed_at(peers[item[1]], item[2])]:
            late.remove(item)
            sender, recipient, answer, envelope = item
            deliver(sender, recipient, envelope)
            delivered[answer.claim] += 1
        if sum(delivered.values()) >= enough:
            break
    assert all(p.frozen is None for p in peers), [p.frozen for p in peers]
    return refused, delivered


def test_passes_after_the_window_closed_are_dropped_quietly_and_cut_no_link():
    # under `seat` the window closes with the eligible answers alone; under `first` the
    # observers would wait for them too (their clock: tests/test_buy_race.py)
    table = PeerTable("lp", 3, {"buy_priority": "seat"}, seed=3)
    refused, delivered = play_with_late_answers(table, enough=3 * MAX_STRIKES)
    assert delivered[False] >= 2 * MAX_STRIKES
    assert refused == []
    assert all(p.trouble.refused_count == 0 for p in table.peers)


def test_a_claim_after_the_window_closed_is_simply_too_late():
    table = PeerTable("lp", 4, {"buy_priority": "seat"}, seed=3, players_factory=Claimer)
    refused, delivered = play_with_late_answers(table, enough=MAX_STRIKES + 5)
    assert delivered[True] > MAX_STRIKES
    assert refused == []
    assert all(p.trouble.refused_count == 0 for p in table.peers)
