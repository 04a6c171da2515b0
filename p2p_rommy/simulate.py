"""Whole matches in one process with every face known (``rommy simulate --no-network``).

All chance comes from one seeded `random.Random`: the deal orders, reshuffles,
the players' choices and the arrival order of buy claims. Same seed, same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_rommy.engine.apply import new_game
from p2p_rommy.engine.due import DueKind, rules_due
from p2p_rommy.engine.moves import Move, ResolveBuy, StartRound
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.engine.view import Player
from p2p_rommy.rules.variants import RuleSet

MAX_STEPS = 200_000
"""A match that runs longer than this has a bug (the stall guard ends every round)."""


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
            move: Move = StartRound(table.state.public_face(table.state.discard[0]))
        else:
            due = rules_due(state)
            assert due is not None, state.phase
            if due.kind is DueKind.REVEAL:
                move = table.pending_reveals()[0]
                table = table.play(move)
            elif due.kind is DueKind.BUY:
                claims = [s for s in state.buy_eligible if players[s].wants_buy(table.view(s))]
                rng.shuffle(claims)
                move = ResolveBuy(tuple(claims))
                table = table.play(move)
            else:
                move = players[due.seat].choose(table.view(due.seat))
                table = table.play(move, reshuffle)
        moves.append(move)
        if observe is not None:
            observe(table, move)
    raise RuntimeError(f"the match did not end within {MAX_STEPS} steps")


def random_players(count: int, rng: random.Random) -> list[Player]:
    from p2p_rommy.bots.random_player import RandomPlayer

    return [RandomPlayer(random.Random(rng.getrandbits(64))) for _ in range(count)]
