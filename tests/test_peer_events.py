"""The peer is an event machine: values in (envelopes, `now`), frozen events out.

What a simulator of whole tables needs from it (issue 31): every call returns its
events; the peer reads no clock and runs nothing in the background (time is only what it
is given);
and the events say everything a driver must do — send, commit, log — in order."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from p2p_rommy.log.events import Committed, Event, Send, SendTo, records, sends, sends_to
from tests.peer_table import PeerTable


def test_a_whole_game_on_a_logical_clock_reads_no_clock_and_starts_no_thread(monkeypatch):
    def no_clock() -> float:
        raise AssertionError("the peer read a clock")

    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns"):
        monkeypatch.setattr(time, name, no_clock)
    before = set(threading.enumerate())
    table = PeerTable("rummy", 3, {"target_score": "15"})
    committed: dict[int, list[int]] = {peer.seat: [] for peer in table.peers}
    now = 0.0
    queue: list[tuple[int, bytes]] = []

    def perform(seat: int, events: list[Event]) -> None:
        for event in events:
            assert dataclasses.is_dataclass(event) and type(event).__dataclass_params__.frozen
            if isinstance(event, Send):
                queue.append((seat, event.envelope))
            elif isinstance(event, SendTo):
                pytest.fail("no seat restarted: nothing to send to one seat only")
            elif isinstance(event, Committed):
                assert event.record.step is not None and event.step.n == event.n
                committed[seat].append(event.n)

    for peer in table.peers:
        perform(peer.seat, peer.start(now))
    while queue:
        sender, envelope = queue.pop(0)
        now += 0.001
        for peer in table.peers:
            if peer.seat != sender:
                perform(peer.seat, peer.receive(envelope, now, sender))
    assert all(peer.replica.over for peer in table.peers)
    n = table.peers[0].replica.n
    assert all(steps == list(range(1, n + 1)) for steps in committed.values())
    # the only threads are the deck's compute pool, which a proof joins before it returns
    # (deck/parallel.py: the same bytes on one core or many)
    started = [t.name for t in threading.enumerate() if t not in before]
    assert all(name.startswith("rommy-proof") for name in started), started


def test_the_helpers_pick_events_by_kind():
    events: list[Event] = [Send(b"a"), SendTo(2, b"b"), Send(b"c")]
    assert sends(events) == [b"a", b"c"] and sends_to(events) == [(2, b"b")]
    assert records(events) == []
