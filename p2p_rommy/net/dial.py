"""Opening a TCP connection to whichever of several addresses answers first.

A peer lists every address of its machine (Wi-Fi, a Docker or WSL bridge, a VPN); some
are dead from here, and a dead address must cost at most `CONNECT_TIMEOUT_S`, not the
OS's SYN timeout. `first_connection` starts on the first address and, every
`DIAL_STAGGER_S` that passes without a connection (or at once when an attempt fails),
on the next as well, RFC 8305 style: the first to connect wins and the others are
closed. Usually the first address connects at once and no other is tried, so the
listener sees no stray connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from p2p_rommy.errors import N_
from p2p_rommy.limits import CONNECT_TIMEOUT_S, DIAL_STAGGER_S

Target = tuple[str, int]
Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def connect(target: Target, timeout: float = CONNECT_TIMEOUT_S) -> Streams:
    """A connection to one address; `OSError` or `TimeoutError` within `timeout`."""
    async with asyncio.timeout(timeout):
        return await asyncio.open_connection(*target)


async def first_connection(
    targets: Sequence[Target],
    timeout: float = CONNECT_TIMEOUT_S,
    stagger: float = DIAL_STAGGER_S,
) -> tuple[Target, asyncio.StreamReader, asyncio.StreamWriter]:
    """The first of `targets` to connect; `OSError` naming each failure if none does
    (with the first failure's errno, so that it can be said in words)."""
    if not targets:
        raise OSError(N_("no address to dial"))
    pending: dict[asyncio.Task[Streams], Target] = {}
    failures: list[str] = []
    code: int | None = None
    queue = list(targets)
    winner: tuple[Target, asyncio.StreamReader, asyncio.StreamWriter] | None = None
    try:
        while winner is None and (queue or pending):
            if queue:
                target = queue.pop(0)
                pending[asyncio.ensure_future(connect(target, timeout))] = target
            done, _ = await asyncio.wait(
                pending,
                timeout=stagger if queue else None,
                return_when=asyncio.FIRST_COMPLETED,
            )
            for task in done:
                target = pending.pop(task)
                error = task.exception()
                if error is not None:
                    code = code or getattr(error, "errno", None)
                    failures.append(f"{target[0]}:{target[1]} {error or type(error).__name__}")
                elif winner is None:
                    winner = (target, *task.result())
                else:
                    task.result()[1].close()
    finally:
        for task in pending:
            task.cancel()
        for result in await asyncio.gather(*pending, return_exceptions=True):
            if isinstance(result, tuple):  # connected as it was cancelled
                result[1].close()
    if winner is None:
        raise OSError(code, "; ".join(failures)) if code else OSError("; ".join(failures))
    return winner
