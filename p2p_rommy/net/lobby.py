"""The lobby: players gather at a table, agree on seats, and all sign the game config.

The creator opens the table (advertised by mDNS) and relays the lobby's messages;
every message is signed by its author, so the creator can drop one but not forge
one. Each member's entry in the lobby is its own signed join message: the names and
fingerprints a joiner sees come from those signatures (and the creator's from the key
it proved in the handshake, which must be the one its advert names), never from what
the creator says about them. Starting takes three rounds, all through the creator:

1. every player commits to a random value (its hash);
2. once all commitments are out, every player reveals its value; the coin is the
   hash of all values, so nobody — the creator included — can steer it;
3. from the coin come the seat order, the first dealer and the config's nonce;
   every player builds the same config and signs it; the game id is its hash.

The creator sees the others' values before it relays them, so it could stop a start
whose seating it dislikes and open the table again. It cannot do so unseen: a
joiner whose reveal is not followed by the relay within `START_STAGE_TIMEOUT_S`
stops with a message naming the creator and saying what this means. Every stage is
timed and names the members it waited for.

After that the creator has no more power than anyone: the game runs on the full
mesh and the log. The checks every member makes are in `Coin` (no I/O).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2p_rommy.config import GameConfig, Seat, short_code
from p2p_rommy.deck.proofs import MAX_LAMBDA, MIN_LAMBDA
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.limits import LOBBY_FRAME_BYTES, LOBBY_INBOX_MAX, LOBBY_STRIKES
from p2p_rommy.log.transcript import Genesis
from p2p_rommy.net.discovery import Advertiser, TableAd
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.net.timing import (
    LOBBY_REPLY_TIMEOUT_S,
    MAX_PENDING_HANDSHAKES,
    MAX_PENDING_PER_SOURCE,
    START_STAGE_TIMEOUT_S,
)
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.wire.codec import (
    Schema,
    SchemaError,
    array,
    blob,
    fixed,
    integer,
    pack,
    text,
    unpack,
)
from p2p_rommy.wire.identity import (
    Identity,
    fingerprint,
    open_envelope,
    roster_of,
    valid_public_key,
)
from p2p_rommy.wire.text import name_problem

log = logging.getLogger(__name__)

COIN_DOMAIN = b"p2p-rommy/v1/coin\x00"
MESSAGE = b"\x01"


START_KINDS = frozenset({"coin/commit", "coin/reveal", "config"})
"""What a member sends the creator once the start has begun, one of each."""
MAX_ADDRESSES = 8
"""Game addresses one member may list."""


def _address(value: Any, name: str) -> tuple[str, int]:
    host, port = fixed(text(64), integer(1, 65535))(value, name)
    return host, port


def _house_value(value: Any, name: str) -> HouseValue:
    if value is None or isinstance(value, bool | int | str):
        return value
    raise SchemaError(f"{name} must be a house rule value")


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise SchemaError(f"{name} must be true or false")
    return value


_JOIN = Schema(
    "lobby/join",
    {"lobby": blob(32), "name": text(64), "addresses": array(_address, MAX_ADDRESSES)},
)
_ENTRY = fixed(blob(32), blob(max_size=2048))
_STATE = Schema(
    "lobby/state",
    {
        "lobby": blob(32),
        "table": text(64),
        "variant": text(16),
        "house": array(fixed(text(64), _house_value), 32),
        "lam": integer(MIN_LAMBDA, MAX_LAMBDA),
        "seats": integer(2, 6),
        "open": _flag,
        "members": array(_ENTRY, 6, 1),
    },
)
_BEGIN = Schema("lobby/begin", {"lobby": blob(32), "members": array(_ENTRY, 6, 2)})
_COIN = {
    "coin/commit": Schema("coin/commit", {"lobby": blob(32), "digest": blob(32)}),
    "coin/reveal": Schema("coin/reveal", {"lobby": blob(32), "value": blob(32)}),
}


def join_entry(
    identity: Identity, lobby: bytes, name: str, addresses: list[tuple[str, int]]
) -> bytes:
    """A member's signed entry at a table: its name and game addresses."""
    body = {
        "kind": "lobby/join",
        "lobby": lobby,
        "name": name,
        "addresses": [list(a) for a in addresses[:MAX_ADDRESSES]],
    }
    return identity.sign(pack(body))


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    key: bytes
    addresses: tuple[tuple[str, int], ...]
    entry: bytes = b""
    """The member's own signed join message, which its name and addresses come from."""

    def wire(self) -> list[Any]:
        return [self.key, self.entry]

    @staticmethod
    def from_entry(key: bytes, entry: bytes, lobby: bytes) -> Member:
        """The member whose signed `entry` this is; `ProtocolError` if it is not one
        (a weak key, a bad signature, another table, a name that is not a name)."""
        if not valid_public_key(key):
            raise ProtocolError(None, "a member with a weak or malformed key")
        fields = _JOIN.check(_body(key, entry))
        if fields["lobby"] != lobby:
            raise ProtocolError(fingerprint(key), "a join for another table")
        problem = name_problem(fields["name"])
        if problem is not None:
            raise ProtocolError(fingerprint(key), f"refused a join: {problem}")
        return Member(fields["name"], key, fields["addresses"], entry)

    @staticmethod
    def from_wire(value: Any, lobby: bytes) -> Member:
        try:
            key, entry = _ENTRY(value, "member")
        except SchemaError as error:
            raise ProtocolError("the creator", f"malformed member: {error}") from None
        return Member.from_entry(key, entry, lobby)


