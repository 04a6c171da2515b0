"""The heuristic bot: plays each variant's real objective, from its own view only.

Every decision asks one question of `objective.Judge`: which hand is closer to
the goal? Before opening that is the cards still missing for the lp contract (by
the live copies left) or for Rommé's 40 points; after opening, and in rummy, the
points and cards not yet in a meld.

- **Draw**: take the discard when the best hand after it (and a discard) is
  closer than the stock promises; ``hard`` prices the stock by every live card.
- **Meld**: open as soon as the round allows, with every extra meld the hand has;
  once open, lay new melds (rummy: holds them until it can go out or another
  player is close to going out), lay off what fits and a joker no partial meld
  needs.
- **Discard**: the card whose loss costs least, avoiding a card the next player
  visibly collects (fits the table once they are open, or sits next to a card
  they took from the pile or bought); ``hard`` looks one draw ahead over the
  live cards.
- **Køb**: only when the card brings the opening closer; once open only when it
  would leave every card in a meld.

Levels: ``easy`` makes a person's mistakes (misses a good discard now and then,
throws a near-best card, melds everything at once, buys on impulse, keeps jokers,
forgets Rommé's 40 points before opening);
``normal`` plays the above soundly; ``hard`` adds the live-card weighting, the
look-ahead and, when an opponent is near going out, sheds points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_rommy.bots.objective import JOKER, MISSING, POINT, Judge, deck_faces
from p2p_rommy.cards import ACE, KING, composition
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
from p2p_rommy.limits import LOOKAHEAD_HANDS
from p2p_rommy.rules.finder import Candidate, best_laydown, candidate_melds, find_opening

LEVELS = ("easy", "normal", "hard")

IDLE_TAKES_MAX = 3


@dataclass(frozen=True, slots=True)
class Level:
    """What sets the levels apart."""

    use_outs: bool
    """Weigh a missing card by its live copies (not just whether any is left)."""
    lookahead: bool
    """Price the stock and each discard over every live card."""
    feed_penalty: float
    """Cost added to a discard the next player visibly collects."""
    mistakes: float
    """Chance of a person's slip: a near-best discard, a good discard passed over."""
    hold_melds: bool
    """Rummy: keep melds in hand until going out or threatened."""
    impulsive_buys: bool
    shed_when_threatened: bool
    reaction_s: tuple[float, float]
    """A person-like delay range before a Køb! call, for the buy-window timing (#25)."""
    points_blind: bool = False
    """Before Rommé's opening, judge the hand by melds and points left (a beginner's
    way), not by the distance to the 40 points."""
    buy_gain: float = 0.6
    """Køb before opening: how many missing cards' worth the buy must bring closer."""
    buy_hand_max: int = 16
    """No Køb with more cards in hand than this (each buy adds two)."""
    lookahead_discards: int = 3
    """Look-ahead: how many of the best discards are priced by the next draw."""
    throw_options: int = 1
    """Look-ahead: after a drawn card, how many of the hand's cheapest discards are
    tried (1: the one that was cheapest before the draw)."""


LEVEL_SETTINGS = {
    "easy": Level(False, False, 0.0, 0.3, False, True, False, (1.2, 2.6), points_blind=True),
    "normal": Level(False, False, 3.0, 0.0, False, False, False, (0.8, 1.8)),
    "hard": Level(
        True,
        True,
        4.0,
        0.0,
        True,
        False,
        True,
        (0.5, 1.2),
        lookahead_discards=4,
        throw_options=2,
    ),
}

