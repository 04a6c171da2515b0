"""The client's model: what the player selected and asked for, on top of a seat's view.

It never decides a rule: every action becomes an intent (an engine move) handed to
the session, and a refusal comes back as the engine's own reason in the status line.
"""

from __future__ import annotations

import math
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
from p2p_rommy.engine.state import Phase, RoundEnd
from p2p_rommy.engine.view import View
from p2p_rommy.errors import IllegalMove
from p2p_rommy.i18n import N_, _, say_reason
from p2p_rommy.limits import END_CONFIRM_S
from p2p_rommy.narrate import describe_move
from p2p_rommy.rules.finder import Candidate, candidate_melds, find_opening
from p2p_rommy.rules.house_words import NAMES as HOUSE_NAMES
from p2p_rommy.rules.melds import (
    MeldKind,
    Placed,
    check_meld,
    interpretations,
    meld_name,
    opening_value,
)
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.table_view import (
    Bought,
    Dropped,
    Line,
    Overdue,
    Played,
    Said,
    Stepped,
    TableView,
)
from p2p_rommy.tui.deal_estimate import DealEstimate
from p2p_rommy.wire.text import distinct_names

STATUS_SECONDS = 8.0
"""How long a key's message stays on the status line before the prompt comes back."""

COMMAND_KEYS = "acdehikmopqrstvwx"
"""The letters that are commands (lower or upper case): never a card's label."""
LABEL_KEYS = "1234567890BFGLNUY"
"""Keys that are card labels only (letters in either case): not a rank's letter (A, J,
Q, K would read as ranks; the digits are the labels the issue asked for) and not a
command. The digits select cards unless a meld number is being typed (after o or w)."""
LABEL_PREFIX = "Z"
"""The key before a second-row label (Z1, ZB, ...): a Løbere og Passere hand that
bought often passes 17 cards."""
LABELS: tuple[str, ...] = (*LABEL_KEYS, *(LABEL_PREFIX + key for key in LABEL_KEYS))
"""Every label, in the order they are handed out (34)."""


