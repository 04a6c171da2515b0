"""A fault-injecting TCP proxy for tests: it forwards whole frames between a peer and
whoever dials it, and drops, duplicates, delays, reorders frames and cuts connections
at random (seeded). The handshake's frames pass untouched, so what the peers see is a
lossy link, not a stranger."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from dataclasses import dataclass, field

HANDSHAKE_FRAMES = 2
"""hello and auth, each way."""


@dataclass
class Faults:
    drop: float = 0.01
    duplicate: float = 0.02
    reorder: float = 0.02
    cut: float = 0.002
    cut_at: int | None = 400
    """Also cut each proxy's first connection at this frame (so a short, fast match
    surely sees a cut; the random ones come on top)."""
    each_kind_from: int | None = 20
    """Also drop, duplicate and reorder one frame each, at this frame and the next two
    (so a short match surely sees every kind; the random ones come on top)."""
    delay_s: float = 0.02
    """Each frame waits up to this long (order kept unless reordered)."""


@dataclass
class FaultProxy:
    target: tuple[str, int]
    faults: Faults
    seed: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.frames = 0
        """Frames after the handshakes, both ways, on every connection."""

    async def listen(self) -> tuple[str, int]:
        self.server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        host, port = self.server.sockets[0].getsockname()[:2]
        return host, port

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.counts["connections"] += 1
        writers = (writer, up_writer)
        pumps = [
            asyncio.get_running_loop().create_task(self._pump(reader, up_writer, writers)),
            asyncio.get_running_loop().create_task(self._pump(up_reader, writer, writers)),
        ]
        self.tasks.update(pumps)
        for pump in pumps:
            pump.add_done_callback(self.tasks.discard)

    async def _pump(self, reader, writer, writers) -> None:  # type: ignore[no-untyped-def]
        held: bytes | None = None
        seen = 0
        try:
            while True:
                header = await reader.readexactly(4)
                body = await reader.readexactly(int.from_bytes(header, "big"))
                frame = header + body
                seen += 1
                if seen <= HANDSHAKE_FRAMES:
                    writer.write(frame)
                    await writer.drain()
                    continue
                roll = self.rng.random()
                faults = self.faults
                self.frames += 1
                at = self.frames
                if roll < faults.cut or (at == faults.cut_at):
                    self.counts["cut"] += 1
                    break
                await asyncio.sleep(self.rng.random() * faults.delay_s)
                roll = self.rng.random()
                if faults.each_kind_from is not None:
                    forced = at - faults.each_kind_from
                    if forced == 0:
                        roll = 0.0  # dropped
                    elif forced == 1:
                        roll = faults.drop  # duplicated
                    elif forced == 2 and held is None:
                        roll = faults.drop + faults.duplicate  # reordered
                if roll < faults.drop:
                    self.counts["dropped"] += 1
                    continue
                roll -= faults.drop
                out = [frame]
                if roll < faults.duplicate:
                    self.counts["duplicated"] += 1
                    out = [frame, frame]
                elif roll < faults.duplicate + faults.reorder and held is None:
                    self.counts["reordered"] += 1
                    held = frame  # goes out after the next frame
                    continue
                if held is not None:
                    out.append(held)
                    held = None
                writer.write(b"".join(out))
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            for w in writers:
                with contextlib.suppress(Exception):
                    w.close()
