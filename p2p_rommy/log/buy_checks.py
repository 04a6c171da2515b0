"""The replica's checks of a Køb! window: each answer and seal as it is opened, and the
resolution step that carries them all (SPEC §4.7).

The open window (`OpenWindow`, its one owner) says who answers and who may claim; an
answer or seal is opened once and kept with its window (or, before it opens, in
`_ahead`); the resolution must carry every answering seat's own signed answer (and
under `seat`/`lot` every eligible seat's seal, each answer opening its own), ranked
by the window's priority (`buy_race.ranked`). A concept of its own beside the checks
of moves and deck messages (`log/replica.py`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from p2p_rommy.engine.apply import apply
from p2p_rommy.engine.moves import (
    ResolveBuy,
)
from p2p_rommy.engine.state import GameState
from p2p_rommy.errors import CheatDetected, IllegalMove, ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import OPENED_ANSWERS_KEPT
from p2p_rommy.log.buy_race import Race, answerers, ranked
from p2p_rommy.log.buy_seal import seal_of, sealed
from p2p_rommy.log.buy_window import OpenWindow
from p2p_rommy.log.messages import (
    BuyAnswer,
    BuySeal,
    BuyStep,
    LogMessage,
    Step,
)
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.tentative import RoundDeck
from p2p_rommy.wire.identity import Opened, open_envelope

BUY_LOT_DOMAIN = b"p2p-rommy/v5/buy-lot\x00"


class BuyChecks:
    """The checks of the open Køb! window's answers, seals and resolution (a mixin of
    `Replica`; see the module docstring)."""

    game: bytes
    n: int
    state: GameState
    roster: Any
    deck: RoundDeck | None
    window: OpenWindow | None
    _ahead: dict[bytes, tuple[Opened, BuyAnswer | BuySeal]]

    def _check_buy(
        self, step: Step, body: BuyStep
    ) -> tuple[GameState, tuple[int, ...], Race | None]:
        window = self.window
        if window is None:
            raise ProtocolError(step.seat, N_("no buy window to resolve"), step.n)
        if body.window != window.number:
            raise ProtocolError(step.seat, N_("the resolution is for another buy window"), step.n)
        answers: list[BuyAnswer] = []
        for envelope in body.answers:
            try:
                answer = self.open_buy_answer(envelope)
            except ProtocolError as error:  # the proposer put it in its step (issue 24)
                raise ProtocolError(
                    step.seat, N_("in the resolution: {error}").format(error=error), step.n
                ) from None
            if any(answer.seat == held.seat for held in answers):
                raise ProtocolError(
                    step.seat, N_("seat {seat} answers twice").format(seat=answer.seat + 1), step.n
                )
            answers.append(answer)
        self._check_seals(step, body, answers, window)
        seen = {answer.seat for answer in answers}
        missing = [seat for seat in window.answerers if seat not in seen]
        if missing:
            # SPEC §4.7: every seat's own signed answer decides; none may be left out
            raise ProtocolError(
                step.seat,
                N_("the resolution leaves out the answers of seats {missing}").format(
                    missing=missing
                ),
                step.n,
            )
        claims, outcome = ranked(self.state, answers, window.eligible, self.buy_lot)
        try:
            return apply(self.state, ResolveBuy(claims)), claims, outcome
        except IllegalMove as error:
            raise ProtocolError(
                step.seat, N_("bad buy resolution: {error}").format(error=error), step.n
            ) from None

    def _check_seals(
        self, step: Step, body: BuyStep, answers: list[BuyAnswer], window: OpenWindow
    ) -> None:
        """Under `seat`/`lot`: every eligible seat's seal, each answer opening its own."""
        if not sealed(self.state):
            if body.seals:
                raise ProtocolError(step.seat, N_("seals where the answers race"), step.n)
            return
        seals: dict[int, bytes] = {}
        for envelope in body.seals:
            try:
                seal = self.open_buy_seal(envelope)
            except ProtocolError as error:
                raise ProtocolError(
                    step.seat, N_("in the resolution: {error}").format(error=error), step.n
                ) from None
            if seal.seat in seals:
                raise ProtocolError(
                    step.seat, N_("seat {seat} seals twice").format(seat=seal.seat + 1), step.n
                )
            seals[seal.seat] = seal.seal
        missing = [seat for seat in window.eligible if seat not in seals]
        if missing:
            raise ProtocolError(
                step.seat,
                N_("the resolution leaves out the seals of seats {missing}").format(
                    missing=missing
                ),
                step.n,
            )
        for answer in answers:
            opened = seal_of(self.game, answer.window, answer.seat, answer.claim, answer.nonce)
            if opened != seals[answer.seat]:  # both signed by that seat: its own doing
                raise SignedBoth(answer.seat, N_("its Køb! answer does not open its seal"), step.n)

    def open_message(self, envelope: bytes) -> tuple[Opened, LogMessage]:
        """A log envelope opened (its signature checked) and decoded, or `ProtocolError`.
        A buy answer or seal is kept as opened while its window may still need it (its
        own check, the resolution that carries it): it is opened once."""
        window = self.window
        kept = (window.opened if window is not None else self._ahead).get(envelope)
        if kept is None and window is not None:
            kept = self._ahead.get(envelope)
        if kept is not None:
            return kept
        opened = open_envelope(envelope, self.roster)
        message = decode_log(opened.body, opened.seat)
        if isinstance(message, BuyAnswer | BuySeal):
            held = len(self._ahead) + (len(window.opened) if window is not None else 0)
            if held < OPENED_ANSWERS_KEPT:
                if window is not None and message.window == window.number:
                    window.opened[opened.raw] = (opened, message)
                elif message.window == self.n + 1:
                    self._ahead[opened.raw] = (opened, message)
        return opened, message

    def open_buy_seal(self, envelope: Any) -> BuySeal:
        """A seat's signed seal for the open window, or `ProtocolError`."""
        if not isinstance(envelope, bytes):
            raise ProtocolError(None, N_("a buy seal must be an envelope"))
        opened, seal = self.open_message(envelope)
        if not isinstance(seal, BuySeal) or seal.game != self.game:
            raise ProtocolError(opened.seat, N_("not a buy seal for this game"))
        if self.window is None or seal.window != self.window.number:
            raise ProtocolError(opened.seat, N_("a buy seal outside its window"))
        if not sealed(self.state) or seal.seat not in self.window.eligible:
            raise ProtocolError(opened.seat, N_("this seat does not seal an answer here"))
        return seal

    def buy_lot(self, seat: int, nonces: bytes) -> bytes:
        """`seat`'s place in the open window's lot (lowest first): a hash of the round's
        seed commitments (fixed before the deal) and the nonces every eligible seat
        sealed in this window (fixed before any was opened), so nobody steers it — not
        the discarder by moving the window's number, not a claimant by its own nonce."""
        assert self.deck is not None and self.window is not None
        commitments = self.deck.seat.commitments
        fixed = b"".join(commitments[s] for s in sorted(commitments))
        return hashlib.sha256(
            BUY_LOT_DOMAIN
            + self.game
            + self.window.number.to_bytes(8, "big")
            + fixed
            + nonces
            + seat.to_bytes(1, "big")
        ).digest()

    def open_buy_answer(self, envelope: Any) -> BuyAnswer:
        """A seat's signed buy answer for the open window, or `ProtocolError`."""
        if not isinstance(envelope, bytes):
            raise ProtocolError(None, N_("a buy answer must be an envelope"))
        opened, answer = self.open_message(envelope)
        if not isinstance(answer, BuyAnswer) or answer.game != self.game:
            raise ProtocolError(opened.seat, N_("not a buy answer for this game"))
        window = self.window
        if window is None or answer.window != window.number:
            raise ProtocolError(opened.seat, N_("a buy answer outside its window"))
        if answer.seat not in window.answerers:
            raise ProtocolError(opened.seat, N_("this seat does not answer in this window"))
        if answer.claim and answer.seat not in window.eligible:
            raise ProtocolError(opened.seat, N_("this seat may not buy the card"))
        if sealed(self.state):
            if answer.seen or len(answer.nonce) != 32:
                raise ProtocolError(
                    opened.seat, N_("a sealed answer needs its nonce, no observation")
                )
        elif answer.nonce:
            raise ProtocolError(opened.seat, N_("a nonce where the answers race"))
        elif answer.claim and answer.seat not in answer.seen:
            raise ProtocolError(opened.seat, N_("a call whose observation leaves it out"))
        return answer

    def _open_window(self) -> None:
        """The committed step opened a Køb! window: its one owner is made now, taking the
        answers opened for it before it opened."""
        number = self.n
        window = OpenWindow(number, self.state.buy_eligible, answerers(self.state))
        for raw, kept in self._ahead.items():
            if kept[1].window == number:
                window.opened[raw] = kept
        self.window = window


class SignedBoth(CheatDetected):
    """A cheat proven by two messages one seat signed itself for one Køb! window (its
    seal, and an opening that does not open it): that seat's, whoever carried them (SPEC
    §4.7). Nobody else can make the pair: each is signed, and both name the window."""
