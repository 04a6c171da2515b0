"""One peer's replica of a game: the engine state and the round's deck protocol.

Theory of operation (protocol/SPEC.md §4):

- Everything that changes the game is a *step* with exactly one proposer, known
  from the committed state (`expected_proposer`): the next deck message's sender
  while the deck protocol has work; else the seat in turn; in a buy window the
  sequencer (the seat in turn, which declined the card and cannot claim it); at
  round end the seats still to show their hands, then to reveal their seeds.
- A step is validated against the committed state (`validate`), which yields the
  state hash after it; the peer ACKs that hash and `commit`s once every seat
  ACKed the same one. Nothing is shown or acted on before commit.
- What follows from a commit without anyone choosing is derived, identically on
  every peer (`_settle`): the deal's upcard starts the round in the engine; a
  hidden card moved into a hand becomes a deck task for its new owner; a
  reshuffled stock becomes a new shuffle pass; the end of a round asks for seeds,
  then audits the round and starts the next deck.
- Two decks at once (SPEC §3.3, since v6): once a round's deal is in, the next round's
  deck (`next_deck`) opens and its commits and shuffle chain run in the background, one
  step after each committed move or buy step; the next round then starts with its deal.

The replica does no I/O; the only randomness is the deck seat's `entropy`.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2p_rommy.config import GameConfig
from p2p_rommy.deck import ALL, AuditReport, DeckParams, DeckPhase, DeckSeat, audit_round
from p2p_rommy.deck.seat import DeckDue, LateProof
from p2p_rommy.engine.apply import apply, deal_layout, new_game, upcard_slot
from p2p_rommy.engine.due import Due, DueKind, rules_due
from p2p_rommy.engine.encoding import state_hash
from p2p_rommy.engine.moves import (
    Discard,
    LayDown,
    LayOff,
    Move,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.view import View
from p2p_rommy.errors import CheatDetected, IllegalMove, ProtocolError
from p2p_rommy.i18n import N_, Phrase
from p2p_rommy.limits import OPENED_ANSWERS_KEPT
from p2p_rommy.log.buy_race import Race, answerers, ranked
from p2p_rommy.log.buy_seal import seal_of, sealed
from p2p_rommy.log.buy_window import OpenWindow
from p2p_rommy.log.messages import (
    END_REASON_MAX,
    Ack,
    BuyAnswer,
    BuySeal,
    BuyStep,
    DeckStep,
    EndStep,
    LogMessage,
    MoveStep,
    Step,
    step_digest,
)
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.wire.identity import Entropy, Identity, Opened, open_envelope, roster_of

STATE_DOMAIN = b"p2p-rommy/v1/log-state\x00"
BUY_LOT_DOMAIN = b"p2p-rommy/v5/buy-lot\x00"


def shown_faces(move: Move) -> list[tuple[int, int]]:
    """(slot, card id) of every card a move shows."""
    match move:
        case LayDown(_, melds):
            return [(p.slot, p.card) for meld in melds for p in meld.cards]
        case LayOff(_, _, card) | SwapJoker(_, _, _, card):
            return [(card.slot, card.card)]
        case Discard(_, slot, card):
            return [(slot, card)]
        case RevealHand(_, cards):
            return list(cards)
    return []


@dataclass
class Tentative:
    """A validated, not yet committed step and what it leads to."""

    n: int
    proposer: int
    state: GameState
    hash: bytes
    kind: str
    claims: tuple[int, ...] = ()
    """A buy step's claimants, in the order the window's priority ranks them."""
    race: Race | None = None
    """Under `buy_priority = first`: how the race settled (votes per claimant)."""
    background: bool = False
    """A deck step of the next round's deck (`next_deck`)."""


@dataclass
class RoundDeck:
    seat: DeckSeat
    log: list[bytes] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    """The log step of each entry of `log`."""
    rebuilt: list[list[int]] = field(default_factory=list)
    dealt: bool = False
    outbox: deque[bytes] = field(default_factory=deque)
    """This replica's messages for this deck that the peer has not proposed."""


