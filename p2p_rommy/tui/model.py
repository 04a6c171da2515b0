"""The client's model: what the player selected and asked for, on top of a seat's view.

It never decides a rule: every action becomes an intent (an engine move) handed to
the session, and a refusal comes back as the engine's own reason in the status line.
"""

from __future__ import annotations

import time
from collections import deque

from p2p_rommy.cards import composition, rank_name
from p2p_rommy.engine.legal import legal_moves
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    NewMeld,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import Phase
from p2p_rommy.engine.view import View
from p2p_rommy.errors import IllegalMove
from p2p_rommy.i18n import _
from p2p_rommy.log.messages import BuyStep, MoveStep, Record, Step, decode
from p2p_rommy.rules.finder import candidate_melds
from p2p_rommy.rules.melds import interpretations, meld_name
from p2p_rommy.session import Session
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.text import distinct_names

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class ClientModel:
    def __init__(self, session: Session, ascii_only: bool = False) -> None:
        self.session = session
        self.peer = session.peer
        self.replica = self.peer.replica
        self.config = session.config
        self.names = distinct_names([seat.name for seat in self.config.seats])
        self.deck = composition(self.config.rules.deck_size)
        self.ascii_only = ascii_only
        self.selected: set[int] = set()
        self.staged: list[NewMeld] = []
        self.sort_by = "suit"
        self.status = ""
        self.log: deque[str] = deque(maxlen=200)
        self.show_help = False
        self.show_info = False
        """The game code, the seats' fingerprints and how to resume (the `i` key)."""
        self.show_hints = False
        self.confirm_quit = False
        self.quit = False
        self.buy_opened_at: float | None = None
        self.rounds_logged = 0
        self.show_scores = False
        """The score sheet after a round, until the player goes on."""
        self._buys = self.replica.state.buys
        self.chatting = False
        """The chat line is open (keys type text instead of playing)."""
        self._seen = {"chat": 0, "refused": 0, "stalls": 0, "notes": 0}
        self.readings: list[NewMeld] = []
        """Every reading of the last staged meld; `r` cycles through them."""
        self.peer.on_commit = self._committed

    # --- what is shown ------------------------------------------------------

    @property
    def view(self) -> View:
        return self.replica.view()

    @property
    def seat(self) -> int:
        return self.peer.seat

    def hand(self) -> list[tuple[int, int]]:
        """(slot, card) in display order; the labels A, B, ... follow this order. A card
        still being dealt (its shares not all in) shows up once its face is known."""
        view = self.view
        if not view.state.hands:
            return []
        faces = [(slot, view.face(slot)) for slot in view.state.hands[self.seat]]
        cards = [(slot, face) for slot, face in faces if face is not None]

        def key(item: tuple[int, int]) -> tuple[object, ...]:
            card = self.deck.card(item[1])
            suit = card.suit.value if card.suit else "Z"
            return (
                (suit, card.rank) if self.sort_by == "suit" else (card.rank == 0, card.rank, suit)
            )

        return sorted(cards, key=key)

    def card_text(self, card_id: int | None) -> str:
        if card_id is None:
            return "??"
        return self.deck.card(card_id).pretty(self.ascii_only)

    def buy_seconds_left(self) -> float | None:
        state = self.replica.state
        if state.phase is not Phase.BUY or self.buy_opened_at is None:
            return None
        window = self.config.rules.buy_window_ms / 1000
        return max(0.0, window - (time.monotonic() - self.buy_opened_at))

    def prompt(self) -> str:
        """What the player can do now, for the status line."""
        if self.session.halted is not None:
            return self.session.halted
        if self.peer.frozen:
            return _("The table stopped: {report}").format(report=self.peer.frozen)
        state = self.replica.state
        if self.replica.over:
            return _("The match is over. q quits.")
        if state.phase is Phase.BUY:
            if self.seat in state.buy_eligible and not self.peer.answered_buy():
                left = self.buy_seconds_left()
                timer = f" ({left:.0f}s)" if left is not None else ""
                return _("Køb! window open{timer}: k buys the discard, p passes").format(
                    timer=timer
                )
            return _("Buy window open: waiting for the others")
        waiting = self.peer.waiting(time.monotonic())
        if waiting is not None and waiting.seat != self.seat:
            if self.replica.deck is not None and self.replica.deck.seat.tasks:
                return _("Shuffling and dealing... (waiting for {name})").format(
                    name=self.names[waiting.seat]
                )
            line = _("Waiting for {name} ({what})").format(
                name=self.names[waiting.seat], what=waiting.what
            )
            stalled = time.monotonic() - waiting.since
            if stalled >= self.peer.stall_after:
                line += _(" for {seconds}s").format(seconds=f"{stalled:.0f}")
                if self.replica.end_proposer(waiting.seat) == self.seat:
                    line += _(": e ends the game without them")
            return line
        expected = self.replica.expected_proposer()
        if expected is None:
            return _("Shuffling and dealing...")
        if state.phase is Phase.DRAW:
            return _("Your turn: d draws from the stock, t takes the discard")
        if state.phase is Phase.PLAY:
            if self.staged:
                return _("{count} meld(s) staged: Enter lays them down, m stages more").format(
                    count=len(self.staged)
                )
            return _("A-Z select, m meld, Enter lay down, o+N lay off, w+N swap, x discard, ? help")
        return ""

    def hints(self) -> list[str]:
        view = self.view
        try:
            hand = view.hand()
        except ValueError:
            return []
        texts: list[str] = []
        for meld in candidate_melds(hand, self.deck, self.config.rules):
            text = " ".join(self.card_text(p.card) for p in meld.cards)
            if text not in texts:
                texts.append(text)
        return texts[:6]

    # --- intents ---------------------------------------------------------------

    def select(self, label: str) -> None:
        hand = self.hand()
        index = LABELS.find(label)
        if not 0 <= index < len(hand):
            self.status = _("there is no card {label}").format(label=label)
            return
        slot = hand[index][0]
        self.selected ^= {slot}

    def clear(self) -> None:
        self.selected.clear()
        self.staged.clear()
        self.status = ""

    def draw(self) -> None:
        self._submit(DrawStock(self.seat))

    def take(self) -> None:
        self._submit(TakeDiscard(self.seat))

    def stage(self) -> None:
        """The selected cards become one meld of the coming lay-down (its first reading)."""
        cards = [(slot, card) for slot, card in self.hand() if slot in self.selected]
        readings = interpretations(cards, self.deck, self.config.rules)
        if not readings:
            self.status = _("those cards are not a meld")
            return
        self.readings = [NewMeld(kind, placed) for kind, placed in readings]
        self.staged.append(self.readings[0])
        self.selected.clear()
        self._describe_staged(len(readings))

    def next_reading(self) -> None:
        """Replace the last staged meld by its next reading (set or run, joker meaning)."""
        if not self.staged or len(self.readings) < 2 or self.staged[-1] not in self.readings:
            self.status = _("the last staged meld has only one reading")
            return
        index = self.readings.index(self.staged[-1])
        self.staged[-1] = self.readings[(index + 1) % len(self.readings)]
        self._describe_staged(len(self.readings))

    def _describe_staged(self, readings: int) -> None:
        meld = self.staged[-1]
        cards = " ".join(self.card_text(p.card) + self._stands_for(p) for p in meld.cards)
        name = meld_name(meld.kind, self.config.rules)
        more = _("; r: another of {count} readings").format(count=readings) if readings > 1 else ""
        self.status = _("staged {meld} {cards}{more}; Enter lays down").format(
            meld=name, cards=cards, more=more
        )

    def _stands_for(self, placed) -> str:  # type: ignore[no-untyped-def]
        card = self.deck.card(placed.card)
        if rank_name(placed.rank) == rank_name(card.rank):  # a natural card (aces high or low)
            return ""
        return f"={rank_name(placed.rank)}"  # a joker, and what it stands for

    def end_without_stalled(self) -> None:
        """Propose to end the game without the player the table has long waited for."""
        waiting = self.peer.waiting(time.monotonic())
        if waiting is None or time.monotonic() - waiting.since < self.peer.stall_after:
            self.status = _("nobody has kept the table waiting long enough to end the game")
            return
        if self.replica.end_proposer(waiting.seat) != self.seat:
            name = self.names[self.replica.end_proposer(waiting.seat)]
            self.status = _("{name} may propose to end the game; you will be asked to sign").format(
                name=name
            )
            return
        self.session.end_game(waiting.seat)
        self.status = _("proposed to end the game without {name}").format(
            name=self.names[waiting.seat]
        )

    def say(self, text: str) -> None:
        if text.strip():
            self.session.say(text)

    def log_lines(self) -> list[str]:
        """The log with what arrived since: chat, refused input, stalls, notes."""
        peer = self.peer
        new_chat = min(peer.chat_count - self._seen["chat"], len(peer.chat))
        for seat, text in list(peer.chat)[len(peer.chat) - new_chat :]:
            self.log.append(f"{self.names[seat]}: {text}")
        self._seen["chat"] = peer.chat_count
        new_refused = min(peer.refused_count - self._seen["refused"], len(peer.refused))
        for reason in list(peer.refused)[len(peer.refused) - new_refused :]:
            self.log.append(_("refused: {reason}").format(reason=reason))
        for entry in [*peer.stalls[self._seen["stalls"] :], *peer.notes[self._seen["notes"] :]]:
            self.log.append(str(entry))
        self._seen.update(
            refused=peer.refused_count, stalls=len(peer.stalls), notes=len(peer.notes)
        )
        return list(self.log)

    def hide_scores(self) -> None:
        self.show_scores = False

    def lay_down(self) -> None:
        if self.selected:
            self.stage()
        if not self.staged:
            self.status = _("select cards and press m to stage a meld first")
            return
        melds, self.staged = tuple(self.staged), []
        self._submit(LayDown(self.seat, melds))

    def lay_off(self, meld_number: int) -> None:
        self._matching(LayOff, meld_number, _("lay off"))

    def swap(self, meld_number: int) -> None:
        self._matching(SwapJoker, meld_number, _("swap for a joker"))

    def _matching(self, kind: type, meld_number: int, doing: str) -> None:
        if len(self.selected) != 1:
            self.status = _("select exactly one card to {doing}").format(doing=doing)
            return
        (slot,) = self.selected
        for move in legal_moves(self.view):
            if isinstance(move, kind) and move.meld == meld_number - 1 and move.card.slot == slot:  # type: ignore[attr-defined]
                self._submit(move)
                return
        if not 0 < meld_number <= len(self.replica.state.melds):
            self.status = _("there is no meld {number}").format(number=meld_number)
            return
        self.status = _("that card cannot {doing} on meld {number}").format(
            doing=doing, number=meld_number
        )

    def discard(self) -> None:
        if len(self.selected) != 1:
            self.status = _("select exactly one card to discard")
            return
        (slot,) = self.selected
        card = dict(self.hand()).get(slot)
        if card is None:
            return
        self._submit(Discard(self.seat, slot, card))

    def buy(self, claim: bool) -> None:
        state = self.replica.state
        if state.phase is not Phase.BUY or self.seat not in state.buy_eligible:
            self.status = _("there is nothing to buy now")
            return
        self.session.answer_buy(claim)
        self.status = _("Køb!") if claim else _("passed")

    def toggle_sort(self) -> None:
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"

    def _submit(self, move: Move) -> None:
        try:
            self.session.submit(move)
        except IllegalMove as error:
            self.status = str(error)
            return
        self.selected.clear()
        self.status = ""

    # --- the log ------------------------------------------------------------------

    def _committed(self, record: Record) -> None:
        state = self.replica.state
        if state.phase is Phase.BUY and self.buy_opened_at is None:
            self.buy_opened_at = time.monotonic()
        elif state.phase is not Phase.BUY:
            self.buy_opened_at = None
        step = decode(unpack(record.step)[2])
        assert isinstance(step, Step)
        body = step.body
        if isinstance(body, MoveStep):
            from p2p_rommy.replay import _describe

            move = body.move
            self.log.append(
                _describe(move, self.names, lambda slot: self.card_text(state.faces[slot]))
            )
        elif isinstance(body, BuyStep):
            buyers = [
                self.names[seat]
                for seat, (now, before) in enumerate(zip(state.buys, self._buys, strict=True))
                if now > before
            ]
            self.log.append(
                _("{name} buys the discard (Køb!)").format(name=buyers[0])
                if buyers
                else _("nobody bought the discard")
            )
        self._buys = state.buys
        if len(state.round_scores) > self.rounds_logged:
            self.rounds_logged = len(state.round_scores)
            self.show_scores = True
            scores = ", ".join(f"{self.names[s]} {state.scores[s]}" for s in range(len(self.names)))
            self.log.append(
                _("round {number} over; totals: {scores}").format(
                    number=len(state.round_scores), scores=scores
                )
            )
