"""The `rommy` command: simulate, rules, bench, and clear errors instead of tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from p2p_rommy.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("variant", "players"), [("lp", 4), ("rummy", 3), ("romme", 5)])
def test_simulate_prints_a_score_sheet_and_is_reproducible(capsys, variant, players):
    args = (
        "simulate",
        "--variant",
        variant,
        "--players",
        str(players),
        "--seed",
        "7",
        "--no-network",
    )
    code, first, _ = run(capsys, *args)
    assert code == 0
    assert "Total" in first and "\n1. Seat" in first
    rounds = [line for line in first.splitlines() if line.strip()[:1].isdigit() and "." not in line]
    if variant == "lp":
        assert len(rounds) == 7
    _, second, _ = run(capsys, *args)
    assert first == second
    _, other, _ = run(capsys, *args[:-2], "8", "--no-network")
    assert other != first


def test_simulate_with_house_rules(capsys):
    code, out, _ = run(
        capsys,
        "simulate",
        "--variant",
        "romme",
        "--players",
        "3",
        "--seed",
        "2",
        "--no-network",
        "--house",
        "fixed_deals=2",
        "--house",
        "joker_penalty=30",
    )
    assert code == 0
    assert (
        len([line for line in out.splitlines() if line.startswith(("    1", "    2", "    3"))])
        == 2
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("simulate", "--no-network", "--house", "nope=1"),
            "its house rules are: build_in_opening_turn",
        ),
        (("simulate", "--no-network", "--house", "max_buys"), "KEY=VALUE"),
        (("simulate", "--no-network", "--house", "max_buys=lots"), "or unlimited"),
        (("simulate", "--no-network", "--players", "7"), "3-5 players"),
        (("simulate", "--no-network", "--transcript", "x"), "needs the networked mode"),
        (("join", "--connect", "127.0.0.1:1"), "needs a terminal; seat a bot with --bot"),
        (("bench", "--only", "nothing"), "the sections are: engine, deck, peers, bots, verify"),
    ],
)
def test_user_errors_are_one_clear_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_rules_lists_every_house_rule_with_its_default(capsys):
    from p2p_rommy.rules.variants import HOUSE_RULE_SPECS

    code, out, _ = run(capsys, "rules")
    assert code == 0
    for variant, specs in HOUSE_RULE_SPECS.items():
        for spec in specs:
            assert f"    {spec.key} = " in out, (variant, spec.key)
    _, lp, _ = run(capsys, "rules", "--variant", "lp")
    assert "round 7: 3 løbere" in lp and "max_buys = unlimited" in lp and "Rommé" not in lp


def test_bench_deck_quick_json(capsys):
    code, out, _ = run(capsys, "bench", "--only", "deck", "--json", "--quick")
    figures = json.loads(out)
    assert code == 0 and figures["deck.unit_us"] > 0 and figures["deck.unit_ed25519_us"] > 0
    name = "deck.round_start.3x12"
    # by CPU time: each seat's share of the work, and the critical path, which more
    # cores for the proof's work over the deck shorten (never lengthen)
    assert figures[f"{name}.cpu_per_seat_s"] > 0
    one, two, four = (figures[f"{name}.critical_s{s}"] for s in ("", ".pool2", ".pool4"))
    assert 0 < four <= two <= one <= 3 * figures[f"{name}.cpu_per_seat_s"]
    # at least the three proofs and their checks, each over 3m multiplications (SPEC §3.5)
    assert 3 * figures[f"{name}.cpu_per_seat_s"] > 3 * 6 * 12 * figures["deck.unit_us"] / 1e6
    yardsticks = one / figures["deck.unit_ed25519_us"] * 1e6
    assert figures[f"{name}.critical_units"] == pytest.approx(yardsticks, rel=0.02)
    # the critical path's two phases, the shuffles and the deal, make it up (#27)
    phases = [figures[f"{name}.critical_units.{phase}"] for phase in ("shuffles", "deal")]
    assert min(phases) > 0 and sum(phases) == pytest.approx(
        figures[f"{name}.critical_units"], abs=2
    )
    # the JSON says what its units are (issue #27)
    assert figures["units"].startswith("units: yardsticks, each one checked edwards25519")


def test_bench_sim_with_long_absences(capsys):
    """`rommy bench --only sim --long` adds a long absence to a tenth of the games
    (seeds 2 and 10 of the first 12 draw one); without `--long` none is drawn."""
    code, out, _ = run(capsys, "bench", "--only", "sim", "--json", "--games", "12", "--long")
    figures = json.loads(out)
    assert code == 0 and figures["sim.games"] == 12 and figures["sim.long_absence_games"] == 2
    code, out, _ = run(capsys, "bench", "--only", "sim", "--json", "--games", "3")
    assert code == 0 and json.loads(out)["sim.long_absence_games"] == 0


def test_bench_engine_json(capsys):
    code, out, _ = run(capsys, "bench", "--only", "engine", "--json", "--quick")
    figures = json.loads(out)
    assert code == 0
    assert figures["engine.moves_per_s"] > 0 and figures["engine.lp_matches_per_s"] > 0


def test_module_and_console_script_run():
    import shutil

    rommy = shutil.which("rommy") or str(
        __import__("pathlib").Path(sys.executable).with_name("rommy")
    )
    for command, expected in (
        ([sys.executable, "-m", "p2p_rommy", "--version"], "rommy 0."),
        ([sys.executable, "-m", "p2p_rommy", "rules", "--variant", "rummy"], "target_score = 100"),
        ([rommy, "rules", "--variant", "romme"], "joker_penalty = 20"),
    ):
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout


def test_resume_explains_a_missing_game_and_needs_a_terminal_for_the_client(capsys, tmp_path):
    code, _, err = run(capsys, "resume", "abcdef12", "--bot", "--data-dir", str(tmp_path))
    assert code == 2 and "no saved game 'abcdef12'" in err and "Traceback" not in err
    code, _, err = run(capsys, "resume", "abcdef12", "--data-dir", str(tmp_path))
    assert code == 2 and "needs a terminal; seat a bot with --bot" in err


def test_a_wrong_option_is_reported_with_its_commands_usage(capsys):
    """`rommy play --bogus` printed the top-level usage."""
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--bogus"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert "usage: rommy play" in err and "unrecognized arguments: --bogus" in err
