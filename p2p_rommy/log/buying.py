"""One seat's side of Køb! (lp buy windows): its own answer, the answers it hears,
and the complete set the seat in turn resolves the window with.

Every eligible seat broadcasts its own signed claim or pass (a client passes by itself
when the window's time runs out on its own clock). Under `buy_priority = first` every
other seat answers too, and every answer carries the seat's observation: the order in
which calls reached it (`log/buy_race.py`); the discarder and the seat in turn send
theirs once every eligible seat has answered (or their own clock runs out). The seat in
turn, which declined the card and cannot claim it, proposes the resolution once it
holds every answer. A resolution must carry all of them, and the winner follows from
the set by the house rule (the race, nearest after the discarder, or the window's lot),
so no seat chooses who buys: not by the order it lists claims in, not by leaving one
out. A seat that never answers is a stall like any other, named and ended by agreement;
a seat that signs two different answers for one window is named, both kept as proof.
"""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import EVIDENCE_KEPT, FUTURE_STEPS
from p2p_rommy.log.buy_seal import nonce_of, seal_of, sealed
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.events import Event, Send
from p2p_rommy.log.messages import BuyAnswer, BuySeal, BuyStep, Step, decode
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.trouble import Trouble
from p2p_rommy.wire.identity import open_envelope, same_body

log = logging.getLogger(__name__)


@runtime_checkable
class Reacts(Protocol):
    """A bot that calls Køb! only after a human-like reaction time (`bots/reaction.py`):
    under `first` a bot calling at once would beat every person."""

    def call_after_s(self, window: int) -> float: ...


