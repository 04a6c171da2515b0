"""A full TCP mesh between the seats of one game.

Every pair of seats keeps one connection: the higher seat dials the lower one
and redials with backoff when it drops; the lower seat accepts. Each connection
starts with the handshake, which must prove a key seated in the game. After it,
a frame is ``0x00`` (ping) or ``0x01`` followed by one signed envelope. Each peer
has an outbox that survives a dropped connection: what could not be written is
sent after the reconnect. The log above does not care how bytes arrived.

Leaving without a reset: a seat that closes a socket with unread data in it makes the
kernel reset the connection, and a reset can lose what the closing seat wrote last at
the other end (its last words: SPEC §4.4). So `close` writes what is queued, closes
only its own side (`half_close`), reads and drops what the other side still sends
until that side closes too (or `CLOSE_LINGER_S` passes), and only then closes. A seat
that closed its side at a frame boundary has said all it will say (`left`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import (
    CLOSE_LINGER_S,
    DEAD_AFTER_S,
    FINAL_FLUSH_S,
    HEARTBEAT_S,
    MAX_STRIKES,
    OUTBOX_MAX,
    RECONNECT_FIRST_S,
    RECONNECT_MAX_S,
    jittered,
)
from p2p_rommy.net.admission import Admission
from p2p_rommy.net.dial import first_connection
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.portable.sockets import listening_socket
from p2p_rommy.wire.identity import Identity

log = logging.getLogger(__name__)

PING = b"\x00"
MESSAGE = b"\x01"


@dataclass
class Link:
    """What this peer knows about one other seat's connection."""

    seat: int
    outbox: deque[bytes] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.StreamWriter | None = None
    connected: bool = False
    addresses: list[tuple[str, int]] = field(default_factory=list)
    left: bool = False
    """The seat closed its side of the last connection at a frame boundary: it has said
    all it will say on it (until it connects again)."""


class Closable(Protocol):
    """What `half_close` needs of a stream writer (`asyncio.StreamWriter` has it)."""

    def can_write_eof(self) -> bool: ...

    def write_eof(self) -> None: ...

    def close(self) -> None: ...


def half_close(writer: Closable) -> None:
    """Close the writing side only, after what is buffered (the other side reads an
    end of stream and may still answer); a transport that cannot (TLS) closes whole.
    Plain TCP can on every system (Windows' proactor transports shut down the socket's
    sending side too)."""
    if writer.can_write_eof():
        try:
            writer.write_eof()
        except (OSError, RuntimeError):  # already closing, or the socket is gone
            writer.close()
    else:
        writer.close()


