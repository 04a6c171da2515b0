"""Client issue 30, item 3 (lp's pace), end to end at 80x24 in Danish: a network table
(mDNS and TCP on 127.0.0.1) of two people, each in the full-screen client in its own
tmux, and a bot in its own process. When one person draws from the stock and the other
may call Køb! (docs/rules.md: "Drawing from the stock declines it"), the drawer's new
card is on the drawer's screen in under 0.5 s while the window still runs (the other
person's screen still asks "k køber, p melder pas"), and the drawer's screen counts the
window down: "Køb!-vinduet lukker om N s", N falling. The card order stays the rules':
the drawer's card is the top stock card, a buyer's penalty card the next
(tests/test_lp_pace.py checks that on production peers)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.test_leaving_tmux import bot
from tests.test_tui_tmux import hand_of, need_tmux, screen, tmux, wait_for

ASKED = re.compile(r"Køb \S+( fra \S+)?\? k køber, p melder pas")
COUNTDOWN = re.compile(r"Køb!-vinduet lukker om (\d+) s")
MY_DRAW = "Din tur: d trækker"
SHOWN_WITHIN_S = 0.5
"""The issue's bound, for the median of `WINDOWS` draws (a loaded machine's one-off
hiccup is not the pace a player feels); no draw may take even a fifth of the window."""
WINDOWS = 3


def status(text: str) -> str:
    """The status line (and the line it may wrap to)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return " ".join(lines[-2:])


def person(table: str, name: str, data: Path, *command: str) -> str:
    """A person's client in its own 80x24 tmux; its session name."""
    session = f"rommypace{name}{os.getpid()}"
    line = (
        f"{sys.executable} -m p2p_rommy {' '.join(command)} --interface 127.0.0.1 "
        f"--data-dir {data} --name {name} --ascii --lang da"
    )
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", line)
    return session


def shown(session: str, before: int) -> list[str] | None:
    """The drawer's hand once the drawn card is on it (one card more, every face known)."""
    cards = hand_of(screen(session))
    if len(cards) > before and not any("?" in card.split(":", 1)[1] for card in cards):
        return cards
    return None


def test_an_lp_stock_draw_shows_the_card_at_once_while_the_koeb_window_runs(tmp_path):
    need_tmux()
    table = f"Tempo{os.getpid()}"
    ann = person(table, "Ann", tmp_path / "ann", "host", f"'{table}'", "--variant lp",
                 "--start-when 3")  # fmt: skip
    sessions = [ann]
    processes: list[subprocess.Popen[str]] = []
    try:
        wait_for(ann, lambda t: "Ann" in t, timeout=60)
        sessions.append(person(table, "Bo", tmp_path / "bo", "join", f"'{table}'"))
        processes.append(bot(table, "Cy", tmp_path / "cy", "join", table, "--name", "Cy"))
        for session in sessions:
            wait_for(session, lambda t: len(hand_of(t)) >= 11, timeout=240)
        measured: list[tuple[float, int, int]] = []
        deadline = time.monotonic() + 300
        while len(measured) < WINDOWS and time.monotonic() < deadline:
            for drawer, other in (sessions, sessions[::-1]):
                text = screen(drawer)
                if ASKED.search(status(text)):
                    tmux("send-keys", "-t", drawer, "p")  # not the window we measure
                    continue
                if MY_DRAW not in status(text):
                    continue
                before = len(hand_of(text))
                pressed = time.monotonic()
                tmux("send-keys", "-t", drawer, "d")
                cards = None
                while cards is None and time.monotonic() - pressed < 20:
                    cards = shown(drawer, before)
                    if cards is None:
                        time.sleep(0.01)
                took = time.monotonic() - pressed
                assert cards is not None, screen(drawer)
                running = ASKED.search(status(screen(other)))
                if running:  # the other person may still buy: this is the window we want
                    text = screen(drawer)
                    first = COUNTDOWN.search(text)
                    assert first, text
                    drew = f"Du trak {cards[-1].split(':')[1]}; Køb "  # and names it
                    assert drew in status(text), text
                    later = first
                    if not measured:  # the countdown is live: it falls within a redraw
                        falls_by = time.monotonic() + 3.5  # or two (the window runs 5 s)
                        while time.monotonic() < falls_by:
                            later = COUNTDOWN.search(screen(drawer))
                            if later and int(later.group(1)) < int(first.group(1)):
                                break
                            time.sleep(0.1)
                        assert later and int(later.group(1)) < int(first.group(1)), screen(drawer)
                    assert len(hand_of(screen(drawer))) == before + 1  # no more, no less
                    measured.append((took, int(first.group(1)), int(later.group(1))))
                    tmux("send-keys", "-t", other, "p")
                last = cards[-1].split(":")[0]  # the drawn card joins at the end
                wait_for(drawer, lambda t: "Din tur" in status(t), timeout=30)
                tmux("send-keys", "-t", drawer, last)
                tmux("send-keys", "-t", drawer, "x")
                wait_for(drawer, lambda t, n=before: len(hand_of(t)) <= n, timeout=30)
                break
            time.sleep(0.1)
        print("stock draw to the card on screen, countdown:", measured)
        assert len(measured) == WINDOWS, [screen(session) for session in sessions]
        times = sorted(took for took, _, _ in measured)
        assert times[len(times) // 2] < SHOWN_WITHIN_S, measured
        assert times[-1] < 1.0, measured  # the window runs 5 s: the card never waits for it
    finally:
        for session in sessions:
            tmux("kill-session", "-t", session)
        for process in processes:
            process.kill()
            process.wait()
