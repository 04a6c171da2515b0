"""Melds: sets and runs with jokers, lay-off and joker swap, validated.

Glossary (the rule documents' words):

- *set* — passer (lp), gruppe (Rummy), sæt (Rommé): 3–4 cards of one rank, suits
  all different (compared by suit, not by card id).
- *run* — løber (lp), sekvens (Rummy), række (Rommé): consecutive ranks in one
  suit, no wrap-around, the ace low (1) or, where allowed, high (14), never both.
- *placed card* — a card on the table with the rank it stands for. A natural
  card stands for its own rank (an ace for 1 or 14); a joker for whatever the
  player declared, which is stored, so nobody re-guesses it later.

A meld is checked whole every time it changes: laying off and swapping build the
new meld and check it with the same function as a fresh lay-down.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2p_rommy.cards import ACE, ACE_HIGH, JOKER_RANK, KING, Card, DeckComposition, rank_name
from p2p_rommy.errors import IllegalMove
from p2p_rommy.i18n import N_
from p2p_rommy.rules.variants import RuleSet


class MeldKind(enum.Enum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Placed:
    """A card put on the table: its slot, its face (card id) and the rank it stands for."""

    slot: int
    card: int
    rank: int


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table; a run's cards are kept from low to high."""

    kind: MeldKind
    owner: int
    cards: tuple[Placed, ...]

    @property
    def slots(self) -> tuple[int, ...]:
        return tuple(placed.slot for placed in self.cards)


def meld_name(kind: MeldKind, rules: RuleSet) -> str:
    return rules.run_name if kind is MeldKind.RUN else rules.set_name


def _natural_ranks(card: Card, rules: RuleSet) -> tuple[int, ...]:
    if card.rank == ACE:
        return (ACE, ACE_HIGH) if rules.ace_high else (ACE,)
    return (card.rank,)


def check_meld(
    kind: MeldKind, cards: Sequence[Placed], deck: DeckComposition, rules: RuleSet
) -> None:
    """Raise `IllegalMove` unless `cards` form a valid meld of `kind` under `rules`.

    Run cards must be given low to high.
    """
    name = meld_name(kind, rules)
    faces = [deck.card(placed.card) for placed in cards]
    naturals = [face for face in faces if not face.is_joker]
    jokers = len(faces) - len(naturals)
    if not naturals:
        raise IllegalMove(
            N_("a {meld} needs at least one natural card, not only jokers"), meld=name
        )
    if rules.jokers_not_more_than_naturals and jokers > len(naturals):
        raise IllegalMove(
            N_("a {meld} may not hold more jokers than natural cards (house rule)"), meld=name
        )
    if kind is MeldKind.SET:
        _check_set(cards, faces, naturals, name, rules)
    else:
        _check_run(cards, faces, naturals, name, rules)


def _check_set(
    cards: Sequence[Placed], faces: list[Card], naturals: list[Card], name: str, rules: RuleSet
) -> None:
    if len(cards) < rules.set_min:
        raise IllegalMove(
            N_("a {meld} needs at least {count} cards"), meld=name, count=rules.set_min
        )
    if len(cards) > rules.set_max:
        raise IllegalMove(
            N_("a {meld} has at most {count} cards, one of each suit"),
            meld=name,
            count=rules.set_max,
        )
    rank = naturals[0].rank
    if any(face.rank != rank for face in naturals):
        raise IllegalMove(N_("a {meld} is cards of one rank"), meld=name)
    suits = [face.suit for face in naturals]
    if len(set(suits)) != len(suits):
        raise IllegalMove(N_("a {meld} needs different suits; two cards share a suit"), meld=name)
    for placed, face in zip(cards, faces, strict=True):
        if placed.rank != rank:
            stands = N_("joker") if face.is_joker else face.notation()
            raise IllegalMove(
                N_("the {card} in a {meld} of {rank}s must stand for that rank"),
                card=stands,
                meld=name,
                rank=rank_name(rank),
            )