TABLE_CODE_DOMAIN = b"p2p-rommy/v1/table-code\x00"


def table_code(lobby: bytes, creator: bytes) -> str:
    """Six characters naming a table by its id and its creator's key: players in one
    lobby read the same code aloud; an impostor's table (another key) shows another."""
    return short_code(hashlib.sha256(TABLE_CODE_DOMAIN + lobby + creator).digest())


@dataclass(frozen=True, slots=True)
class LobbyState:
    """What the creator says about its table, with each member's own signed entry."""

    lobby: bytes
    table: str
    variant: str
    house: tuple[tuple[str, HouseValue], ...]
    lam: int
    seats: int
    open: bool
    members: tuple[Member, ...]

    @staticmethod
    def parse(body: Any, lobby: bytes, creator: bytes) -> LobbyState:
        """`ProtocolError` unless `body` is a well-formed state of this table whose first
        member is `creator` (the key the creator proved)."""
        try:
            fields = _STATE.check(body, "the creator")
            if fields["lobby"] != lobby:
                raise ProtocolError("the creator", "a lobby state for another table")
            members = tuple(Member.from_wire(m, lobby) for m in body["members"])
        except SchemaError as error:
            raise ProtocolError("the creator", f"malformed lobby state: {error}") from None
        if members[0].key != creator:
            raise ProtocolError("the creator", "its own entry is not first in its lobby")
        if len({m.key for m in members}) != len(members):
            raise ProtocolError("the creator", "a member listed twice")
        return LobbyState(
            lobby,
            fields["table"],
            fields["variant"],
            fields["house"],
            fields["lam"],
            fields["seats"],
            fields["open"],
            members,
        )

    @property
    def settings(self) -> TableSettings:
        return TableSettings(self.table, self.variant, self.house, self.lam, self.seats)


@dataclass
class TableSettings:
    table: str
    variant: str
    house: tuple[tuple[str, HouseValue], ...]
    lam: int
    seats: int


