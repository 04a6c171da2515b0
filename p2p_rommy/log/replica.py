"""One peer's replica of a game: the committed engine state and the rounds' decks,
and the checks every step passes.

Theory of operation (protocol/SPEC.md §4):

- Everything that changes the game is a *step* with exactly one proposer, known
  from the committed state (`expected_proposer`): the next deck message's sender
  while the deck protocol has work; else the seat in turn; in a buy window the
  sequencer (the seat in turn, which declined the card and cannot claim it); at
  round end the seats still to show their hands, then to reveal their seeds.
- A step is checked against the committed state (`check`, pure: a deck message is
  taken on a copy of its deck seat), which yields the `Tentative` it leads to and
  the state hash after it; `validate` holds it as the step in flight, the peer ACKs
  that hash and `commit`s once every seat ACKed the same one, and only the commit
  applies it. Nothing is shown or acted on before commit.
- What follows from a commit without anyone choosing is derived, identically on
  every peer (`log/round_decks.py`), and so is the next round's deck, shuffled in the
  background (SPEC §3.3, since v6).

One concept per module: the decks (`RoundDecks`), the Køb! checks (`BuyChecks`,
`log/buy_checks.py`), ends (`EndChecks`, `log/end_checks.py`) and committed records
(`Certificates`, `log/certificates.py`) are mixins of `Replica`; a seat's own part is
`SeatedReplica` (`log/seated_replica.py`). The replica does no I/O; the only
randomness is the deck seat's `entropy`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass

from p2p_rommy.config import GameConfig
from p2p_rommy.deck import AuditReport, DeckSeat
from p2p_rommy.deck.seat import DeckDue
from p2p_rommy.engine.apply import apply, new_game
from p2p_rommy.engine.due import Due, rules_due
from p2p_rommy.engine.encoding import state_hash
from p2p_rommy.engine.moves import (
    Discard,
    LayDown,
    LayOff,
    Move,
    RevealHand,
    SwapJoker,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.errors import CheatDetected, IllegalMove, ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.buy_checks import BuyChecks, SignedBoth
from p2p_rommy.log.buy_race import Race
from p2p_rommy.log.buy_window import OpenWindow
from p2p_rommy.log.certificates import Certificates
from p2p_rommy.log.end_checks import EndChecks
from p2p_rommy.log.messages import (
    BuyAnswer,
    BuySeal,
    DeckStep,
    EndStep,
    MoveStep,
    Step,
)
from p2p_rommy.log.round_decks import RoundDecks, deck_due
from p2p_rommy.log.tentative import STATE_DOMAIN, DeckAfter, RoundDeck, Tentative
from p2p_rommy.wire.identity import Opened, key_id, open_envelope, roster_of


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


class Replica(RoundDecks, BuyChecks, EndChecks, Certificates):
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
        self._signers = [(key_id(public), public) for public in config.public_keys]
        self.state = new_game(config.rules, config.players, config.first_dealer)
        self.n = 0
        self.deck: RoundDeck | None = None
        """The deck of the round being played (or dealt, or audited)."""
        self.next_deck: RoundDeck | None = None
        """The next round's deck, shuffled in the background (SPEC §3.3, since v6)."""
        self._background = False
        """A move or buy step committed since the last background deck step: a step
        of `next_deck` is due before the next move (SPEC §4.4, "Proposer")."""
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
        self._ahead: dict[bytes, tuple[Opened, BuyAnswer | BuySeal]] = {}
        """Answers and seals for the window the next step may open, as `open_message`
        opened them: they move into that window when it opens (`OPENED_ANSWERS_KEPT`)."""
        self._end_hashes: tuple[int, GameState, dict[bytes, tuple[int, ...]]] | None = None
        self._overturn_hashes: tuple[int, GameState, dict[bytes, tuple[int, ...]]] | None = None
        self._before: tuple[GameState, bytes] | None = None
        self._engine_hashes: list[tuple[GameState, bytes]] = []
        """The last two engine states hashed and their hashes (`_state_digest`)."""
        self._hashed: list[tuple[int, GameState, bytes, bytes, bytes]] = []
        """The last two `_hash_after` answers with their inputs (n, the state, both deck
        contexts): a step's hash worked out when it was checked is asked again for the
        committed state once it commits, the same inputs most of the time."""
        self._said: _Said | None = None
        """What the committed state says, each part once asked (`_memo`)."""
        self._settle()
        self.committed_hash = self.state_hash()
        """The committed state's hash (what the next step's `prev` holds), kept from the
        commit (a step in flight changes only its own copy of a deck, so `state_hash()`
        says the same until the next commit)."""

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
        said = self._memo()
        if said.hash is None:
            said.hash = self._hash_after(self.n, self.state, None)
        return said.hash

    def _hash_after(self, n: int, state: GameState, deck: DeckAfter | None) -> bytes:
        """`state_hash` as it would be after a step `n` that leads to `state` and moves
        `deck` on (nothing is changed to compute it). Never an end's hash (`_end_hash`):
        the two hash inputs of different lengths (two 32-byte deck contexts after the
        engine state's digest, against ``ended`` and the seats left out), so an ACK that
        carries this one is known as no end's without working those out."""
        current = self.deck.seat.context if self.deck is not None else b""
        later = self.next_deck.seat.context if self.next_deck is not None else b""
        if deck is not None:
            if deck.background:
                later = deck.seat.context
            else:
                current = deck.seat.context
        kept = self._hashed
        for hashed in kept:
            if (
                hashed[1] is state
                and hashed[0] == n
                and hashed[2] == current
                and hashed[3] == later
            ):
                return hashed[4]
        digest = hashlib.sha256(
            STATE_DOMAIN
            + self.game
            + n.to_bytes(8, "big")
            + self._state_digest(state)
            + current.ljust(32, b"\0")
            + later.ljust(32, b"\0")
        ).digest()
        self._hashed = (
            [kept[-1], (n, state, current, later, digest)]
            if kept
            else [(n, state, current, later, digest)]
        )
        return digest

    def _state_digest(self, state: GameState | None = None) -> bytes:
        """`state_hash(state)` (the committed state's by default), encoded once per state:
        a state is a frozen value, and one commit asks for it several times (the step's
        own hash, the next step's `prev`, each seat's end hash, every ACK's check). A
        memo, not state: it changes no answer."""
        if state is None:
            state = self.state
        kept = self._engine_hashes
        for hashed, digest in kept:
            if hashed is state:
                return digest
        digest = state_hash(state)
        # two: a step's state after (validate) and the committed one before it (ACKs of
        # an end, the next `prev`) are both asked for until the step commits
        self._engine_hashes = [kept[-1], (state, digest)] if kept else [(state, digest)]
        return digest

    def _memo(self) -> _Said:
        """What the committed state says (its hash, what is due), each part worked out
        once: every call into a peer, each ACK and each tick asks, and only a commit
        changes the answers (the decks' seats change in place only inside `commit`,
        which forgets them). A memo, not state: it changes no answer (a test that sets
        `state` or a deck has them worked out again)."""
        said = self._said
        if (
            said is None
            or said.state is not self.state
            or said.deck is not self.deck
            or said.next_deck is not self.next_deck
        ):
            said = self._said = _Said(self.state, self.deck, self.next_deck)
        return said

    def _due_deck(self) -> tuple[RoundDeck, DeckDue] | None:
        """`RoundDecks._due_deck`, worked out once per committed state (`_memo`)."""
        said = self._memo()
        if not said.target_known:
            said.target, said.target_known = super()._due_deck(), True
        return said.target

    def due(self) -> Due | None:
        """Who must propose the next step, which kind, in words for people; None when
        the game is over (or the table waits on nobody's step: a deck between rounds).
        The one answer to "what is due": the peer, stall reports and the client read it."""
        said = self._memo()
        if not said.due_known:
            said.due, said.due_known = self._work_out_due(), True
        return said.due

    def _work_out_due(self) -> Due | None:
        if self.ended is not None:
            return None
        target = self._due_deck()
        if target is not None:
            deck, due = target
            return deck_due(due, deck.seat.params.round_no)
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

    def validate(self, step: Step) -> Tentative:
        """`check` a proposed step and hold it as the step in flight (`tentative`), ready
        to `commit`; `ProtocolError` if it is bad. A seat first settles what it owes
        before another seat's step (its deferred proofs); once the step checks, its deck
        seat's copy makes what this seat sends next (`DeckAfter.made`: its shuffle starts
        while the others still check the one before, SPEC §3.3)."""
        if not isinstance(step.body, EndStep):
            self._check_header(step)
            self._before_another(step)
        tentative = self.check(step)
        self.tentative = tentative
        if tentative.deck is not None:
            tentative.deck.made.extend(tentative.deck.seat.advance())
        return tentative

    def check(self, step: Step) -> Tentative:
        """Check a proposed step against the committed state and return what it leads to;
        raise `ProtocolError` if it is bad. Pure: nothing of the replica or its decks
        changes (a deck message is taken on a copy of its deck seat, `DeckAfter`); only
        `commit` applies the result."""
        if isinstance(step.body, EndStep):
            self._check_header(step)
            return self.check_end(step, step.body)
        self._check_header(step)
        sender = step.seat
        body = step.body
        claims: tuple[int, ...] = ()
        race: Race | None = None
        deck: DeckAfter | None = None
        try:
            if isinstance(body, DeckStep):
                after, deck = self.state, self._check_deck(step, body)
            elif isinstance(body, MoveStep):
                after, deck = self._check_move(step, body)
            else:
                after, claims, race = self._check_buy(step, body)
        except ProtocolError as error:
            raise _proposers_fault(step, error) from None
        return Tentative(
            step.n,
            sender,
            after,
            self._hash_after(step.n, after, deck),
            step.kind,
            claims,
            race,
            deck,
        )

    def _check_header(self, step: Step) -> None:
        """What every step must be: for this game, the next number; and, but for an end,
        built on the committed state by the one seat whose step is due."""
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
            return
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

    def _check_deck(self, step: Step, body: DeckStep) -> DeckAfter:
        envelope = body.envelope
        if self.deck is None and self.next_deck is None:
            raise ProtocolError(step.seat, N_("no deck protocol is running"), step.n)
        target = self._due_deck()
        if target is None:
            raise ProtocolError(step.seat, N_("no deck message is due now"), step.n)
        deck = target[0]
        opened = self._embedded(step, envelope, N_("the deck message"))
        seat = deck.seat.fork()
        self._adopt_own(step, envelope, seat)
        seat.take(envelope, opened)
        return DeckAfter(deck, seat, (envelope,), background=deck is self.next_deck)

    def _check_move(self, step: Step, body: MoveStep) -> tuple[GameState, DeckAfter | None]:
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
        if not hidden or not isinstance(reveal, bytes):
            return after, None
        assert self.deck is not None
        opened_reveal = self._embedded(step, reveal, N_("the move's reveal"))
        seat = self.deck.seat.fork()
        try:
            seat.reveal(step.seat, hidden)
        except ValueError as error:
            raise CheatDetected(
                step.seat, N_("cannot show that card: {error}").format(error=error), step.n
            ) from None
        self._adopt_own(step, reveal, seat)
        seat.take(reveal, opened_reveal)
        for slot in hidden:
            if seat.public.get(slot) != faces[slot]:
                raise CheatDetected(
                    step.seat,
                    N_("the card in slot {slot} is not the one claimed").format(slot=slot),
                    step.n,
                )
        return after, DeckAfter(self.deck, seat, (reveal,))

    def _adopt_own(self, step: Step, envelope: bytes, seat: DeckSeat) -> None:
        """A seat's own deck message coming back from its log after a restart (an
        observer has none), taken by `seat` (the copy the step is checked on)."""

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

    # --- committing -----------------------------------------------------------

    def commit(self) -> None:
        """Make the validated step part of the game, then derive what follows."""
        if self.tentative is None:
            raise ValueError("nothing to commit")
        self._said = None
        try:
            self._commit(self.tentative)
        except BaseException:
            self._said = None  # the decks' seats may have changed in place
            raise

    def overturn(self, step: Step, body: EndStep) -> Tentative:
        """Take back the step committed last and hold `step`, an end for its number, as
        the step in flight instead, to `commit` (SPEC §4.4 "An end outranks the last
        step of the seat it leaves out"); `ProtocolError` if it may not. The end leaves
        the engine state as it was before that step; what the step did to a deck stays
        (nothing builds on an end)."""
        tentative = self.check_overturn(step, body)
        before = self._before
        assert before is not None
        self.state, self.committed_hash = before
        self.n = step.n - 1
        self._before = None
        self._said = None
        self.tentative = tentative
        return tentative

    def _commit(self, tentative: Tentative) -> None:
        before = self.state
        self.state = tentative.state
        self.n = tentative.n
        self.tentative = None
        if tentative.end is not None:
            self.ended = tentative.end
            self._before = None
            return
        self._before = (before, self.committed_hash)
        taken = tentative.deck
        if taken is not None:  # the deck seat that took the step's messages is the deck's now
            deck = taken.round
            deck.seat = taken.seat
            deck.log.extend(taken.entries)
            deck.steps.extend([tentative.n] * len(taken.entries))
            deck.outbox.extend(taken.made)
        if tentative.kind == "buy":
            self.last_claims = tentative.claims
            self.last_race = tentative.race
        if tentative.kind == "move" or tentative.kind == "buy":
            self._background = True
            self._after_move(before)
        elif taken is not None and taken.background:
            self._background = False
        if self.state.phase is not Phase.BUY:
            if self.window is not None:
                self.last_window = self.window.number
            self.window = None  # closed: its number, seats and answers go with it
        elif before.phase is not Phase.BUY:
            self._open_window()
        self._settle()
        self._said = None  # the decks' seats changed in place
        self.committed_hash = self.state_hash()
        if self._ahead:  # only the window the next step may open is ahead now
            self._ahead = {
                raw: kept for raw, kept in self._ahead.items() if kept[1].window > self.n
            }


@dataclass(slots=True)
class _Said:
    """What one committed state says (`Replica._memo`), each part once asked: the state
    hash, the deck whose message is next (`target`) and what is due."""

    state: GameState
    deck: RoundDeck | None
    next_deck: RoundDeck | None
    hash: bytes | None = None
    target: tuple[RoundDeck, DeckDue] | None = None
    target_known: bool = False
    due: Due | None = None
    due_known: bool = False


class Observer(Replica):
    """A replica that holds no seat and no secret: it checks every step and every ACK
    as a seat would and proposes nothing (`rommy verify`, `rommy replay`)."""


def _proposers_fault(step: Step, error: ProtocolError) -> ProtocolError:
    """`error`, found while checking `step`, as its proposer's: whatever a step carries
    (another seat's old envelope included) is the proposer's to answer for. An error
    that names nobody (damage no signature stands behind) stays so, and so does a cheat
    the seat proved against itself (`SignedBoth`)."""
    if error.sender is None or error.sender == step.seat or isinstance(error, SignedBoth):
        return error
    kind = CheatDetected if isinstance(error, CheatDetected) else ProtocolError
    return kind(step.seat, error.reason, step.n if error.step is None else error.step)