def _check_run(
    cards: Sequence[Placed], faces: list[Card], naturals: list[Card], name: str, rules: RuleSet
) -> None:
    if len(cards) < rules.run_min:
        raise IllegalMove(
            N_("a {meld} needs at least {count} cards"), meld=name, count=rules.run_min
        )
    if len(cards) > rules.run_max:
        raise IllegalMove(N_("a {meld} has at most {count} cards"), meld=name, count=rules.run_max)
    suit = naturals[0].suit
    if any(face.suit != suit for face in naturals):
        raise IllegalMove(N_("a {meld} is cards of one suit"), meld=name)
    top = ACE_HIGH if rules.ace_high else KING
    previous: Placed | None = None
    previous_joker = False
    for placed, face in zip(cards, faces, strict=True):
        if face.is_joker:
            if not ACE <= placed.rank <= top:
                raise IllegalMove(
                    N_("a joker cannot stand for rank {rank} in a {meld}"),
                    rank=placed.rank,
                    meld=name,
                )
            if previous_joker and rules.no_adjacent_jokers:
                raise IllegalMove(
                    N_("two jokers may not stand side by side in a {meld} (house rule)"),
                    meld=name,
                )
        elif placed.rank not in _natural_ranks(face, rules):
            if face.rank == ACE:
                raise IllegalMove(
                    N_("the ace is low in this game: a {meld} cannot go Q-K-A"), meld=name
                )
            raise IllegalMove(
                N_("{card} cannot stand for {rank}"),
                card=face.notation(),
                rank=rank_name(placed.rank),
            )
        if previous is not None and placed.rank != previous.rank + 1:
            raise IllegalMove(
                N_("a {meld} has no gaps and no wrap-around: {before} is not followed by {after}"),
                meld=name,
                before=rank_name(previous.rank),
                after=rank_name(placed.rank),
            )
        previous = placed
        previous_joker = face.is_joker


def normalized(kind: MeldKind, cards: Iterable[Placed]) -> tuple[Placed, ...]:
    """Cards in stored order: a run low to high, a set by slot."""
    if kind is MeldKind.RUN:
        return tuple(sorted(cards, key=lambda placed: (placed.rank, placed.slot)))
    return tuple(sorted(cards, key=lambda placed: placed.slot))


def lay_off(meld: Meld, placed: Placed, deck: DeckComposition, rules: RuleSet) -> Meld:
    """The meld with one more card, or `IllegalMove`.

    A run grows at either end only (rule docs: "forlenge en sekvens i begge ender");
    a set takes a missing suit while under its maximum.
    """
    name = meld_name(meld.kind, rules)
    if meld.kind is MeldKind.RUN:
        low, high = meld.cards[0].rank, meld.cards[-1].rank
        if placed.rank not in (low - 1, high + 1):
            raise IllegalMove(
                N_("a card laid off on a {meld} must extend it at one end ({ends})"),
                meld=name,
                ends=_end_names(low, high),
            )
    cards = normalized(meld.kind, (*meld.cards, placed))
    check_meld(meld.kind, cards, deck, rules)
    return Meld(meld.kind, meld.owner, cards)


def _end_names(low: int, high: int) -> str:
    below = rank_name(low - 1) if low > ACE else None
    above = rank_name(high + 1) if high < ACE_HIGH else None
    return "/".join(name for name in (below, above) if name) or N_("it is complete")


def swap_joker(
    meld: Meld, joker_slot: int, placed: Placed, deck: DeckComposition, rules: RuleSet
) -> Meld:
    """The meld with the joker in `joker_slot` replaced by `placed`, or `IllegalMove`.

    The card must be exactly what the joker stands for: in a run its rank and the
    run's suit; in a set its rank and a suit the set is missing.
    """
    position = next((i for i, c in enumerate(meld.cards) if c.slot == joker_slot), None)
    if position is None or not deck.card(meld.cards[position].card).is_joker:
        raise IllegalMove(N_("there is no joker in that place of the meld"))
    joker = meld.cards[position]
    card = deck.card(placed.card)
    if card.is_joker:
        raise IllegalMove(
            N_("a joker is swapped for the natural card it stands for, not another joker")
        )
    if placed.rank != joker.rank or joker.rank not in _natural_ranks(card, rules):
        raise IllegalMove(
            N_("that joker stands for {rank}, not {card}"),
            rank=rank_name(joker.rank),
            card=card.notation(),
        )
    cards = list(meld.cards)
    cards[position] = placed
    check_meld(meld.kind, normalized(meld.kind, cards), deck, rules)
    return Meld(meld.kind, meld.owner, normalized(meld.kind, cards))


def card_value(rank: int, rules: RuleSet) -> int:
    """What a placed card counts toward an opening (Rommé: ace 1 low, 11 otherwise)."""
    if rank == ACE_HIGH:
        return rules.points(ACE)
    if rank == ACE:
        return 1
    return rules.points(rank)


