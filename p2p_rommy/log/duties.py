"""What a seat does of its own accord: its duties. The half of a `Peer` that is not
about what it hears, nor about ending a game or catching up.

Whatever this seat owes the table the moment the committed state says so (a deck step
or a reveal, the resolution of a Køb! window it holds every answer to, a bot's move);
the client's move (`submit`) and Køb! answer (`answer_buy`, `log/buying.py`); the
shuffle proof it is told to check before it shares a card (SPEC §3.3). Every step made
here goes to `Voting.proposed` (`log/voting.py`), which owns the step in flight.
"""

from __future__ import annotations

from p2p_rommy.engine.due import Due, DueKind
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.view import Player
from p2p_rommy.errors import IllegalMove, ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.events import Event
from p2p_rommy.log.messages import Step
from p2p_rommy.log.voting import Voting


class Duties(Voting):
    """This seat's own steps and Køb! answers (see the module docstring)."""

    player: Player | None
    """Decides this seat's moves (a bot); None: they come from `submit` (the client)."""

    def submit(self, move: Move, now: float = 0.0) -> list[Event]:
        """A move chosen by the client for this seat; `IllegalMove` if the rules refuse it."""
        if not self.replica.my_turn():
            raise IllegalMove(N_("it is not your turn to play"))
        return self._call(lambda: self._submit(move, now))

    def answered_buy(self) -> bool:
        """Whether this seat has answered the open buy window."""
        return self.buy_windows.answered(self.replica.buy_window)

    def answer_buy(self, claim: bool, now: float = 0.0) -> list[Event]:
        """This seat's answer in the open buy window (from the client)."""
        return self._call(lambda: self._answer_buy(claim, now))

    def check_deferred(self) -> list[Event]:
        """Verify the shuffle this seat shuffled on before checking it (SPEC §3.3), while
        the others check this seat's own: a proof that fails freezes the table naming
        its shuffler, before this seat shares any card. (If this is not called, the next
        message from another seat or this seat's next share verifies it first.)"""
        return self._call(self._check_deferred)

    def _check_deferred(self) -> None:
        self.deferred_first()

    def _submit(self, move: Move, now: float) -> None:
        try:
            step = self.replica.propose_move(move)
        except ProtocolError as error:  # a deferred proof checked before a reveal
            self.cheat_found(error)
            return
        self.proposed(step, now)

    def _answer_buy(self, claim: bool, now: float) -> None:
        answered = self.buying.answer(claim)
        if answered:
            self.emit(answered)
            self.duties(now)

    def duties(self, now: float) -> None:
        """Whatever this seat owes now: a Køb! answer, a deck step, a reveal, a buy
        resolution or (a bot's) move."""
        replica = self.replica
        if self.frozen or self.catch_up.catching_up:
            return
        self.emit(self.buying.answer_due(now))
        due = replica.my_due()
        if due is None:
            return
        try:
            step = self._due_step(due)
        except ProtocolError as error:
            # this seat's own checking found a cheat while it made its step: before its
            # first share, it verified a shuffle it had shuffled on (SPEC §3.3)
            self.cheat_found(error)
            return
        if step is not None:
            self.proposed(step, now)

    def _due_step(self, due: Due) -> Step | None:
        """This seat's step for what it owes, or None if it cannot make it yet."""
        replica = self.replica
        if due.kind.deck:
            return replica.propose_deck()
        if due.kind is DueKind.REVEAL:
            return replica.propose_reveal()
        if due.kind is DueKind.BUY:
            return self.buying.propose()
        if self.player is None:
            return None
        return replica.propose_move(self.player.choose(replica.view()))
