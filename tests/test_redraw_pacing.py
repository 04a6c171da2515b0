"""Performance issue (#27): while a round is dealt the client draws its progress at a
walk, and the player's own cards at once (`tui/pacing.py`). Real asyncio, real time, an
interval long enough that a loaded machine's scheduling does not blur it."""

from __future__ import annotations

import asyncio
from typing import Any

from p2p_rommy.tui.pacing import redraw_on_changes

INTERVAL = 0.4


def test_a_deal_s_progress_is_drawn_at_a_walk_and_the_hand_at_once():
    async def main() -> tuple[list[tuple[float, str]], float]:
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        state: dict[str, Any] = {"dealing": True, "known": 0, "what": "start"}
        drawn: list[tuple[float, str]] = []

        def urgent() -> int | None:
            return state["known"] if state["dealing"] else None

        def redraw() -> bool:
            drawn.append((loop.time(), str(state["what"])))
            return state["what"] != "stop"

        task = asyncio.create_task(redraw_on_changes(changed, urgent, redraw, INTERVAL))
        start = loop.time()
        for step in range(20):  # twenty steps of the deal in 0.2 s: progress only
            state["what"] = f"step {step}"
            changed.set()
            await asyncio.sleep(0.01)
        await asyncio.sleep(INTERVAL)  # the last of them is drawn once the interval is up
        state["known"], state["what"] = 11, "hand"  # the player's cards: drawn at once
        hand_at = loop.time()
        changed.set()
        await asyncio.sleep(0.05)
        state["dealing"], state["what"] = False, "stop"  # after the deal: at once again
        changed.set()
        await asyncio.wait_for(task, 5)
        return [(at - start, what) for at, what in drawn], hand_at - start

    drawn, hand_at = asyncio.run(main())
    whats = [what for _, what in drawn]
    assert whats[0] == "step 0"  # the first change is drawn at once
    assert whats[1] == "step 19" and drawn[1][0] >= INTERVAL - 0.02  # the rest once, later
    assert whats[2:] == ["hand", "stop"]
    assert drawn[2][0] - hand_at < INTERVAL / 2  # not held back by the interval
    assert len(drawn) == 4


def test_outside_a_deal_every_change_is_drawn_at_once():
    async def main() -> int:
        changed = asyncio.Event()
        drawn: list[int] = []

        def redraw() -> bool:
            drawn.append(len(drawn))
            return len(drawn) < 5

        task = asyncio.create_task(redraw_on_changes(changed, lambda: None, redraw, 10.0))
        for _ in range(5):
            changed.set()
            await asyncio.sleep(0.01)
        await asyncio.wait_for(task, 1)  # an interval of 10 s would time this out
        return len(drawn)

    assert asyncio.run(main()) == 5