class Replica:
    """The committed game and the checks every step passes, for a seat
    (`SeatedReplica`) and for a bystander (`Observer`) alike; see the module docstring."""

    deck_seat_class: type[DeckSeat] = DeckSeat
    """The deck protocol implementation (tests put a cheating one here)."""
    replay_proofs = False
    """An observer's deck leaves the proofs of a round to its audit (`rommy verify`)."""
    audit_later = False
    """A seat may audit a finished round while the next is dealt and played (SPEC
    §4.4, "Derived transitions"): `unaudited` until `audit_pending`."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.game = config.game_id
        self.roster = roster_of(config.public_keys)
        self.state = new_game(config.rules, config.players, config.first_dealer)
        self.n = 0
        self.deck: RoundDeck | None = None
        """The deck of the round being played (or dealt, or audited)."""
        self.next_deck: RoundDeck | None = None
        """The next round's deck, shuffled in the background (SPEC §3.3, since v6)."""
        self._background = False
        """A move or buy step committed since the last background deck step: a step
        of `next_deck` is due before the next move (SPEC §4.4, "Proposer")."""
        self._was_background = False
        """(validating) The deck step just checked is `next_deck`'s."""
        self.unaudited: RoundDeck | None = None
        """(`audit_later`) A finished round's deck whose audit is still to run."""
        self.tentative: Tentative | None = None
        self.audits: list[tuple[int, AuditReport]] = []
        """Each finished round's audit report."""
        self.window: OpenWindow | None = None
        """The open Køb! window (None while none is open): its one owner."""
        self.last_window: int | None = None
        """The number of the last window that closed."""
        self.last_claims: tuple[int, ...] = ()
        """Who called Køb! in the last resolved window, in the order its priority ranked
        them (the race, seat order from the discarder, or the lot): the first is the buyer."""
        self.last_race: Race | None = None
        """Under `first`: the last resolved window's votes (the screen shows them)."""
        self.ended: tuple[tuple[int, ...], str] | None = None
        """(the seats left out, reason) once the others ended the game by agreement."""
        self._pending_end: tuple[tuple[int, ...], str] | None = None
        self._ahead: dict[bytes, tuple[Opened, BuyAnswer | BuySeal]] = {}
        """Answers and seals for the window the next step may open, as `open_message`
        opened them: they move into that window when it opens (`OPENED_ANSWERS_KEPT`)."""
        self._end_hashes: tuple[int, GameState, dict[bytes, tuple[int, ...]]] | None = None
        self._engine_hashes: list[tuple[GameState, bytes]] = []
        """The last two engine states hashed and their hashes (`_state_digest`)."""
        self._settle()
        self.committed_hash = self.state_hash()
        """The committed state's hash (what the next step's `prev` holds), kept from the
        commit: a pending deck step moves the deck's context on, an end does not."""

    # --- what the committed state says ---------------------------------------

    @property
    def buy_window(self) -> int | None:
        """The open Køb! window's number (the step whose commit opened it), or None."""
        return None if self.window is None else self.window.number

    @property
    def outbox(self) -> deque[bytes]:
        """This replica's deck messages not yet proposed, for the deck whose step is
        due next (empty when none is)."""
        due = self._due_deck()
        return due[0].outbox if due is not None else deque()

    def state_hash(self) -> bytes:
        """The hash every seat ACKs: step number, engine state, both decks' transcript
        contexts (the round's, then the next round's; SPEC §4.4)."""
        current = self.deck.seat.context if self.deck is not None else b""
        later = self.next_deck.seat.context if self.next_deck is not None else b""
        return hashlib.sha256(
            STATE_DOMAIN
            + self.game
            + self.n.to_bytes(8, "big")
            + self._state_digest()
            + current.ljust(32, b"\0")
            + later.ljust(32, b"\0")
        ).digest()

    def _state_digest(self) -> bytes:
        """`state_hash(self.state)`, encoded once per state: a state is a frozen value,
        and one commit asks for it several times (the next step's `prev`, each seat's
        end hash, every ACK's check)."""
        state, kept = self.state, self._engine_hashes
        for hashed, digest in kept:
            if hashed is state:
                return digest
        digest = state_hash(state)
        # two: a step's state after (validate) and the committed one before it (ACKs of
        # an end, the next `prev`) are both asked for until the step commits
        self._engine_hashes = [kept[-1], (state, digest)] if kept else [(state, digest)]
        return digest

    def _due_deck(self) -> tuple[RoundDeck, DeckDue] | None:
        """The deck whose message is the next step, and what it is; None when the next
        step is no deck message (SPEC §4.4, "Proposer"): a round's own deck work first;
        a step of the next round's deck after each committed move or buy step; at a
        round's end the next round's commits before this round's seeds."""
        if self.ended is not None:
            return None
        deck = self.deck
        later = self.next_deck if self.state.phase is not Phase.MATCH_OVER else None
        round_over = deck is not None and self._round_over()
        if later is not None and round_over and later.seat.phase is DeckPhase.COMMIT:
            commit = later.seat.due(seeds_due=False)
            assert commit is not None
            return later, commit
        if deck is not None:
            due = deck.seat.due(seeds_due=round_over)
            if due is not None:
                return deck, due
        if later is not None and self._background:
            due = later.seat.due(seeds_due=False)
            if due is not None:
                return later, due
        return None

    def due(self) -> Due | None:
        """Who must propose the next step, which kind, in words for people; None when
        the game is over (or the table waits on nobody's step: a deck between rounds).
        The one answer to "what is due": the peer, stall reports and the client read it."""
        if self.ended is not None:
            return None
        target = self._due_deck()
        if target is not None:
            deck, due = target
            return _deck_due(due, deck.seat.params.round_no)
        return rules_due(self.state)

    def expected_proposer(self) -> int | None:
        """The one seat that may propose the next step (`due().seat`)."""
        due = self.due()
        return None if due is None else due.seat

    @property
    def over(self) -> bool:
        """The match is over and its last step (the last seed) has committed, or the
        players ended it without a seat that did not come back."""
        if self.ended is not None:
            return self.tentative is None
        return (
            self.tentative is None
            and self.state.phase is Phase.MATCH_OVER
            and self.expected_proposer() is None
        )

    def end_proposer(self, absent: Collection[int]) -> int:
        """Who proposes ending the game without the seats `absent`: the lowest other seat."""
        return min(s for s in range(self.config.players) if s not in absent)

    @property
    def most_absent(self) -> int:
        """How many seats an end may leave out (SPEC §4.4): fewer than half the table, so
        that its signers are a majority (at a table of two: the other seat). Any two ends
        for one step then share a signer, who signs the second only if it leaves out more
        (two halves of a table cut in two cannot each end the game without the other);
        and one seat alone of three or more never ends the game: it cannot vouch that
        the others did not commit the step its end replaces (a seat restarted alone
        would end a game the others played on, or froze, without them)."""
        return max(1, (self.config.players - 1) // 2)

    @property
    def forfeited(self) -> tuple[int, ...]:
        """The seats that forfeit: those an end left out, when the end carries the word
        of more than one seat. One seat's word forfeits nobody (a table of two): the game
        is abandoned, without a standing (SPEC §4.4)."""
        if self.ended is None or self.config.players - len(self.ended[0]) < 2:
            return ()
        return self.ended[0]

    @property
    def abandoned(self) -> bool:
        """Ended on one seat's word alone (a table of two): no standing (SPEC §4.4)."""
        return self.ended is not None and not self.forfeited

    def end_hashes(self) -> dict[bytes, tuple[int, ...]]:
        """The state hash an end step `n+1` would leave, for each set of seats it could
        leave out (hash -> absent seats): an ACK of an end is known as one before the end
        itself arrives (its ACKs travel on other connections)."""
        cached = self._end_hashes
        if cached is None or cached[0] != self.n or cached[1] is not self.state:
            n = self.n + 1
            players = range(self.config.players)
            hashes = {
                self._end_hash(n, EndStep(absent, "")): absent
                for size in range(1, self.most_absent + 1)
                for absent in itertools.combinations(players, size)
            }
            cached = self._end_hashes = (self.n, self.state, hashes)
        return cached[2]

    def pending_absent(self) -> tuple[int, ...]:
        """The seats a pending end step leaves out (their ACKs are not needed), if any."""
        if self.tentative is not None and self.tentative.kind == "end":
            assert self._pending_end is not None
            return self._pending_end[0]
        return ()

    def _end_hash(self, n: int, body: EndStep) -> bytes:
        """The state after an end step: the committed state, marked ended. The deck's
        context is left out: a pending deck step may have moved it on some peers."""
        return hashlib.sha256(
            STATE_DOMAIN
            + self.game
            + n.to_bytes(8, "big")
            + self._state_digest()
            + b"ended"
            + bytes(body.absent)
        ).digest()

    def validate(self, step: Step) -> Tentative:
        """Check a proposed step against the committed state; raise `ProtocolError` if bad.

        The deck seat may advance (its messages are the step's content); the engine
        state only changes at `commit`.
        """
        sender = step.seat
        if step.game != self.game:
            raise ProtocolError(sender, N_("step for another game"), step.n)
        if step.n != self.n + 1:
            raise ProtocolError(
                sender,
                N_("step {n} when step {value} is due").format(n=step.n, value=self.n + 1),
                step.n,
            )
        if isinstance(step.body, EndStep):
            return self._check_end(step, step.body)
        if step.prev != self.state_hash():
            raise ProtocolError(sender, N_("step does not build on the committed state"), step.n)
        expected = self.expected_proposer()
        if sender != expected:
            raise ProtocolError(
                sender,
                N_("it is seat {expected}'s step, not seat {sender}'s").format(
                    expected="-" if expected is None else expected + 1, sender=sender + 1
                ),
                step.n,
            )
        body = step.body
        claims: tuple[int, ...] = ()
        race: Race | None = None
        self._before_another(step)
        try:
            if isinstance(body, DeckStep):
                after = self._check_deck(step, body)
            elif isinstance(body, MoveStep):
                after = self._check_move(step, body)
            else:
                after, claims, race = self._check_buy(step, body)
        except ProtocolError as error:
            raise _proposers_fault(step, error) from None
        self.tentative = Tentative(
            step.n,
            sender,
            after,
            self._hash_after(step.n, after),
            step.kind,
            claims,
            race,
            background=isinstance(body, DeckStep) and self._was_background,
        )
        return self.tentative

    def check_end(self, step: Step, body: EndStep) -> Tentative:
        """An end step checked against the committed state, changing nothing (a peer
        may hold it until it has waited long enough itself); `ProtocolError` if bad."""
        absent = body.absent
        if absent[-1] >= self.config.players or len(absent) >= self.config.players:
            raise ProtocolError(step.seat, N_("malformed end step"), step.n)
        if len(absent) > self.most_absent:
            raise ProtocolError(
                step.seat, N_("an end leaves out half the table or more: a majority signs"), step.n
            )
        if self.ended is not None or self.over:
            raise ProtocolError(step.seat, N_("the game is already over"), step.n)
        if step.n != self.n + 1:
            raise ProtocolError(
                step.seat,
                N_("step {n} when step {value} is due").format(n=step.n, value=self.n + 1),
                step.n,
            )
        if step.seat != self.end_proposer(absent):
            raise ProtocolError(
                step.seat,
                N_("seat {value} proposes ending the game").format(
                    value=self.end_proposer(absent) + 1
                ),
                step.n,
            )
        if step.prev != self.committed_hash:
            raise ProtocolError(step.seat, N_("step does not build on the committed state"), step.n)
        return Tentative(step.n, step.seat, self.state, self._end_hash(step.n, body), "end")

    def _check_end(self, step: Step, body: EndStep) -> Tentative:
        self.tentative = self.check_end(step, body)
        self._pending_end = (body.absent, body.reason)
        return self.tentative

    def _check_deck(self, step: Step, body: DeckStep) -> GameState:
        envelope = body.envelope
        if self.deck is None and self.next_deck is None:
            raise ProtocolError(step.seat, N_("no deck protocol is running"), step.n)
        target = self._due_deck()
        if target is None:
            raise ProtocolError(step.seat, N_("no deck message is due now"), step.n)
        deck = target[0]
        self._was_background = deck is self.next_deck
        opened = self._embedded(step, envelope, N_("the deck message"))
        self._adopt_own(step, envelope, deck)
        deck.outbox.extend(deck.seat.receive(envelope, opened))
        deck.log.append(envelope)
        deck.steps.append(step.n)
        return self.state

    def _check_move(self, step: Step, body: MoveStep) -> GameState:
        move = body.move
        try:
            after = apply(self.state, move)
        except IllegalMove as error:
            raise CheatDetected(
                step.seat, N_("illegal move: {error}").format(error=error), step.n
            ) from None
        faces = dict(shown_faces(move))
        hidden = [slot for slot in faces if self.state.faces[slot] is None]
        reveal = body.reveal
        if bool(hidden) != isinstance(reveal, bytes):
            raise CheatDetected(
                step.seat, N_("shown cards without their proof, or a stray proof"), step.n
            )
        if hidden and isinstance(reveal, bytes):
            assert self.deck is not None
            opened_reveal = self._embedded(step, reveal, N_("the move's reveal"))
            deck = self.deck.seat
            try:
                deck.reveal(step.seat, hidden)
            except ValueError as error:
                raise CheatDetected(
                    step.seat, N_("cannot show that card: {error}").format(error=error), step.n
                ) from None
            self._adopt_own(step, reveal, self.deck)
            self.deck.outbox.extend(deck.receive(reveal, opened_reveal))
            self.deck.log.append(reveal)
            self.deck.steps.append(step.n)
            for slot in hidden:
                if deck.public.get(slot) != faces[slot]:
                    raise CheatDetected(
                        step.seat,
                        N_("the card in slot {slot} is not the one claimed").format(slot=slot),
                        step.n,
                    )
        return after

    def _adopt_own(self, step: Step, envelope: bytes, deck: RoundDeck) -> None:
        """A seat's own deck message coming back from its log after a restart (an
        observer has none)."""

    def _before_another(self, step: Step) -> None:
        """What a seat settles before it checks another seat's step (an observer has
        nothing to settle): a failure then is not that step's fault."""

    def _embedded(self, step: Step, envelope: bytes, what: str) -> Opened:
        """An envelope a step carries as its proposer's own (a deck message, a move's
        reveal) must be signed by that proposer: anything else is the proposer's fault,
        never the fault of the seat whose old envelope it put there. Returns it opened
        (once is enough)."""
        opened = open_envelope(envelope, self.roster)
        if opened.seat != step.seat:
            raise ProtocolError(
                step.seat, N_("{what} is signed by another seat").format(what=what), step.n
            )
        return opened

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

    def _hash_after(self, n: int, after: GameState) -> bytes:
        saved_state, saved_n = self.state, self.n
        self.state, self.n = after, n
        try:
            return self.state_hash()
        finally:
            self.state, self.n = saved_state, saved_n

    # --- committed records (catch-up and restart) ------------------------------

    def check_certificate(self, step: Step, acks: Sequence[bytes], digest: bytes) -> Tentative:
        """Validate a committed record's step (`digest`: its `step_digest`) and its ACKs:
        every seat's signature on that step and on the state hash this replica computes.
        Raises `ProtocolError`; on success the step is the tentative one, ready to
        `commit`. An ACK of another step names its signer only when it is the step's own
        proposer (it signed both); else nobody: the proposer may have signed two steps,
        or the record was altered, and no one signature proves which."""
        if self.tentative is None or (
            isinstance(step.body, EndStep)
            and (self.tentative.kind != "end" or self.pending_absent() != step.body.absent)
        ):  # an end replaces a pending step the absent seats held up, or an end without fewer
            self.validate(step)
        tentative = self.tentative
        assert tentative is not None
        if tentative.n != step.n or tentative.proposer != step.seat:
            raise ProtocolError(
                step.seat, N_("a record for another step than the one held"), step.n
            )
        if len(acks) != self.config.players:
            raise ProtocolError(
                None, N_("step {n} is committed without every seat's ACK").format(n=step.n), step.n
            )
        absent = step.body.absent if isinstance(step.body, EndStep) else ()
        held: dict[int, Ack] = {}
        for seat, envelope in enumerate(acks):
            if seat in absent and envelope == b"":
                continue  # the seat the others ended the game without
            opened = open_envelope(envelope, self.roster)
            ack = decode_log(opened.body, opened.seat)
            if (
                not isinstance(ack, Ack)
                or opened.seat != seat
                or ack.game != self.game
                or ack.n != step.n
            ):  # a signed message in the wrong place: not its signer's doing
                raise ProtocolError(
                    None,
                    N_("record {n}: not seat {value}'s ACK").format(n=step.n, value=seat + 1),
                    step.n,
                )
            held[seat] = ack
        own = held.get(step.seat)
        if own is not None and own.step != digest:
            raise ProtocolError(
                step.seat,
                N_(
                    "record {n}: its own ACK acknowledges another step than the one it "
                    "signed here (two steps for one number)"
                ).format(n=step.n),
                step.n,
            )
        for seat, ack in held.items():
            if ack.step != digest:
                raise ProtocolError(
                    None,
                    N_(
                        "record {n}: seat {value}'s ACK acknowledges another step than "
                        "seat {value2}'s step held here (two steps for one number, or an "
                        "altered record)"
                    ).format(n=step.n, value=seat + 1, value2=step.seat + 1),
                    step.n,
                )
            if ack.state != tentative.hash:
                raise ProtocolError(
                    seat,
                    N_("record {n}: seat {value} ACKed another state").format(
                        n=step.n, value=seat + 1
                    ),
                    step.n,
                )
        return tentative

    def restore(self, step_envelope: bytes, acks: Sequence[bytes]) -> None:
        """Replay one record of this seat's own transcript (signatures and all)."""
        opened = open_envelope(step_envelope, self.roster)
        step = decode_log(opened.body, opened.seat)
        if not isinstance(step, Step):
            raise ProtocolError(opened.seat, N_("a transcript record must hold a step"))
        self.check_certificate(step, acks, step_digest(step_envelope))
        self.commit()

    # --- committing -----------------------------------------------------------

    def commit(self) -> None:
        """Make the validated step part of the game, then derive what follows."""
        tentative = self.tentative
        if tentative is None:
            raise ValueError("nothing to commit")
        before = self.state
        self.state = tentative.state
        self.n = tentative.n
        self.tentative = None
        if tentative.kind == "end":
            self.ended = self._pending_end
            return
        if tentative.kind == "buy":
            self.last_claims = tentative.claims
            self.last_race = tentative.race
        if tentative.kind == "move" or tentative.kind == "buy":
            self._background = True
            self._after_move(before)
        elif tentative.background:
            self._background = False
        if self.state.phase is not Phase.BUY:
            if self.window is not None:
                self.last_window = self.window.number
            self.window = None  # closed: its number, seats and answers go with it
        elif before.phase is not Phase.BUY:
            self._open_window()
        self._settle()
        self.committed_hash = self.state_hash()
        if self._ahead:  # only the window the next step may open is ahead now
            self._ahead = {
                raw: kept for raw, kept in self._ahead.items() if kept[1].window > self.n
            }

    def _open_window(self) -> None:
        """The committed step opened a Køb! window: its one owner is made now, taking the
        answers opened for it before it opened."""
        number = self.n
        window = OpenWindow(number, self.state.buy_eligible, answerers(self.state))
        for raw, kept in self._ahead.items():
            if kept[1].window == number:
                window.opened[raw] = kept
        self.window = window

    def _after_move(self, before: GameState) -> None:
        """Deck work that the committed move implies: a rebuilt stock, hidden cards to hands."""
        if self.deck is None or self.state.round_index != before.round_index:
            return
        deck = self.deck
        covered = deck.seat.passes[-1].base + deck.seat.passes[-1].size
        if len(self.state.faces) > covered:
            recycled = [  # recycled cards were all face up on the discard pile
                self.state.public_face(slot)
                for slot in self.state.retired[-(len(self.state.faces) - covered) :]
            ]
            deck.rebuilt.append(recycled)
            deck.outbox.extend(deck.seat.rebuild(covered, recycled))
        for seat, hand in enumerate(self.state.hands):
            for slot in hand:
                if self.state.faces[slot] is None and slot not in deck.seat.assigned:
                    deck.outbox.extend(deck.seat.draw(slot, seat))

    def _round_over(self) -> bool:
        assert self.deck is not None
        phase = self.state.phase
        finished_here = self.deck.seat.params.round_no < self.state.round_index
        return phase is Phase.MATCH_OVER or (phase is Phase.ROUND_START and finished_here)

    def _settle(self) -> None:
        """Apply what follows from the committed state by itself, on every peer alike."""
        while True:
            deck = self.deck
            if deck is None or (deck.seat.phase is DeckPhase.DONE):
                if deck is not None:
                    self.audit_pending()  # rounds are audited in order
                    self.deck = None
                    if self.audit_later and self.state.phase is Phase.ROUND_START:
                        self.unaudited = deck  # off the next deal's critical path
                    else:
                        self._audit(deck)
                if self.state.phase is Phase.MATCH_OVER and self.next_deck is not None:
                    self._drop_next()
                if self.state.phase is Phase.ROUND_START:
                    self._start_deck()
                    continue
                return
            if (
                self.state.phase is Phase.ROUND_START
                and not self._round_over()
                and deck.seat.idle
                and not deck.dealt
            ):
                deck.dealt = True
                upcard = upcard_slot(self.config.rules, self.config.players)
                self.state = apply(self.state, StartRound(deck.seat.public[upcard]))
                continue
            if self._round_over() and deck.seat.phase is DeckPhase.RUNNING and deck.seat.idle:
                deck.outbox.extend(deck.seat.finish())
                continue
            if deck.dealt and self.next_deck is None and self._next_round_may_come():
                self._open_next(deck.seat.params)
                continue
            return

    def _next_round_may_come(self) -> bool:
        """The round is being played and another may follow it (not the last of a
        fixed number of rounds; a match to a target score may end, SPEC §3.3)."""
        rounds = self.config.rules.rounds
        playing = self.state.phase in _PLAYING
        return playing and (rounds is None or self.state.round_index + 1 < rounds)

    def _params(self, round_no: int, dealer: int) -> DeckParams:
        rules, players = self.config.rules, self.config.players
        return DeckParams(self.game, round_no, players, dealer, rules.deck_size)

    def _open_next(self, current: DeckParams) -> None:
        """Open the next round's deck once this round's deal is in (SPEC §3.3): its
        dealer is the engine's next one; it shares nothing before its round starts."""
        params = self._params(current.round_no + 1, self.state.next_seat(current.dealer))
        seat = self._new_deck_seat(params)
        self.next_deck = RoundDeck(seat)
        self.next_deck.outbox.extend(self._deck_opening(seat))
        self._background = False

    def _drop_next(self) -> None:
        """The match is over: the next round's deck is never used (no card of it was
        ever shared), its seeds are never revealed; an observer that left its proofs to
        an audit checks them now."""
        if self.replay_proofs:
            self._check_unproven()
        self.next_deck = None

    def _start_deck(self) -> None:
        rules, players = self.config.rules, self.config.players
        params = self._params(self.state.round_index, self.state.dealer)
        later, self.next_deck = self.next_deck, None
        if later is not None:  # shuffled in the background: its chain goes on, then the deal
            if later.seat.params != params:
                raise AssertionError(f"the next deck was opened for {later.seat.params}")
            self.deck = later
            seat = later.seat
        else:
            seat = self._new_deck_seat(params)
            self.deck = RoundDeck(seat)
            self.deck.outbox.extend(self._deck_opening(seat))
        layout = deal_layout(rules, players, self.state.dealer)
        upcard = upcard_slot(rules, players)
        self.deck.outbox.extend(seat.deal([*layout, (upcard, ALL)]))

    def _deck_opening(self, seat: DeckSeat) -> list[bytes]:
        """The deck messages a round opens with for this replica (an observer commits
        to nothing)."""
        return []

    def _new_deck_seat(self, params: DeckParams) -> DeckSeat:
        """An observer's deck seat: it checks every message and makes none."""
        if self.replay_proofs:
            return self.deck_seat_class(
                params, -1, None, self.config.public_keys, eager=False, replay_proofs=True
            )
        return self.deck_seat_class(
            params, -1, None, self.config.public_keys, secrets.token_bytes, eager=False
        )

    def _audit(self, deck: RoundDeck) -> None:
        report = audit_round(
            deck.seat.params,
            self.config.public_keys,
            deck.log,
            deck.rebuilt,
            check_proofs=False,
            received=list(zip(deck.seat.transcript, deck.seat.messages, strict=True)),
            points=[shuffled.points for shuffled in deck.seat.passes],
        )
        if report.findings:
            self._check_unproven()  # a bad proof before the finding is named first
        deck.seat.forget_unproven()  # the replay showed every statement they made
        self.audits.append((deck.seat.params.round_no, report))
        if report.findings:
            first = report.findings[0]
            raise CheatDetected(
                first.seat,
                N_("round {round_no} audit: {what}").format(
                    round_no=deck.seat.params.round_no + 1,  # as players count
                    what=first.what,
                ),
            )

    def audit_pending(self) -> None:
        """Run the audit of a finished round left for later (`audit_later`); a finding
        raises `CheatDetected` naming its seat, as at the round's end."""
        deck, self.unaudited = self.unaudited, None
        if deck is not None:
            self._audit(deck)

    def check_unproven(self) -> None:
        """(`replay_proofs`) Verify the open decks' proofs left to their audits: at a
        finding, and where a transcript stops before a round's seeds."""
        self._check_unproven()

    def _check_unproven(self) -> None:
        """Both open decks' unproven proofs, in log order: the earliest bad one is
        named, whichever round it belongs to."""
        decks = [d for d in (self.deck, self.next_deck) if d is not None]
        while True:
            waiting = [d for d in decks if d.seat.unproven]
            if not waiting:
                return
            deck = min(waiting, key=lambda d: d.steps[d.seat.unproven[0].step])
            try:
                deck.seat.unproven[0].check()
            except CheatDetected as error:
                assert error.step is not None
                raise LateProof(error.sender, error.reason, deck.steps[error.step]) from None
            deck.seat.unproven.pop(0)


class Observer(Replica):
    """A replica that holds no seat and no secret: it checks every step and every ACK
    as a seat would and proposes nothing (`rommy verify`, `rommy replay`)."""


class SeatedReplica(Replica):
    """The game as one seat holds it: the committed state plus this seat's secrets (its
    round seeds, its hidden cards) and the steps it proposes."""

    audit_later = True

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        identity: Identity,
        entropy: Entropy = secrets.token_bytes,
        seeds: Mapping[int, bytes] | None = None,
    ) -> None:
        """`seeds` (round -> seed) are this seat's saved round seeds when it restarts
        from its transcript (see `restore`)."""
        if config.seats[seat].public_key != identity.public_key:
            raise ValueError("this identity does not hold that seat")
        self.seat = seat
        self.identity = identity
        self.entropy = entropy
        self.seeds = dict(seeds or {})
        self.restoring = seeds is not None
        """Replaying its own transcript: the deck seat makes nothing until `wake`."""
        super().__init__(config)

    def my_due(self) -> Due | None:
        """What this seat must propose now: `due()` when it is this seat's and nothing is
        in flight (and, for the deck, its message is ready)."""
        due = self.due()
        if due is None or self.tentative is not None or due.seat != self.seat:
            return None
        if due.kind.deck and not self.outbox:
            return None
        return due

    def my_turn(self) -> bool:
        """This seat must make a move now (draw, meld, lay off, discard)."""
        due = self.my_due()
        return due is not None and due.kind is DueKind.MOVE

    def view(self) -> View:
        """This seat's view: the public state and the faces of its own hidden cards."""
        private = {}
        if self.deck is not None and self.state.phase is not Phase.ROUND_START:
            for slot in self.state.hands[self.seat]:
                if self.state.faces[slot] is None:
                    card = self.deck.seat.known.get(slot)
                    if card is not None:
                        private[slot] = card
        return View(self.state, self.seat, private)

    # --- proposing ------------------------------------------------------------

    def propose_deck(self) -> Step:
        target = self._due_deck()
        assert target is not None
        deck = target[0]
        envelope = deck.outbox.popleft()
        step = Step(
            self.game,
            self.n + 1,
            self.seat,
            self.state_hash(),
            DeckStep(envelope),
        )
        deck.outbox.extend(deck.seat.receive(envelope))
        deck.log.append(envelope)
        deck.steps.append(step.n)
        return self._own(step, background=deck is self.next_deck)

    def propose_move(self, move: Move) -> Step:
        """A player's move as a step; `IllegalMove` (nothing changes) if the rules refuse it."""
        after = apply(self.state, move)  # raises before anything is touched
        prev = self.state_hash()
        reveal = self._reveal_for(self.seat, move)
        step = Step(self.game, self.n + 1, self.seat, prev, MoveStep(move, reveal))
        return self._own(step, after)

    def propose_reveal(self) -> Step:
        hand = self.state.hands[self.seat]
        known = self.deck.seat.known if self.deck is not None else {}
        cards = tuple((slot, self._face_known(slot, known)) for slot in hand)
        return self.propose_move(RevealHand(self.seat, cards))

    def _face_known(self, slot: int, known: Mapping[int, int]) -> int:
        """A card of this seat's hand: public, or known to this seat alone."""
        face = self.state.faces[slot]
        return known[slot] if face is None else face

    def propose_buy(self, answers: list[bytes], seals: list[bytes] | None = None) -> Step:
        """The resolution of the open window: every answering seat's signed answer (and
        under `seat`/`lot` every eligible seat's seal)."""
        assert self.window is not None
        body = BuyStep(self.window.number, tuple(answers), tuple(seals or ()))
        step = Step(self.game, self.n + 1, self.seat, self.state_hash(), body)
        after, claims, outcome = self._check_buy(step, body)
        return self._own(step, after, claims, outcome)

    def propose_end(self, absent: tuple[int, ...], reason: str) -> Step:
        """End the game without the seats `absent` (sorted; every other seat must sign):
        the scores so far stand. Replaces a pending step (or end) they never ACKed."""
        body = EndStep(absent, reason[:END_REASON_MAX])
        step = Step(self.game, self.n + 1, self.seat, self.committed_hash, body)
        self.tentative = Tentative(
            step.n, self.seat, self.state, self._end_hash(step.n, body), "end"
        )
        self._pending_end = (absent, body.reason)
        return step

    def _own(
        self,
        step: Step,
        after: GameState | None = None,
        claims: tuple[int, ...] = (),
        outcome: Race | None = None,
        background: bool = False,
    ) -> Step:
        if after is None:
            after = self.state
        self.tentative = Tentative(
            step.n,
            self.seat,
            after,
            self._hash_after(step.n, after),
            step.kind,
            claims,
            outcome,
            background,
        )
        return step

    def _reveal_for(self, seat: int, move: Move) -> bytes | None:
        hidden = [slot for slot, _ in shown_faces(move) if self.state.faces[slot] is None]
        if not hidden:
            return None
        assert self.deck is not None
        (envelope,) = self.deck.seat.reveal(seat, hidden)
        self.deck.outbox.extend(self.deck.seat.receive(envelope))
        self.deck.log.append(envelope)
        self.deck.steps.append(self.n + 1)
        return envelope

    # --- validating a peer's step --------------------------------------------

    @property
    def deferred(self) -> bool:
        """A shuffle proof this seat shuffled on and has yet to verify (pipelining),
        in either open deck."""
        return any(deck.seat.deferred for deck in self.open_decks)

    @property
    def open_decks(self) -> list[RoundDeck]:
        """The round's deck and the next round's, those that are open."""
        return [deck for deck in (self.deck, self.next_deck) if deck is not None]

    def check_deferred(self) -> None:
        """Verify it now (`CheatDetected` naming its shuffler if it fails)."""
        for deck in self.open_decks:
            deck.seat.check_deferred()

    def wake(self) -> None:
        """The replay is over: from now on this seat makes its messages again."""
        self.restoring = False
        for deck in self.open_decks:
            deck.outbox.clear()
            deck.outbox.extend(deck.seat.wake())

    def _before_another(self, step: Step) -> None:
        if step.seat != self.seat:
            self.check_deferred()  # a shuffle this seat shuffled on: its shuffler's fault

    def _adopt_own(self, step: Step, envelope: bytes, deck: RoundDeck) -> None:
        if step.seat == self.seat:
            deck.seat.adopt(envelope)

    def _new_deck_seat(self, params: DeckParams) -> DeckSeat:
        return self.deck_seat_class(
            params,
            self.seat,
            self.identity,
            self.config.public_keys,
            self.entropy,
            eager=False,
            seed=self.seeds.get(params.round_no),
            quiet=self.restoring,
        )

    def _deck_opening(self, seat: DeckSeat) -> list[bytes]:
        return list(seat.start())