def opening_value(
    kind: MeldKind, cards: Sequence[Placed], deck: DeckComposition, rules: RuleSet
) -> int:
    """The points a meld counts toward a points opening (rule doc `romme`: "mindst 40 point").

    A joker counts as the card it stands for, unless the house rule says the 40
    must come from natural cards alone. An ace is 1 in a low run and 11 otherwise.
    """
    total = 0
    for placed in cards:
        if deck.card(placed.card).is_joker and rules.opening_naturals_only:
            continue
        if kind is MeldKind.SET and placed.rank == ACE:
            total += rules.points(ACE)
        else:
            total += card_value(placed.rank, rules)
    return total


def interpretations(
    cards: Sequence[tuple[int, int]], deck: DeckComposition, rules: RuleSet
) -> list[tuple[MeldKind, tuple[Placed, ...]]]:
    """Every valid way to read (slot, card id) pairs as one meld.

    More than one answer means the player must declare which (``7♠`` + 3 jokers
    is a set and several runs). Jokers are assigned in slot order.
    """
    faces = [(slot, card_id, deck.card(card_id)) for slot, card_id in cards]
    naturals = [(slot, cid, face) for slot, cid, face in faces if not face.is_joker]
    jokers = sorted((slot, cid) for slot, cid, face in faces if face.is_joker)
    found: list[tuple[MeldKind, tuple[Placed, ...]]] = []
    if not naturals:
        return found
    rank = naturals[0][2].rank
    if all(face.rank == rank for _, _, face in naturals):
        placed = [Placed(slot, cid, rank) for slot, cid, _ in naturals]
        placed += [Placed(slot, cid, rank) for slot, cid in jokers]
        candidate = normalized(MeldKind.SET, placed)
        if _valid(MeldKind.SET, candidate, deck, rules):
            found.append((MeldKind.SET, candidate))
    found.extend(_run_readings(naturals, jokers, deck, rules))
    return found


def _run_readings(
    naturals: list[tuple[int, int, Card]],
    jokers: list[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
) -> list[tuple[MeldKind, tuple[Placed, ...]]]:
    suit = naturals[0][2].suit
    if any(face.suit != suit for _, _, face in naturals):
        return []
    length = len(naturals) + len(jokers)
    top = ACE_HIGH if rules.ace_high else KING
    has_ace = any(face.rank == ACE for _, _, face in naturals)
    readings = []
    for ace_rank in (ACE, ACE_HIGH) if has_ace and rules.ace_high else (ACE,):
        ranks = {slot: (ace_rank if face.rank == ACE else face.rank) for slot, _, face in naturals}
        if len(set(ranks.values())) != len(ranks):
            continue
        low, high = min(ranks.values()), max(ranks.values())
        for start in range(max(ACE, high - length + 1), min(low, top - length + 1) + 1):
            free = sorted(set(range(start, start + length)) - set(ranks.values()))
            placed = [Placed(slot, cid, ranks[slot]) for slot, cid, _ in naturals]
            placed += [Placed(slot, cid, r) for (slot, cid), r in zip(jokers, free, strict=True)]
            candidate = normalized(MeldKind.RUN, placed)
            if _valid(MeldKind.RUN, candidate, deck, rules):
                readings.append((MeldKind.RUN, candidate))
    return readings


def _valid(kind: MeldKind, cards: Sequence[Placed], deck: DeckComposition, rules: RuleSet) -> bool:
    try:
        check_meld(kind, cards, deck, rules)
    except IllegalMove:
        return False
    return True


def joker_targets(meld: Meld, deck: DeckComposition, rules: RuleSet) -> list[int]:
    """Ranks a joker could be laid off as on `meld` (empty when it is full)."""
    if meld.kind is MeldKind.SET:
        ranks = [deck.card(p.card).rank for p in meld.cards if not deck.card(p.card).is_joker]
        return [ranks[0]] if len(meld.cards) < rules.set_max else []
    low, high = meld.cards[0].rank, meld.cards[-1].rank
    top = ACE_HIGH if rules.ace_high else KING
    if len(meld.cards) >= rules.run_max:
        return []
    return [r for r in (low - 1, high + 1) if ACE <= r <= top]


__all__ = [
    "JOKER_RANK",
    "Meld",
    "MeldKind",
    "Placed",
    "check_meld",
    "interpretations",
    "joker_targets",
    "lay_off",
    "normalized",
    "opening_value",
    "swap_joker",
]
