"""``rommy bench``: performance figures, measured in this run, by section.

Each section returns a flat dict of ``section.name`` -> number. Sections that
need parts of the system not built yet are simply absent from `SECTIONS`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from p2p_rommy.engine.apply import apply, new_game
from p2p_rommy.errors import ConfigError
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.simulate import play_match, random_players

Figures = dict[str, float]


def _engine(quick: bool) -> Figures:
    """Moves applied per second, and whole random-legal 4-player lp matches per second."""
    rules = ruleset("lp")
    matches = 1 if quick else 4
    recorded = []
    started = time.perf_counter()
    for seed in range(matches):
        rng = random.Random(seed)
        recorded.append(play_match(rules, random_players(4, rng), rng).moves)
    match_seconds = time.perf_counter() - started

    repeats = 1 if quick else 3
    applied = 0
    started = time.perf_counter()
    for _ in range(repeats):
        for moves in recorded:
            state = new_game(rules, 4)
            for move in moves:
                state = apply(state, move)
            applied += len(moves)
    apply_seconds = time.perf_counter() - started
    return {
        "engine.moves_per_s": round(applied / apply_seconds, 1),
        "engine.lp_matches_per_s": round(matches / match_seconds, 3),
        "engine.lp_match_moves": round(sum(len(m) for m in recorded) / matches, 1),
    }


SECTIONS: dict[str, Callable[[bool], Figures]] = {"engine": _engine}


def run_bench(only: str | None = None, quick: bool = False) -> Figures:
    """Run one section or all of them."""
    if only is not None and only not in SECTIONS:
        raise ConfigError(f"no bench section {only!r}; the sections are: {', '.join(SECTIONS)}")
    figures: Figures = {}
    for name, section in SECTIONS.items():
        if only is None or only == name:
            figures.update(section(quick))
    return figures


def format_table(figures: Figures) -> str:
    width = max((len(key) for key in figures), default=10)
    return "\n".join(f"{key:<{width}}  {value:>14,}" for key, value in sorted(figures.items()))
