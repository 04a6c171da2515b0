"""The conftest guard against a blocked event loop sees a callback that blocks."""

from __future__ import annotations

import asyncio
import time

from tests import conftest


def test_the_guard_sees_a_callback_that_blocks_the_loop():
    async def blocking() -> None:
        time.sleep(conftest.BLOCKED_LOOP_S + 0.1)  # on the loop, on purpose

    async def polite() -> None:
        await asyncio.to_thread(time.sleep, conftest.BLOCKED_LOOP_S + 0.1)

    asyncio.run(polite())
    assert conftest._blocked == []  # work in a thread leaves the loop free
    asyncio.run(blocking())
    spent, callback = conftest._blocked[-1]
    assert spent >= conftest.BLOCKED_LOOP_S and "blocking" in callback, callback
    conftest._blocked.clear()  # this test blocked the loop on purpose
