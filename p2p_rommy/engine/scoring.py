"""Round scores, match end and the final standing, per the variant's data.

- ``penalty`` (lp, Rommé): everyone but the closer writes down their hand; lowest
  total wins. Rommé doubles an opponent's count after a hand-rommé and, as an
  option, a never-melded hand; both stack (rule doc `romme`, "Pointgivning").
- ``winner_takes`` (Rummy): the round winner scores the sum of the others' hands;
  the first to reach the target wins (rule doc `rummy`, "Poeng for kortene").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from p2p_rommy.cards import DeckComposition
from p2p_rommy.rules.variants import RuleSet


def hand_points(cards: Sequence[int], deck: DeckComposition, rules: RuleSet) -> int:
    """What the cards (ids) left in a hand count."""
    return sum(rules.points(deck.card(card).rank) for card in cards)


def round_scores(
    rules: RuleSet,
    hand_totals: Sequence[int],
    opened: Sequence[bool],
    closer: int | None,
    closer_at_once: bool,
) -> tuple[int, ...]:
    """Each seat's score for the round, from the counts of their hands."""
    if rules.scoring == "winner_takes":
        if closer is None:
            # A stalled round has no winner to collect: nobody scores (docs/rules.md).
            return tuple(0 for _ in hand_totals)
        won = sum(total for seat, total in enumerate(hand_totals) if seat != closer)
        if closer_at_once and rules.going_out_at_once_doubles:
            won *= 2
        return tuple(won if seat == closer else 0 for seat in range(len(hand_totals)))
    scores = []
    for seat, total in enumerate(hand_totals):
        if seat == closer:
            scores.append(-rules.winner_bonus)
            continue
        factor = 1
        if closer is not None and closer_at_once and rules.hand_romme_doubles:
            factor *= 2
        if rules.never_melded_doubles and not opened[seat]:
            factor *= 2
        scores.append(total * factor)
    return tuple(scores)


def match_over(rules: RuleSet, rounds_played: int, totals: Sequence[int]) -> bool:
    """Whether the match ends after `rounds_played` rounds with these totals."""
    if rules.rounds is not None and rounds_played >= rules.rounds:
        return True
    return rules.target_score is not None and any(t >= rules.target_score for t in totals)


def standings(
    rules: RuleSet, totals: Sequence[int], forfeited: Collection[int] = ()
) -> list[tuple[int, int]]:
    """(place, seat) from first to last; equal totals share a place. A seat that
    forfeited (left and was ended out of the game by the others) comes after every
    seat that stayed, whatever its score: leaving must not keep a lead."""
    sign = -1 if rules.scoring == "winner_takes" else 1
    order = sorted(
        range(len(totals)), key=lambda seat: (seat in forfeited, sign * totals[seat], seat)
    )
    result: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        previous = order[index - 1] if index > 0 else None
        tied = (
            previous is not None
            and totals[seat] == totals[previous]
            and (seat in forfeited) == (previous in forfeited)
        )
        place = result[-1][0] if tied else index + 1
        result.append((place, seat))
    return result


def winners(rules: RuleSet, totals: Sequence[int]) -> list[int]:
    return [seat for place, seat in standings(rules, totals) if place == 1]
