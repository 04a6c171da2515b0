"""The creator's side of a table, without I/O: members join and leave, the creator
starts, and the start's three stages are collected and relayed (see the package's
docstring). The caller performs the effects each call returns and calls `tick` once
`deadline` has passed."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.i18n import N_, _
from p2p_rommy.limits import LOBBY_STRIKES, START_STAGE_TIMEOUT_S
from p2p_rommy.lobby.coin import Coin, Started
from p2p_rommy.lobby.messages import (
    STAGES,
    Begin,
    LobbyState,
    Member,
    Relay,
    TableSettings,
    join_entry,
)
from p2p_rommy.wire.identity import Identity, fingerprint


@dataclass(frozen=True, slots=True)
class Send:
    """Send `envelope` to the member with key `to`, or to every member if None."""

    to: bytes | None
    envelope: bytes


@dataclass(frozen=True, slots=True)
class Drop:
    """Close the member's connection; `reason` says why (for the log)."""

    key: bytes
    reason: str


@dataclass(frozen=True, slots=True)
class Changed:
    """The members changed (re-advertise, redraw the lobby screen)."""

    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class Begun:
    """Every member signed the config: the game can start."""

    started: Started


@dataclass(frozen=True, slots=True)
class Stopped:
    """The start stopped; the error names who it waited for, or who left."""

    error: ProtocolError


Effect = Send | Drop | Changed | Begun | Stopped


