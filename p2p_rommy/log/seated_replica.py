"""The game as one seat holds it: the committed state plus this seat's secrets (its
round seeds, its hidden cards) and the steps it proposes.

A `Replica` (`log/replica.py`) checks and commits steps alike for a seat and for an
observer; a seat also proposes (its deck messages, its moves, a Køb! resolution, an
end), each built as another seat's step would be checked (its deck message taken on a
copy of the deck seat), verifies the shuffle proofs it took on trust before it takes
another seat's step, and replays its own transcript after a restart (`restore`, then
`wake`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from p2p_rommy.config import GameConfig
from p2p_rommy.deck import DeckParams, DeckSeat
from p2p_rommy.engine.apply import apply
from p2p_rommy.engine.due import Due, DueKind
from p2p_rommy.engine.moves import (
    Move,
    RevealHand,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.view import View
from p2p_rommy.log.buy_race import Race
from p2p_rommy.log.messages import (
    END_REASON_MAX,
    BuyStep,
    DeckStep,
    EndStep,
    MoveStep,
    Step,
)
from p2p_rommy.log.replica import Replica, shown_faces
from p2p_rommy.log.tentative import DeckAfter, RoundDeck, Tentative
from p2p_rommy.wire.identity import Entropy, Identity


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
        seat = deck.seat.fork()
        made = seat.receive(envelope)
        taken = DeckAfter(deck, seat, (envelope,), made, background=deck is self.next_deck)
        return self._own(step, deck=taken)

    def propose_move(self, move: Move) -> Step:
        """A player's move as a step; `IllegalMove` (nothing changes) if the rules refuse it."""
        after = apply(self.state, move)  # raises before anything is touched
        prev = self.state_hash()
        taken = self._reveal_for(self.seat, move)
        reveal = taken.entries[0] if taken is not None else None
        step = Step(self.game, self.n + 1, self.seat, prev, MoveStep(move, reveal))
        return self._own(step, after, deck=taken)

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
        end = (absent, body.reason)
        self.tentative = Tentative(
            step.n, self.seat, self.state, self._end_hash(step.n, body), "end", end=end
        )
        return step

    def _own(
        self,
        step: Step,
        after: GameState | None = None,
        claims: tuple[int, ...] = (),
        outcome: Race | None = None,
        deck: DeckAfter | None = None,
    ) -> Step:
        """This seat's own step, held as the step in flight (its deck messages taken on
        a copy of their deck, `deck`, as another seat's are when checked)."""
        if after is None:
            after = self.state
        self.tentative = Tentative(
            step.n,
            self.seat,
            after,
            self._hash_after(step.n, after, deck),
            step.kind,
            claims,
            outcome,
            deck,
        )
        return step

    def _reveal_for(self, seat: int, move: Move) -> DeckAfter | None:
        """The proof of the hidden cards `move` shows (`entries[0]`), made and taken on
        a copy of the round's deck seat; None when it shows none."""
        hidden = [slot for slot, _ in shown_faces(move) if self.state.faces[slot] is None]
        if not hidden:
            return None
        assert self.deck is not None
        copy = self.deck.seat.fork()
        (envelope,) = copy.reveal(seat, hidden)
        made = copy.receive(envelope)
        return DeckAfter(self.deck, copy, (envelope,), made)

    # --- validating a peer's step --------------------------------------------

    @property
    def deferred(self) -> bool:
        """A shuffle proof this seat shuffled on and has yet to verify (pipelining),
        in either open deck or in the step in flight's copy of one (`_deck_seats`; asked
        after every call into the peer, so read without building that list)."""
        deck, later, tentative = self.deck, self.next_deck, self.tentative
        return bool(
            (deck is not None and deck.seat.deferred)
            or (later is not None and later.seat.deferred)
            or (
                tentative is not None
                and tentative.deck is not None
                and tentative.deck.seat.deferred
            )
        )

    def _deck_seats(self) -> list[DeckSeat]:
        """The open decks' seats, then the step in flight's copy of one (it holds the
        proof of the shuffle it took, which this seat shuffles on before it commits)."""
        seats = [deck.seat for deck in self.open_decks]
        if self.tentative is not None and self.tentative.deck is not None:
            seats.append(self.tentative.deck.seat)
        return seats

    @property
    def open_decks(self) -> list[RoundDeck]:
        """The round's deck and the next round's, those that are open."""
        return [deck for deck in (self.deck, self.next_deck) if deck is not None]

    def check_deferred(self) -> None:
        """Verify it now (`CheatDetected` naming its shuffler if it fails)."""
        if not self.deferred:
            return  # nothing taken on trust (most steps): no list of seats to build
        verified: set[int] = set()
        for seat in self._deck_seats():
            # a copy holds the proofs its seat held when it was made: verified once
            seat.deferred = [proof for proof in seat.deferred if id(proof) not in verified]
            verified.update(id(proof) for proof in seat.deferred)
            seat.check_deferred()

    def wake(self) -> None:
        """The replay is over: from now on this seat makes its messages again."""
        self.restoring = False
        held = self.tentative.deck if self.tentative is not None else None
        for deck in self.open_decks:
            deck.outbox.clear()
            if held is not None and held.round is deck:
                deck.seat.quiet = False  # what it owes follows the step in flight
            else:
                deck.outbox.extend(deck.seat.wake())
        if held is not None:
            held.made[:] = held.seat.wake()

    def _before_another(self, step: Step) -> None:
        if step.seat != self.seat:
            self.check_deferred()  # a shuffle this seat shuffled on: its shuffler's fault

    def _adopt_own(self, step: Step, envelope: bytes, seat: DeckSeat) -> None:
        if step.seat == self.seat:
            seat.adopt(envelope)

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
