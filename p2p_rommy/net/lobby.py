"""The lobby: players gather at a table, agree on seats, and all sign the game config.

The creator opens the table (advertised by mDNS) and relays the lobby's messages;
every message is signed by its author, so the creator can drop one but not forge
one. Starting takes three rounds, all through the creator:

1. every player commits to a random value (its hash);
2. once all commitments are out, every player reveals its value; the coin is the
   hash of all values, so nobody — the creator included — can steer it;
3. from the coin come the seat order, the first dealer and the config's nonce;
   every player builds the same config and signs it; the game id is its hash.

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

from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.log.transcript import Genesis
from p2p_rommy.net.discovery import Advertiser, TableAd
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.identity import Identity, fingerprint, open_envelope, roster_of

log = logging.getLogger(__name__)

COIN_DOMAIN = b"p2p-rommy/v1/coin\x00"
MESSAGE = b"\x01"


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    key: bytes
    addresses: tuple[tuple[str, int], ...]

    def wire(self) -> list[Any]:
        return [self.name, self.key, [list(a) for a in self.addresses]]

    @staticmethod
    def from_wire(value: Any) -> Member:
        name, key, addresses = value
        if not isinstance(name, str) or not isinstance(key, bytes) or len(key) != 32:
            raise ValueError("bad member")
        return Member(name[:32], key, tuple((str(h), int(p)) for h, p in addresses[:8]))


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
        opened = open_envelope(envelope, self.roster())
        body = unpack(opened.body, opened.seat)
        if (
            not isinstance(body, dict)
            or body.get("kind") != kind
            or body.get("lobby") != self.lobby
        ):
            raise ProtocolError(opened.seat, f"expected a {kind} for this table")
        return opened.seat, body


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
            payload = await read_frame(self.reader)
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
        self.members: list[Member] = [Member(name, identity.public_key, tuple(game_addresses))]
        self.connections: dict[bytes, Connection] = {}
        self.interface = interface
        self.start_when = start_when
        self.on_change = on_change or (lambda members: None)
        self.advertiser = Advertiser(interface) if advertise else None
        self.server: asyncio.Server | None = None
        self.port = 0
        self.open = True
        self._start = asyncio.Event()
        self._inbox: asyncio.Queue[tuple[bytes, dict[str, Any], bytes]] = asyncio.Queue()

    async def listen(self, host: str) -> int:
        self.server = await asyncio.start_server(self._accepted, host, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        await self._advertise()
        return self.port

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

    async def _broadcast(self, envelope: bytes) -> None:
        for connection in list(self.connections.values()):
            with contextlib.suppress(OSError):
                await connection.send(envelope)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            proven = await handshake(reader, writer, self.identity, self.lobby, lambda key: True)
            connection = Connection(reader, writer, proven.public_key)
            envelope = await connection.receive()
            body = _body(proven.public_key, envelope)
            if body.get("kind") != "lobby/join" or body.get("lobby") != self.lobby:
                raise ProtocolError(None, "expected a join")
            if not self.open or len(self.members) >= self.settings.seats:
                raise ProtocolError(None, "the table is full or has started")
            addresses = tuple((str(h), int(p)) for h, p in body.get("addresses", [])[:8])
            member = Member(str(body.get("name", "Player"))[:32], proven.public_key, addresses)
            if any(m.key == member.key for m in self.members):
                raise ProtocolError(None, "that key is already at the table")
            self.members.append(member)
            self.connections[member.key] = connection
            log.info("%s joined (%s)", member.name, fingerprint(member.key))
            self.on_change(list(self.members))
            await self._advertise()
            await self._broadcast(self._state())
            if self.start_when is not None and len(self.members) >= self.start_when:
                self._start.set()
            while True:
                envelope = await connection.receive()
                body = _body(member.key, envelope)
                await self._inbox.put((member.key, body, envelope))
        except (
            ProtocolError,
            OSError,
            asyncio.IncompleteReadError,
            TimeoutError,
            ValueError,
        ) as error:
            log.info("lobby connection ended: %s", error)
            writer.close()

    async def _collect(self, kind: str, own: bytes) -> list[bytes]:
        got = {self.identity.public_key: own}
        while len(got) < len(self.members):
            key, body, envelope = await self._inbox.get()
            if body.get("kind") == kind:
                got[key] = envelope
        return [got[m.key] for m in self.members]

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
        commits = await self._collect("coin/commit", coin.my_commit())
        coin.take_commits(commits)
        await self._relay("commits", commits)
        reveals = await self._collect("coin/reveal", coin.my_reveal())
        config = coin.take_reveals(reveals)
        await self._relay("reveals", reveals)
        own = self.identity.sign(config.encode())
        signatures = await self._collect_signatures(own, config)
        genesis = coin.take_signatures(signatures)
        await self._relay("signatures", signatures)
        return Started(genesis, _addresses(config, members))

    async def _collect_signatures(self, own: bytes, config: GameConfig) -> list[bytes]:
        got = {self.identity.public_key: own}
        config_bytes = config.encode()
        while len(got) < config.players:
            key, body, envelope = await self._inbox.get()
            if body == unpack(config_bytes):
                got[key] = envelope
        return list(got.values())


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
    on_state: Callable[[dict[str, Any]], None] | None = None,
) -> Started:
    """Join the table at host:port and follow the start; returns when the config is signed."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        proven = await handshake(reader, writer, identity, lobby, lambda key: True)
        creator = Connection(reader, writer, proven.public_key)
        lobby = proven.table
        await creator.send(
            identity.sign(
                pack(
                    {
                        "kind": "lobby/join",
                        "lobby": lobby,
                        "name": name,
                        "addresses": [list(a) for a in game_addresses],
                    }
                )
            )
        )
        coin: Coin | None = None
        settings: TableSettings | None = None
        config: GameConfig | None = None
        while True:
            envelope = await creator.receive()
            body = _body(creator.key, envelope)
            if body.get("lobby") != lobby:
                continue
            kind = body.get("kind")
            if kind == "lobby/state":
                settings = TableSettings(
                    body["table"],
                    body["variant"],
                    tuple((k, v) for k, v in body["house"]),
                    body["lam"],
                    body["seats"],
                )
                if on_state is not None:
                    on_state(body)
            elif kind == "lobby/begin" and settings is not None:
                members = tuple(Member.from_wire(m) for m in body["members"])
                if identity.public_key not in {m.key for m in members}:
                    raise ProtocolError(None, "the game started without this player")
                coin = Coin(lobby, identity, settings, members)
                await creator.send(coin.my_commit())
            elif kind == "lobby/relay" and coin is not None:
                stage = body["stage"]
                if stage == "commits":
                    coin.take_commits(body["items"])
                    await creator.send(coin.my_reveal())
                elif stage == "reveals":
                    config = coin.take_reveals(body["items"])
                    await creator.send(identity.sign(config.encode()))
                elif stage == "signatures" and config is not None:
                    genesis = coin.take_signatures(body["items"])
                    return Started(genesis, _addresses(config, coin.members))
    finally:
        writer.close()
