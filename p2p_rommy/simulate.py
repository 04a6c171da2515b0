"""Whole matches in one process with every face known (``rommy simulate --no-network``).

All chance comes from one seeded `random.Random`: the deal orders, reshuffles,
the players' choices and the arrival order of buy claims. Same seed, same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from p2p_rommy.engine.apply import new_game
from p2p_rommy.engine.moves import Move, ResolveBuy, StartRound
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.engine.view import View
from p2p_rommy.i18n import N_
from p2p_rommy.rules.variants import RuleSet

MAX_STEPS = 200_000
"""A match that runs longer than this has a bug (the stall guard ends every round)."""


class Player(Protocol):
    def choose(self, view: View) -> Move: ...

    def wants_buy(self, view: View) -> bool: ...


@dataclass(frozen=True, slots=True)
class MatchResult:
    final: GameState
    moves: tuple[Move, ...]
    steps: int


def play_match(
    rules: RuleSet,
    players: Sequence[Player],
    rng: random.Random,
    first_dealer: int = 0,
    observe: Callable[[OpenTable, Move], None] | None = None,
) -> MatchResult:
    """Play a match to its end; `observe(table, move)` sees every state after each move."""
    table = OpenTable(new_game(rules, len(players), first_dealer))
    moves: list[Move] = []

    def reshuffle(cards: Sequence[int]) -> list[int]:
        order = list(cards)
        rng.shuffle(order)
        return order

    for step in range(MAX_STEPS):
        state = table.state
        if state.phase is Phase.MATCH_OVER:
            return MatchResult(state, tuple(moves), step)
        if state.phase is Phase.ROUND_START:
            order = list(range(rules.deck_size))
            rng.shuffle(order)
            table = table.start_round(order)
            move: Move = StartRound(table.state.faces[table.state.discard[0]])  # type: ignore[arg-type]
        elif state.phase is Phase.REVEAL:
            move = table.pending_reveals()[0]
            table = table.play(move)
        elif state.phase is Phase.BUY:
            claims = [s for s in state.buy_eligible if players[s].wants_buy(table.view(s))]
            rng.shuffle(claims)
            move = ResolveBuy(tuple(claims))
            table = table.play(move)
        else:
            seat = state.turn
            move = players[seat].choose(table.view(seat))
            table = table.play(move, reshuffle)
        moves.append(move)
        if observe is not None:
            observe(table, move)
    raise RuntimeError(f"the match did not end within {MAX_STEPS} steps")


def random_players(count: int, rng: random.Random) -> list[Player]:
    from p2p_rommy.bots.random_player import RandomPlayer

    return [RandomPlayer(random.Random(rng.getrandbits(64))) for _ in range(count)]


def score_sheet(
    state: GameState,
    names: Sequence[str] | None = None,
    forfeited: Collection[int] = (),
    words: Callable[[str], str] = lambda word: word,
) -> str:
    """The round-by-round score sheet with totals and the standing (a seat that left and
    was ended out of the game is last, marked as having forfeited). `words` translates
    its few words (the client passes its `_`)."""
    from p2p_rommy.engine.scoring import standings

    names = list(names or [f"Seat {seat + 1}" for seat in range(state.players)])
    width = max(8, *(len(name) for name in names))
    round_word, total_word = words(N_("Round")), words(N_("Total"))
    label = max(5, len(round_word), len(total_word))
    lines = [f"{round_word:<{label}}  " + "".join(f"{name:>{width + 2}}" for name in names)]
    running = [0] * state.players
    for index, scores in enumerate(state.round_scores):
        running = [a + b for a, b in zip(running, scores, strict=True)]
        cells = "".join(f"{score:>{width + 2}}" for score in scores)
        lines.append(f"{index + 1:>{label}}  {cells}")
    lines.append(f"{total_word:<{label}}  " + "".join(f"{t:>{width + 2}}" for t in state.scores))
    lines.append("")
    for place, seat in standings(state.rules, state.scores, forfeited):
        mark = ", " + words(N_("forfeited")) if seat in forfeited else ""
        lines.append(f"{place}. {names[seat]} ({state.scores[seat]}{mark})")
    return "\n".join(lines)
