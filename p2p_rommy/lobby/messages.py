"""The lobby's messages: typed, schema-checked, each signed by its author (SPEC §4.2).

A decoder takes an envelope and the key that must have signed it and gives a typed
message or raises `ProtocolError` with a reason; nothing here keeps state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from p2p_rommy.config import short_code
from p2p_rommy.errors import ProtocolError
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.wire.codec import (
    Check,
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
    raise SchemaError(f"{name} must be a house rule value")


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise SchemaError(f"{name} must be true or false")
    return value


def _one_of(*choices: str) -> Check:
    def check(value: Any, name: str) -> str:
        if value not in choices or not isinstance(value, str):
            raise SchemaError(f"{name} must be one of {', '.join(choices)}")
        return value

    return check


_JOIN = Schema(
    "lobby/join",
    {"lobby": blob(32), "name": text(64), "addresses": array(_address, MAX_ADDRESSES)},
)
_ENTRY = fixed(blob(32), blob(max_size=ENTRY_MAX_BYTES))
_STATE = Schema(
    "lobby/state",
    {
        "lobby": blob(32),
        "table": text(64),
        "variant": text(16),
        "house": array(fixed(text(64), _house_value), 32),
        "seats": integer(2, 6),
        "open": _flag,
        "members": array(_ENTRY, 6, 1),
    },
)
_BEGIN = Schema("lobby/begin", {"lobby": blob(32), "members": array(_ENTRY, 6, 2)})
_RELAY = Schema(
    "lobby/relay",
    {
        "lobby": blob(32),
        "stage": _one_of(*STAGES),
        "items": array(blob(max_size=RELAY_ITEM_MAX_BYTES), 6, 2),
    },
)
_COMMIT = Schema("coin/commit", {"lobby": blob(32), "digest": blob(32)})
_REVEAL = Schema("coin/reveal", {"lobby": blob(32), "value": blob(32)})


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


def signed_body(key: bytes, envelope: bytes, who: str | None = None) -> dict[str, Any]:
    """The map body of a lobby envelope that `key` must have signed."""
    opened = open_envelope(envelope, roster_of([key]))
    body = unpack(opened.body, who)
    if not isinstance(body, dict):
        raise ProtocolError(who, "a lobby message must be a map")
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
            raise ProtocolError(None, "a member with a weak or malformed key")
        fields = _JOIN.check(signed_body(key, entry))
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


@dataclass(frozen=True, slots=True)
class LobbyState:
    """What the creator says about its table, with each member's own signed entry."""

    lobby: bytes
    table: str
    variant: str
    house: tuple[tuple[str, HouseValue], ...]
    seats: int
    open: bool
    members: tuple[Member, ...]

    @staticmethod
    def parse(body: Any, lobby: bytes, creator: bytes) -> LobbyState:
        """`ProtocolError` unless `body` is a well-formed state of this table whose first
        member is `creator` (the key the creator proved)."""
        fields = _STATE.check(body, "the creator")
        if fields["lobby"] != lobby:
            raise ProtocolError("the creator", "a lobby state for another table")
        members = _members(body["members"], lobby, creator)
        return LobbyState(
            lobby,
            fields["table"],
            fields["variant"],
            fields["house"],
            fields["seats"],
            fields["open"],
            members,
        )

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "lobby/state",
                "lobby": self.lobby,
                "table": self.table,
                "variant": self.variant,
                "house": [list(p) for p in self.house],
                "seats": self.seats,
                "open": self.open,
                "members": [m.wire() for m in self.members],
            }
        )

    @property
    def settings(self) -> TableSettings:
        return TableSettings(self.table, self.variant, self.house, self.seats)


def _members(values: list[Any], lobby: bytes, creator: bytes) -> tuple[Member, ...]:
    members = tuple(Member.from_wire(m, lobby) for m in values)
    if members[0].key != creator:
        raise ProtocolError("the creator", "its own entry is not first in its lobby")
    if len({m.key for m in members}) != len(members):
        raise ProtocolError("the creator", "a member listed twice")
    return members


@dataclass(frozen=True, slots=True)
class Begin:
    """The creator starts the table with these members (its own entry first)."""

    lobby: bytes
    members: tuple[Member, ...]

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "lobby/begin",
                "lobby": self.lobby,
                "members": [m.wire() for m in self.members],
            }
        )


@dataclass(frozen=True, slots=True)
class Relay:
    """The creator passes on every member's signed message of one stage, in seat order
    of the `Begin`."""

    lobby: bytes
    stage: str
    items: tuple[bytes, ...]

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "lobby/relay",
                "lobby": self.lobby,
                "stage": self.stage,
                "items": list(self.items),
            }
        )


@dataclass(frozen=True, slots=True)
class CoinCommit:
    lobby: bytes
    digest: bytes

    def encode(self) -> bytes:
        return pack({"kind": "coin/commit", "lobby": self.lobby, "digest": self.digest})


@dataclass(frozen=True, slots=True)
class CoinReveal:
    lobby: bytes
    value: bytes

    def encode(self) -> bytes:
        return pack({"kind": "coin/reveal", "lobby": self.lobby, "value": self.value})


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
        fields = _BEGIN.check(body, "the creator")
        if fields["lobby"] != lobby:
            raise ProtocolError("the creator", "a start for another table")
        return Begin(lobby, _members(body["members"], lobby, creator))
    if kind == "lobby/relay":
        fields = _RELAY.check(body, "the creator")
        if fields["lobby"] != lobby:
            raise ProtocolError("the creator", "a relay for another table")
        return Relay(lobby, fields["stage"], fields["items"])
    raise ProtocolError("the creator", f"an unknown lobby message {str(kind)[:40]!r}")


def from_member(key: bytes, envelope: bytes, lobby: bytes, who: str) -> FromMember:
    """A start message that the member with `key` signed for this table."""
    opened = open_envelope(envelope, roster_of([key]))
    body = unpack(opened.body, who)
    kind = body.get("kind") if isinstance(body, dict) else None
    if kind == "config":
        return ConfigSignature(opened.body)
    schema = {"coin/commit": _COMMIT, "coin/reveal": _REVEAL}.get(str(kind))
    if schema is None:
        raise ProtocolError(who, f"an unexpected lobby message {str(kind)[:40]!r}")
    fields = schema.check(body, who)
    if fields["lobby"] != lobby:
        raise ProtocolError(who, f"a {kind} for another table")
    if kind == "coin/commit":
        return CoinCommit(lobby, fields["digest"])
    return CoinReveal(lobby, fields["value"])
