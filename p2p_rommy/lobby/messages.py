"""The lobby's messages: typed, schema-checked, each signed by its author (SPEC §4.2).

A decoder takes an envelope and the key that must have signed it and gives a typed
message or raises `ProtocolError` with a reason; nothing here keeps state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from p2p_rommy.config import short_code
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.wire.codec import (
    Check,
    SchemaError,
    array,
    blob,
    fixed,
    integer,
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
from p2p_rommy.wire.message import Message, Out
from p2p_rommy.wire.text import name_problem

MAX_ADDRESSES = 8
"""Game addresses one member may list."""
ENTRY_MAX_BYTES = 2048
"""Largest signed join entry (a name and eight addresses take a few hundred bytes)."""
RELAY_ITEM_MAX_BYTES = 4096
"""Largest relayed envelope (a coin message or a config signature)."""
STAGES = ("commits", "reveals", "signatures")
"""The start's stages, in order; each is relayed once."""
TABLE_CODE_DOMAIN = b"p2p-rommy/v1/table-code\x00"


def _address(value: Any, name: str) -> tuple[str, int]:
    host, port = fixed(text(64), integer(1, 65535))(value, name)
    return host, port


def _house_value(value: Any, name: str) -> HouseValue:
    if value is None or isinstance(value, bool | int | str):
        return value
    raise SchemaError(N_("{name} must be a house rule value").format(name=name))


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise SchemaError(N_("{name} must be true or false").format(name=name))
    return value


def _one_of(*choices: str) -> Check:
    def check(value: Any, name: str) -> str:
        if value not in choices or not isinstance(value, str):
            raise SchemaError(
                N_("{name} must be one of {value}").format(name=name, value=", ".join(choices))
            )
        return value

    return check


_ENTRY = fixed(blob(32), blob(max_size=ENTRY_MAX_BYTES))


@dataclass(frozen=True, slots=True)
class Join(Message):
    """A member's entry at a table, signed by the member (carried inside `Member.entry`)."""

    KIND: ClassVar[str] = "lobby/join"
    lobby: Annotated[bytes, blob(32)]
    name: Annotated[str, text(64)]
    addresses: Annotated[tuple[tuple[str, int], ...], array(_address, MAX_ADDRESSES)]


def join_entry(
    identity: Identity, lobby: bytes, name: str, addresses: list[tuple[str, int]]
) -> bytes:
    """A member's signed entry at a table: its name and game addresses."""
    listed = tuple((host, port) for host, port in addresses[:MAX_ADDRESSES])
    return identity.sign(Join(lobby, name, listed).encode())


def signed_body(key: bytes, envelope: bytes, who: str | None = None) -> dict[str, Any]:
    """The map body of a lobby envelope that `key` must have signed."""
    opened = open_envelope(envelope, roster_of([key]))
    body = unpack(opened.body, who)
    if not isinstance(body, dict):
        raise ProtocolError(who, N_("a lobby message must be a map"))
    return body


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
            raise ProtocolError(None, N_("a member with a weak or malformed key"))
        join = Join.from_body(signed_body(key, entry))
        if join.lobby != lobby:
            raise ProtocolError(fingerprint(key), N_("a join for another table"))
        problem = name_problem(join.name)
        if problem is not None:
            raise ProtocolError(
                fingerprint(key), N_("refused a join: {problem}").format(problem=problem)
            )
        return Member(join.name, key, join.addresses, entry)

    @staticmethod
    def from_wire(value: Any, lobby: bytes) -> Member:
        try:
            key, entry = _ENTRY(value, "member")
        except SchemaError as error:
            raise ProtocolError(
                N_("the creator"), N_("malformed member: {error}").format(error=error)
            ) from None
        return Member.from_entry(key, entry, lobby)


def table_code(lobby: bytes, creator: bytes) -> str:
    """Six characters naming a table by its id and its creator's key: players in one
    lobby read the same code aloud; an impostor's table (another key) shows another."""
    return short_code(hashlib.sha256(TABLE_CODE_DOMAIN + lobby + creator).digest())


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the creator chose: the table's name, variant, house rules and seats."""

    table: str
    variant: str
    house: tuple[tuple[str, HouseValue], ...]
    seats: int


def _entries(members: tuple[Member, ...]) -> list[list[bytes]]:
    return [m.wire() for m in members]


@dataclass(frozen=True, slots=True)
class LobbyState(Message):
    """What the creator says about its table, with each member's own signed entry."""

    KIND: ClassVar[str] = "lobby/state"
    lobby: Annotated[bytes, blob(32)]
    table: Annotated[str, text(64)]
    variant: Annotated[str, text(16)]
    house: Annotated[tuple[tuple[str, HouseValue], ...], array(fixed(text(64), _house_value), 32)]
    seats: Annotated[int, integer(2, 6)]
    open: Annotated[bool, _flag]
    members: Annotated[tuple[Member, ...], array(_ENTRY, 6, 1), Out(_entries)]

    @staticmethod
    def parse(body: Any, lobby: bytes, creator: bytes) -> LobbyState:
        """`ProtocolError` unless `body` is a well-formed state of this table whose first
        member is `creator` (the key the creator proved)."""
        fields = LobbyState.fields(body, "the creator")
        if fields["lobby"] != lobby:
            raise ProtocolError(N_("the creator"), N_("a lobby state for another table"))
        return LobbyState(**{**fields, "members": _members(fields["members"], lobby, creator)})

    @property
    def settings(self) -> TableSettings:
        return TableSettings(self.table, self.variant, self.house, self.seats)


