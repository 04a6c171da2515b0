"""The bots' bench section: its interval and its seeded, engine-only matches (the
strength figures themselves are measured by `rommy bench --only bots`, not in CI)."""

from __future__ import annotations

import random

import pytest

from p2p_rommy.bench import bot_match, wilson
from p2p_rommy.bots import make_bot, parse_bots
from p2p_rommy.bots.reaction import Reacting
from p2p_rommy.bots.reference import ReferenceBot


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.404, abs=1e-3) and high == pytest.approx(0.596, abs=1e-3)
    low, high = wilson(0, 30)
    assert low == 0.0 and high == pytest.approx(0.114, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_bench_match_is_the_same_for_the_same_seed():
    task = ("rummy", "hard", "reference", 5000, 1)
    first, second = bot_match(task), bot_match(task)
    assert first[0] == second[0] and 0.0 <= first[0] <= 1.0
    assert set(first[1]) == {"hard", "reference"} and all(first[1].values())


def test_the_reference_bot_can_be_seated():
    assert parse_bots("reference,normal", 2) == ["reference", "normal"]
    bot = make_bot("reference", random.Random(1))
    assert isinstance(bot, Reacting) and isinstance(bot.inner, ReferenceBot)  # Køb! timing


def test_the_bots_section_runs_one_line_up_by_name():
    from p2p_rommy.bench import run_bench
    from p2p_rommy.errors import ConfigError

    with pytest.raises(ConfigError):
        run_bench("bots.lp.hard_vs_nobody", quick=True)