THREAT_CARDS = 3
"""An opponent with this many cards or fewer may go out soon."""
DANGER = 1.5
"""``hard``: cost of a discard whose meld partners are all still live (scaled down
as they are seen), so that of two equal discards the dead card goes."""
BUYER_SHARE = 0.5
"""``hard``, lp: share of the feed cost for a discard another player (not the next)
visibly collects: they must call Køb! and pay a penalty card for it."""
SHED = 2.0
"""Once open and another player is close to going out: how much more a loose card's
points weigh (throw the king before the four)."""
JOKER_DISCARD = 60.0
OPENINGS_TRIED = 12
"""Openings compared before the first lay-down (40 cost a Rommé hand with jokers a
third of a second in the bench's --quick run)."""
TAKE_MARGIN = 2.5
"""How much closer the discard must bring the hand to be taken over a blind draw (a
taken card is public, and the stock may bring as much)."""


class HeuristicBot:
    def __init__(self, level: str = "normal", rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"bot levels are {', '.join(LEVELS)}")
        self.level = level
        self.settings = LEVEL_SETTINGS[level]
        self.rng = rng or random.Random(0)
        self._idle_takes = 0
        """Discards taken in a row without melding since: bots that only ever take the
        discard and throw another back can pass cards round the table for ever (seen in
        lp's last round, where no contract is met), so after `IDLE_TAKES_MAX` it draws."""
        self._swaps: tuple[int, int, int] = (-1, -1, 0)

    @property
    def reaction_s(self) -> tuple[float, float]:
        return self.settings.reaction_s

    # --- the two questions a player answers ---------------------------------------

    def choose(self, view: View) -> Move:
        moves = legal_moves(view)
        if not moves:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if view.state.phase is Phase.DRAW:
            move = self._draw(view, moves)
            if isinstance(move, TakeDiscard) and self._idle_takes >= IDLE_TAKES_MAX:
                move = next(m for m in moves if isinstance(m, DrawStock))
            self._idle_takes = self._idle_takes + 1 if isinstance(move, TakeDiscard) else 0
            return move
        move = self._play(view, moves)
        if isinstance(move, LayDown | LayOff | SwapJoker):
            self._idle_takes = 0
        return move

    def wants_buy(self, view: View) -> bool:
        state = view.state
        if state.offer is None:
            return False
        card = state.faces[state.offer]
        if card is None:
            return False
        hand = [c for _, c in view.hand()]
        judge = self._judge(view)
        if self.settings.impulsive_buys:
            return len(hand) <= 14 and _joins(judge, card, hand) >= 2
        if len(hand) > self.settings.buy_hand_max:
            return False
        if judge.mode == "out":
            # Open already: a buy costs two cards; only one that leaves every card
            # in a meld (so the next turn goes out) is worth it.
            return judge.cost([*hand, card]) <= 0.5
        before = judge.cost(hand)
        after = judge.cost([*hand, card]) + judge.point * 7  # the penalty card's points
        return after <= before - self.settings.buy_gain * MISSING

    # --- drawing ----------------------------------------------------------------

    def _draw(self, view: View, moves: Sequence[Move]) -> Move:
        state = view.state
        take = next((m for m in moves if isinstance(m, TakeDiscard)), None)
        draw = next(m for m in moves if isinstance(m, DrawStock))
        top = state.top_discard()
        card = None if top is None else state.faces[top]
        if take is None or card is None:
            return draw
        if deck_faces(state.rules.deck_size)[card] == JOKER:
            return take
        if self.settings.mistakes and self.rng.random() < self.settings.mistakes:
            return draw  # (before any costing: a slip needs none, and costs draw no chance)
        judge = self._judge(view)
        hand = [c for _, c in view.hand()]
        base = judge.cost(hand)
        held = [*hand, card]
        if not self.settings.lookahead:
            # Only whether some hand with the card is close enough counts: the first
            # found settles it (the judge, and its count of work, go with this call).
            limit = base - TAKE_MARGIN
            return take if any(_without(held, i, judge) < limit for i in range(len(hand))) else draw
        with_card = min(_without(held, i, judge) for i in range(len(hand)))
        stock = self._stock_value(judge, hand, base, judge.costed + LOOKAHEAD_HANDS)
        if stock is not None:
            return take if with_card < stock - 0.2 else draw
        return take if with_card < base - TAKE_MARGIN else draw

    def _stock_value(self, judge: Judge, hand: list[int], base: float, budget: int) -> float | None:
        """Expected cost after drawing an unseen card and throwing the best of the
        hand's `Level.throw_options` cheapest discards; None once the judge has costed
        `budget` hands in all (a count of work, so the same play on a busy machine)."""
        order = sorted(range(len(hand)), key=lambda i: _without(hand, i, judge))
        rests = [hand[:i] + hand[i + 1 :] for i in order[: self._breadth(judge)[1]]]
        gain = 0.0
        for face, share in judge.live_faces(hand if len(rests) > 1 else rests[0]):
            if judge.costed >= budget:
                return None
            card = judge.card_of[face]
            after = min(judge.cost([*rest, card]) for rest in rests)
            gain += share * max(0.0, base - after)
        return base - gain

    def _breadth(self, judge: Judge) -> tuple[int, int]:
        """(discards priced, throws tried after a draw) of the look-ahead: the level's
        in lp, where the contract makes one card's worth depend on the others; (3, 1)
        in rummy and Rommé, where that was enough for `hard` to beat `normal`."""
        if judge.rules.opening == "contract":
            return self.settings.lookahead_discards, self.settings.throw_options
        return 3, 1

    # --- melding and discarding -------------------------------------------------

    def _judge(self, view: View, out: bool = False) -> Judge:
        shed = 1.0
        opened = view.state.opened[view.seat] or view.state.rules.opening == "none"
        if self.settings.shed_when_threatened and (opened or out) and self._threatened(view):
            # Shedding points only pays once open: before, the high cards are the way
            # to the opening (Rommé's 40), and an unopened hand pays for all it holds.
            shed = SHED
        if self.settings.points_blind and view.state.rules.opening == "points":
            out = True
        return Judge(view, self.settings.use_outs, out, POINT, shed)

    def _threatened(self, view: View) -> bool:
        state = view.state
        return any(
            len(hand) <= THREAT_CARDS
            for seat, hand in enumerate(state.hands)
            if seat != view.seat and (state.opened[seat] or state.rules.opening == "none")
        )

    def _play(self, view: View, moves: Sequence[Move]) -> Move:
        hand = view.hand()
        lay_downs = [m for m in moves if isinstance(m, LayDown)]
        if lay_downs:
            choice = self._lay_down(view, hand, lay_downs)
            if choice is not None:
                return choice
        judge = self._judge(view)
        cards = [c for _, c in hand]
        if judge.mode == "out":
            swap = self._swap(view, moves, judge, cards)
            if swap is not None:
                return swap
            lay_off = self._lay_off(view, moves, judge, cards)
            if lay_off is not None:
                return lay_off
        discards = [m for m in moves if isinstance(m, Discard)]
        if not discards:
            return moves[0]
        return self._discard(view, judge, cards, discards)

    def _lay_down(
        self, view: View, hand: list[tuple[int, int]], offered: list[LayDown]
    ) -> LayDown | None:
        state = view.state
        rules = state.rules
        deck = composition(rules.deck_size)
        seat = view.seat
        candidates = candidate_melds(hand, deck, rules)
        out = Judge(view, self.settings.use_outs, out_mode=True)
        if not state.opened[seat] and rules.opening != "none":
            openings = find_opening(
                candidates, deck, rules, state.round_index, limit=OPENINGS_TRIED
            )
            best: tuple[float, LayDown] | None = None
            for opening in openings:
                used = set().union(*(c.slots for c in opening))
                rest = [(s, c) for s, c in hand if s not in used]
                extra, _ = best_laydown(candidate_melds(rest, deck, rules), rest, deck, rules, 400)
                for melds in ((*opening, *extra), opening):
                    move = _lay(seat, melds)
                    if move in offered or _legal(view, move):
                        taken = set().union(*(c.slots for c in melds))
                        left = out.cost([c for s, c in hand if s not in taken])
                        if best is None or left < best[0]:
                            best = (left, move)
                        break
            return best[1] if best is not None else offered[0]
        choice, _ = best_laydown(candidates, hand, deck, rules, 400)
        if not choice:
            return None
        if (
            rules.opening == "none"
            and self.settings.hold_melds
            and not self._lay_now(view, hand, choice, out)
        ):
            return None
        for candidate in choice:
            move = _lay(seat, (candidate,))
            if move in offered or _legal(view, move):
                return move
        return None

    def _lay_now(
        self, view: View, hand: list[tuple[int, int]], choice: Sequence[Candidate], out: Judge
    ) -> bool:
        """Rummy: lay melds only to go out now, or when someone may go out soon (cards
        held in hand count for the winner; melds on the table hand out lay-off spots)."""
        used = set().union(*(c.slots for c in choice))
        loose = [c for s, c in hand if s not in used and not out.fits_table(c)]
        if len(loose) <= 1:
            return True
        state = view.state
        return self._threatened(view) or len(state.stock) < 2 * state.players

    def _swap(
        self, view: View, moves: Sequence[Move], judge: Judge, cards: list[int]
    ) -> Move | None:
        if self.level == "easy":
            return None
        state = view.state
        turn = (state.round_index, len(state.discard) + len(state.retired), view.seat)
        count = self._swaps[2] if self._swaps[:2] == turn[:2] else 0
        if count >= 2:
            return None
        before = judge.cost(cards)
        for swap in (m for m in moves if isinstance(m, SwapJoker)):
            joker = next(p for p in state.melds[swap.meld].cards if p.slot == swap.joker_slot)
            after = [c for c in cards if c != swap.card.card] + [joker.card]
            if judge.cost(after) < before - 0.1:
                self._swaps = (turn[0], turn[1], count + 1)
                return swap
        return None

    def _lay_off(
        self, view: View, moves: Sequence[Move], judge: Judge, cards: list[int]
    ) -> Move | None:
        """The lay-off that leaves the best hand, judged on the table after it (so a
        card that opens the way for the next one, 8♥ before 9♥, counts)."""
        lay_offs = [m for m in moves if isinstance(m, LayOff)]
        if not lay_offs:
            return None
        before = judge.cost(cards)
        best: tuple[float, LayOff] | None = None
        for move in lay_offs:
            card = move.card.card
            is_joker = judge.faces[card] == JOKER
            if is_joker and self.level == "easy" and len(cards) > 2:
                continue
            after = self._after(view, move, [c for c in cards if c != card])
            if after <= before + 1e-9:
                key = after - (0 if is_joker else judge.points(card) / 100)
                if best is None or key < best[0]:
                    best = (key, move)
        return best[1] if best is not None else None

    def _after(self, view: View, move: LayOff, rest: list[int]) -> float:
        from p2p_rommy.engine.apply import apply

        state = apply(view.state, move)
        private = {s: c for s, c in view.private.items() if s != move.card.slot}
        return Judge(View(state, view.seat, private), self.settings.use_outs).cost(rest)

    def _discard(
        self, view: View, judge: Judge, cards: list[int], discards: list[Discard]
    ) -> Discard:
        state = view.state
        nxt = state.next_seat(view.seat)
        feeds = self._feeds(view, judge, nxt)
        buyers = [
            self._feeds(view, judge, seat)
            for seat in range(state.players)
            if self.settings.use_outs
            and state.rules.buying
            and seat not in (view.seat, nxt)
            and (not state.opened[seat] or state.rules.open_players_may_buy)
        ]
        scored: list[tuple[float, Discard]] = []
        for move in discards:
            rest = [c for c in cards if c != move.card]
            value = judge.cost(rest) + self.rng.random() * 0.01
            if judge.faces[move.card] == JOKER and len(cards) > 1:
                value += JOKER_DISCARD
            if self.settings.feed_penalty and feeds(move.card):
                value += self.settings.feed_penalty
            elif any(buys(move.card) for buys in buyers):
                value += self.settings.feed_penalty * BUYER_SHARE
            elif self.settings.use_outs:
                value += DANGER * self._danger(judge, move.card)
            scored.append((value, move))
        scored.sort(key=lambda pair: pair[0])
        if self.settings.mistakes and self.rng.random() < self.settings.mistakes:
            near = [m for v, m in scored[:3] if v < scored[0][0] + MISSING]
            return self.rng.choice(near)
        if self.settings.lookahead and len(scored) > 1:
            return self._look_ahead(judge, cards, scored)
        return scored[0][1]

    def _look_ahead(
        self, judge: Judge, cards: list[int], scored: list[tuple[float, Discard]]
    ) -> Discard:
        """Of the few best discards, the one whose hand the next draw helps most."""
        budget = judge.costed + LOOKAHEAD_HANDS
        best = scored[0]
        best_value = float("inf")
        for value, move in scored[: self._breadth(judge)[0]]:
            if value > scored[0][0] + MISSING * 0.5:
                break
            rest = list(cards)
            rest.remove(move.card)
            expected = self._stock_value(judge, rest, judge.cost(rest), budget)
            if expected is None:
                break  # out of budget: this one is not compared
            total = expected + (value - judge.cost(rest))  # keep the feed penalty
            if total < best_value:
                best, best_value = (value, move), total
        return best[1]

    @staticmethod
    def _danger(judge: Judge, card: int) -> float:
        """Share of the cards that could sit next to this one in a meld that are still
        live (unseen): a card whose partners are on the table or in the pile helps
        nobody, whoever holds what."""
        face = judge.faces[card]
        if face == JOKER:
            return 1.0
        rank, suit = face % 16, face // 16
        partners = [rank + 16 * s for s in range(4) if s != suit]
        partners += [
            r + 16 * suit for r in (rank - 2, rank - 1, rank + 1, rank + 2) if ACE <= r <= KING
        ]
        copies = judge.faces.count(face)
        live = sum(judge.outs(f) for f in partners)
        return live / (copies * len(partners))

    def _feeds(self, view: View, judge: Judge, nxt: int) -> Callable[[int], bool]:
        """Whether the player at `nxt` visibly collects a card: it fits the table once
        they are open, or sits next to a card they took from the pile or bought."""
        state = view.state
        known = [f for f in (state.faces[s] for s in state.hands[nxt]) if f is not None]
        known_faces = [judge.faces[c] for c in known if judge.faces[c] != JOKER]
        lays_off = bool(state.opened[nxt]) or state.rules.opening == "none"

        def feeds(card: int) -> bool:
            face = judge.faces[card]
            if face == JOKER:
                return True
            if lays_off and judge.fits_table(card):
                return True
            rank, suit = face % 16, face // 16
            return any(
                (other % 16 == rank and other != face)
                or (other // 16 == suit and 0 < abs(other % 16 - rank) <= 2)
                for other in known_faces
            )

        return feeds


def _without(cards: list[int], index: int, judge: Judge) -> float:
    return judge.cost(cards[:index] + cards[index + 1 :])


def _joins(judge: Judge, card: int, hand: Sequence[int]) -> int:
    """How many cards of `hand` this card would sit next to in a set or a run."""
    face = judge.faces[card]
    if face == JOKER:
        return 3
    count = 0
    for other_id in hand:
        other = judge.faces[other_id]
        if (
            other == JOKER
            or (other % 16 == face % 16 and other != face)
            or (other // 16 == face // 16 and 0 < abs(other % 16 - face % 16) <= 2)
        ):
            count += 1
    return count


def _lay(seat: int, melds: Sequence[Candidate]) -> LayDown:
    return LayDown(seat, tuple(NewMeld(c.kind, c.cards) for c in melds))


def _legal(view: View, move: Move) -> bool:
    from p2p_rommy.engine.apply import apply
    from p2p_rommy.errors import IllegalMove

    try:
        apply(view.state, move)
    except IllegalMove:
        return False
    return True
