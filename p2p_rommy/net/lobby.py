"""The lobby's sockets and mDNS around the sans-IO lobby core (`p2p_rommy.lobby`).

`LobbyHost` listens, advertises the table, admits connections (`Admission`: the same
caps and penalties as the game port), proves keys, and passes each member's messages
to the `Host` machine, performing what it returns. `join_table` connects to a table
and drives a `Joiner`. Neither decides anything about the lobby itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_, _, say_os_error
from p2p_rommy.limits import (
    LOBBY_FRAME_BYTES,
    LOBBY_FRAMES_BURST,
    LOBBY_FRAMES_PER_S,
    LOBBY_REPLY_TIMEOUT_S,
    LOBBY_UNSENT_BYTES,
    TokenBucket,
)
from p2p_rommy.lobby import (
    Begun,
    Changed,
    Drop,
    Host,
    Joiner,
    LobbyState,
    Member,
    Send,
    Started,
    Stopped,
    TableSettings,
    join_entry,
    table_code,
)
from p2p_rommy.lobby.host import Effect
from p2p_rommy.net.admission import Admission
from p2p_rommy.net.dial import connect
from p2p_rommy.net.discovery import Advertiser, TableAd
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.portable.sockets import listening_socket
from p2p_rommy.wire.identity import Identity, fingerprint

__all__ = [
    "MESSAGE",
    "LobbyHost",
    "LobbyState",
    "Member",
    "Started",
    "TableSettings",
    "first_proven",
    "join_entry",
    "join_table",
    "proven_creator",
    "table_code",
]

log = logging.getLogger(__name__)

MESSAGE = b"\x01"


class Connection:
    """One framed lobby connection after the handshake proved `key`."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, key: bytes
    ) -> None:
        self.reader, self.writer, self.key = reader, writer, key
        self.bucket = TokenBucket(LOBBY_FRAMES_PER_S, LOBBY_FRAMES_BURST)

    def send(self, envelope: bytes) -> bool:
        """Queue `envelope`; False if the other side has stopped reading."""
        if self.writer.transport.get_write_buffer_size() > LOBBY_UNSENT_BYTES:
            return False
        self.writer.write(frame(MESSAGE + envelope))
        return True

    async def receive(self, limited: bool = False) -> bytes:
        """The next message; with `limited`, `ProtocolError` once the other side sends
        frames faster than `LOBBY_FRAMES_PER_S` (a creator never does: not limited)."""
        loop = asyncio.get_running_loop()
        while True:
            payload = await read_frame(self.reader, LOBBY_FRAME_BYTES)
            if limited and not self.bucket.take(loop.time()):
                raise ProtocolError(None, N_("too many lobby frames"))
            if payload[:1] == MESSAGE:
                return payload[1:]


