"""The whole-table simulator (issue 31): a thousand seeded games a CI run with faults
and cheats, every invariant checked after every event; each invariant shown to fire
on a deliberately broken seat; the bugs it found kept as regression tests."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from p2p_rommy.sim import Fault, Spec, run_game
from p2p_rommy.sim.plan import FAULT_KINDS
from p2p_rommy.sim.runner import Outcome
from p2p_rommy.sim.shrink import as_test, shrink

CI_GAMES = 1000
"""Seeded games per CI run (the issue's floor)."""
CHUNKS = 20
"""Split so that xdist's workers share them."""
VERIFY_SHARE = 0.1
"""Games whose honest transcripts `rommy verify`'s checker reads (it re-checks every
proof: a tenth keeps the campaign in its time budget)."""


def tally(outcomes: list[Outcome]) -> dict[str, int]:
    return {
        "games": len(outcomes),
        "faults": sum(o.faults for o in outcomes),
        "adversary_games": sum(1 for o in outcomes if o.spec.adversary),
        "violations": sum(len(o.violations) for o in outcomes),
        "verified": sum(o.verified for o in outcomes),
    }


def report(outcomes: list[Outcome]) -> str:
    """The first failing game, shrunk, as a test case."""
    failing = next(o for o in outcomes if o.violations)
    small, outcome = shrink(failing.spec)
    return f"{failing.spec.line()}\n{failing.violations[0].line()}\nshrunk:\n{as_test(small, outcome)}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_simulated_games_keep_every_invariant(
    chunk: int, record_property: pytest.RecordProperty
) -> None:
    per = CI_GAMES // CHUNKS
    outcomes = [
        run_game(Spec.ci(seed), VERIFY_SHARE) for seed in range(chunk * per, (chunk + 1) * per)
    ]
    record_property("sim", json.dumps(tally(outcomes)))  # summed in tests/conftest.py
    assert all(o.ok for o in outcomes), report(outcomes)
    assert any(o.steps > 100 for o in outcomes)  # whole games were played


def test_a_seed_replays_bit_for_bit() -> None:
    spec = Spec(
        seed=7,
        faults=(Fault(0.4, "pause", 1, 0.6), Fault(0.9, "cut", 0, 0.2, 2)),
        duplicate=0.01,
        reorder=True,
        adversary="equivocation",
        adversary_seat=2,
    )
    first, second = run_game(spec), run_game(spec)
    assert (first.events, first.steps, first.sim_time, first.end) == (
        second.events,
        second.steps,
        second.sim_time,
        second.end,
    )
    assert first.adversary_acted and first.end == "frozen"
    assert first.ok


def test_the_real_group_plays_the_same_game() -> None:
    """The fast group is a seam for volume only: a game on edwards25519 commits the
    same number of steps and ends the same way."""
    spec = Spec(seed=11)
    toy, real = run_game(spec), run_game(replace(spec, real_group=True))
    assert toy.ok and real.ok
    assert (toy.steps, toy.end) == (real.steps, real.end) and toy.end == "over"


# --- every invariant fires on a deliberately broken seat ---------------------------------


def first_violation(specs: list[Spec]) -> Outcome:
    for spec in specs:
        outcome = run_game(spec)
        if outcome.violations:
            return outcome
    raise AssertionError("no violation within the seed budget")


def test_a_seat_that_does_not_fsync_is_caught_losing_records() -> None:
    specs = [
        Spec(seed=s, faults=(Fault(1.0 + s / 10, "crash", s % 3, 0.5),), broken=("no_fsync",))
        for s in range(20)
    ]
    assert first_violation(specs).violations[0].invariant == "durability"


def test_seats_that_commit_without_every_ack_are_caught_diverging() -> None:
    specs = [
        Spec(seed=s, adversary="equivocation", adversary_seat=s % 3, broken=("commit_early",))
        for s in range(20)
    ]
    assert first_violation(specs).violations[0].invariant == "prefix"


def test_a_seat_that_refuses_a_valid_step_is_caught_blaming_an_honest_one() -> None:
    violation = first_violation([Spec(seed=3, broken=("misvalidate",))]).violations[0]
    assert violation.invariant == "blamed"


def test_a_seat_that_ends_the_game_too_soon_is_caught_ending_out_a_present_one() -> None:
    specs = [
        Spec(seed=s, faults=(Fault(0.5 + s / 10, "pause", s % 3, 1.0),), broken=("hasty_end",))
        for s in range(20)
    ]
    assert first_violation(specs).violations[0].invariant == "ended_out"


def test_a_seat_that_never_lets_time_pass_is_caught_not_finishing() -> None:
    specs = [Spec(seed=s, loss=0.02, broken=("no_ticks",)) for s in range(20)]
    assert first_violation(specs).violations[0].invariant == "liveness"


def test_a_seat_that_keeps_a_wrong_transcript_is_caught_by_verify() -> None:
    violation = first_violation([Spec(seed=5, broken=("bad_record",))]).violations[0]
    assert violation.invariant == "verify"


def test_a_failing_seed_is_shrunk_to_a_short_schedule_printed_as_a_test() -> None:
    noise = tuple(Fault(0.3 * i, kind, i % 3, 0.4, (i + 1) % 3) for i, kind in enumerate(FAULT_KINDS))
    spec = Spec(seed=4, faults=(*noise, Fault(2.0, "crash", 1, 0.5)), broken=("no_fsync",))
    small, outcome = shrink(spec)
    assert outcome.violations[0].invariant == "durability"
    assert len(small.faults) < len(spec.faults)
    text = as_test(small, outcome)
    assert "def test_sim_seed_4" in text and "Spec(seed=4" in text