class ClientModel:
    end_asked: tuple[tuple[int, ...], float] | None = None
    """(seat, when): `e` asked to end the game without that seat (`end_without_stalled`)."""
    leaving_note = ""
    """Said after "Quit the game?" (at a network table: the others wait for this seat)."""

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
        self.labels: dict[int, str] = {}
        """Each card's label (slot -> label): a card keeps its label for the whole round
        until the player sorts; a card that joins takes the first free label."""
        self.label_prefix = False
        """Z was pressed: the next label key picks a second-row card (Z1, ZB, ...)."""
        self._dealt_round = -1
        """The round whose dealt hand was seen whole: from then on the order stays."""
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
        self._handed_in: list[NewMeld] = []
        """The staged melds of a lay-down handed to the session, back if it refuses."""
        self.sort_by = "suit"
        self._status = ""
        self._status_at = 0.0
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
        """The round's summary after a round, until the player goes on (space)."""
        self.round_ends: list[tuple[RoundEnd | None, int | None]] = []
        """Why each scored round ended and who went out (shown on the summary)."""
        self.summary_scroll = 0
        """PageUp/PageDown on the summary screen (a long game's rows)."""
        self.overlay_scroll = 0
        """PageUp/PageDown in the help, info and score overlays on a small screen."""
        self.new_game = False
        """`n` on the final summary: the player asked for a new game at this table (the
        command that started the app reads it after the app exits)."""
        self.new_game_offered = False
        """The command can start a new game at this table after this one (`rommy play`,
        and a network table's client seats: `frontends/screen.py`'s `Again`)."""
        self.new_game_wanted = False
        """`n` was pressed before the match's last step committed (`ask_new_game`)."""
        self._last_offer: str | None = None
        """The card the open Køb! window offers, with its discarder (for the log)."""
        self.chatting = False
        """The chat line is open (keys type text instead of playing)."""
        self.readings: list[NewMeld] = []
        """Every reading of the last staged meld; `r` cycles through them."""
        session.listeners.append(self._published)

    # --- what is shown ------------------------------------------------------

    @property
    def status(self) -> str:
        """A message from the last key press (a refusal, a confirmation), or ""."""
        return self._status

    @status.setter
    def status(self, text: str) -> None:
        self._status = text
        self._status_at = self.session.clock()

    def status_text(self) -> str:
        """The status line: a key's message for `STATUS_SECONDS`, then the prompt again
        (an error used to stay up instead of "Your turn")."""
        if self._status and self.session.clock() - self._status_at < STATUS_SECONDS:
            return self._status
        return self.prompt()

    @property
    def table(self) -> TableView:
        """The seat as the session last published it (read on the loop only)."""
        return self.session.view

    @property
    def view(self) -> View:
        return self.table.view

    @property
    def dealing(self) -> bool:
        """The round's own deck at work (the next round's, shuffled in the background
        while this one is played, is not what the table waits on: SPEC §3.3)."""
        due, state = self.table.due, self.table.state
        return (
            due is not None
            and due.kind.deck
            and state.phase in (Phase.ROUND_START, Phase.REVEAL, Phase.MATCH_OVER)
        )

    def dealt_so_far(self) -> int | None:
        """During the deal, how many of this seat's cards it knows (what must be drawn at
        once: `tui/pacing.py`); None outside a deal."""
        if not self.dealing:
            return None
        view = self.view
        hands = view.state.hands
        if not hands:
            return 0
        return sum(1 for slot in hands[self.seat] if view.face(slot) is not None)

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
        round_index = view.state.round_index
        if round_index != self._order_round:
            self._order_round = round_index
            self.order = []
            self.labels = {}
        dealing = self._dealt_round != round_index
        if len(known) == len(slots):  # a drawn card in flight later on keeps the order
            self._dealt_round = round_index
        if dealing or not self.order:
            self.order = self._sorted(known)
            self.fresh.clear()
            self._relabel()
        else:
            shown = set(self.order)
            new = [slot for slot in known if slot not in shown]
            self.fresh |= set(new)
            self.order = [slot for slot in self.order if slot in known] + self._sorted(
                {slot: known[slot] for slot in new}
            )
            self._keep_labels()
        return [(slot, known[slot]) for slot in self.order]

    def _relabel(self) -> None:
        """Labels in display order (a new round, the deal, a sort)."""
        self.labels = dict(zip(self.order, LABELS, strict=False))

    def _keep_labels(self) -> None:
        """Cards that left give up their labels; cards that joined take the first free."""
        self.labels = {slot: label for slot, label in self.labels.items() if slot in self.order}
        free = [label for label in LABELS if label not in self.labels.values()]
        for slot in self.order:
            if slot not in self.labels and free:
                self.labels[slot] = free.pop(0)

    def label(self, slot: int) -> str:
        """The label a card of the hand is selected by ("?" beyond the 34th)."""
        return self.labels.get(slot, "?")

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

    def _buy_prompt(self) -> str:
        """The open Køb! window on every screen, with its countdown (issue 30, item 3:
        the window runs beside the drawer's new card, which is on screen already — the
        deck gives it before the window's result, SPEC §4.7)."""
        state = self.table.state
        offer = self.offer_text()
        left = self.buy_seconds_left()
        timer = (
            ""
            if left is None
            else _("; the Køb! window closes in {seconds} s").format(seconds=math.ceil(left))
        )
        if self.seat in state.buy_eligible and not self.table.answered_buy:
            return _("Køb {offer}? k buys, p passes{timer}").format(offer=offer, timer=timer)
        drawn = self.view.face(state.hands[self.seat][-1]) if state.turn == self.seat else None
        if drawn is not None:  # the drawer: the card it drew, while the others may buy
            return _("You drew {card}; Køb {offer}{timer}").format(
                card=self.card_text(drawn), offer=offer, timer=timer
            )
        return _("Køb {offer}: waiting for the others{timer}").format(offer=offer, timer=timer)

    def stopped(self, report: str) -> str:
        """Why the table stopped. The report is the checkers' own English (a peer's
        reason may be part of it): shown as it is in English; in another language a
        sentence that names the seat to blame, and the report translated where it shows
        (`say_reason`: what is not one of our reasons is quoted as written)."""
        template = _("The table stopped: {report}")
        if template == "The table stopped: {report}":  # English: the report says it all
            return template.format(report=report)
        culprit = self.table.culprit
        if culprit is not None and 0 <= culprit < len(self.names):
            return _(
                "The table stopped: {name} sent what the rules or the protocol refuse "
                "({why}; rommy verify checks the transcript)"
            ).format(name=self.names[culprit], why=say_reason(report))
        return _(
            "The table stopped: the seats disagree on a step ({why}; rommy verify checks "
            "the transcript)"
        ).format(why=say_reason(report))

    def prompt(self) -> str:
        """What the player can do now, for the status line."""
        if self.table.halted is not None:
            return self.table.halted
        if self.table.frozen and self.table.ended is None:
            why = self.stopped(self.table.frozen)
            if self.table.culprit is not None:
                return _("{why}. e ends the game without {name}").format(
                    why=why, name=self.names[self.table.culprit]
                )
            return why
        state = self.table.state
        if self.table.over:
            return _("The match is over. q quits.")
        if self.meld_entry is not None:
            key, digits = self.meld_entry
            doing = _("lay off on meld") if key == "o" else _("swap with the joker of meld")
            return _("{doing} {digits}_ (type its number, Enter; Esc cancels)").format(
                doing=doing, digits=digits
            )
        if self.label_prefix:
            return _("Z_ (the second key of a card's label; Esc cancels)")
        if state.phase is Phase.BUY:
            return self._buy_prompt()
        now = self.session.clock()
        waiting = self.table.waiting
        due = self.table.due
        dealing = self.dealing
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
            # `e` is offered exactly when it works: when the peer, as the view was taken,
            # may end the game without someone (not by this clock, which runs on between
            # two views: `e` would then answer that nobody has waited long enough)
            ending = self.table.ending
            if len(ending) > 1 or (ending and ending[0] != waiting.seat):  # SPEC §4.4
                names = ", ".join(self.names[s] for s in ending)
                line = _("Waiting {seconds} s for {name}: e ends the game without {names}").format(
                    seconds=f"{stalled:.0f}", name=self.names[waiting.seat], names=names
                )
            elif ending:  # what is owed is in the log: it fits 80
                line = _("Waiting {seconds} s for {name}: e ends the game without {name}").format(
                    seconds=f"{stalled:.0f}", name=self.names[waiting.seat]
                )
            return line
        if due is None or dealing:
            return _("Shuffling and dealing...") + estimate
        if state.phase is Phase.DRAW:
            return _("Your turn: d draws from the stock, t takes the discard")
        if state.phase is Phase.PLAY:
            if self.staged:
                line = _("{count} meld(s) staged: Enter lays them down, m stages more").format(
                    count=len(self.staged)
                )
                progress = self.staged_progress()
                return f"{line} ({progress})" if progress else line
            rules = self.config.rules
            if rules.dealer_starts and state.turn == state.dealer and len(state.discard) == 1:
                return _(
                    "Your turn: discard a card (the dealer starts with {count} cards and "
                    "does not draw); m and Enter meld first"
                ).format(count=len(state.hands[self.seat]))
            swap = _("w+N swaps a joker, ") if rules.joker_swap else ""
            return _(
                "Your turn: card keys select, m meld, Enter lays down, o+N lays off, "
                "{swap}x discards, ? help"
            ).format(swap=swap)
        return ""

    def hints(self) -> list[str]:
        """Melds the hand could make, the best first: a lay-down that meets this round's
        opening (the contract, the points), then melds that share no card with it or
        each other, those with fewer jokers first (one joker is never offered twice)."""
        view = self.view
        try:
            hand = view.hand()
        except ValueError:
            return []
        rules, state = self.config.rules, self.table.state
        candidates = candidate_melds(hand, self.deck, rules)
        texts: list[str] = []
        used: set[int] = set()
        if rules.opening != "none" and state.hands and not state.opened[self.seat]:
            round_index = min(state.round_index, max(0, len(rules.contracts) - 1))
            found = find_opening(candidates, self.deck, rules, round_index)
            if found:
                melds = " | ".join(self._meld_text(m.cards) for m in found[0])
                texts.append(_("to open: {melds}").format(melds=melds))
                used = {slot for meld in found[0] for slot in meld.slots}

        def jokers(candidate: Candidate) -> int:
            return sum(1 for p in candidate.cards if self.deck.card(p.card).is_joker)

        for meld in sorted(candidates, key=lambda c: (jokers(c), -len(c.cards))):
            if meld.slots & used:
                continue
            used |= meld.slots
            texts.append(self._meld_text(meld.cards))
        return texts[:6]

    def _meld_text(self, cards: tuple[Placed, ...]) -> str:
        return " ".join(self.card_text(p.card) for p in cards)

    def why_not_a_meld(self, cards: list[tuple[int, int]]) -> str:
        """The rule a selection breaks (a passer needs different suits, a run has no
        gaps, ...), in the rules' own words."""
        rules = self.config.rules
        faces = [(slot, card, self.deck.card(card)) for slot, card in cards]
        naturals = [(slot, card, face) for slot, card, face in faces if not face.is_joker]
        if not naturals:
            return _("a meld needs at least one natural card, not only jokers")
        jokers = [(slot, card) for slot, card, face in faces if face.is_joker]
        ranks = {face.rank for _, _, face in naturals}
        suits = {face.suit for _, _, face in naturals}
        tries: list[tuple[MeldKind, list[Placed]]] = []
        if len(ranks) == 1:
            (rank,) = ranks
            placed = [Placed(slot, card, rank) for slot, card, _ in naturals]
            tries.append((MeldKind.SET, placed + [Placed(s, c, rank) for s, c in jokers]))
        if len(suits) == 1:
            ordered = sorted(naturals, key=lambda item: item[2].rank)
            placed = [Placed(slot, card, face.rank) for slot, card, face in ordered]
            tries.append((MeldKind.RUN, placed))
        for kind, placed in tries:
            try:
                check_meld(kind, tuple(placed), self.deck, rules)
            except IllegalMove as error:
                return error.say(_)
        return _("a {set} is cards of one rank, a {run} cards of one suit in sequence").format(
            set=rules.set_name, run=rules.run_name
        )

    # --- intents ---------------------------------------------------------------

    def select(self, label: str) -> None:
        """A label key (either case); after Z, a second-row label."""
        label = label.upper()
        if self.label_prefix:
            self.label_prefix = False
            label = LABEL_PREFIX + label
        self.hand()
        slots = [slot for slot, have in self.labels.items() if have == label]
        if not slots:
            self.status = _("there is no card {label}").format(label=label)
            return
        self.selected ^= {slots[0]}
        self.status = ""

    def begin_second_row(self) -> None:
        """Z: the next label key picks a card labelled Z1, ZB, ..."""
        self.label_prefix = True

    def unknown_key(self, key: str) -> None:
        """A key that does nothing says so (it used to be silent)."""
        self.status = _("the key {key} does nothing here; ? shows the keys").format(key=key)

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

    def _no_buying(self) -> bool:
        """Rummy and Rommé have no Køb!: say so instead of offering it."""
        if self.config.rules.buying:
            return False
        self.status = _("{game} has no Køb!").format(game=self.config.rules.name)
        return True

    def toggle_auto_pass(self) -> None:
        if self._no_buying():
            return
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
            self.status = _("those cards are not a meld: {why}").format(
                why=self.why_not_a_meld(cards)
            )
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

    def staged_progress(self) -> str:
        """How far the staged melds go toward this round's opening, before opening:
        "30 of 40 points", "1 of 2 løbere, 0 of 1 passer"; empty when there is none."""
        rules, state = self.config.rules, self.table.state
        if rules.opening == "none" or not state.hands or state.opened[self.seat]:
            return ""
        if rules.opening == "points":
            worth = sum(opening_value(m.kind, m.cards, self.deck, rules) for m in self.staged)
            return _("{worth} of {points} points").format(worth=worth, points=rules.opening_points)
        contract = rules.contracts[min(state.round_index, len(rules.contracts) - 1)]
        parts = []
        for kind, wanted, name in (
            (MeldKind.RUN, contract.runs, rules.run_name),
            (MeldKind.SET, contract.sets, rules.set_name),
        ):
            if wanted:
                have = sum(1 for meld in self.staged if meld.kind is kind)
                plural = name if wanted == 1 else name + "e"
                parts.append(
                    _("{have} of {wanted} {name}").format(have=have, wanted=wanted, name=plural)
                )
        return ", ".join(parts)

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
        """End the game without the player the table has long waited for: `e` asks,
        `e` again (within `END_CONFIRM_S`) confirms. The proposer's seat proposes; any
        other seat tells the table it agrees (its seat signs the proposal when it comes)."""
        now = self.session.clock()
        absent = self._end_without(now)
        if not absent:
            self.status = _("nobody has kept the table waiting long enough to end the game")
            return
        name = ", ".join(self.names[s] for s in absent)
        asked, self.end_asked = self.end_asked, None
        if asked is None or asked[0] != absent or now - asked[1] > END_CONFIRM_S:
            self.end_asked = (absent, now)
            self.status = _(
                "End the game without {name}? The scores so far stand. e again confirms"
            ).format(name=name)
            return
        proposer_seat = min(s for s in range(len(self.names)) if s not in absent)
        if proposer_seat != self.seat:
            proposer = self.names[proposer_seat]
            self.session.say(_("I agree to end the game without {name}").format(name=name))
            self.status = _(
                "told the table; {proposer} ends it with e, and your seat signs"
            ).format(proposer=proposer)
            return
        self.session.end_game(absent)
        self.status = _("proposed to end the game without {name}").format(name=name)

    def _end_without(self, now: float) -> tuple[int, ...]:
        """Whom `e` ends the game without: the seat this seat's own checking caught
        cheating (at once), else every seat the table has waited for past the stall limit
        (with those a pending end leaves out already: SPEC §4.4), as the peer said when
        the view was taken; () if nobody."""
        table = self.table
        if table.ended is not None or table.over:
            return ()
        if table.frozen:
            return () if table.culprit is None else (table.culprit,)
        return table.ending

    def say(self, text: str) -> None:
        if text.strip():
            self.session.say(text)

    def log_lines(self) -> list[str]:
        """The log: moves, chat, refused input, stalls, notes, as they arrived."""
        return list(self.log)

    def hide_scores(self) -> None:
        self.show_scores = False

    def why_round_ended(self, number: int) -> str:
        """Why round `number` (1-based) ended: who went out, or that nobody could."""
        if not 0 < number <= len(self.round_ends):
            return ""
        reason, closer = self.round_ends[number - 1]
        if reason is RoundEnd.WENT_OUT and closer is not None:
            if closer == self.seat:
                return _("you went out")
            return _("{name} went out").format(name=self.names[closer])
        if reason is RoundEnd.STOCK_EXHAUSTED:
            return _("the stock ran out and nobody went out")
        if reason is RoundEnd.STALLED:
            return _("the stock was turned twice without a meld: nobody went out")
        return ""

    def summary_shown(self) -> bool:
        """The full-screen summary is up: after a round (until space) and at the end."""
        return self.show_scores or self.match_over()

    def match_over(self) -> bool:
        return self.table.state.phase is Phase.MATCH_OVER or self.table.ended is not None

    def ask_new_game(self) -> bool:
        """`n` on the final summary: a new game at this table is wanted (True when the
        app should exit so the command can start it). The match's last step (the
        last round's seeds) must have committed first, or the seat would leave the
        others waiting for its signature: until then the wish is kept
        (`new_game_wanted`) and the app asks again on every change."""
        if not self.new_game_offered:
            return False
        if not self.match_over():
            self.status = _("a new game can start when this one is over")
            return False
        if not (self.table.over or self.table.ended is not None):
            self.new_game_wanted = True
            self.status = _("the game's last step is being signed; the new game follows")
            return False
        self.new_game = True
        return True

    def lay_down(self) -> None:
        if self.selected:
            self.stage()
        if not self.staged:
            self.status = _("select cards and press m to stage a meld first")
            return
        # the staged melds stay until the lay-down is accepted: a refused opening keeps them
        self._submit(LayDown(self.seat, tuple(self.staged)))

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
        rules = self.config.rules
        if kind is SwapJoker and not rules.joker_swap:
            if "joker_swap" in rules.house.as_dict():
                self.status = _(
                    "the house rule '{rule}' is off at this table: a joker on the table stays there"
                ).format(rule=_(HOUSE_NAMES["joker_swap"]))
            else:
                self.status = _("{game} has no joker swaps").format(game=rules.name)
            return
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
        if self._no_buying():
            return
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
        self._relabel()

    def _submit(self, move: Move) -> None:
        """Check the move against the rules here (the engine is pure and fast), then hand
        it to the session, which makes it in its turn off the event loop."""
        try:
            state = self.table.state
            if state.phase is Phase.BUY and state.turn == self.seat:  # the drawer, in a window
                raise IllegalMove(
                    N_(
                        "the others may still buy the discard: meld or discard once the Køb! "
                        "window closes"
                    )
                )
            if not self.table.my_turn:
                raise IllegalMove(N_("it is not your turn to play"))
            apply(state, move)
        except IllegalMove as error:
            self.status = error.say(_)
            return
        self.session.submit(move, on_refused=self._refused)
        self.selected.clear()
        if isinstance(move, LayDown):
            self._handed_in = list(self.staged)
            self.staged = []
        self.status = ""

    def _refused(self, error: Exception) -> None:
        if self._handed_in and not self.staged:  # the session refused a lay-down: keep it
            self.staged = self._handed_in
        self._handed_in = []
        self.status = error.say(_) if isinstance(error, IllegalMove) else say_reason(str(error))

    # --- the log ------------------------------------------------------------------

    def _published(self, table: TableView) -> None:
        """A new view from the session (on the loop): its news goes to the log."""
        refused = 0
        for event in table.news:
            if isinstance(event, Played | Bought | Stepped):
                self._committed(event)
            elif isinstance(event, Said):
                self.log.append(f"{self.names[event.seat]}: {event.text}")
            elif isinstance(event, Dropped):
                refused += 1
            elif isinstance(event, Overdue):
                stall = event.stall
                self.log.append(
                    _("{name} has kept the table waiting for {seconds} s ({what})").format(
                        name=self.names[stall.seat],
                        seconds=f"{stall.seconds:.0f}",
                        what=stall.what.say(_),
                    )
                )
            elif isinstance(event, Line):
                self.log.append(event.text)
        if refused:  # one line however many; the reasons are in the log file
            self.log.append(
                _("refused {count} message(s) from the network (why: rommy.log)").format(
                    count=refused
                )
            )

    def _committed(self, event: Played | Bought | Stepped) -> None:
        """A step committed: the status gives way to the prompt (a message from a key
        press is shown until the next event)."""
        self.status = ""
        state = self.table.state
        if isinstance(event, Played):
            move = event.move
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
        elif isinstance(event, Bought):
            buyers = [] if event.buyer is None else [event.buyer]  # from the committed step
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
        self._last_offer = self.offer_text() if state.phase is Phase.BUY else None
        if state.phase is Phase.BUY and self.auto_pass:
            self._auto_pass()
        if len(state.round_scores) > self.rounds_logged:
            self.rounds_logged = len(state.round_scores)
            while len(self.round_ends) < self.rounds_logged:
                self.round_ends.append((state.round_end, state.closer))
            self.show_scores = True
            self.summary_scroll = 0
            why = self.why_round_ended(self.rounds_logged)
            if why:  # nobody "went out" on screen before
                self.log.append(why[0].upper() + why[1:])
            scores = ", ".join(f"{self.names[s]} {state.scores[s]}" for s in range(len(self.names)))
            self.log.append(
                _("round {number} over; totals: {scores}").format(
                    number=len(state.round_scores), scores=scores
                )
            )
