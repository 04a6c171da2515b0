"""When the client redraws: at once for what a player must see, the deal's progress at
a walk.

A deal is a chain of steps (commits, shuffles, shares), each committing in a few
milliseconds on one machine. Redrawing the whole screen after each (~4 ms of the event
loop, the GIL held) slowed the very work it showed: the loop also carries every seat's
messages in `rommy play`. So while the round's own deck is at work, a change is drawn at
once only if it shows the player's cards (`urgent` changed); the rest (who shuffles,
the estimate) at most every `DEAL_REDRAW_S`, what changed meanwhile drawn once. Outside
a deal every change is drawn at once, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable, Hashable

from p2p_rommy.limits import DEAL_REDRAW_S


async def redraw_on_changes(
    changed: asyncio.Event,
    urgent: Callable[[], Hashable | None],
    redraw: Callable[[], bool],
    interval: float = DEAL_REDRAW_S,
) -> None:
    """Call `redraw` after `changed` is set. `urgent()` is None outside a deal (draw at
    once); during one, what the player must see at once (their known cards): a value
    other than the last drawn one is drawn at once, else the redraw waits until
    `interval` after the last. Returns when `redraw` returns False."""
    loop = asyncio.get_running_loop()
    last_at, last_seen = -math.inf, urgent()
    while True:
        await changed.wait()
        while (seen := urgent()) is not None and seen == last_seen:
            left = last_at + interval - loop.time()
            if left <= 0:
                break
            changed.clear()  # drawn once at the end of the wait, with all that came
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await changed.wait()
        changed.clear()
        last_at, last_seen = loop.time(), urgent()
        if not redraw():
            return
