"""Køb! answers that arrive after their window closed (issue 30, item 13).

On a slow table a seat's pass (or claim) often reaches a seat only after the seat in
turn resolved the window with it: that is jitter, not misbehaviour. Such an answer is
simply too late — dropped quietly, never a `Refused` (the session counts those as
strikes and the mesh cuts the link after `MAX_STRIKES`), never shown to the player."""

from __future__ import annotations

from collections import deque

from p2p_rommy.engine.state import Phase
from p2p_rommy.limits import MAX_STRIKES
from p2p_rommy.log import buy_window
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


def first_answer_then_windows_closed(
    cheat: int, closed: int, seed: int = 3
) -> tuple[PeerTable, bytes]:
    """An lp table run until seat 0 has closed `closed` more windows after the first one
    in which seat `cheat` answered; that answer's envelope."""
    answers: dict[int, bytes] = {}
    windows: list[int] = []

    class Watched(PeerTable):
        def post(self, sender: int, envelopes: list[bytes]) -> None:
            for envelope in envelopes:
                answer = buy_answer(envelope)
                if answer is not None and sender == cheat:
                    answers.setdefault(answer.window, envelope)
            super().post(sender, envelopes)

    table = Watched("lp", 3, seed=seed)
    replica = table.peers[0].replica

    def done() -> bool:
        if replica.buy_window is not None and replica.buy_window not in windows:
            windows.append(replica.buy_window)
        if not answers:
            return False
        first = min(answers)
        later = [w for w in windows if w > first and w != replica.buy_window]
        return len(later) >= closed

    table.run(until=done)
    assert done(), "the table stopped before enough windows closed"
    return table, answers[min(answers)]


def other_answer(table: PeerTable, envelope: bytes) -> bytes:
    """The same seat's other signed answer for the same window (a claim for a pass)."""
    answer = buy_answer(envelope)
    assert answer is not None
    claim = not answer.claim
    seen = (answer.seat,) if claim else ()
    second = BuyAnswer(answer.game, answer.window, answer.seat, claim, seen, answer.nonce)
    return table.identities[answer.seat].sign(second.encode())


def test_a_different_answer_after_the_next_window_also_closed_is_named():
    # SPEC §4.7 "Two answers": two different signed answers from one seat for one window
    # are proof whatever the window's state. Issue 31: one that came after the next
    # window had closed too was dropped as late, while a seat that was a window behind
    # named it: the table split.
    cheat = 1
    table, first = first_answer_then_windows_closed(cheat, closed=2)
    peer = table.peers[0]
    events = peer.receive(other_answer(table, first), 1.0, cheat)
    assert not [e for e in events if isinstance(e, Refused)]
    assert peer.culprit == cheat, peer.frozen
    assert "two different Køb! answers" in (peer.frozen or "")


def test_a_pair_of_answers_for_a_long_closed_window_is_proof(monkeypatch):
    # A seat that named the cheat sends both answers to all (`Trouble.equivocation`); a
    # seat that no longer holds anything of that window checks the pair itself.
    monkeypatch.setattr(buy_window, "BUY_WINDOWS_KEPT", 1)
    cheat = 2
    table, first = first_answer_then_windows_closed(cheat, closed=3)
    peer = table.peers[0]
    assert peer.buying.windows.held(buy_answer(first).window, cheat) is None
    events = peer.receive(first, 1.0, 1) + peer.receive(other_answer(table, first), 1.0, 1)
    assert not [e for e in events if isinstance(e, Refused)]
    assert peer.culprit == cheat, peer.frozen
