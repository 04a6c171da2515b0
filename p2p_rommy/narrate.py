"""How the game reads to people: a move as a sentence, the score sheet as a table.

One owner for the words the client's log, `rommy replay`, the bot seats and
`rommy simulate` print. Every sentence is a message id (`N_`); `words` translates it
(the client passes its `_`; the command line prints English).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import GameState
from p2p_rommy.i18n import N_

Words = Callable[[str], str]

_THEIRS = {
    DrawStock: N_("{name} draws from the stock"),
    TakeDiscard: N_("{name} takes the discard"),
    LayDown: N_("{name} lays down {cards}"),
    LayOff: N_("{name} lays off {card} on meld {number}"),
    SwapJoker: N_("{name} swaps {card} for the joker in meld {number}"),
    Discard: N_("{name} discards {card}"),
    RevealHand: N_("{name} shows {cards}"),
}
_MINE = {
    DrawStock: N_("You draw from the stock"),
    TakeDiscard: N_("You take the discard"),
    LayDown: N_("You lay down {cards}"),
    LayOff: N_("You lay off {card} on meld {number}"),
    SwapJoker: N_("You swap {card} for the joker in meld {number}"),
    Discard: N_("You discard {card}"),
    RevealHand: N_("You show {cards}"),
}


def describe_move(
    move: Move,
    names: Sequence[str],
    face: Callable[[int], str],
    words: Words = lambda text: text,
    me: int | None = None,
) -> str:
    """`move` as a sentence: "Bo lays off 7♥ on meld 3" (or "You ..." for seat `me`);
    `face(slot)` writes a card."""
    if isinstance(move, StartRound | ResolveBuy):  # derived, never a seat's own move
        return repr(move)
    seat = move.seat
    values: dict[str, object] = {"name": names[seat]}
    match move:
        case LayDown(_, melds):
            values["cards"] = " | ".join(" ".join(face(p.slot) for p in m.cards) for m in melds)
        case LayOff(_, meld, card):
            values.update(card=face(card.slot), number=meld + 1)
        case SwapJoker(_, meld, _, card):
            values.update(card=face(card.slot), number=meld + 1)
        case Discard(_, slot, _):
            values["card"] = face(slot)
        case RevealHand(_, cards):
            values["cards"] = " ".join(face(slot) for slot, _ in cards) or "-"
    template = (_MINE if seat == me else _THEIRS).get(type(move))
    if template is None:
        return repr(move)
    return words(template).format(**values)


def score_sheet(
    state: GameState,
    names: Sequence[str] | None = None,
    forfeited: Collection[int] = (),
    words: Words = lambda word: word,
    abandoned: bool = False,
    columns: int | None = None,
) -> str:
    """The round-by-round score sheet with totals and the standing (a seat that left and
    was ended out of the game is last, marked as having forfeited). An `abandoned` game
    (ended on one seat's word, at a table of two) has no standing. With `columns`, the
    table's names are cut so that a row fits (the standing keeps them whole)."""
    from p2p_rommy.engine.scoring import standings

    names = list(names or [f"Seat {seat + 1}" for seat in range(state.players)])
    round_word, total_word = words(N_("Round")), words(N_("Total"))
    label = max(5, len(round_word), len(total_word))
    width = max(8, *(len(name) for name in names))
    if columns is not None:
        width = max(4, min(width, (columns - label - 2) // len(names) - 2))
    heads = [name if len(name) <= width else name[: width - 1] + "." for name in names]
    lines = [f"{round_word:<{label}}  " + "".join(f"{name:>{width + 2}}" for name in heads)]
    for index, scores in enumerate(state.round_scores):
        cells = "".join(f"{score:>{width + 2}}" for score in scores)
        lines.append(f"{index + 1:>{label}}  {cells}")
    lines.append(f"{total_word:<{label}}  " + "".join(f"{t:>{width + 2}}" for t in state.scores))
    lines.append("")
    if abandoned:
        lines.append(words(N_("Abandoned: no standing (one player's word forfeits nobody)")))
        return "\n".join(lines)
    for place, seat in standings(state.rules, state.scores, forfeited):
        mark = ", " + words(N_("forfeited")) if seat in forfeited else ""
        lines.append(f"{place}. {names[seat]} ({state.scores[seat]}{mark})")
    return "\n".join(lines)