class LobbyHost:
    """The creator's side: listens, advertises, admits and relays for a `Host`."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        settings: TableSettings,
        game_addresses: list[tuple[str, int]],
        interface: str | None,
        start_when: int | None,
        on_change: Callable[[list[Member]], None] | None = None,
        advertise: bool = True,
        only: frozenset[bytes] | None = None,
        probe: bool = True,
    ) -> None:
        """`only`: the last game's players, for a table reopened for a new game; `probe`:
        False there too, where the mDNS name is already this creator's (`Advertiser`)."""
        self.identity = identity
        self.settings = settings
        self.lobby = secrets.token_bytes(32)
        self.host = Host(
            identity,
            name,
            settings,
            game_addresses,
            self.lobby,
            secrets.token_bytes(32),
            start_when,
            only,
        )
        self.connections: dict[bytes, Connection] = {}
        self.interface = interface
        self.on_change = on_change or (lambda members: None)
        self.advertiser = Advertiser(interface, probe) if advertise else None
        self.server: asyncio.Server | None = None
        self.port = 0
        self.admission = Admission()
        self._done: asyncio.Future[Started] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def members(self) -> list[Member]:
        return list(self.host.members)

    @property
    def open(self) -> bool:
        return self.host.open

    @property
    def refused_connections(self) -> int:
        """Connections closed at once: too many still proving a key or owing a join."""
        return self.admission.refused

    async def listen(self, host: str) -> int:
        self._done = asyncio.get_running_loop().create_future()
        self.server = await asyncio.start_server(self._accepted, sock=listening_socket(host, 0))
        self.port = self.server.sockets[0].getsockname()[1]
        await self._advertise()
        return self.port

    def remove(self, key: bytes) -> None:
        """The creator sends a member away (a ghost, a squatter) before the start."""
        self._apply(self.host.remove(key))

    def start_now(self) -> None:
        """The creator starts the game (from the client)."""
        self._apply(self.host.start(self._now()))

    async def run(self) -> Started:
        """Until every member signed the config (or the start stopped: `ProtocolError`)."""
        assert self._done is not None, "listen first"
        try:
            while not self._done.done():
                deadline = self.host.deadline
                timeout = None if deadline is None else max(0.0, deadline - self._now())
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._wake.wait()
                self._wake.clear()
                self._apply(self.host.tick(self._now()))
            return self._done.result()
        finally:
            await self.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for connection in self.connections.values():
            connection.writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.advertiser is not None:
            await self.advertiser.close()

    # --- performing the machine's effects -----------------------------------------

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                targets = (
                    list(self.connections.items())
                    if effect.to is None
                    else [(effect.to, self.connections[effect.to])]
                    if effect.to in self.connections
                    else []
                )
                for key, connection in targets:
                    if not connection.send(effect.envelope):
                        self._drop(key, "it stopped reading what it is sent")
            elif isinstance(effect, Drop):
                self._drop(effect.key, effect.reason)
            elif isinstance(effect, Changed):
                self.on_change(list(effect.members))
                self._spawn(self._advertise())
            elif isinstance(effect, Begun):
                if self._done is not None and not self._done.done():
                    self._done.set_result(effect.started)
            elif isinstance(effect, Stopped) and self._done is not None and not self._done.done():
                self._done.set_exception(effect.error)
        if effects:
            self._wake.set()

    def _drop(self, key: bytes, reason: str) -> None:
        connection = self.connections.pop(key, None)
        if connection is not None:
            log.info("dropped %s from the lobby: %s", fingerprint(key), reason)
            connection.writer.close()
            self._apply(self.host.left(key))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advertise(self) -> None:
        if self.advertiser is None:
            return
        members = self.host.members
        addresses = tuple(dict.fromkeys(h for h, _ in members[0].addresses))  # in order
        await self.advertiser.advertise(
            TableAd(
                self.settings.table,
                self.settings.variant,
                len(members),
                self.settings.seats,
                self.host.open,
                fingerprint(self.identity.public_key),
                self.lobby,
                addresses,
                self.port,
            )
        )

    # --- connections ----------------------------------------------------------------

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        try:
            if not self.admission.admit(address, self._now()):
                writer.close()
                return
            try:
                connection = await self._join(reader, writer, address)
            finally:
                self.admission.release(address)
            if connection is not None:
                await self._follow_member(connection)
        except asyncio.CancelledError:  # the lobby closed: a normal ending
            writer.close()
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def _join(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str
    ) -> Connection | None:
        """Handshake and join; the connection of a new member, or None (closed)."""
        proven = None
        try:
            proven = await handshake(reader, writer, self.identity, self.lobby, lambda key: True)
            connection = Connection(reader, writer, proven.public_key)
            async with asyncio.timeout(LOBBY_REPLY_TIMEOUT_S):
                entry = await connection.receive(limited=True)
            if connection.key in self.connections:
                raise ProtocolError(None, N_("that key is already at the table"))
            effects = self.host.join(connection.key, entry, self._now())
        except (ProtocolError, OSError, asyncio.IncompleteReadError, TimeoutError) as error:
            if proven is not None and _hung_up_cleanly(error):
                # a joiner's look before joining (`proven_creator`): it proved its key
                # honestly and closed; not a failed handshake
                log.info("a lobby connection from %s proved its key and closed", address)
                writer.close()
                return None
            log.info("refused a lobby connection from %s: %s", address, error)
            self.admission.failed(address, self._now())
            writer.close()
            return None
        self.connections[connection.key] = connection
        log.info("%s joined (%s)", self.host.members[-1].name, fingerprint(connection.key))
        self._apply(effects)
        return connection

    async def _follow_member(self, connection: Connection) -> None:
        """Pass a member's messages to the machine until its connection ends."""
        try:
            while self.connections.get(connection.key) is connection:
                envelope = await connection.receive(limited=True)
                self._apply(self.host.receive(connection.key, envelope, self._now()))
        except (ProtocolError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            log.info("lobby connection of %s ended: %s", fingerprint(connection.key), error)
        finally:
            connection.writer.close()
            if self.connections.get(connection.key) is connection:
                del self.connections[connection.key]
                self._apply(self.host.left(connection.key))


def _hung_up_cleanly(error: BaseException) -> bool:
    """Whether `error` is the other side closing between messages (no partial frame)."""
    if isinstance(error, asyncio.IncompleteReadError):
        return not error.partial
    return isinstance(error, ConnectionError)


async def join_table(
    identity: Identity,
    name: str,
    host: str,
    port: int,
    lobby: bytes | None,
    game_addresses: list[tuple[str, int]],
    on_state: Callable[[LobbyState], None] | None = None,
    creator: str | None = None,
) -> Started:
    """Join the table at host:port and follow the start; returns when the config is signed.

    `creator`: the fingerprint the table's advert names; the host must prove that key
    in the handshake, or the join is refused. `ProtocolError` says what went wrong
    (a table that is not what it claims, a creator that stopped the start, silence).
    """
    try:
        reader, writer = await connect((host, port))
    except (OSError, TimeoutError) as error:
        raise ProtocolError(
            None,
            _("cannot reach the table at {address}: {why}").format(
                address=f"{host}:{port}", why=say_os_error(error)
            ),
        ) from None
    try:
        return await _follow(
            identity, name, reader, writer, lobby, game_addresses, on_state, creator
        )
    except (asyncio.IncompleteReadError, ConnectionError):
        raise ProtocolError(None, _not_let_in()) from None
    finally:
        writer.close()


def _not_let_in() -> str:
    """The table closed the connection before the joiner was seated: the lobby refuses
    without a word (a full table, a started game, an entry it would not take)."""
    return _(
        "the table did not let you in: it is full, its game has started, or it refused "
        "your name (the table's creator closed the connection)"
    )


def _creator_left() -> str:
    return _(
        "the table closed: its creator left or sent you away (the creator closed the "
        "connection); to play, ask them to open a table again with rommy host"
    )


async def _follow(
    identity: Identity,
    name: str,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    lobby: bytes | None,
    game_addresses: list[tuple[str, int]],
    on_state: Callable[[LobbyState], None] | None,
    creator: str | None,
) -> Started:
    loop = asyncio.get_running_loop()
    proven = await handshake(reader, writer, identity, lobby, lambda key: True)
    proven_fingerprint = fingerprint(proven.public_key)
    if creator is not None and proven_fingerprint != creator:
        raise ProtocolError(
            None,
            _(
                "refused: this table's advert names the creator {creator}, but its host "
                "proved the key {proven}. It is not the table it claims to be"
            ).format(creator=creator, proven=proven_fingerprint),
        )
    joiner = Joiner(
        identity,
        name,
        game_addresses,
        proven.table,
        proven.public_key,
        secrets.token_bytes(32),
        loop.time(),
    )
    connection = Connection(reader, writer, proven.public_key)
    connection.send(joiner.entry)
    while True:
        deadline = joiner.deadline
        try:
            async with asyncio.timeout(
                None if deadline is None else max(0.0, deadline - loop.time())
            ):
                envelope = await connection.receive()
        except TimeoutError:
            raise joiner.silence() from None
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            if joiner.revealed:
                raise joiner.hung_up(error) from None
            raise ProtocolError(
                None, _not_let_in() if joiner.state is None else _creator_left()
            ) from None
        output = joiner.receive(envelope, loop.time())
        for reply in output.send:
            connection.send(reply)
        if output.state is not None and on_state is not None:
            on_state(output.state)
        if output.started is not None:
            await writer.drain()
            return output.started


async def proven_creator(identity: Identity, host: str, port: int, lobby: bytes) -> str | None:
    """The fingerprint of the key the lobby at host:port proves for `lobby`, or None if it
    proves none (a quick look before joining, to tell a table from its impostor)."""
    try:
        async with asyncio.timeout(LOBBY_REPLY_TIMEOUT_S / 4):
            reader, writer = await connect((host, port))
            try:
                proven = await handshake(reader, writer, identity, lobby, lambda key: True)
            finally:
                writer.close()
    except (OSError, TimeoutError, ProtocolError, asyncio.IncompleteReadError):
        return None
    return fingerprint(proven.public_key)


async def first_proven(
    identity: Identity, addresses: Sequence[str], port: int, lobby: bytes, creator: str
) -> tuple[str | None, dict[str, str | None]]:
    """Every advertised address of a table tried at once: the first at which the host
    proves the key `creator` (None if none does), and what each address proved that was
    looked at (the others are cancelled once one proves it)."""
    tasks = {asyncio.ensure_future(proven_creator(identity, a, port, lobby)): a for a in addresses}
    seen: dict[str, str | None] = {}
    winner = None
    pending = set(tasks)
    try:
        while pending and winner is None:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(done, key=lambda t: addresses.index(tasks[t])):
                seen[tasks[task]] = task.result()
                if winner is None and task.result() == creator:
                    winner = tasks[task]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return winner, seen
