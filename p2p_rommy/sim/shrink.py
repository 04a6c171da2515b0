"""Shrinking a failing spec: fewer faults, calmer network, shorter faults, as long as
the same invariant still breaks. The result prints as a regression test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from p2p_rommy.sim.plan import Spec
from p2p_rommy.sim.runner import Outcome, run_game

MAX_RUNS = 60
"""Games the shrinker may play for one spec."""


def shrink(spec: Spec, run: Callable[[Spec], Outcome] = run_game) -> tuple[Spec, Outcome]:
    """The smallest spec found that still breaks the first invariant `spec` breaks."""
    first = run(spec)
    if first.ok:
        return spec, first
    invariant = first.violations[0].invariant
    best, outcome, runs = spec, first, 1

    def fails(candidate: Spec) -> Outcome | None:
        nonlocal runs
        runs += 1
        tried = run(candidate)
        return tried if tried.violations and tried.violations[0].invariant == invariant else None

    changed = True
    while changed and runs < MAX_RUNS:
        changed = False
        candidates: list[Spec | None] = [best.without(i) for i in range(len(best.faults))]
        candidates += [
            replace(best, loss=0.0) if best.loss else None,
            replace(best, duplicate=0.0) if best.duplicate else None,
            replace(best, reorder=False) if best.reorder else None,
            replace(best, real_group=False) if best.real_group else None,
            replace(best, adversary=None) if best.adversary else None,
            replace(
                best,
                faults=tuple(replace(f, duration=round(f.duration / 2, 3)) for f in best.faults),
            )
            if any(f.duration > 0.1 for f in best.faults)
            else None,
        ]
        for candidate in candidates:
            if candidate is None or runs >= MAX_RUNS:
                continue
            tried = fails(candidate)
            if tried is not None:
                best, outcome, changed = candidate, tried, True
                break
    return best, outcome


def as_test(spec: Spec, outcome: Outcome) -> str:
    """A pytest function that replays `spec` and expects no violation."""
    violation = outcome.violations[0] if outcome.violations else None
    found = violation.line() if violation else "nothing"
    return (
        f"# {spec.line()}\n# found: {found}\n"
        f"def test_sim_seed_{spec.seed}() -> None:\n"
        f"    spec = {spec.as_code()}\n"
        f"    assert run_game(spec).violations == []\n"
    )
