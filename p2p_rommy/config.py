"""The game config every seat signs before the first deal; its hash is the game id.

It pins everything the peers must agree on: protocol version, variant and house
rules, the seats (names and keys, in seat order), the first dealer and the
shuffle proof's parameter. After it is signed the table's creator has no more
say than anyone else.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Self

from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.rules.variants import RuleSet, ruleset
from p2p_rommy.wire.codec import SchemaError, array, blob, fixed, integer, text, unpack
from p2p_rommy.wire.identity import fingerprint, valid_public_key
from p2p_rommy.wire.message import In, Message, Out
from p2p_rommy.wire.text import TABLE_NAME_MAX, name_problem

PROTOCOL_VERSION = 6
"""The wire protocol's version (protocol/SPEC.md, changelog): in the config, the
handshake and the mDNS advert; peers of different versions refuse each other."""
GAME_ID_DOMAIN = b"p2p-rommy/v1/game-id\x00"


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    public_key: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)


def _house_value(value: Any, name: str) -> HouseValue:
    if value is None or isinstance(value, bool | int | str):
        return value
    raise SchemaError(N_("{name} must be a house rule value").format(name=name))


def _seat_pairs(seats: tuple[Seat, ...]) -> list[tuple[str, bytes]]:
    return [(seat.name, seat.public_key) for seat in seats]


def _seats(pairs: tuple[tuple[str, bytes], ...]) -> tuple[Seat, ...]:
    return tuple(Seat(name, key) for name, key in pairs)


@dataclass(frozen=True, slots=True)
class GameConfig(Message):
    """The config every seat signs; `encode` gives its canonical bytes (SPEC §4.1)."""

    KIND: ClassVar[str] = "config"
    ORDER: ClassVar[tuple[str, ...] | None] = (
        "version",
        "table",
        "variant",
        "house",
        "seats",
        "first_dealer",
        "nonce",
    )
    """SPEC §4.1's key order (the constructor takes the version and the table last)."""
    variant: Annotated[str, text(16)]
    house: Annotated[tuple[tuple[str, HouseValue], ...], array(fixed(text(64), _house_value), 32)]
    seats: Annotated[
        tuple[Seat, ...], array(fixed(text(32), blob(32)), 6, 2), Out(_seat_pairs), In(_seats)
    ]
    first_dealer: Annotated[int, integer(0, 5)]
    table: Annotated[str, text(64)] = "table"
    nonce: Annotated[bytes, blob(16)] = bytes(16)
    """Joint randomness from the lobby's coin: two games with the same players differ."""
    version: Annotated[int, integer(1, 1000)] = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        rules = self.rules  # validates the variant and house rules
        object.__setattr__(self, "house", rules.house.values)  # every rule, in spec order
        rules.check_players(len(self.seats))
        if not 0 <= self.first_dealer < len(self.seats):
            raise ConfigError(N_("the first dealer must be seated"))
        if len({seat.public_key for seat in self.seats}) != len(self.seats):
            raise ConfigError(N_("a key can hold only one seat"))
        problem = name_problem(self.table, TABLE_NAME_MAX)
        if problem is not None:
            raise ConfigError(N_("the table's name: {problem}").format(problem=problem))
        for seat in self.seats:
            problem = name_problem(seat.name)
            if problem is not None:
                raise ConfigError(N_("{kind!r}: {problem}").format(kind=seat.name, problem=problem))
            if not valid_public_key(seat.public_key):
                raise ConfigError(N_("{kind!r} has a weak or malformed key").format(kind=seat.name))

    @property
    def rules(self) -> RuleSet:
        return ruleset(self.variant, dict(self.house))

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def public_keys(self) -> list[bytes]:
        return [seat.public_key for seat in self.seats]

    @property
    def game_id(self) -> bytes:
        return hashlib.sha256(GAME_ID_DOMAIN + self.encode()).digest()

    def short_code(self) -> str:
        """Six characters to compare aloud: everyone sees the same config."""
        return short_code(self.game_id)

    @classmethod
    def from_body(cls, body: Any, sender: int | str | None = None) -> Self:
        """A received config: of this protocol's version and one the constructor accepts,
        or `ProtocolError`."""
        fields = cls.fields(body, sender)
        if fields["version"] != PROTOCOL_VERSION:
            raise ProtocolError(
                sender,
                N_("protocol version {value} is not {PROTOCOL_VERSION}").format(
                    value=fields["version"], PROTOCOL_VERSION=PROTOCOL_VERSION
                ),
            )
        try:
            return cls(**fields)
        except ConfigError as error:
            raise ProtocolError(
                sender, N_("bad game config: {error}").format(error=error)
            ) from None

    @classmethod
    def decode(cls, data: bytes, sender: int | str | None = None) -> Self:
        """A received config, which must also be in canonical form: every house rule, in
        SPEC order (the constructor fills in the ones a body leaves out)."""
        config = cls.from_body(unpack(data, sender), sender)
        if config.encode() != data:
            raise ProtocolError(sender, N_("the game config is not in canonical form"))
        return config

    def seat_of(self, public_key: bytes) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.public_key == public_key:
                return index
        return None


CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def short_code(digest: bytes) -> str:
    """Six characters of a digest for people to read aloud (SPEC §4.1): the low 30 bits
    of its first 8 bytes (big-endian), 5 bits a character, lowest first."""
    number = int.from_bytes(digest[:8], "big")
    return "".join(CODE_ALPHABET[(number >> (5 * i)) & 31] for i in range(6))


_CONFIG = GameConfig.schema()
"""The config's schema by name: the SPEC field table is read from it (tools/vectors.py)."""


def decode_config(data: bytes, sender: int | str | None = None) -> GameConfig:
    """`GameConfig.decode`: a received config, version- and canonical-form-checked."""
    return GameConfig.decode(data, sender)