class Mesh:
    """The connections of one seat. `await on_message(seat, envelope)` gets every envelope
    and says whether it was accepted (the link reads its next message only then, so a
    flood waits on the peer): a connection whose messages keep being refused is closed,
    and its address waits before it may connect again."""

    def __init__(
        self,
        identity: Identity,
        table: bytes,
        seat: int,
        keys: Sequence[bytes],
        on_message: Callable[[int, bytes], Awaitable[bool]],
        on_change: Callable[[], None] | None = None,
        on_link_up: Callable[[int], None] | None = None,
    ) -> None:
        self.identity = identity
        self.table = table
        self.seat = seat
        self.keys = list(keys)
        self.on_message = on_message
        self.on_change = on_change or (lambda: None)
        self.on_link_up = on_link_up or (lambda seat: None)
        self.links = {s: Link(s) for s in range(len(keys)) if s != seat}
        self.server: asyncio.Server | None = None
        self.address: tuple[str, int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._serving: set[asyncio.Task[None]] = set()
        """The tasks serving a proven connection (`_serve`): at `close` they finish it."""
        self._closing = False
        self.admission = Admission()
        self._random = random.Random()
        """Backoff jitter only: nothing anyone signs or hashes."""
        self.refused_connections = 0
        """Connections closed before or at the handshake (strangers, floods, garbage)."""

    # --- lifecycle ------------------------------------------------------------

    async def listen(
        self, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None
    ) -> tuple[str, int]:
        """Listen on (host, port), or on an already bound `sock`."""
        if sock is not None:
            self.server = await asyncio.start_server(self._accepted, sock=sock)
        else:
            self.server = await asyncio.start_server(
                self._accepted, sock=listening_socket(host, port)
            )
        sockname = self.server.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        return self.address

    def connect(self, addresses: dict[int, list[tuple[str, int]]]) -> None:
        """Start dialing every lower seat at its addresses (redialing as needed)."""
        for seat, link in self.links.items():
            link.addresses = list(addresses.get(seat, []))
            if seat < self.seat:
                self._spawn(self._dial(link))

    async def close(self, linger: float = CLOSE_LINGER_S) -> None:
        """Leave: no new connections; on each served one, what is queued is written, this
        side closed, and what the other side still sends read and dropped until it
        closes too (`_serve`), for at most `linger` seconds; then everything ends."""
        self._closing = True
        if self.server is not None:
            self.server.close()
        for link in self.links.values():
            link.wake.set()
        for task in self._tasks - self._serving:  # dialling, handshakes, backoffs
            task.cancel()
        serving = set(self._serving)
        if serving:
            await asyncio.wait(serving, timeout=linger)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def left(self, seat: int) -> bool:
        """Whether `seat` closed its side of its connection (at a frame boundary) and has
        not connected again: it has said all it will say (see `Link.left`)."""
        return self.links[seat].left

    async def flushed(
        self, timeout: float = FINAL_FLUSH_S, settled: Callable[[int], bool] | None = None
    ) -> bool:
        """Wait until every outbox is empty (or the timeout passes); an outbox to a seat
        for which `settled(seat)` holds (it needs nothing more) is not waited for."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while any(
                    link.outbox and not (settled is not None and settled(seat))
                    for seat, link in self.links.items()
                ):
                    await asyncio.sleep(0.05)
                return True
        return False

    # --- sending --------------------------------------------------------------

    def broadcast(self, envelopes: Sequence[bytes]) -> None:
        for seat in self.links:
            self.send(seat, envelopes)

    def send(self, seat: int, envelopes: Sequence[bytes]) -> None:
        """Queue envelopes for one seat; they go out when (or once again) connected. A
        link that falls more than `OUTBOX_MAX` behind is cut and its queue dropped:
        when it comes back, catch-up (`log/sync`) resends what it lacks."""
        link = self.links[seat]
        if len(link.outbox) + len(envelopes) > OUTBOX_MAX:
            log.warning("seat %d fell too far behind; its queue is dropped", seat)
            link.outbox.clear()
            if link.writer is not None:
                link.writer.close()
            return
        link.outbox.extend(envelopes)
        link.wake.set()

    def connected(self) -> dict[int, bool]:
        return {seat: link.connected for seat, link in self.links.items()}

    # --- connections ----------------------------------------------------------

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _allowed(self, key: bytes) -> bool:
        return key in self.keys and key != self.identity.public_key

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """An incoming connection, served until it ends or the mesh closes. The task is
        the server's; it is tracked so `close` ends it, and its cancellation at the end
        of a game is a normal ending, not an error for asyncio to print."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._accept(reader, writer)
        except asyncio.CancelledError:
            writer.close()
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        now = asyncio.get_running_loop().time()
        seated = self._seated()
        if not self.admission.admit(address, now, seated):
            self.refused_connections += 1
            writer.close()
            return
        try:
            proven = await handshake(reader, writer, self.identity, self.table, self._allowed)
        except (ProtocolError, OSError, asyncio.IncompleteReadError, TimeoutError) as error:
            log.info("refused a connection from %s: %s", address, error)
            self.refused_connections += 1
            self.admission.failed(address, now, seated)
            writer.close()
            return
        finally:
            self.admission.release(address)
        seat = self.keys.index(proven.public_key)
        await self._serve(self.links[seat], reader, writer, address)

    def _is_key_of(self, seat: int) -> Callable[[bytes], bool]:
        """Whether a proven key is `seat`'s (the one a dialled link must meet)."""
        return lambda key: key == self.keys[seat]

    async def _dial(self, link: Link) -> None:
        """Dial `link`'s seat until the mesh closes: its addresses raced (`first_connection`,
        each connect bounded by `CONNECT_TIMEOUT_S`), then the handshake; after a failure
        or a dropped connection, a jittered backoff doubling to `RECONNECT_MAX_S`."""
        delay = RECONNECT_FIRST_S
        while not self._closing:
            try:
                target, reader, writer = await first_connection(link.addresses)
            except OSError as error:
                log.debug("dial seat %d failed: %s", link.seat, error)
            else:
                try:
                    proven = await handshake(
                        reader, writer, self.identity, self.table, self._is_key_of(link.seat)
                    )
                except (ProtocolError, OSError, asyncio.IncompleteReadError, TimeoutError) as error:
                    log.debug("handshake with seat %d at %s failed: %s", link.seat, target, error)
                    writer.close()
                else:
                    assert proven.public_key == self.keys[link.seat]
                    await self._serve(link, reader, writer)
                    delay = RECONNECT_FIRST_S
            if self._closing:
                return
            await asyncio.sleep(jittered(delay, self._random.random()))
            delay = min(delay * 2, RECONNECT_MAX_S)

    def _seated(self) -> set[str]:
        """The hosts the seated peers listed (judged on their own at admission)."""
        return {host for link in self.links.values() for host, _ in link.addresses}

    async def _serve(
        self,
        link: Link,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str | None = None,
    ) -> None:
        if link.writer is not None:
            link.writer.close()
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
        link.writer = writer
        link.connected = True
        link.left = False
        link.wake.set()
        self.on_change()
        self.on_link_up(link.seat)
        sender = asyncio.get_running_loop().create_task(self._send_loop(link, writer))
        strikes = 0
        try:
            while True:
                async with asyncio.timeout(DEAD_AFTER_S):
                    payload = await read_frame(reader)
                if self._closing:
                    continue  # leaving: read and dropped, until the other side closes
                if payload[:1] == MESSAGE:
                    if not await self.on_message(link.seat, payload[1:]):
                        strikes += 1
                        if strikes >= MAX_STRIKES:
                            raise ProtocolError(link.seat, N_("too many refused messages"))
                elif payload[:1] != PING:
                    raise ProtocolError(link.seat, N_("unknown frame type"))
        except ProtocolError as error:
            log.warning("closed the connection to seat %d: %s", link.seat, error)
            if address is not None:
                now = asyncio.get_running_loop().time()
                self.admission.penalise(address, now, self._seated())
        except asyncio.IncompleteReadError as error:
            if error.partial:
                log.info("connection to seat %d ended inside a frame", link.seat)
            else:
                link.left = True
                log.info("seat %d closed the connection", link.seat)
        except (OSError, TimeoutError) as error:
            log.info("connection to seat %d ended: %s", link.seat, error or type(error).__name__)
        finally:
            if not self._closing or (task is not None and task.cancelling()):
                sender.cancel()  # leaving in time, it writes what is queued, then closes
            with contextlib.suppress(asyncio.CancelledError, OSError, RuntimeError):
                await sender
            writer.close()
            if task is not None:
                self._serving.discard(task)
            if link.writer is writer:
                link.writer = None
                link.connected = False
                self.on_change()

    async def _send_loop(self, link: Link, writer: asyncio.StreamWriter) -> None:
        """Write `link`'s outbox, a ping when idle; once the mesh is closing, what is
        still queued and then the end of this side (`half_close`)."""
        while True:
            if not link.outbox and not self._closing:
                link.wake.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(HEARTBEAT_S):
                        await link.wake.wait()
            if link.writer is not writer:
                return
            if link.outbox:
                envelope = link.outbox[0]
                writer.write(frame(MESSAGE + envelope))
                await writer.drain()
                link.outbox.popleft()
            elif self._closing:
                half_close(writer)
                return
            else:
                writer.write(frame(PING))
                await writer.drain()
