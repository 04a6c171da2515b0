"""The client's model: what the player selected and asked for, on top of a seat's view.

It never decides a rule: every action becomes an intent (an engine move) handed to
the session, and a refusal comes back as the engine's own reason in the status line.
"""

from __future__ import annotations

from collections import deque

from p2p_rommy.cards import composition, rank_name
from p2p_rommy.engine.apply import apply, check_may_build
from p2p_rommy.engine.due import mover
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
from p2p_rommy.i18n import N_, _
from p2p_rommy.log.events import Chat, Committed, Note, Refused, Stalled
from p2p_rommy.log.messages import BuyStep, MoveStep
from p2p_rommy.narrate import describe_move
from p2p_rommy.rules.finder import candidate_melds
from p2p_rommy.rules.melds import Placed, interpretations, meld_name
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.table_view import TableView
from p2p_rommy.tui.deal_estimate import DealEstimate
from p2p_rommy.wire.text import distinct_names

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789"
"""Card labels in hand order: a Løbere og Passere hand that bought often passes 26
cards. The digits select cards unless a meld number is being typed (after o or w)."""


class ClientModel:
    def __init__(
        self, session: Session, ascii_only: bool = False, four_colour: bool = False
    ) -> None:
        self.session = session
        self.config = session.config
        self.names = distinct_names([seat.name for seat in self.config.seats])
        self.deck = composition(self.config.rules.deck_size)
        self.ascii_only = ascii_only
        self.four_colour = four_colour
        """Four suit colours (♠ default, ♥ red, ♦ blue, ♣ green) for colour-blind players."""
        self.order: list[int] = []
        """The hand's slots in the order shown: stable within a round (a drawn card goes
        last) until the player sorts with `s`."""
        self.fresh: set[int] = set()
        """Cards drawn or bought since this player's last discard (highlighted)."""
        self._order_round = -1
        self.auto_pass = False
        """Pass every Køb! window at once (the `a` key)."""
        self.meld_entry: tuple[str, str] | None = None
        """A meld number being typed after `o` (lay off) or `w` (swap): (key, digits)."""
        self.table_scroll = 0
        self.log_scroll = 0
        self.scroll_log = False
        """PageUp/PageDown scroll the log instead of the table (Tab switches)."""
        self.show_history = False
        """The score sheet of every round so far (the `v` key)."""
        self.selected: set[int] = set()
        self.staged: list[NewMeld] = []
        self.sort_by = "suit"
        self.status = ""
        self.deal_estimate = DealEstimate()
        self.log: deque[str] = deque(maxlen=200)
        self.show_help = False
        self.show_info = False
        """The game code, the seats' fingerprints and how to resume (the `i` key)."""
        self.show_hints = False
        self.confirm_quit = False
        self.quit = False
        self.rounds_logged = 0
        self.show_scores = False
        """The score sheet after a round, until the player goes on."""
        self._buys = self.table.state.buys
        self._last_offer: str | None = None
        """The card the open Køb! window offers, with its discarder (for the log)."""
        self.chatting = False
        """The chat line is open (keys type text instead of playing)."""
        self.readings: list[NewMeld] = []
        """Every reading of the last staged meld; `r` cycles through them."""
        session.listeners.append(self._published)

    # --- what is shown ------------------------------------------------------

    @property
    def table(self) -> TableView:
        """The seat as the session last published it (read on the loop only)."""
        return self.session.view

    @property
    def view(self) -> View:
        return self.table.view

    @property
    def seat(self) -> int:
        return self.table.seat

    def hand(self) -> list[tuple[int, int]]:
        """(slot, card) in display order; the labels A, B, ... follow this order. A card
        still being dealt (its shares not all in) shows up once its face is known; while
        the deal goes on the hand is kept sorted, after it the order stays."""
        view = self.view
        if not view.state.hands:
            return []
        slots = view.state.hands[self.seat]
        known = {slot: face for slot in slots if (face := view.face(slot)) is not None}
        dealing = len(known) < len(slots)
        if dealing or view.state.round_index != self._order_round or not self.order:
            self._order_round = view.state.round_index
            self.order = self._sorted(known)
            self.fresh.clear()
        else:
            shown = set(self.order)
            new = [slot for slot in known if slot not in shown]
            self.fresh |= set(new)
            self.order = [slot for slot in self.order if slot in known] + self._sorted(
                {slot: known[slot] for slot in new}
            )
        return [(slot, known[slot]) for slot in self.order]

    def _sorted(self, cards: dict[int, int]) -> list[int]:
        def key(slot: int) -> tuple[object, ...]:
            card = self.deck.card(cards[slot])
            suit = card.suit.value if card.suit else "Z"
            return (
                (suit, card.rank) if self.sort_by == "suit" else (card.rank == 0, card.rank, suit)
            )

        return sorted(cards, key=key)

    def _race_text(self) -> str:
        """How a contested Køb! under `first` settled, from the signed reports:
        "Køb! from Bo and you: Bo was first on 3 of 4 screens"."""
        ranked = self.table.last_votes

        def name(seat: int) -> str:
            return _("you") if seat == self.seat else self.names[seat]

        callers = [name(seat) for seat, _votes in ranked]
        together = _("{first} and {second}").format(
            first=", ".join(callers[:-1]), second=callers[-1]
        )
        winner, votes = ranked[0]
        screens = self.table.last_screens
        if winner == self.seat:
            return _("Køb! from {callers}: you were first on {votes} of {screens} screens").format(
                callers=together, votes=votes, screens=screens
            )
        return _("Køb! from {callers}: {name} was first on {votes} of {screens} screens").format(
            callers=together, name=name(winner), votes=votes, screens=screens
        )

    def offer_text(self) -> str:
        """The card a Køb! window offers and who discarded it ("5♣ from Bo")."""
        state = self.table.state
        if state.offer is None:
            return "?"
        card = self.card_text(state.faces[state.offer])
        if state.discarder is None:
            return card
        return _("{card} from {name}").format(card=card, name=self.names[state.discarder])

    def card_text(self, card_id: int | None) -> str:
        if card_id is None:
            return "??"
        return self.deck.card(card_id).pretty(self.ascii_only)

    def buy_seconds_left(self) -> float | None:
        """The open Køb! window's time left on this seat's clock (the session's)."""
        closes_at = self.table.buy_closes_at
        if self.table.state.phase is not Phase.BUY or closes_at is None:
            return None
        return max(0.0, closes_at - self.session.clock())

    def prompt(self) -> str:
        """What the player can do now, for the status line."""
        if self.table.halted is not None:
            return self.table.halted
        if self.table.frozen:
            return _("The table stopped: {report}").format(report=self.table.frozen)
        state = self.table.state
        if self.table.over:
            return _("The match is over. q quits.")
        if self.meld_entry is not None:
            key, digits = self.meld_entry
            doing = _("lay off on meld") if key == "o" else _("swap with the joker of meld")
            return _("{doing} {digits}_ (type its number, Enter; Esc cancels)").format(
                doing=doing, digits=digits
            )
        if state.phase is Phase.BUY:
            offer = self.offer_text()
            if self.seat in state.buy_eligible and not self.table.answered_buy:
                left = self.buy_seconds_left()
                timer = f", {left:.0f} s" if left is not None else ""
                return _("Køb {offer}? k buys, p passes{timer}").format(offer=offer, timer=timer)
            return _("Køb {offer}: waiting for the others").format(offer=offer)
        now = self.session.clock()
        waiting = self.table.waiting
        due = self.table.due
        dealing = due is not None and due.kind.deck
        left = self.deal_estimate.seconds_left(now, due)
        estimate = (
            ""
            if left is None
            else _(", about {seconds} s left").format(seconds=max(1, round(left)))
        )
        if waiting is not None and waiting.seat != self.seat:
            if dealing:
                return (
                    _("Shuffling and dealing: {name}, {what}").format(
                        name=self.names[waiting.seat], what=waiting.what.say(_)
                    )
                    + estimate
                )
            line = _("Waiting for {name} ({what})").format(
                name=self.names[waiting.seat], what=waiting.what.say(_)
            )
            stalled = self.session.clock() - waiting.since
            if stalled >= self.table.stall_after:
                line += _(" for {seconds}s").format(seconds=f"{stalled:.0f}")
                if self.table.end_proposers[waiting.seat] == self.seat:
                    line += _(": e ends the game without them")
            return line
        if due is None or dealing:
            return _("Shuffling and dealing...") + estimate
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
        self.meld_entry = None
        self.status = ""

    def digit(self, digit: str) -> None:
        """A digit key: part of a meld number after o or w, otherwise a card label."""
        if self.meld_entry is None:
            self.select(digit)
            return
        key, digits = self.meld_entry
        digits = (digits + digit).lstrip("0")
        self.meld_entry = (key, digits)
        if digits and int(digits) * 10 > len(self.table.state.melds):
            self.finish_meld_entry()  # no longer number can follow

    def begin_meld_entry(self, key: str) -> None:
        self.meld_entry = (key, "")

    def finish_meld_entry(self) -> None:
        if self.meld_entry is None:
            return
        key, digits = self.meld_entry
        self.meld_entry = None
        if not digits:
            return
        (self.lay_off if key == "o" else self.swap)(int(digits))

    def cancel_meld_entry(self) -> None:
        self.meld_entry = None

    def toggle_auto_pass(self) -> None:
        self.auto_pass = not self.auto_pass
        self.status = _("auto-pass Køb! on") if self.auto_pass else _("auto-pass Køb! off")
        if self.auto_pass:
            self._auto_pass()

    def _auto_pass(self) -> None:
        state = self.table.state
        if (
            state.phase is Phase.BUY
            and self.seat in state.buy_eligible
            and not self.table.answered_buy
        ):
            self.session.answer_buy(False)

    def scroll(self, lines: int) -> None:
        """PageUp/PageDown: scroll the table (or the log, after Tab)."""
        if self.scroll_log:
            self.log_scroll = max(0, self.log_scroll - lines)
        else:
            self.table_scroll = max(0, self.table_scroll + lines)

    def switch_scroll(self) -> None:
        self.scroll_log = not self.scroll_log

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
        cards = " ".join(self.card_text(p.card) + self.stands_for(p) for p in meld.cards)
        name = meld_name(meld.kind, self.config.rules)
        more = _("; r: another of {count} readings").format(count=readings) if readings > 1 else ""
        self.status = _("staged {meld} {cards}{more}; Enter lays down").format(
            meld=name, cards=cards, more=more
        )

    def stands_for(self, placed: Placed) -> str:
        card = self.deck.card(placed.card)
        if rank_name(placed.rank) == rank_name(card.rank):  # a natural card (aces high or low)
            return ""
        return f"={rank_name(placed.rank)}"  # a joker, and what it stands for

    def end_without_stalled(self) -> None:
        """Propose to end the game without the player the table has long waited for."""
        waiting = self.table.waiting
        if waiting is None or self.session.clock() - waiting.since < self.table.stall_after:
            self.status = _("nobody has kept the table waiting long enough to end the game")
            return
        if self.table.end_proposers[waiting.seat] != self.seat:
            name = self.names[self.table.end_proposers[waiting.seat]]
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
        """The log: moves, chat, refused input, stalls, notes, as they arrived."""
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

    def _matching(self, kind: type[LayOff | SwapJoker], meld_number: int, doing: str) -> None:
        if len(self.selected) != 1:
            self.status = _("select exactly one card to {doing}").format(doing=doing)
            return
        (slot,) = self.selected
        for move in legal_moves(self.view):
            if (
                isinstance(move, LayOff | SwapJoker)
                and isinstance(move, kind)
                and move.meld == meld_number - 1
                and move.card.slot == slot
            ):
                self._submit(move)
                return
        state = self.table.state
        if not 0 < meld_number <= len(state.melds):
            self.status = _("there is no meld {number}").format(number=meld_number)
            return
        if mover(state) != self.seat or state.phase is not Phase.PLAY:
            self.status = _("wait for your turn (after drawing) to {doing}").format(doing=doing)
            return
        building = N_("laying off on the table") if kind is LayOff else N_("swapping a joker")
        try:  # the reason it is not allowed yet, in the engine's words
            check_may_build(state, self.seat, building)
        except IllegalMove as error:
            self.status = error.say(_)
            return
        cannot = (
            _("that card cannot be laid off on meld {number}")
            if kind is LayOff
            else _("that card cannot take the joker's place in meld {number}")
        )
        self.status = cannot.format(number=meld_number)

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
        state = self.table.state
        if state.phase is not Phase.BUY or self.seat not in state.buy_eligible:
            self.status = _("there is nothing to buy now")
            return
        self.session.answer_buy(claim)
        self.status = _("Køb!") if claim else _("passed")

    def toggle_sort(self) -> None:
        """Sort the hand by suit or by rank, once; the order then stays."""
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        hand = dict(self.hand())
        self.order = self._sorted(hand)

    def _submit(self, move: Move) -> None:
        """Check the move against the rules here (the engine is pure and fast), then hand
        it to the session, which makes it in its turn off the event loop."""
        try:
            if not self.table.my_turn:
                raise IllegalMove(N_("it is not your turn to play"))
            apply(self.table.state, move)
        except IllegalMove as error:
            self.status = error.say(_)
            return
        self.session.submit(move, on_refused=self._refused)
        self.selected.clear()
        self.status = ""

    def _refused(self, error: Exception) -> None:
        self.status = error.say(_) if isinstance(error, IllegalMove) else str(error)

    # --- the log ------------------------------------------------------------------

    def _published(self, table: TableView) -> None:
        """A new view from the session (on the loop): its news goes to the log."""
        refused = 0
        for event in table.news:
            if isinstance(event, Committed):
                self._committed(event)
            elif isinstance(event, Chat):
                self.log.append(f"{self.names[event.seat]}: {event.text}")
            elif isinstance(event, Refused):
                refused += 1
            elif isinstance(event, Stalled):
                stall = event.stall
                self.log.append(
                    _("{name} has kept the table waiting for {seconds} s ({what})").format(
                        name=self.names[stall.seat],
                        seconds=f"{stall.seconds:.0f}",
                        what=stall.what.say(_),
                    )
                )
            elif isinstance(event, Note):
                self.log.append(event.text)
        if refused:  # one line however many; the reasons are in the log file
            self.log.append(
                _("refused {count} message(s) from the network (why: rommy.log)").format(
                    count=refused
                )
            )

    def _committed(self, event: Committed) -> None:
        """A step committed: the status gives way to the prompt (a message from a key
        press is shown until the next event)."""
        self.status = ""
        state = self.table.state
        body = event.step.body
        if isinstance(body, MoveStep):
            move = body.move
            if isinstance(move, Discard) and move.seat == self.seat:
                self.fresh.clear()
            self.log.append(
                describe_move(
                    move,
                    self.names,
                    lambda slot: self.card_text(state.faces[slot]),
                    words=_,
                    me=self.seat,
                )
            )
        elif isinstance(body, BuyStep):
            buyers = [
                seat
                for seat, (now, before) in enumerate(zip(state.buys, self._buys, strict=True))
                if now > before
            ]
            offer = self._last_offer or "?"
            if not buyers:
                line = _("nobody bought {offer}").format(offer=offer)
            elif buyers[0] == self.seat:
                line = _("You buy {offer} (Køb!)").format(offer=offer)
            else:
                line = _("{name} buys {offer} (Køb!)").format(
                    name=self.names[buyers[0]], offer=offer
                )
            others = [seat for seat in self.table.last_claims if seat not in buyers]
            if buyers and others and self.table.last_votes:
                line += " — " + self._race_text()
            elif buyers and others:
                how = (
                    _("won the lot")
                    if self.config.rules.buy_priority == "lot"
                    else _("came first in turn")
                )
                line += "; " + _("{others} called too, {name} {how}").format(
                    others=", ".join(self.names[s] for s in others),
                    name=_("you") if buyers[0] == self.seat else self.names[buyers[0]],
                    how=how,
                )
            self.log.append(line)
        self._buys = state.buys
        self._last_offer = self.offer_text() if state.phase is Phase.BUY else None
        if state.phase is Phase.BUY and self.auto_pass:
            self._auto_pass()
        if len(state.round_scores) > self.rounds_logged:
            self.rounds_logged = len(state.round_scores)
            self.show_scores = True
            scores = ", ".join(f"{self.names[s]} {state.scores[s]}" for s in range(len(self.names)))
            self.log.append(
                _("round {number} over; totals: {scores}").format(
                    number=len(state.round_scores), scores=scores
                )
            )
