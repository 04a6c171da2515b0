"""Client issue 30, item 12: `rommy verify` and `rommy replay` for a curious player.
Replay numbers moves as players count them (from 1 in each round), stops at
`--round R --step N` with every hand, and says why a hand is unknown; verify's
verdict on an abandoned game says it stops before its end, not that it "goes on"."""

from __future__ import annotations

import asyncio
import re

import pytest

from p2p_rommy.cli import main
from p2p_rommy.log.transcript import MAGIC, frame_record, parse
from p2p_rommy.seat.loopback_match import simulate_network

MOVE = re.compile(r"^ {0,4}(\d+)  ")


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory) -> bytes:
    """A Rommé match of exactly two deals, over TCP on 127.0.0.1."""
    path = tmp_path_factory.mktemp("replay") / "transcript"
    asyncio.run(simulate_network("romme", 3, 21, {"fixed_deals": "2"}, path, timeout=300))
    return path.read_bytes()


def cut(data: bytes, records: int) -> bytes:
    parsed = parse(data)
    kept = parsed.records[:records]
    return (
        MAGIC
        + frame_record(parsed.genesis.encode())
        + b"".join(frame_record(r.encode()) for r in kept)
    )


def said(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def test_moves_are_numbered_from_1_in_each_round(capsys, tmp_path, two_rounds):
    path = tmp_path / "t"
    path.write_bytes(two_rounds)
    code, out = said(capsys, "replay", str(path))
    assert code == 0 and out.rstrip().endswith("FAIR"), out[-500:]
    rounds = out.split("-- round ")[1:]
    assert len(rounds) == 2
    for text in rounds:
        numbers = [int(m.group(1)) for line in text.splitlines() if (m := MOVE.match(line))]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 5, text[:400]


def test_round_and_step_shows_the_round_up_to_that_move_then_every_hand(
    capsys, tmp_path, two_rounds
):
    path = tmp_path / "t"
    path.write_bytes(two_rounds)
    code, out = said(capsys, "replay", str(path), "--round", "2", "--step", "3", "--ascii")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("-- round 2, dealer")
    numbers = [int(m.group(1)) for line in lines if (m := MOVE.match(line))]
    assert numbers == [1, 2, 3], out
    after = lines.index("       -- the hands after move 3:")
    assert all(line.startswith("       Bot ") for line in lines[after + 1 : after + 4]), out
    assert "??" not in out and lines[-1] == "FAIR"
    code, out = said(capsys, "replay", str(path), "--step", "3")
    assert code == 2 and "--step N needs --round R" in out
    code, out = said(capsys, "replay", str(path), "--round", "7")
    assert out.splitlines()[0] == "there is no round 7 in this game (it has 2)", out
    code, out = said(capsys, "replay", str(path), "--round", "1", "--step", "9999")
    assert "round 1 has no move 9999" in out, out[-300:]


def test_an_unknown_hand_says_why_and_an_abandoned_game_stops_before_its_end(
    capsys, tmp_path, two_rounds
):
    path = tmp_path / "t"
    path.write_bytes(cut(two_rounds, 30))  # round 1 has not finished
    code, out = said(capsys, "replay", str(path))
    assert code == 0 and "??" in out, out
    assert "round 1 did not finish, so its cards were never shown" in out, out
    code, out = said(capsys, "verify", str(path))
    verdict = out.strip().splitlines()[-1]
    assert code == 4 and verdict.startswith("INCOMPLETE"), out
    assert "goes on after" not in out and "stops there, before its end" in verdict
    assert "round 1 was not over: its cards stay secret" in out


def test_verify_counts_seats_and_rounds_from_1(capsys, tmp_path, two_rounds):
    path = tmp_path / "t"
    path.write_bytes(two_rounds)
    code, out = said(capsys, "verify", str(path))
    assert code == 0, out
    assert "seats: 1 Bot 1 (" in out and ", 3 Bot 3 (" in out
    assert "round 1: shuffled by" in out and "round 2: shuffled by" in out
    assert "round 0" not in out and "seat 0" not in out
    assert "shown to all" not in out  # jargon, now "turned face up"


def test_on_a_terminal_replay_waits_for_a_key_per_move(tmp_path, two_rounds):
    """In tmux (a real terminal): the round's deal, then one move per Enter; q stops
    with the verdict."""
    import os
    import sys
    import time

    from tests.test_tui_tmux import need_tmux, screen, tmux, wait_for

    need_tmux()
    path = tmp_path / "t"
    path.write_bytes(two_rounds)
    name = f"rommyreplay{os.getpid()}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24")
    tmux("set-option", "-t", name, "remain-on-exit", "on")
    command = f"{sys.executable} -m p2p_rommy replay {path} --ascii --lang da"
    tmux("respawn-pane", "-k", "-t", name, command)
    try:
        prompt = "(Enter: næste; a: resten på én gang; q: stop)"
        first = wait_for(name, lambda t: prompt in t, timeout=60)
        assert "-- runde 1, giver" in first

        def moves(text: str) -> list[int]:
            return [int(m.group(1)) for line in text.splitlines() if (m := MOVE.match(line))]

        assert moves(first) == []
        for expected in ([1], [1, 2]):
            tmux("send-keys", "-t", name, "Enter")
            wait_for(name, lambda t, expected=expected: moves(t) == expected, timeout=20)
        tmux("send-keys", "-t", name, "q", "Enter")
        wait_for(name, lambda t: "FAIRT SPIL" in t, timeout=20)
        time.sleep(0.5)
        assert moves(screen(name)) == [1, 2]
    finally:
        tmux("kill-session", "-t", name)