class Buying:
    """This seat's answers in Køb! windows and the answers it holds from the others."""

    def __init__(
        self,
        replica: SeatedReplica,
        player: Player | None,
        windows: BuyWindows,
        trouble: Trouble,
    ) -> None:
        self.replica = replica
        self.player = player
        self.windows = windows
        self.trouble = trouble
        self._decided: tuple[int, bool] | None = None
        """(window, the bot's decision) once it has decided (it is asked once)."""
        self._reacts: tuple[Player | None, Reacts | None] = (None, None)
        """(`player`, it again if it `Reacts`): a protocol's `isinstance` is slow, and
        every call into the peer asks while a window is open."""

    def _open(self) -> int | None:
        """The open window this seat may answer in and has not, or None."""
        replica = self.replica
        window = replica.window
        if window is None or replica.seat not in window.answerers:
            return None
        if self.windows.answered(window.number):
            return None
        return window.number

    def answer(self, claim: bool) -> list[Event]:
        """This seat's answer in the open window (none if it cannot answer)."""
        window = self._open()
        if window is None:
            return []
        replica = self.replica
        assert replica.window is not None
        if claim and replica.seat not in replica.window.eligible:
            return []
        if sealed(replica.state):  # no race: seal now, open once every seal is in
            nonce = nonce_of(replica.identity, replica.game, window)
            seal = seal_of(replica.game, window, replica.seat, claim, nonce)
            envelope = replica.identity.sign(
                BuySeal(replica.game, window, replica.seat, seal).encode()
            )
            self.windows.seal(window, claim, envelope)
            return [Send(envelope), *self._opening()]
        # what reached this seat before its answer, then its own call (SPEC §4.7)
        seen = self.windows.calls(window) + ((replica.seat,) if claim else ())
        answer = BuyAnswer(replica.game, window, replica.seat, claim, seen)
        envelope = replica.identity.sign(answer.encode())
        self.windows.answer(window, envelope, claim)
        return [Send(envelope)]

    def _opening(self) -> list[Event]:
        """This seat opens its sealed answer once it holds every eligible seat's seal
        (then no answer can change: nobody answers with a last look)."""
        replica = self.replica
        if replica.window is None or not sealed(replica.state):
            return []
        window = replica.window.number
        claim = self.windows.sealed_claim(window)
        nonce = nonce_of(replica.identity, replica.game, window)
        if claim is None:
            claim = self._recovered_claim(window, nonce)
        if claim is None or self.windows.unsealed(window, replica.window.eligible):
            return []
        answer = BuyAnswer(replica.game, window, replica.seat, claim, (), nonce)
        envelope = replica.identity.sign(answer.encode())
        self.windows.opened_seal(window)
        self.windows.answer(window, envelope, claim)
        return [Send(envelope)]

    def _recovered_claim(self, window: int, nonce: bytes) -> bool | None:
        """After a restart inside the window: the claim this seat sealed before (its
        seal came back by catch-up; the nonce is derived, so the seal tells which)."""
        replica = self.replica
        own = self.windows.held_seal(window, replica.seat)
        if own is None or self.windows.held(window, replica.seat) is not None:
            return None
        seal = decode(open_envelope(own, replica.roster).body, replica.seat)
        assert isinstance(seal, BuySeal)
        for claim in (False, True):
            if seal_of(replica.game, window, replica.seat, claim, nonce) == seal.seal:
                return claim
        return None

    def answer_due(self, now: float) -> list[Event]:
        """A bot answers at once; a client that has not answered when the window's time
        runs out (on this seat's own clock) passes. A seat that observes the race but
        cannot claim (under `first`) answers once every eligible seat has, or when its
        own clock runs out. Under `seat`/`lot` a sealed answer is opened once every seal
        is in."""
        opening = self._opening()
        if opening:
            return opening
        window = self._open()
        if window is None:
            return []
        assert self.replica.window is not None
        eligible = self.replica.window.eligible
        if self.replica.seat not in eligible:
            heard_all = not self.windows.unanswered(window, eligible)
            if heard_all or self.windows.time_is_up(window, now):
                return self.answer(False)
            return []
        if self.player is not None:
            decision = self._bot_decision(window)
            if decision is None or (decision and self._reacting(window, now)):
                return []
            return self.answer(decision)
        if self.windows.time_is_up(window, now):
            return self.answer(False)
        return []

    def _bot_decision(self, window: int) -> bool | None:
        if self._decided is not None and self._decided[0] == window:
            return self._decided[1]
        assert self.player is not None
        decision = self.player.wants_buy(self.replica.view())
        if decision is not None:
            self._decided = (window, decision)
        return decision

    def _reacting(self, window: int, now: float) -> bool:
        """Whether a bot's call waits for its reaction time still (under `first`,
        counted from when the window opened on this seat's clock)."""
        player = self._reacting_player()
        if self.replica.state.rules.buy_priority != "first" or player is None:
            return False
        opened = self.windows.opened_at(window)
        if opened is None:  # it restarted inside the window: the clock starts now
            self.windows.opened(window, now)
            opened = now
        return now - opened < player.call_after_s(window)

    def _reacting_player(self) -> Reacts | None:
        """`player` if it has a reaction time (`Reacts`), else None."""
        player = self.player
        known, reacts = self._reacts
        if player is not known:
            reacts = player if isinstance(player, Reacts) else None
            self._reacts = (player, reacts)
        return reacts

    def on_answer(self, answer: BuyAnswer | BuySeal, envelope: bytes) -> list[Event]:
        """Another seat's answer (or seal): held for its window, dropped if it came too
        late, or refused with a reason."""
        if isinstance(answer, BuySeal):
            return self._on_seal(answer, envelope)
        replica = self.replica
        is_open = answer.window == replica.buy_window
        if not is_open and answer.window <= replica.n:
            # jitter, not misbehaviour: the seat in turn resolved the window with this very
            # answer before it got here, or (a claim) it was simply too late. Not a
            # refusal: those are strikes that cut a link (`MAX_STRIKES`). But another
            # answer than the one this seat holds for that window is two-faced, however
            # long ago it closed (SPEC §4.7 "Two answers").
            held = self.windows.closed_answer(answer.window, answer.seat, envelope, seal=False)
            if held is not None and not same_body(held, envelope):
                return self.trouble.equivocation(held, envelope, N_("Køb! answers"))
            log.debug("seat %d: a buy answer after window %d closed", answer.seat, answer.window)
            return []
        if answer.window > replica.n + FUTURE_STEPS:
            return self.trouble.refuse(
                f"seat {answer.seat}: an answer for window {answer.window}, too far ahead"
            )
        held = self.windows.held(answer.window, answer.seat)
        if held is not None:
            if not same_body(held, envelope):  # two signed answers for one window: proof
                return self.trouble.equivocation(held, envelope, N_("Køb! answers"))
            return []
        if is_open:
            try:
                replica.open_buy_answer(envelope)
            except ProtocolError as error:
                return self.trouble.refuse(str(error))
            unopened = self._not_its_seal(answer)
            if unopened is not None:
                return self._false_opening(answer.seat, unopened, envelope)
        self.windows.add(answer.window, answer.seat, envelope, answer.claim)
        return []

    def _not_its_seal(self, answer: BuyAnswer) -> bytes | None:
        """Under `seat`/`lot`: the seal `answer`'s seat sealed, when the answer does not
        open it (both signed by that seat: its own doing, never anyone else's)."""
        replica = self.replica
        held = self.windows.held_seal(answer.window, answer.seat)
        if held is None or not sealed(replica.state):
            return None
        _, seal = replica.open_message(held)  # opened once, when it came
        assert isinstance(seal, BuySeal) and seal.seat == answer.seat
        opened = seal_of(replica.game, answer.window, answer.seat, answer.claim, answer.nonce)
        return None if opened == seal.seal else held

    def _false_opening(self, seat: int, seal: bytes, answer: bytes) -> list[Event]:
        """`seat` opened its seal with another answer: named, and both signed messages go
        to all (a seat it told the truth to holds the other answer: proof there too)."""
        if len(self.trouble.evidence) < EVIDENCE_KEPT:
            self.trouble.evidence.append((seal, answer))
        report = N_("seat {seat}'s Køb! answer does not open its seal (both kept as proof)").format(
            seat=seat + 1
        )
        return [*self.trouble.freeze(report, seat), Send(seal), Send(answer)]

    def _on_seal(self, seal: BuySeal, envelope: bytes) -> list[Event]:
        replica = self.replica
        is_open = seal.window == replica.buy_window
        if not is_open and seal.window <= replica.n:
            held = self.windows.closed_answer(seal.window, seal.seat, envelope, seal=True)
            if held is not None and not same_body(held, envelope):  # two-faced, late
                return self.trouble.equivocation(held, envelope, N_("Køb! answers"))
            return []  # too late: the window closed with it already (jitter)
        if seal.window > replica.n + FUTURE_STEPS:
            return self.trouble.refuse(
                f"seat {seal.seat}: a seal for window {seal.window}, too far ahead"
            )
        held = self.windows.held_seal(seal.window, seal.seat)
        if held is not None:
            if not same_body(held, envelope):  # two signed seals for one window: proof
                return self.trouble.equivocation(held, envelope, N_("Køb! answers"))
            return []
        if is_open:
            try:
                replica.open_buy_seal(envelope)
            except ProtocolError as error:
                return self.trouble.refuse(str(error))
        self.windows.add_seal(seal.window, seal.seat, envelope)
        return []

    def two_faced(self, body: BuyStep) -> list[Event]:
        """A resolution whose answer from seat s differs from the one this seat holds
        from s: s signed both, so s is named, both kept as proof (SPEC §4.7)."""
        for envelope in (*body.answers, *body.seals):
            try:
                _, answer = self.replica.open_message(envelope)
            except ProtocolError:
                continue  # the step's own validation refuses it, naming its proposer
            if not isinstance(answer, BuyAnswer | BuySeal) or answer.window != body.window:
                continue
            if isinstance(answer, BuySeal):
                held = self.windows.held_seal(body.window, answer.seat)
            else:
                held = self.windows.held(body.window, answer.seat)
            if held is not None and not same_body(held, envelope):
                return self.trouble.equivocation(held, envelope, N_("Køb! answers"))
        return []

    def complete(self) -> list[bytes] | None:
        """Every answering seat's answer in the open window, or None while one is missing."""
        window = self.replica.window
        if window is None or self.windows.unanswered(window.number, window.answerers):
            return None
        return self.windows.answers(window.number)

    def propose(self) -> Step | None:
        """The resolution of the open window once every answer (and seal) is in."""
        answers = self.complete()
        if answers is None:
            return None
        replica = self.replica
        if not sealed(replica.state):
            return replica.propose_buy(answers)
        return replica.propose_buy(answers, self.windows.seals(replica.buy_window))

    def open_answers(self) -> list[bytes]:
        """The seals and answers held for the open window (for a seat catching up)."""
        window = self.replica.buy_window
        return [*self.windows.seals(window), *self.windows.answers(window)]

    def forget_closed(self) -> None:
        """Answers of windows that have closed are no longer needed (bounded memory)."""
        self.windows.forget_closed(self.replica.n, self.replica.buy_window)
