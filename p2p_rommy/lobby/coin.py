"""One member's view of a table's start: the coin's commitments and values, the config
it gives, and everyone's signature of that config. No I/O; the random value is
passed in."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.lobby.messages import (
    STAGES,
    CoinCommit,
    CoinReveal,
    ConfigSignature,
    FromMember,
    Member,
    TableSettings,
    from_member,
)
from p2p_rommy.log.transcript import Genesis
from p2p_rommy.wire.identity import Identity, open_envelope, roster_of

COIN_DOMAIN = b"p2p-rommy/v1/coin\x00"


def commitment(lobby: bytes, value: bytes) -> bytes:
    return hashlib.sha256(COIN_DOMAIN + lobby + value).digest()


@dataclass
class Coin:
    """Takes each member's commitment, value and config signature, checking each as it
    comes; `config` once every value is in, `genesis` once every signature is."""

    lobby: bytes
    identity: Identity
    settings: TableSettings
    members: tuple[Member, ...]
    value: bytes
    commits: dict[bytes, bytes] = field(default_factory=dict)
    values: dict[bytes, bytes] = field(default_factory=dict)
    envelopes: dict[str, dict[bytes, bytes]] = field(
        default_factory=lambda: {stage: {} for stage in STAGES}
    )
    """Each stage's signed messages by member key, as taken (what the creator relays)."""
    config: GameConfig | None = None

    def name(self, key: bytes) -> str:
        return next((m.name for m in self.members if m.key == key), "?")

    def my_commit(self) -> bytes:
        return self.identity.sign(
            CoinCommit(self.lobby, commitment(self.lobby, self.value)).encode()
        )

    def my_reveal(self) -> bytes:
        return self.identity.sign(CoinReveal(self.lobby, self.value).encode())

    def my_signature(self) -> bytes:
        assert self.config is not None
        return self.identity.sign(self.config.encode())

    # --- one member's message ---------------------------------------------------

    def take(self, key: bytes, envelope: bytes) -> FromMember:
        """Check and keep the start message `key` signed; `ProtocolError` (naming the
        member) if it is malformed, early, repeated or does not fit what it answers."""
        who = self.name(key)
        message = from_member(key, envelope, self.lobby, who)
        if isinstance(message, CoinCommit):
            if key in self.commits:
                raise ProtocolError(who, N_("a second coin commitment"))
            self.commits[key] = message.digest
            stage = "commits"
        elif isinstance(message, CoinReveal):
            if len(self.commits) < len(self.members) or key in self.values:
                raise ProtocolError(who, N_("a coin value out of turn"))
            if commitment(self.lobby, message.value) != self.commits[key]:
                raise ProtocolError(who, N_("a coin value does not open its commitment"))
            self.values[key] = message.value
            stage = "reveals"
            if len(self.values) == len(self.members):
                self.config = self._config()
        else:
            if self.config is None or key in self.envelopes["signatures"]:
                raise ProtocolError(who, N_("a config signature out of turn"))
            if message.body != self.config.encode():
                raise ProtocolError(who, N_("signed a different game config"))
            stage = "signatures"
        self.envelopes[stage][key] = envelope
        return message

    def missing(self, stage: str) -> tuple[Member, ...]:
        """The members whose message of `stage` has not come."""
        return tuple(m for m in self.members if m.key not in self.envelopes[stage])

    def relayed(self, stage: str) -> tuple[bytes, ...]:
        """Every member's message of `stage`, in the order of the members."""
        return tuple(self.envelopes[stage][m.key] for m in self.members)

    # --- a relay: every member's message of one stage ------------------------------

    def take_relay(self, stage: str, items: tuple[bytes, ...]) -> None:
        """Every member's message of `stage`, as the creator relays them."""
        roster = roster_of([m.key for m in self.members])
        expected = {"commits": CoinCommit, "reveals": CoinReveal, "signatures": ConfigSignature}
        for envelope in items:
            key = self.members[open_envelope(envelope, roster).seat].key
            message = self.take(key, envelope)  # a member twice: refused as out of turn
            if not isinstance(message, expected[stage]):
                raise ProtocolError(
                    N_("the creator"),
                    N_("relayed a {kind} among the {stage}").format(
                        kind=type(message).__name__, stage=stage
                    ),
                )
        if self.missing(stage):
            names = ", ".join(m.name for m in self.missing(stage))
            raise ProtocolError(
                N_("the creator"),
                N_("relayed the {stage} without {names}").format(stage=stage, names=names),
            )

    @property
    def genesis(self) -> Genesis:
        assert self.config is not None and not self.missing("signatures")
        return Genesis(
            self.config,
            self.config.encode(),
            tuple(self.envelopes["signatures"][k] for k in self.config.public_keys),
        )

    def _config(self) -> GameConfig:
        coin = hashlib.sha256(
            COIN_DOMAIN + self.lobby + b"".join(self.values[m.key] for m in self.members)
        ).digest()
        order = sorted(self.members, key=lambda m: hashlib.sha256(coin + m.key).digest())
        dealer = int.from_bytes(hashlib.sha256(coin + b"dealer").digest()[:8], "big") % len(order)
        return GameConfig(
            self.settings.variant,
            self.settings.house,
            tuple(Seat(m.name, m.key) for m in order),
            dealer,
            self.settings.table,
            coin[:16],
        )


@dataclass(frozen=True)
class Started:
    """What the lobby hands the game: the signed config and where everyone listens."""

    genesis: Genesis
    addresses: dict[int, list[tuple[str, int]]]

    @property
    def config(self) -> GameConfig:
        return self.genesis.config

    @staticmethod
    def of(coin: Coin) -> Started:
        genesis = coin.genesis
        by_key = {m.key: list(m.addresses) for m in coin.members}
        keys = genesis.config.public_keys
        return Started(genesis, {seat: by_key[key] for seat, key in enumerate(keys)})