_PLAYING = (Phase.DRAW, Phase.PLAY, Phase.BUY, Phase.REVEAL)
"""The phases of a round being played: the next round's deck may be open."""


def _deck_due(due: DeckDue, round_no: int) -> Due:
    """The deck's next message as a `Due`, in words for players."""
    if due.kind == "commit":
        what = Phrase.of(N_("its sealed secret for round {round}'s shuffle"), round=round_no + 1)
        return Due(due.seat, DueKind.DECK_COMMIT, what)
    if due.kind == "shuffle":
        what = Phrase.of(
            N_("its shuffle ({number} of {count})"), number=due.number, count=due.count
        )
        return Due(due.seat, DueKind.SHUFFLE, what, left=due.count - due.number + 1)
    if due.kind == "shares":
        what = Phrase.of(N_("its part of the deal ({count} cards to go)"), count=due.count)
        return Due(due.seat, DueKind.SHARES, what, left=due.count)
    what = Phrase.of(N_("its secret for round {round} (to check the deal)"), round=round_no + 1)
    return Due(due.seat, DueKind.SEED, what)


class SignedBoth(CheatDetected):
    """A cheat proven by two messages one seat signed itself for one Køb! window (its
    seal, and an opening that does not open it): that seat's, whoever carried them (SPEC
    §4.7). Nobody else can make the pair: each is signed, and both name the window."""


def _proposers_fault(step: Step, error: ProtocolError) -> ProtocolError:
    """`error`, found while checking `step`, as its proposer's: whatever a step carries
    (another seat's old envelope included) is the proposer's to answer for. An error
    that names nobody (damage no signature stands behind) stays so, and so does a cheat
    the seat proved against itself (`SignedBoth`)."""
    if error.sender is None or error.sender == step.seat or isinstance(error, SignedBoth):
        return error
    kind = CheatDetected if isinstance(error, CheatDetected) else ProtocolError
    return kind(step.seat, error.reason, step.n if error.step is None else error.step)
