"""The decks of a replica's rounds: which deck's message is due, and what a commit
implies for them without anyone choosing (SPEC §4.4, "Derived transitions").

Identically on every peer: the deal's upcard starts the round in the engine; a hidden
card moved into a hand becomes a deck task for its new owner; a reshuffled stock
becomes a new shuffle pass; the end of a round asks for seeds, then audits the round
and starts the next deck. Two decks at once (SPEC §3.3, since v6): once a round's
deal is in, the next round's deck opens and runs in the background. A concept of its
own beside the checks of a step (`log/replica.py`): it reads only the committed state.
"""

from __future__ import annotations

import functools

from p2p_rommy.config import GameConfig
from p2p_rommy.deck import ALL, AuditReport, DeckParams, DeckPhase, DeckSeat, audit_round
from p2p_rommy.deck.derive import SEED_BYTES
from p2p_rommy.deck.seat import DeckDue, LateProof
from p2p_rommy.engine.apply import apply, deal_layout, upcard_slot
from p2p_rommy.engine.due import Due, DueKind
from p2p_rommy.engine.moves import (
    StartRound,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.errors import CheatDetected
from p2p_rommy.i18n import N_, Phrase
from p2p_rommy.log.tentative import RoundDeck

_MATCH_OVER, _ROUND_START = Phase.MATCH_OVER, Phase.ROUND_START
_COMMIT, _RUNNING, _DONE = DeckPhase.COMMIT, DeckPhase.RUNNING, DeckPhase.DONE
"""The phases the log tests at every step, looked up once: an enum member read through
its class costs ~0.3 µs in CPython 3.11, and `_due_deck` runs ~25 times a step."""


class RoundDecks:
    """The round's deck and the next round's, driven by the committed state (a mixin of
    `Replica`; see the module docstring)."""

    config: GameConfig
    game: bytes
    state: GameState
    ended: tuple[tuple[int, ...], str] | None
    deck: RoundDeck | None
    next_deck: RoundDeck | None
    unaudited: RoundDeck | None
    audits: list[tuple[int, AuditReport]]
    _background: bool
    deck_seat_class: type[DeckSeat]
    replay_proofs: bool
    audit_later: bool

    def _due_deck(self) -> tuple[RoundDeck, DeckDue] | None:
        """The deck whose message is the next step, and what it is; None when the next
        step is no deck message (SPEC §4.4, "Proposer"): a round's own deck work first;
        a step of the next round's deck after each committed move or buy step; at a
        round's end the next round's commits before this round's seeds."""
        if self.ended is not None:
            return None
        deck = self.deck
        later = self.next_deck if self.state.phase is not _MATCH_OVER else None
        round_over = deck is not None and self._round_over()
        if later is not None and round_over and later.seat.phase is _COMMIT:
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
        return phase is _MATCH_OVER or (phase is _ROUND_START and finished_here)

    def _settle(self) -> None:
        """Apply what follows from the committed state by itself, on every peer alike."""
        while True:
            deck = self.deck
            if deck is None or (deck.seat.phase is _DONE):
                if deck is not None:
                    self.audit_pending()  # rounds are audited in order
                    self.deck = None
                    if self.audit_later and self.state.phase is _ROUND_START:
                        self.unaudited = deck  # off the next deal's critical path
                    else:
                        self._audit(deck)
                if self.state.phase is _MATCH_OVER and self.next_deck is not None:
                    self._drop_next()
                if self.state.phase is _ROUND_START:
                    self._start_deck()
                    continue
                return
            if (
                self.state.phase is _ROUND_START
                and not self._round_over()
                and deck.seat.idle
                and not deck.dealt
            ):
                deck.dealt = True
                upcard = upcard_slot(self.state.rules, self.config.players)
                self.state = apply(self.state, StartRound(deck.seat.public[upcard]))
                continue
            if self._round_over() and deck.seat.phase is _RUNNING and deck.seat.idle:
                deck.outbox.extend(deck.seat.finish())
                continue
            if deck.dealt and self.next_deck is None and self._next_round_may_come():
                self._open_next(deck.seat.params)
                continue
            return

    def _next_round_may_come(self) -> bool:
        """The round is being played and another may follow it (not the last of a
        fixed number of rounds; a match to a target score may end, SPEC §3.3)."""
        rounds = self.state.rules.rounds
        playing = self.state.phase in _PLAYING
        return playing and (rounds is None or self.state.round_index + 1 < rounds)

    def _params(self, round_no: int, dealer: int) -> DeckParams:
        rules, players = self.state.rules, self.config.players
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
        rules, players = self.state.rules, self.config.players
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
        """An observer's deck seat: it checks every message and makes none, so it
        commits to no seed of its own and reads no randomness (a replay and a
        simulated game are functions of their inputs)."""
        unused = bytes(SEED_BYTES)
        return self.deck_seat_class(
            params,
            -1,
            None,
            self.config.public_keys,
            eager=False,
            seed=unused,
            replay_proofs=self.replay_proofs,
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


_PLAYING = (Phase.DRAW, Phase.PLAY, Phase.BUY, Phase.REVEAL)
"""The phases of a round being played: the next round's deck may be open."""


@functools.lru_cache(maxsize=64)
def deck_due(due: DeckDue, round_no: int) -> Due:
    """The deck's next message as a `Due`, in words for players (frozen values, made
    once for each: the log asks for the one due many times a step, issue #31)."""
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
