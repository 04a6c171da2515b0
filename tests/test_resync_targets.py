"""Resync asks only the seats the table waits for, at first (SPEC §4.4 "Catch-up and
resync"): a Køb! window often outlasts `RESYNC_S`, and asking every seat then cost every
seat n - 1 asks and answers for nothing (session 13: 1,008 `log/sync` in one lp game).
Production `Peer`s on a logical clock (tests/clocked_table.py)."""

from __future__ import annotations

import random

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.limits import ASK_AGAIN_S, RESYNC_ALL_S, RESYNC_S
from p2p_rommy.log.catch_up import CatchUp
from p2p_rommy.log.events import Event, SendTo
from p2p_rommy.log.messages import Sync, decode
from p2p_rommy.wire.codec import unpack
from tests.clocked_table import ClockedTable


def asked(events: list[Event]) -> list[int]:
    """The seats an ask (`log/sync` with `ask = 1`) goes to among `events`."""
    seats = []
    for event in events:
        if isinstance(event, SendTo):
            message = decode(unpack(event.envelope)[2])
            if isinstance(message, Sync) and message.ask:
                seats.append(event.seat)
    return seats


def a_window_seat_1_has_answered() -> ClockedTable:
    """An lp table whose seat 2 is a person: play its turns for it until a Køb! window
    is open in which seat 1 has answered and the others have not."""
    table = ClockedTable(4, people=frozenset({2}), variant="lp", house={"max_buys": "3"})
    table.now = 10.0
    table.start()
    table.run()
    person, peer = RandomPlayer(random.Random(5), buy_rate=0.0), table.peers[2]
    while peer.replica.window is None:
        table.post(2, peer.submit(person.choose(peer.replica.view()), table.now))
        table.run()
    for p in table.peers:
        assert sorted(w.seat for w in p.waits(table.now)) == [0, 2, 3]
    return table


def test_in_a_koeb_window_a_quiet_spell_asks_only_the_seats_that_owe_an_answer():
    table = a_window_seat_1_has_answered()
    now = table.now + RESYNC_S + 0.1
    for peer in table.peers:
        expected = sorted({0, 2, 3} - {peer.seat})
        assert sorted(asked(peer.tick(now))) == expected, peer.seat  # seat 1 owes nothing


def test_nobody_is_asked_before_the_quiet_spell():
    table = a_window_seat_1_has_answered()
    for peer in table.peers:
        assert asked(peer.tick(table.now + RESYNC_S - 0.1)) == []


def test_a_seat_waited_for_is_asked_first_and_every_seat_after_the_longer_spell():
    catch_up = CatchUp(seat=0, players=4, restarted=False)
    catch_up.started(0.0)
    assert catch_up.resync(RESYNC_S - 0.01, 0.0, 7, waited=[2]) == []
    assert catch_up.resync(RESYNC_S, 0.0, 7, waited=[2]) == [2]
    # the table waits for this seat alone: there is nobody to ask yet
    assert catch_up.resync(2 * RESYNC_S, 0.0, 7, waited=[0]) == []
    # seat 2 has not answered and its ask is still open (`ASK_AGAIN_S`): only the others
    assert RESYNC_ALL_S < ASK_AGAIN_S
    assert catch_up.resync(RESYNC_ALL_S, 0.0, 7, waited=[2]) == [1, 3]


def test_progress_starts_the_targeted_asks_over():
    catch_up = CatchUp(seat=1, players=3, restarted=False)
    catch_up.started(0.0)
    assert catch_up.resync(RESYNC_S, 0.0, 3, waited=[]) == [0, 2]  # nobody owes: all
    progress = RESYNC_S + ASK_AGAIN_S
    assert catch_up.resync(progress + RESYNC_S, progress, 9, waited=[2]) == [2]


def test_a_restarted_seat_knows_since_when_a_seat_it_gave_up_on_has_been_silent():
    """SPEC §4.4 "Time, measured by each signer": a seat given up on after
    `CATCH_UP_ASKS` unanswered catch-up asks has been silent since the first of them
    (the restarted seat's wait for it counts from then); a seat that answered has no
    such time."""
    catch_up = CatchUp(seat=0, players=3, restarted=True)
    assert catch_up.ask([1, 2], committed=5, now=10.0) == [1, 2]
    catch_up.answered(1, behind=False)
    now, given_up = 10.0, []
    while not given_up:
        now += 1.0
        again, given_up = catch_up.overdue(now)
        catch_up.ask(again, committed=5, now=now)
    assert given_up == [2] and now >= 10.0 + 15.0
    assert catch_up.silent_since(2) == 10.0 and catch_up.silent_since(1) is None
