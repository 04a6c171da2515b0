"""Client issue 30, item 1: leaving and coming back. Every screen's log says who left
the table (and that they can come back with `rommy resume`), who is back, and who
signed an end of the game without someone."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from p2p_rommy import i18n
from p2p_rommy.bots import make_bot
from p2p_rommy.engine.state import Phase
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.presence import Presence
from p2p_rommy.seat.table_view import Line
from p2p_rommy.wire.entropy import StreamEntropy


def texts(notes) -> list[str]:
    return [note.text for note in notes]


def test_a_seat_that_leaves_and_comes_back_is_told_once_each_way():
    presence = Presence(["Ann", "Oskar", "Bo"])
    assert presence.changed({1: True, 2: True}, over=False, now=0.0) == ()  # first links
    assert presence.changed({1: False, 2: True}, over=False, now=10.0) == ()  # not yet
    assert presence.departures(now=11.0, over=False) == ()
    left = presence.departures(now=13.0, over=False)
    assert texts(left) == ["Oskar left the table — can come back with `rommy resume`"]
    assert presence.departures(now=20.0, over=False) == ()  # said once
    assert texts(presence.changed({1: True, 2: True}, over=False, now=30.0)) == ["Oskar is back"]
    # a link cut and dialled again at once is nobody leaving, nor coming back
    assert presence.changed({1: True, 2: False}, over=False, now=40.0) == ()
    assert presence.changed({1: True, 2: True}, over=False, now=41.0) == ()
    assert presence.departures(now=50.0, over=False) == ()
    # once the match is over, the table is closing: nobody leaves
    presence.changed({1: False, 2: False}, over=True, now=60.0)
    assert presence.departures(now=70.0, over=True) == ()


def test_leaving_and_coming_back_in_danish():
    i18n.use("da")
    try:
        presence = Presence(["Ann", "Oskar"])
        presence.changed({1: True}, over=False, now=0.0)
        presence.changed({1: False}, over=False, now=1.0)
        (left,) = presence.departures(now=5.0, over=False)
        (back,) = presence.changed({1: True}, over=False, now=6.0)
    finally:
        i18n.use("en")
    assert left.text == "Oskar forlod bordet — kan komme tilbage med `rommy resume`"
    assert back.text == "Oskar er tilbage"


async def leave_for_good(loopback_table) -> list[list[str]]:
    config, identities = seeded_config("rummy", 3, {"target_score": "1"}, 6)
    sessions = await loopback_table(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"leaving %d" % seat),
        player=lambda seat: make_bot("random", random.Random(seat)),
    )
    notes: list[list[str]] = [[] for _ in sessions]
    for seat, session in enumerate(sessions):
        session.listeners.append(
            lambda view, seat=seat: notes[seat].extend(
                e.text for e in view.news if isinstance(e, Line)
            )
        )
    async with asyncio.timeout(60):
        while sessions[0].peer.replica.state.phase is not Phase.PLAY:
            await asyncio.sleep(0.01)
    await sessions[0].close()  # seat 0's process is gone
    rest = sessions[1:]
    for session in rest:
        session.peer.stall_watch.stall_after, session.peer.end_after = 1.0, 5.0
    async with asyncio.timeout(60):
        while not all(s.peer.replica.over for s in rest):
            await asyncio.sleep(0.05)
    for session in rest:
        await session.close()
    return notes[1:]


def test_the_others_see_who_left_and_who_signed_the_end(loopback_table):
    names = [s.name for s in seeded_config("rummy", 3, {"target_score": "1"}, 6)[0].seats]
    for notes in asyncio.run(leave_for_good(loopback_table)):
        assert f"{names[0]} left the table — can come back with `rommy resume`" in notes, notes
        ended = [n for n in notes if n.startswith("The game was ended")]
        assert ended == [
            f"The game was ended without {names[0]}; signed by {names[1]}, {names[2]}"
        ], notes
        assert not any("is back" in n for n in notes)


def test_a_resumed_seat_does_not_count_stale_messages_as_refused():
    """Issue 30: after `rommy resume` the first log line was "refused 21 message(s)" for
    messages that were merely stale (sent before the seat caught up)."""
    from p2p_rommy.log.events import Refused

    presence = Presence(["Ann", "Oskar"])
    stale = (Refused("from seat 2: step 40 again, already committed (a replay)"),)
    assert presence.news(stale, catching_up=True, now=100.0) == ()
    assert presence.news(stale, catching_up=False, now=101.0) == ()  # just caught up
    assert presence.news(stale, catching_up=False, now=104.0) == ()
    assert presence.news(stale, catching_up=False, now=107.0) == stale  # counted again
    fresh = Presence(["Ann", "Oskar"])  # a seat that never restarted counts every one
    assert fresh.news(stale, catching_up=False, now=0.0) == stale


async def end_by_keys(loopback_table) -> tuple[list[str], list[str], list[str], list[str]]:
    """Seat 0 leaves for good; seat 2 presses `e` twice (it agrees, in the chat), then
    seat 1 (the proposer) presses `e` once (asked only), then again (it ends)."""
    from p2p_rommy.tui.model import ClientModel

    config, identities = seeded_config("rummy", 3, {"target_score": "1"}, 6)
    sessions = await loopback_table(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"keys %d" % seat),
        player=lambda seat: make_bot("random", random.Random(seat)),
    )
    models = {seat: ClientModel(sessions[seat]) for seat in (1, 2)}
    async with asyncio.timeout(60):
        while sessions[0].peer.replica.state.phase is not Phase.PLAY:
            await asyncio.sleep(0.01)
    await sessions[0].close()
    for session in sessions[1:]:
        session.peer.stall_watch.stall_after = 1.0  # no end_after: only a key ends it
    async with asyncio.timeout(60):
        while not all(  # every screen offers e (what a person presses it after)
            (w := m.table.waiting) is not None
            and w.seat == 0
            and m.session.clock() - w.since >= m.table.stall_after
            and m.table.ending == (0,)
            for m in models.values()
        ):
            await asyncio.sleep(0.05)
    prompts = [models[2].prompt()]
    # the clock says the stall limit has passed, but the view (taken before) has nobody
    # to end the game without yet: `e` is not offered, since it would refuse
    view = sessions[2].view
    sessions[2].view = dataclasses.replace(view, ending=())
    prompts.append(models[2].prompt())
    sessions[2].view = view
    models[2].end_without_stalled()
    asked = [models[2].status]
    models[2].end_without_stalled()
    asked.append(models[2].status)
    models[1].end_without_stalled()
    asked.append(models[1].status)
    await asyncio.sleep(1.5)
    assert sessions[1].peer.replica.ended is None  # one e asks; it ends nothing
    models[1].end_without_stalled()
    async with asyncio.timeout(60):
        while not all(s.peer.replica.ended for s in sessions[1:]):
            await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    for session in sessions[1:]:
        await session.close()
    return prompts, asked, models[1].log_lines(), models[2].log_lines()


def test_e_is_offered_on_every_waiting_screen_asks_first_and_the_end_says_who_signed(
    loopback_table,
):
    names = [s.name for s in seeded_config("rummy", 3, {"target_score": "1"}, 6)[0].seats]
    prompts, asked, one, two = asyncio.run(end_by_keys(loopback_table))
    gone = names[0]
    assert prompts[0].endswith(f": e ends the game without {gone}"), prompts  # not the proposer
    assert prompts[1].startswith("Waiting for ") and " e " not in prompts[1], prompts
    assert asked[0] == f"End the game without {gone}? The scores so far stand. e again confirms"
    assert asked[1] == f"told the table; {names[1]} ends it with e, and your seat signs"
    assert asked[2].startswith(f"End the game without {gone}?")
    assert f"{names[2]}: I agree to end the game without {gone}" in one, one  # the chat
    signed = f"The game was ended without {gone}; signed by {names[1]}, {names[2]}"
    assert signed in one and signed in two, (one, two)