@dataclass
class Coin:
    """One member's view of the start: commitments, reveals, the config, its signatures."""

    lobby: bytes
    identity: Identity
    settings: TableSettings
    members: tuple[Member, ...]
    value: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    commits: dict[bytes, bytes] = field(default_factory=dict)
    values: dict[bytes, bytes] = field(default_factory=dict)
    config: GameConfig | None = None

    def roster(self) -> dict[bytes, tuple[int, bytes]]:
        return roster_of([m.key for m in self.members])

    def my_commit(self) -> bytes:
        digest = hashlib.sha256(COIN_DOMAIN + self.lobby + self.value).digest()
        return self.identity.sign(
            pack({"kind": "coin/commit", "lobby": self.lobby, "digest": digest})
        )

    def my_reveal(self) -> bytes:
        return self.identity.sign(
            pack({"kind": "coin/reveal", "lobby": self.lobby, "value": self.value})
        )

    def take_commits(self, envelopes: list[bytes]) -> None:
        for envelope in envelopes:
            body = self._open(envelope, "coin/commit")
            self.commits[self.members[body[0]].key] = body[1]["digest"]
        if len(self.commits) != len(self.members):
            raise ProtocolError(None, "not every player committed to the coin")

    def take_reveals(self, envelopes: list[bytes]) -> GameConfig:
        for envelope in envelopes:
            index, body = self._open(envelope, "coin/reveal")
            key = self.members[index].key
            value = body["value"]
            if hashlib.sha256(COIN_DOMAIN + self.lobby + value).digest() != self.commits.get(key):
                raise ProtocolError(
                    self.members[index].name, "a coin value does not open its commitment"
                )
            self.values[key] = value
        if len(self.values) != len(self.members):
            raise ProtocolError(None, "not every player revealed its coin value")
        coin = hashlib.sha256(
            COIN_DOMAIN + self.lobby + b"".join(self.values[m.key] for m in self.members)
        ).digest()
        order = sorted(self.members, key=lambda m: hashlib.sha256(coin + m.key).digest())
        dealer = int.from_bytes(hashlib.sha256(coin + b"dealer").digest()[:8], "big") % len(order)
        self.config = GameConfig(
            self.settings.variant,
            self.settings.house,
            tuple(Seat(m.name, m.key) for m in order),
            dealer,
            self.settings.lam,
            self.settings.table,
            coin[:16],
        )
        return self.config

    def take_signatures(self, envelopes: list[bytes]) -> Genesis:
        assert self.config is not None
        config_bytes = self.config.encode()
        by_key: dict[bytes, bytes] = {}
        game_roster = roster_of(self.config.public_keys)
        for envelope in envelopes:
            opened = open_envelope(envelope, game_roster)
            if opened.body != config_bytes:
                raise ProtocolError(opened.seat, "signed a different game config")
            by_key[self.config.public_keys[opened.seat]] = envelope
        if len(by_key) != self.config.players:
            raise ProtocolError(None, "not every player signed the game config")
        return Genesis(self.config, config_bytes, tuple(by_key[k] for k in self.config.public_keys))

    def _open(self, envelope: bytes, kind: str) -> tuple[int, dict[str, Any]]:
        """A member's signed coin message of `kind`, schema-checked, for this table."""
        if not isinstance(envelope, bytes):
            raise ProtocolError("the creator", "a relayed item is not an envelope")
        opened = open_envelope(envelope, self.roster())
        name = self.members[opened.seat].name
        fields = _COIN[kind].check(unpack(opened.body, name), name)
        if fields["lobby"] != self.lobby:
            raise ProtocolError(name, f"a {kind} for another table")
        return opened.seat, fields


@dataclass
class Started:
    """What the lobby hands the game: the signed config and where everyone listens."""

    genesis: Genesis
    addresses: dict[int, list[tuple[str, int]]]

    @property
    def config(self) -> GameConfig:
        return self.genesis.config


class Connection:
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, key: bytes
    ) -> None:
        self.reader, self.writer, self.key = reader, writer, key

    async def send(self, envelope: bytes) -> None:
        self.writer.write(frame(MESSAGE + envelope))
        await self.writer.drain()

    async def receive(self) -> bytes:
        while True:
            payload = await read_frame(self.reader, LOBBY_FRAME_BYTES)
            if payload[:1] == MESSAGE:
                return payload[1:]


def _body(key: bytes, envelope: bytes) -> dict[str, Any]:
    """The body of a lobby envelope that `key` must have signed."""
    opened = open_envelope(envelope, roster_of([key]))
    body = unpack(opened.body)
    if not isinstance(body, dict):
        raise ProtocolError(None, "a lobby message must be a map")
    return body