class Host:
    """The table as its creator keeps it. `phase` is "open" (players join and leave),
    then one of `STAGES` while the start runs, then "started" or "stopped"."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        settings: TableSettings,
        game_addresses: list[tuple[str, int]],
        lobby: bytes,
        coin_value: bytes,
        start_when: int | None = None,
        only: frozenset[bytes] | None = None,
    ) -> None:
        self.identity = identity
        self.settings = settings
        self.lobby = lobby
        self.coin_value = coin_value
        self.start_when = start_when
        self.only = only
        """A new game at the same table: only the last game's players may sit down (a
        stranger does not take a seat while a player is still reading the summary)."""
        own = join_entry(identity, lobby, name, game_addresses)
        self.members: list[Member] = [Member.from_entry(identity.public_key, own, lobby)]
        self.phase = "open"
        self.coin: Coin | None = None
        self.deadline: float | None = None
        """When the stage running now times out (seconds on the caller's clock)."""
        self._strikes: dict[bytes, int] = {}
        self._refused: dict[bytes, str] = {}

    @property
    def open(self) -> bool:
        return self.phase == "open"

    def state(self) -> bytes:
        """The signed lobby state every member is sent when it changes."""
        s = self.settings
        state = LobbyState(
            self.lobby, s.table, s.variant, s.house, s.seats, self.open, tuple(self.members)
        )
        return self.identity.sign(state.encode())

    # --- members come and go ------------------------------------------------------

    def join(self, key: bytes, entry: bytes, now: float) -> list[Effect]:
        """A connection that proved `key` sent its join `entry`. `ProtocolError` if it
        may not join (the caller closes the connection; nothing changed)."""
        joining = Member.from_entry(key, entry, self.lobby)
        if not self.open or len(self.members) >= self.settings.seats:
            raise ProtocolError(None, N_("the table is full or has started"))
        if self.only is not None and key not in self.only:
            raise ProtocolError(None, N_("a new game at this table is for its last game's players"))
        if any(m.key == key for m in self.members):
            raise ProtocolError(None, N_("that key is already at the table"))
        self.members.append(joining)
        effects: list[Effect] = [Changed(tuple(self.members)), Send(None, self.state())]
        if self.start_when is not None and len(self.members) >= self.start_when:
            effects += self.start(now)
        return effects

    def left(self, key: bytes) -> list[Effect]:
        """The member's connection closed. Before the start it leaves the table (its
        seat is free again); during the start, the start stops naming it."""
        member = next((m for m in self.members[1:] if m.key == key), None)
        if member is None:
            return []
        if self.open:
            self.members.remove(member)
            return [Changed(tuple(self.members)), Send(None, self.state())]
        if self.phase in STAGES:
            self.phase, self.deadline = "stopped", None
            why = self._refused.get(key, _("its connection closed"))
            return [
                Stopped(
                    ProtocolError(
                        None,
                        _("the start stopped: {who} left ({why})").format(
                            who=_who(member), why=why
                        ),
                    )
                )
            ]
        return []

    def remove(self, key: bytes) -> list[Effect]:
        """The creator sends a member away (a ghost, a squatter) before the start."""
        if not self.open or not any(m.key == key for m in self.members[1:]):
            return []
        return [Drop(key, "sent away by the table's creator"), *self.left(key)]

    # --- the start ----------------------------------------------------------------

    def start(self, now: float) -> list[Effect]:
        """Begin the start with the members there now. `ConfigError` if alone."""
        if not self.open:
            return []
        if len(self.members) < 2:
            raise ConfigError(_("a game needs at least two players"))
        members = tuple(self.members)
        self.coin = Coin(self.lobby, self.identity, self.settings, members, self.coin_value)
        self.phase, self.deadline = STAGES[0], now + START_STAGE_TIMEOUT_S
        self.coin.take(self.identity.public_key, self.coin.my_commit())
        begin = self.identity.sign(Begin(self.lobby, members).encode())
        return [Send(None, begin), *self._advance(now)]

    def receive(self, key: bytes, envelope: bytes, now: float) -> list[Effect]:
        """A member's message. Only the start's messages are expected, one of each in
        its stage; anything else is a strike, and `LOBBY_STRIKES` close the connection.
        Nothing a member sends is kept but those messages."""
        if self.coin is None or self.phase not in STAGES:
            return self._strike(key, "a message while the table is open")
        try:
            self.coin.take(key, envelope)
        except ProtocolError as error:
            return self._strike(key, error.reason)
        return self._advance(now)

    def tick(self, now: float) -> list[Effect]:
        """Let time pass: a stage that is not complete by its deadline stops the start,
        naming every member whose message did not come (and why one was refused)."""
        if self.deadline is None or now < self.deadline or self.coin is None:
            return []
        stage = self.phase
        missing = ", ".join(
            _who(m)
            + (
                " (" + _("refused: {why}").format(why=self._refused[m.key]) + ")"
                if m.key in self._refused
                else ""
            )
            for m in self.coin.missing(stage)
        )
        self.phase, self.deadline = "stopped", None
        said = {
            "commits": N_("the start stopped: {who} sent no coin commitment"),
            "reveals": N_("the start stopped: {who} sent no coin value"),
            "signatures": N_("the start stopped: {who} sent no config signature"),
        }
        return [Stopped(ProtocolError(None, _(said[stage]).format(who=missing)))]

    def _advance(self, now: float) -> list[Effect]:
        """Relay each stage once it is complete, and take the creator's own next message."""
        assert self.coin is not None
        effects: list[Effect] = []
        while self.phase in STAGES and not self.coin.missing(self.phase):
            stage = self.phase
            items = self.coin.relayed(stage)
            effects.append(Send(None, self.identity.sign(Relay(self.lobby, stage, items).encode())))
            if stage == "signatures":
                self.phase, self.deadline = "started", None
                effects.append(Begun(Started.of(self.coin)))
                break
            self.phase = STAGES[STAGES.index(stage) + 1]
            self.deadline = now + START_STAGE_TIMEOUT_S
            own = self.coin.my_reveal() if self.phase == "reveals" else self.coin.my_signature()
            self.coin.take(self.identity.public_key, own)
        return effects

    def _strike(self, key: bytes, reason: str) -> list[Effect]:
        self._refused[key] = reason
        self._strikes[key] = self._strikes.get(key, 0) + 1
        if self._strikes[key] < LOBBY_STRIKES:
            return []
        return [Drop(key, f"too many unexpected lobby messages (last: {reason})")]


def _who(member: Member) -> str:
    return f"{member.name} ({fingerprint(member.key)})"