def _members(
    entries: tuple[tuple[bytes, bytes], ...], lobby: bytes, creator: bytes
) -> tuple[Member, ...]:
    members = tuple(Member.from_entry(key, entry, lobby) for key, entry in entries)
    if members[0].key != creator:
        raise ProtocolError(N_("the creator"), N_("its own entry is not first in its lobby"))
    if len({m.key for m in members}) != len(members):
        raise ProtocolError(N_("the creator"), N_("a member listed twice"))
    return members


@dataclass(frozen=True, slots=True)
class Begin(Message):
    """The creator starts the table with these members (its own entry first)."""

    KIND: ClassVar[str] = "lobby/begin"
    lobby: Annotated[bytes, blob(32)]
    members: Annotated[tuple[Member, ...], array(_ENTRY, 6, 2), Out(_entries)]


@dataclass(frozen=True, slots=True)
class Relay(Message):
    """The creator passes on every member's signed message of one stage, in seat order
    of the `Begin`."""

    KIND: ClassVar[str] = "lobby/relay"
    lobby: Annotated[bytes, blob(32)]
    stage: Annotated[str, _one_of(*STAGES)]
    items: Annotated[tuple[bytes, ...], array(blob(max_size=RELAY_ITEM_MAX_BYTES), 6, 2)]


@dataclass(frozen=True, slots=True)
class CoinCommit(Message):
    KIND: ClassVar[str] = "coin/commit"
    lobby: Annotated[bytes, blob(32)]
    digest: Annotated[bytes, blob(32)]


@dataclass(frozen=True, slots=True)
class CoinReveal(Message):
    KIND: ClassVar[str] = "coin/reveal"
    lobby: Annotated[bytes, blob(32)]
    value: Annotated[bytes, blob(32)]


# Each kind's schema by name: the SPEC field tables are read from these
# (tools/vectors.py --fields, tests/test_spec_fields.py).
_JOIN = Join.schema()
_STATE = LobbyState.schema()
_BEGIN = Begin.schema()
_RELAY = Relay.schema()
_COMMIT = CoinCommit.schema()
_REVEAL = CoinReveal.schema()


@dataclass(frozen=True, slots=True)
class ConfigSignature:
    """A member's signature of the game config: the envelope's body is the config's
    canonical bytes (SPEC §4.1), checked against the config the coin gives."""

    body: bytes


FromCreator = LobbyState | Begin | Relay
FromMember = CoinCommit | CoinReveal | ConfigSignature


def from_creator(creator: bytes, envelope: bytes, lobby: bytes) -> FromCreator:
    """A message the creator (who proved `creator`) signed for this table."""
    body = signed_body(creator, envelope, "the creator")
    kind = body.get("kind")
    if kind == "lobby/state":
        return LobbyState.parse(body, lobby, creator)
    if kind == "lobby/begin":
        fields = Begin.fields(body, "the creator")
        if fields["lobby"] != lobby:
            raise ProtocolError(N_("the creator"), N_("a start for another table"))
        return Begin(lobby, _members(fields["members"], lobby, creator))
    if kind == "lobby/relay":
        relay = Relay.from_body(body, "the creator")
        if relay.lobby != lobby:
            raise ProtocolError(N_("the creator"), N_("a relay for another table"))
        return relay
    raise ProtocolError(
        N_("the creator"), N_("an unknown lobby message {value!r}").format(value=str(kind)[:40])
    )


_FROM_MEMBER: dict[str, type[CoinCommit | CoinReveal]] = {
    CoinCommit.KIND: CoinCommit,
    CoinReveal.KIND: CoinReveal,
}


def from_member(key: bytes, envelope: bytes, lobby: bytes, who: str) -> FromMember:
    """A start message that the member with `key` signed for this table."""
    opened = open_envelope(envelope, roster_of([key]))
    body = unpack(opened.body, who)
    kind = body.get("kind") if isinstance(body, dict) else None
    if kind == "config":
        return ConfigSignature(opened.body)
    message = _FROM_MEMBER.get(str(kind))
    if message is None:
        raise ProtocolError(
            who, N_("an unexpected lobby message {value!r}").format(value=str(kind)[:40])
        )
    value = message.from_body(body, who)
    if value.lobby != lobby:
        raise ProtocolError(who, N_("a {kind} for another table").format(kind=kind))
    return value