class LobbyHost:
    """The creator's side: accepts players, advertises, starts, relays."""

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
    ) -> None:
        self.identity = identity
        self.settings = settings
        self.lobby = secrets.token_bytes(32)
        own = join_entry(identity, self.lobby, name, game_addresses)
        self.members: list[Member] = [Member.from_entry(identity.public_key, own, self.lobby)]
        self.connections: dict[bytes, Connection] = {}
        self.interface = interface
        self.start_when = start_when
        self.on_change = on_change or (lambda members: None)
        self.advertiser = Advertiser(interface) if advertise else None
        self.server: asyncio.Server | None = None
        self.port = 0
        self.open = True
        self._start = asyncio.Event()
        self._pending = 0
        self._pending_from: dict[str, int] = {}
        self.refused_connections = 0
        """Connections closed at once: too many still proving a key or owing a join."""
        self._inbox: asyncio.Queue[tuple[bytes, dict[str, Any], bytes]] = asyncio.Queue(
            maxsize=LOBBY_INBOX_MAX
        )

    async def listen(self, host: str) -> int:
        self.server = await asyncio.start_server(self._accepted, host, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        await self._advertise()
        return self.port

    def remove(self, key: bytes) -> None:
        """The creator sends a member away (a ghost, a squatter): its connection closes,
        and it leaves the table as if it had gone."""
        connection = self.connections.get(key)
        if connection is not None and self.open:
            connection.writer.close()

    def start_now(self) -> None:
        """The creator starts the game (from the client)."""
        self._start.set()

    async def run(self) -> Started:
        try:
            await self._start.wait()
            self.open = False
            await self._advertise()
            return await self._begin()
        finally:
            await self.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for connection in self.connections.values():
            connection.writer.close()
        if self.advertiser is not None:
            await self.advertiser.close()

    async def _advertise(self) -> None:
        if self.advertiser is None:
            return
        addresses = tuple(sorted({h for m in self.members[:1] for h, _ in m.addresses}))
        await self.advertiser.advertise(
            TableAd(
                self.settings.table,
                self.settings.variant,
                len(self.members),
                self.settings.seats,
                self.open,
                fingerprint(self.identity.public_key),
                self.lobby,
                addresses,
                self.port,
            )
        )

    def _state(self) -> bytes:
        return self.identity.sign(
            pack(
                {
                    "kind": "lobby/state",
                    "lobby": self.lobby,
                    "table": self.settings.table,
                    "variant": self.settings.variant,
                    "house": [list(p) for p in self.settings.house],
                    "lam": self.settings.lam,
                    "seats": self.settings.seats,
                    "open": self.open,
                    "members": [m.wire() for m in self.members],
                }
            )
        )

    def _left(self, key: bytes) -> bool:
        """A member's connection closed before the start: it leaves the table."""
        self.connections.pop(key, None)
        if not self.open or not any(m.key == key for m in self.members[1:]):
            return False
        self.members = [m for m in self.members if m.key != key]
        self.on_change(list(self.members))
        return True

    async def _broadcast(self, envelope: bytes) -> None:
        for connection in list(self.connections.values()):
            with contextlib.suppress(OSError):
                await connection.send(envelope)

    def _admit(self, address: str) -> bool:
        """A new connection may start only while fewer than `MAX_PENDING_HANDSHAKES` are
        still proving a key or owing their join (`MAX_PENDING_PER_SOURCE` per address):
        idle connections cannot pile up, and each is shed after its timeout."""
        return (
            self._pending < MAX_PENDING_HANDSHAKES
            and self._pending_from.get(address, 0) < MAX_PENDING_PER_SOURCE
        )

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if not self._admit(address):
            self.refused_connections += 1
            writer.close()
            return
        self._pending += 1
        self._pending_from[address] = self._pending_from.get(address, 0) + 1
        pending = [True]
        try:
            await self._join(reader, writer, address, pending)
        finally:
            if pending[0]:  # it never joined
                self._release(address)

    def _release(self, address: str) -> None:
        self._pending -= 1
        self._pending_from[address] -= 1
        if not self._pending_from[address]:
            del self._pending_from[address]

    async def _join(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
        pending: list[bool],
    ) -> None:
        """Handshake, join, then follow the member until its connection ends; `pending`
        is cleared (and the slot released) once it has joined."""
        member: Member | None = None
        try:
            proven = await handshake(reader, writer, self.identity, self.lobby, lambda key: True)
            connection = Connection(reader, writer, proven.public_key)
            async with asyncio.timeout(LOBBY_REPLY_TIMEOUT_S):
                envelope = await connection.receive()
            joining = Member.from_entry(proven.public_key, envelope, self.lobby)
            if not self.open or len(self.members) >= self.settings.seats:
                raise ProtocolError(None, "the table is full or has started")
            if any(m.key == joining.key for m in self.members):
                raise ProtocolError(None, "that key is already at the table")
            member = joining
            self._release(address)  # joined: no longer pending
            pending[0] = False
            self.members.append(member)
            self.connections[member.key] = connection
            log.info("%s joined (%s)", member.name, fingerprint(member.key))
            self.on_change(list(self.members))
            await self._advertise()
            await self._broadcast(self._state())
            if self.start_when is not None and len(self.members) >= self.start_when:
                self._start.set()
            await self._follow_member(member, connection)
        except asyncio.CancelledError:  # the lobby closed: a normal ending
            writer.close()
        except (
            ProtocolError,
            OSError,
            asyncio.IncompleteReadError,
            TimeoutError,
            ValueError,
        ) as error:
            log.info("lobby connection ended: %s", error)
            writer.close()
            if member is not None and self._left(member.key):
                log.info("%s left the table", member.name)
                await self._advertise()
                await self._broadcast(self._state())

    async def _follow_member(self, member: Member, connection: Connection) -> None:
        """Take a member's start messages: once the start has begun, one of each kind
        (commit, reveal, config signature). Anything else is a strike; after
        `LOBBY_STRIKES` the connection is closed (a member cannot fill the creator's
        memory: nothing it sends is kept but these three)."""
        sent: set[str] = set()
        strikes = 0
        while True:
            envelope = await connection.receive()
            body = _body(member.key, envelope)
            kind = body.get("kind")
            if self.open or kind not in START_KINDS or kind in sent or self._inbox.full():
                strikes += 1
                if strikes >= LOBBY_STRIKES:
                    raise ProtocolError(member.name, "too many unexpected lobby messages")
                continue
            sent.add(kind)
            self._inbox.put_nowait((member.key, body, envelope))

    async def _collect(self, kind: str, own: bytes, members: tuple[Member, ...]) -> list[bytes]:
        got = {self.identity.public_key: own}
        try:
            async with asyncio.timeout(START_STAGE_TIMEOUT_S):
                while len(got) < len(members):
                    key, body, envelope = await self._inbox.get()
                    if body.get("kind") == kind:
                        got[key] = envelope
        except TimeoutError:
            missing = ", ".join(
                f"{m.name} ({fingerprint(m.key)})" for m in members if m.key not in got
            )
            raise ProtocolError(None, f"the start stopped: {missing} sent no {kind}") from None
        return [got[m.key] for m in members]

    async def _relay(self, stage: str, items: list[bytes]) -> None:
        await self._broadcast(
            self.identity.sign(
                pack({"kind": "lobby/relay", "lobby": self.lobby, "stage": stage, "items": items})
            )
        )

    async def _begin(self) -> Started:
        members = tuple(self.members)
        if len(members) < 2:
            raise ConfigError("a game needs at least two players")
        await self._broadcast(
            self.identity.sign(
                pack(
                    {
                        "kind": "lobby/begin",
                        "lobby": self.lobby,
                        "members": [m.wire() for m in members],
                    }
                )
            )
        )
        coin = Coin(self.lobby, self.identity, self.settings, members)
        commits = await self._collect("coin/commit", coin.my_commit(), members)
        coin.take_commits(commits)
        await self._relay("commits", commits)
        reveals = await self._collect("coin/reveal", coin.my_reveal(), members)
        config = coin.take_reveals(reveals)
        await self._relay("reveals", reveals)
        own = self.identity.sign(config.encode())
        signatures = await self._collect("config", own, members)
        genesis = coin.take_signatures(signatures)
        await self._relay("signatures", signatures)
        return Started(genesis, _addresses(config, members))


def _addresses(config: GameConfig, members: tuple[Member, ...]) -> dict[int, list[tuple[str, int]]]:
    by_key = {m.key: list(m.addresses) for m in members}
    return {seat: by_key[key] for seat, key in enumerate(config.public_keys)}


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
        async with asyncio.timeout(LOBBY_REPLY_TIMEOUT_S):
            reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as error:
        raise ProtocolError(None, f"cannot reach the table at {host}:{port}: {error}") from None
    try:
        return await _follow(
            identity, name, reader, writer, lobby, game_addresses, on_state, creator
        )
    except (asyncio.IncompleteReadError, ConnectionError) as error:
        raise ProtocolError(None, f"the table's creator closed the connection ({error})") from None
    finally:
        writer.close()


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
    proven = await handshake(reader, writer, identity, lobby, lambda key: True)
    proven_fingerprint = fingerprint(proven.public_key)
    if creator is not None and proven_fingerprint != creator:
        raise ProtocolError(
            None,
            f"refused: this table's advert names the creator {creator}, but its host "
            f"proved the key {proven_fingerprint}. It is not the table it claims to be",
        )
    connection = Connection(reader, writer, proven.public_key)
    lobby = proven.table
    await connection.send(join_entry(identity, lobby, name, game_addresses))
    coin: Coin | None = None
    state: LobbyState | None = None
    config: GameConfig | None = None
    revealed = False
    while True:
        # after the start began, twice the creator's own stage timeout: an honest creator
        # gives up first (and says why in its own log) before a joiner blames it
        wait = 2 * START_STAGE_TIMEOUT_S if coin is not None else None
        if state is None:
            wait = LOBBY_REPLY_TIMEOUT_S
        try:
            async with asyncio.timeout(wait):
                envelope = await connection.receive()
        except TimeoutError:
            raise ProtocolError(None, _silence(state, proven.public_key, revealed)) from None
        except (asyncio.IncompleteReadError, ConnectionError):
            if not revealed:
                raise
            raise ProtocolError(None, _silence(state, proven.public_key, revealed)) from None
        body = _body(connection.key, envelope)
        kind = body.get("kind")
        if kind == "lobby/state":
            state = LobbyState.parse(body, lobby, proven.public_key)
            if on_state is not None:
                on_state(state)
        elif kind == "lobby/begin" and state is not None:
            fields = _BEGIN.check(body, "the creator")
            if fields["lobby"] != lobby:
                raise ProtocolError("the creator", "a start for another table")
            members = tuple(Member.from_wire(m, lobby) for m in body["members"])
            if members[0].key != proven.public_key:
                raise ProtocolError("the creator", "its own entry is not first at the start")
            if identity.public_key not in {m.key for m in members}:
                raise ProtocolError(None, "the game started without this player")
            coin = Coin(lobby, identity, state.settings, members)
            await connection.send(coin.my_commit())
        elif kind == "lobby/relay" and coin is not None:
            stage = body.get("stage")
            items = body.get("items")
            if not isinstance(items, list) or not all(isinstance(i, bytes) for i in items):
                raise ProtocolError("the creator", "a malformed relay")
            if stage == "commits":
                coin.take_commits(items)
                await connection.send(coin.my_reveal())
                revealed = True
            elif stage == "reveals":
                config = coin.take_reveals(items)
                revealed = False
                await connection.send(identity.sign(config.encode()))
            elif stage == "signatures" and config is not None:
                genesis = coin.take_signatures(items)
                return Started(genesis, _addresses(config, coin.members))


async def proven_creator(identity: Identity, host: str, port: int, lobby: bytes) -> str | None:
    """The fingerprint of the key the lobby at host:port proves for `lobby`, or None if it
    proves none (a quick look before joining, to tell a table from its impostor)."""
    try:
        async with asyncio.timeout(LOBBY_REPLY_TIMEOUT_S / 4):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                proven = await handshake(reader, writer, identity, lobby, lambda key: True)
            finally:
                writer.close()
    except (OSError, TimeoutError, ProtocolError, asyncio.IncompleteReadError):
        return None
    return fingerprint(proven.public_key)


def _silence(state: LobbyState | None, creator: bytes, revealed: bool) -> str:
    """What a joiner says when the creator went quiet."""
    who = fingerprint(creator)
    if state is None:
        return f"the table's creator ({who}) did not answer"
    name = state.members[0].name
    if revealed:
        return (
            f"the start stopped after you revealed your coin value: {name} ({who}), the "
            "table's creator, sees every value before anyone else. A creator who stops "
            "here can draw the seats again until they suit it: if it happens again at "
            "this table, play at another"
        )
    return f"the start stopped: {name} ({who}), the table's creator, went quiet"
