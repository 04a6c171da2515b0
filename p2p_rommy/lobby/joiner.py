"""A joiner's side of a table, without I/O: it sends its entry, follows the creator's
states, and answers each stage of the start (see the package's docstring).

The caller sends `entry` first, passes every envelope from the creator to `receive`
with the time, sends what it returns, and calls `silence()` for the error to raise
once `deadline` passes (or `hung_up()` when the connection closes)."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_, _, say_os_error
from p2p_rommy.limits import LOBBY_REPLY_TIMEOUT_S, START_STAGE_TIMEOUT_S
from p2p_rommy.lobby.coin import Coin, Started
from p2p_rommy.lobby.messages import (
    STAGES,
    Begin,
    LobbyState,
    Relay,
    from_creator,
    join_entry,
)
from p2p_rommy.wire.identity import Identity, fingerprint


@dataclass(frozen=True, slots=True)
class JoinerOutput:
    """What one message from the creator gives: envelopes to send back, a new lobby
    state to show, or the started game."""

    send: tuple[bytes, ...] = ()
    state: LobbyState | None = None
    started: Started | None = None


class Joiner:
    """One player at someone else's table, from its join to the signed config."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        game_addresses: list[tuple[str, int]],
        lobby: bytes,
        creator: bytes,
        coin_value: bytes,
        now: float,
    ) -> None:
        self.identity = identity
        self.lobby = lobby
        self.creator = creator
        self.coin_value = coin_value
        self.entry = join_entry(identity, lobby, name, game_addresses)
        """The signed join this player sends first."""
        self.state: LobbyState | None = None
        self.coin: Coin | None = None
        self.stage = 0
        """How many of the start's stages the creator has relayed."""
        self.deadline: float | None = now + LOBBY_REPLY_TIMEOUT_S
        """When silence from the creator is an error: it must answer the join, and
        once the start began, relay each stage. An honest creator gives up on a stage
        first (after `START_STAGE_TIMEOUT_S`), so a joiner waits twice that."""

    @property
    def revealed(self) -> bool:
        """This player's coin value is out and the creator has not relayed the reveals."""
        return self.stage == 1

    def receive(self, envelope: bytes, now: float) -> JoinerOutput:
        """A message from the creator. `ProtocolError` (nothing changes) if it is not
        one the creator may send now."""
        message = from_creator(self.creator, envelope, self.lobby)
        if isinstance(message, LobbyState):
            if self.coin is not None:
                return JoinerOutput()  # an old state that crossed the start: harmless
            self.state, self.deadline = message, None
            return JoinerOutput(state=message)
        if isinstance(message, Begin):
            return self._begin(message, now)
        return self._relay(message, now)

    def _begin(self, begin: Begin, now: float) -> JoinerOutput:
        if self.state is None:
            raise ProtocolError(N_("the creator"), N_("a start before any lobby state"))
        if self.coin is not None:
            raise ProtocolError(N_("the creator"), N_("a second start"))
        if self.identity.public_key not in {m.key for m in begin.members}:
            raise ProtocolError(None, _("the game started without this player"))
        self.coin = Coin(
            self.lobby, self.identity, self.state.settings, begin.members, self.coin_value
        )
        self.deadline = now + 2 * START_STAGE_TIMEOUT_S
        return JoinerOutput(send=(self.coin.my_commit(),))

    def _relay(self, relay: Relay, now: float) -> JoinerOutput:
        if self.coin is None:
            raise ProtocolError(N_("the creator"), N_("a relay before the start"))
        if self.stage >= len(STAGES) or relay.stage != STAGES[self.stage]:
            raise ProtocolError(
                N_("the creator"), N_("relayed the {stage} out of order").format(stage=relay.stage)
            )
        self.coin.take_relay(relay.stage, relay.items)
        self.stage += 1
        self.deadline = now + 2 * START_STAGE_TIMEOUT_S
        if relay.stage == "commits":
            return JoinerOutput(send=(self.coin.my_reveal(),))
        if relay.stage == "reveals":
            return JoinerOutput(send=(self.coin.my_signature(),))
        self.deadline = None
        return JoinerOutput(started=Started.of(self.coin))

    def silence(self) -> ProtocolError:
        """What to say when the creator went quiet past `deadline`."""
        who = fingerprint(self.creator)
        if self.state is None:
            return ProtocolError(
                None, _("the table's creator ({who}) did not answer").format(who=who)
            )
        name = self.state.members[0].name
        if self.revealed:
            return ProtocolError(
                None,
                _(
                    "the start stopped after you revealed your coin value: {name} ({who}), "
                    "the table's creator, sees every value before anyone else. A creator "
                    "who stops here can draw the seats again until they suit it: if it "
                    "happens again at this table, play at another"
                ).format(name=name, who=who),
            )
        return ProtocolError(
            None,
            _("the start stopped: {name} ({who}), the table's creator, went quiet").format(
                name=name, who=who
            ),
        )

    def hung_up(self, error: BaseException) -> ProtocolError:
        """What to say when the creator closed the connection."""
        if self.revealed:
            return self.silence()
        return ProtocolError(
            None,
            _("the table's creator closed the connection ({why})").format(why=say_os_error(error)),
        )
