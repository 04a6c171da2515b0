"""End to end: `rommy play --bots 3 --seed N` in a real terminal (tmux). Keys go in with
send-keys; the screen comes back with capture-pane. `.ci/run` installs tmux; under
CI=true a missing tmux fails the test instead of skipping it."""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from p2p_rommy.tui.model import LABELS

SOCKET = Path(tempfile.gettempdir()) / f"rommy-tests-{os.getpid()}.tmux"
"""This test process's own tmux server (`tests/tmux.conf`): not the user's, nor shared
with another test process, whose last session ending took the server down under the
next session's start (an empty screen until the test timed out)."""
CONF = Path(__file__).with_name("tmux.conf")


def _tmux(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["tmux", "-S", str(SOCKET), "-f", str(CONF), *args],
        capture_output=True,
        text=True,
        timeout=30,
    )


def _kill_server() -> None:
    """At the end of the test process: the server, and its socket (tmux leaves it)."""
    if SOCKET.exists():
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            _tmux("kill-server")
        SOCKET.unlink(missing_ok=True)


atexit.register(_kill_server)  # it stays up without sessions (exit-empty off)


def tmux(*args: str) -> str:
    """A tmux command on this process's server; its output. A session that does not
    start fails here with tmux's words, not later as an empty screen."""
    done = _tmux(*args)
    if args[0] == "new-session" and done.returncode != 0:
        raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def screen(name: str) -> str:
    """What session `name` shows; a session that is gone is an error saying so."""
    done = _tmux("capture-pane", "-p", "-t", name)
    if done.returncode != 0:
        raise AssertionError(f"no screen to read: {done.stderr.strip()}")
    return done.stdout


def pane_dead(name: str) -> str | None:
    """How the command in session `name` ended ("status 1"), None while it runs. The
    pane is dead once its terminal closed; its status comes when tmux reaps the process
    (a moment later, or not at all when it exited very early): waited for up to ~1 s."""
    for _ in range(10):
        shown = tmux("display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status}")
        dead, _, status = shown.strip().partition(" ")
        if dead != "1":
            return None
        if status:
            return f"status {status}"
        time.sleep(POLL_S)
    return "status unknown"


POLL_S = 0.1
"""How often the screen is read while a test waits for it (a capture costs ~5 ms)."""
PAGE_AGAIN_S = 1.0
"""How long a page key waits for its effect before it is sent again (an overlay pages at
once: twice the key latency `test_keys_answer_while_the_deal_is_computed...` allows)."""
FIRST_FRAME_S = 180.0
"""How long a blank screen may wait for the app's first frame (Python's start and
imports), whatever the test's own timeout: minutes on a loaded machine, ~1 s idle."""


def wait_for(name: str, predicate, timeout: float = 180.0) -> str:
    """The screen once `predicate` holds on it. A blank screen waits for the first frame
    up to `FIRST_FRAME_S`; a command that ended fails at once, with its last screen."""
    started = time.monotonic()
    while True:
        text = screen(name)
        if predicate(text):
            return text
        ended = pane_dead(name)
        if ended is not None:
            text = screen(name)  # its last output, read after its end
            if predicate(text):
                return text
            # with what scrolled off: tmux's "Pane is dead" line may push the error up
            lines = tmux("capture-pane", "-p", "-t", name, "-S", "-100").rstrip("\n")
            raise AssertionError(f"the command ended ({ended}); the screen was:\n{lines}")
        waited = time.monotonic() - started
        if waited > timeout and (text.strip() or waited > FIRST_FRAME_S):
            raise AssertionError(f"timed out after {waited:.0f} s; the screen was:\n{text}")
        time.sleep(POLL_S)


def press_until(name: str, key: str, predicate, timeout: float = 90.0, again: float = 3.0) -> str:
    """Send `key`, and again every `again` seconds until the screen shows its effect (a
    key sent while the table is between two steps is answered with a status message;
    a key that is always answered at once, as paging an overlay, can go again sooner)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tmux("send-keys", "-t", name, key)
        for _ in range(round(again / POLL_S)):  # the key again after `again` s
            time.sleep(POLL_S)
            text = screen(name)
            if predicate(text):
                return text
    raise AssertionError(f"timed out; the screen was:\n{screen(name)}")


def hand_of(text: str) -> list[str]:
    """The labelled cards of the hand ("1:7H 2:10S ..."), over every line it wraps to
    (a card keeps its label: the first may be any)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if index and ("Your hand" in lines[index - 1] or "Din hånd" in lines[index - 1]):
            cards = line.split()
            if not cards or not all(re.match(r"^Z?[A-Z0-9?]:", t) for t in cards):
                return []
            for more in lines[index + 1 :]:
                tokens = more.split()
                if not tokens or not all(re.match(r"^Z?[A-Z0-9?]:", t) for t in tokens):
                    break
                cards += tokens
            return cards
    return []


def bot_replied(text: str) -> bool:
    """A bot moved after our discard (or the whole table did and it is our turn again)."""
    lines = [line for line in text.splitlines() if line.startswith("│")]
    ours = [i for i, line in enumerate(lines) if "You discard" in line]
    if ours:
        return any("Bot " in line for line in lines[ours[-1] + 1 :])
    return "Your turn" in text


def game_code(text: str) -> str:
    """The six-character game code at the start of the header line."""
    header = next(line for line in text.splitlines() if " | round " in line)
    code = header.split()[0]
    assert len(code) == 6 and code.isalnum(), header
    return code


def answered_after(name: str, key: str, shown: str) -> float | None:
    """Seconds from sending `key` until the screen shows `shown` (polled every 5 ms,
    through tmux: an upper bound), or None after 10 s."""
    pressed = time.monotonic()
    tmux("send-keys", "-t", name, key)
    while time.monotonic() - pressed < 10:
        if shown in screen(name):
            return time.monotonic() - pressed
        time.sleep(0.005)
    return None


def need_tmux() -> None:
    if shutil.which("tmux") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is missing")
        pytest.skip("tmux is missing")


def test_sessions_started_right_after_the_last_one_ended_all_start():
    """The harness: a session started just after the server's last one was killed
    failed now and then ("server exited unexpectedly": the server exited under it; ~2%
    of starts, more under load), and the test then waited on an empty screen."""
    need_tmux()
    for attempt in range(200):
        name = f"rommyquick{os.getpid()}x{attempt}"
        tmux("new-session", "-d", "-s", name, "-x", "40", "-y", "5", "echo ready; sleep 30")
        if attempt % 50 == 0:
            wait_for(name, lambda t: "ready" in t, timeout=10)
        tmux("kill-session", "-t", name)


def test_a_command_that_fails_at_start_shows_why_at_once():
    """The harness: a command that dies at start leaves its traceback on the screen and
    the wait fails at once saying so (its pane closed: an empty screen, 180 s later)."""
    need_tmux()
    name = f"rommybroken{os.getpid()}"
    command = f"{sys.executable} -c \"raise SystemExit('broken at start')\""
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    began = time.monotonic()
    try:
        with pytest.raises(AssertionError) as failed:
            wait_for(name, lambda t: "Your turn" in t, timeout=30)
    finally:
        tmux("kill-session", "-t", name)
    assert "broken at start" in str(failed.value) and "the command ended" in str(failed.value)
    assert time.monotonic() - began < 10  # not the whole timeout


def test_play_a_turn_in_tmux(tmp_path):
    need_tmux()
    name = f"rommy{os.getpid()}"
    command = (  # the shortest Køb! window: each bot's discard waits it out, unanswered here
        f"{sys.executable} -m p2p_rommy play --bots 3 --seed 4 --name Tester --ascii "
        f"--house buy_window_ms=1000 --data-dir {tmp_path}"
    )
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    try:
        text = wait_for(name, lambda t: "Your turn: d draws" in t)
        code = game_code(text)
        tmux("send-keys", "-t", name, "i")
        info = wait_for(name, lambda t: "game code" in t and "Players" in t)
        assert f"game code {code}" in info and "Tester" in info and "rommy resume" in info
        tmux("send-keys", "-t", name, "i")
        text = wait_for(name, lambda t: "game code" not in t)
        hand_line = next(line for line in text.splitlines() if line.strip().startswith("1:"))
        assert len(hand_line.split()) == 11  # eleven cards, each with its key label
        text = press_until(
            name, "d", lambda t: "You draw from the stock" in t and len(hand_of(t)) == 12
        )
        drawn = hand_of(text)
        assert len(drawn) == 12  # the drawn card joined the hand
        tmux("send-keys", "-t", name, "1")
        press_until(name, "x", lambda t: len(hand_of(t)) == 11 or "You discard" in t)
        wait_for(name, bot_replied)
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "Quit the game? y / n" in t)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


def test_the_lobby_and_game_screens_show_the_codes_everyone_compares(tmp_path):
    """Trust issue: the lobby screen shows the table code and every fingerprint; the game
    screen shows the game code, the same code the other seats print."""
    need_tmux()
    name = f"rommyhost{os.getpid()}"
    table = f"Codes {os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy host --table '{table}' --variant rummy "
        f"--house target_score=1 --interface 127.0.0.1 --data-dir {tmp_path / 'host'} "
        "--name Ann --ascii --lang en"
    )
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    joiners = []
    try:
        wait_for(name, lambda t: "table code:" in t and "Ann" in t, timeout=60)
        for i in (1, 2):
            joiners.append(
                subprocess.Popen(
                    [
                        *(sys.executable, "-m", "p2p_rommy", "join", table, "--bot", "random"),
                        *("--interface", "127.0.0.1", "--data-dir", str(tmp_path / f"j{i}")),
                        *("--name", f"Bot{i}"),
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        lobby = wait_for(name, lambda t: "Bot1" in t and "Bot2" in t, timeout=90)
        line = next(line for line in lobby.splitlines() if "table code:" in line)
        table_code = line.split("table code:")[1].split()[0]
        assert len(table_code) == 6
        assert sum(1 for row in lobby.splitlines() if row.count("-") >= 3) >= 3  # fingerprints
        tmux("send-keys", "-t", name, "Enter")
        text = wait_for(name, lambda t: " | round " in t, timeout=120)
        code = game_code(text)
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "y / n" in t or "q quits" in t)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
        outputs = []
        for process in joiners:  # they printed the code at the start; the game may stall
            process.kill()
            outputs.append(process.communicate(timeout=30)[1])
    assert all(f"code {code}:" in err for err in outputs), outputs


def test_keys_answer_while_the_deal_is_computed_and_the_first_hand_comes_soon(tmp_path):
    """Client and performance issues: the deal (shuffle proofs and their checks) runs
    off the event loop, so a key pressed during it is drawn at once. Prints the time to
    the first hand and the key's latency (measured through tmux, so an upper bound);
    only the latency is asserted, with room for a loaded CI machine."""
    need_tmux()
    name = f"rommydeal{os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy play --bots 3 --seed 4 --name Tester --ascii "
        f"--lang en --data-dir {tmp_path}"
    )
    started = time.monotonic()
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    try:
        wait_for(name, lambda t: "Shuffling and dealing" in t or "1:" in t, timeout=60)
        dealing = "1:" not in screen(name)
        latency = answered_after(name, "?", "Help (? closes)")
        tmux("send-keys", "-t", name, "?")
        interrupt = answered_after(name, "C-c", "Quit the game?")  # asks before it quits
        tmux("send-keys", "-t", name, "n")
        text = wait_for(name, lambda t: len(hand_of(t)) >= 11, timeout=120)
        first_hand = time.monotonic() - started
        print(
            f"first hand after {first_hand:.1f} s; a key during the deal "
            f"({'dealing' if dealing else 'already dealt'}) drawn after "
            f"{latency if latency is None else round(latency * 1000)} ms, Ctrl-C after "
            f"{interrupt if interrupt is None else round(interrupt * 1000)} ms"
        )
        assert latency is not None and latency < 0.5, latency
        assert interrupt is not None and interrupt < 0.5, interrupt
        assert len(hand_of(text)) >= 11
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "Quit the game?" in t)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


def test_the_first_hand_is_on_screen_soon_and_the_time_is_printed(tmp_path):
    """The performance issue's figure (#27): `rommy play` from the command to the first
    hand on screen, no key pressed, the screen polled every 20 ms through tmux (an upper
    bound). Prints it, split into the program's first screen (start-up and imports) and
    the rest (seats, commits, four proven and checked shuffles, the deal). The target,
    1 s, is for an idle machine: only a bound a loaded CI machine meets is asserted."""
    need_tmux()
    name = f"rommyfirst{os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy play --bots 3 --seed 4 --name Tester --ascii "
        f"--lang en --data-dir {tmp_path}"
    )
    started = time.monotonic()
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    first_screen = first_hand = None
    try:
        while time.monotonic() - started < 120:
            text = screen(name)
            if first_screen is None and text.strip():
                first_screen = time.monotonic() - started
            if len(hand_of(text)) >= 11:
                first_hand = time.monotonic() - started
                break
            time.sleep(0.02)
        hand_s = None if first_hand is None else round(first_hand, 2)
        screen_s = None if first_screen is None else round(first_screen, 2)
        print(
            f"first hand on screen after {hand_s} s (first screen after {screen_s} s; "
            "target: 1 s on an idle machine)"
        )
        assert first_hand is not None, screen(name)
        assert first_screen is not None and first_screen <= first_hand
        assert first_hand < 60, first_hand
    finally:
        tmux("kill-session", "-t", name)


SGR = re.compile(r"(Z?[A-Z0-9]):((?:\x1b\[[0-9;]*m)*)")


def selected_labels(ansi: str) -> list[str]:
    """Labels of the hand whose card is drawn in reverse video (selected)."""
    hand = ansi[ansi.index("Your hand") :]
    chosen = []
    for label, codes in SGR.findall(hand):
        params = {p for sequence in re.findall(r"\[([0-9;]*)m", codes) for p in sequence.split(";")}
        if "7" in params:
            chosen.append(label)
    return chosen


def test_a_crowded_table_fits_80x24(tmp_path):
    """Client issue: at 80x24, with 20 melds down and a 30-card hand, the discard pile
    stays on screen, the table scrolls to its last meld, every card of the hand has its
    own label (wrapped between cards, never inside one) and each can be selected by its
    key; the score history opens over it. The real app on a crafted table
    (`tests/crowded_table.py`)."""
    need_tmux()
    name = f"rommycrowd{os.getpid()}"
    root = str(Path(__file__).parent.parent)
    command = f"{sys.executable} -m tests.crowded_table"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", root, command)
    try:
        # the first frame is drawn before the table knows its height: the next one scrolls
        text = wait_for(name, lambda t: "Discard:" in t and "of 20" in t, timeout=60)
        assert "melds 1-" in text and "Your hand" in text
        hand = [token.split(":")[0] for token in hand_of(text)]
        assert hand == list(LABELS[:30]), hand  # 30 cards, 30 labels
        text = press_until(
            name, "PageDown", lambda t: "of 20" in t and "-20 of 20" in t, again=PAGE_AGAIN_S
        )
        assert "Discard: " in text and "  20 " in text  # the last meld and the discard pile
        tmux("send-keys", "-t", name, *hand)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            chosen = selected_labels(tmux("capture-pane", "-e", "-p", "-t", name))
            if len(chosen) == 30:
                break
            time.sleep(POLL_S)
        assert chosen == hand, chosen  # every card of the hand selected by its own key
        tmux("send-keys", "-t", name, "v")
        wait_for(name, lambda t: "No round has been scored yet" in t, timeout=20)
        assert all(len(line) <= 80 for line in screen(name).splitlines())
        tmux("send-keys", "-t", name, "v", "q")
        wait_for(name, lambda t: "Quit the game?" in t, timeout=20)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


KOEB = re.compile(r"Køb (\S+) from (Bot \d)\? k buys, p passes")


def status_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


ROOT = str(Path(__file__).parent.parent)
"""The project's root, where `python -m tests.short_stall` is found."""
STALL_S = 10.0
"""The stall limit of an end-to-end test that waits for a stall (`tests/short_stall.py`):
the production 30 s would be most of its wall time. Well above one seat's step, a deal
included, on a loaded 2-core machine."""


def test_a_whole_lp_round_by_keys_at_80x24(tmp_path):
    """Client issue, end to end at 80x24: a whole Løbere og Passere round against two
    bots, played by keys only. Every Køb! prompt names the card and who discarded it;
    buying grows the hand and every card keeps a label; after a window the status
    returns to "Your turn"; a pause on the player's own turn past the stall limit (a
    stall the bots report; the limit shortened to `STALL_S` by `tests/short_stall.py`)
    never writes over the screen (it goes to rommy.log); the score sheet ends the round
    and `v` shows the score history."""
    need_tmux()
    name = f"rommylp{os.getpid()}"
    command = (
        f"{sys.executable} -m tests.short_stall {STALL_S} play --variant lp --bots 2 --seed 3 "
        f"--name Tester --ascii --lang en --data-dir {tmp_path}"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", ROOT, command)
    prompts: list[tuple[str, str]] = []
    your_turn_after_a_window = stalled = bots_turn = False
    turns, biggest_hand = 0, 0
    try:
        deadline = time.monotonic() + 420
        text = wait_for(name, lambda t: len(hand_of(t)) >= 11, timeout=120)
        while time.monotonic() < deadline:
            text = screen(name)
            assert len(text.splitlines()) <= 24 and all(len(x) <= 80 for x in text.splitlines())
            assert "stalled" not in text and "seat 0" not in text, text
            bots_turn |= bool(re.search(r"^▶ Bot \d", text, re.M))  # ▶ against bots too
            if "Round 1 is over" in text:
                break
            status = status_line(text)
            offer = KOEB.search(status)
            if offer:
                prompts.append(offer.groups())
                tmux("send-keys", "-t", name, "k" if len(prompts) % 3 else "p")
                wait_for(name, lambda t: not KOEB.search(status_line(t)), timeout=30)
                continue
            if "Your turn: d draws" in status:
                your_turn_after_a_window |= bool(prompts)
                if turns == 2 and not stalled:  # think for longer than the stall limit
                    time.sleep(STALL_S + 5)
                    stalled = True
                    continue
                size = len(hand_of(text))
                text = press_until(name, "d", lambda t, s=size: len(hand_of(t)) > s, timeout=30)
                labels = hand_of(text)
                biggest_hand = max(biggest_hand, len(labels))
                assert all(not token.startswith("?") for token in labels), labels
                last = labels[-1].split(":")[0]  # the card just drawn joins at the end
                tmux("send-keys", "-t", name, last)
                press_until(name, "x", lambda t, s=size: len(hand_of(t)) <= s, timeout=30)
                turns += 1
                continue
            time.sleep(POLL_S)
        assert "Round 1 is over" in text, text
        tmux("send-keys", "-t", name, " ")
        wait_for(name, lambda t: "Round 1 is over" not in t, timeout=30)
        tmux("send-keys", "-t", name, "v")
        history = wait_for(name, lambda t: "Total" in t and "1. " in t, timeout=30)
        print(f"{turns} turns, {len(prompts)} Køb! prompts, biggest hand {biggest_hand}")
        # (▶ on a bot's line is sampled here only when a capture meets a bot's turn, which
        # a fast table may never offer: tests/test_tui_family.py checks it on the view)
        print("saw ▶ on a bot's line:", bots_turn)
        assert stalled and turns >= 3 and prompts and your_turn_after_a_window
        assert all(card and who in ("Bot 1", "Bot 2") for card, who in prompts)
        assert biggest_hand > 12  # bought cards joined the hand, each with a label
        assert "stalled" in (tmp_path / "rommy.log").read_text()
        rows = [line for line in history.splitlines() if "Round" in line or "Total" in line]
        assert len(rows) == 2 and all("Tester" in r or "Total" in r for r in rows), history
        tmux("send-keys", "-t", name, "v", "q")
        wait_for(name, lambda t: "Quit the game?" in t, timeout=20)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


OVER = "space: next round"
"""The footer of a round's summary when the match goes on."""


def test_rommy_play_keeps_a_transcript_that_verify_calls_fair(tmp_path):
    """Laptops issue: `rommy play` kept no transcript (the CLI never passed a data dir).
    The real command, with no --data-dir (the user's data dir, here under a fresh
    XDG_DATA_HOME and HOME), plays a one-round Rummy against a bot by keys at 80x24; the
    summary names the winner and `n` starts another game; at the end it prints where its
    transcript is, and `rommy verify` on that file says FAIR."""
    need_tmux()
    name = f"rommyfair{os.getpid()}"
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    play = (
        f"{sys.executable} -m p2p_rommy play --variant rummy --bots 1 --seed 2 "
        "--house target_score=1 --name Tester --ascii --lang en"
    )
    # the pane stays after the game so the lines printed at its end can be read
    command = f"env HOME={home} XDG_DATA_HOME={data} {play}; echo rommy-exited-$?; sleep 300"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    try:
        deadline = time.monotonic() + 420
        text = wait_for(name, lambda t: len(hand_of(t)) >= 10, timeout=120)
        first_code = game_code(text)
        while time.monotonic() < deadline:
            text = screen(name)
            if "The match is over. q quits." in text:  # its last seed committed too
                break
            if OVER in text:  # a round ended short of the target (0-0)
                tmux("send-keys", "-t", name, " ")
                time.sleep(0.5)
                continue
            if "Your turn: d draws" in status_line(text):
                size = len(hand_of(text))
                text = press_until(  # the round may end at the draw (the stock turned twice)
                    name, "d", lambda t, s=size: len(hand_of(t)) > s or OVER in t, timeout=30
                )
                if OVER in text:
                    continue
                last = hand_of(text)[-1].split(":")[0]  # the card just drawn goes again
                tmux("send-keys", "-t", name, last)
                press_until(
                    name, "x", lambda t, s=size: len(hand_of(t)) <= s or OVER in t, timeout=30
                )
                continue
            time.sleep(POLL_S)
        assert "The game is over" in text and "q quits" in text, text
        assert re.search(r"wins with \d+ points|You win with|share first place", text), text
        assert "n: new game at this table" in text
        # family issue (30): the whole summary fits 80x24: why the round ended, its row,
        # the totals and the places
        assert len(text.splitlines()) <= 24 and all(len(x) <= 80 for x in text.splitlines())
        assert re.search(r"Round \d+ is over: (you|Bot 1) went out|nobody went out", text), text
        assert re.search(r"^\s+1\s+\d+\s+\d+", text, re.M) and "Total" in text
        assert "1. " in text and "2. " in text
        # family issue (30): n starts another game at the same table (the same seats, a
        # new game id); quitting that one ends the command
        tmux("send-keys", "-t", name, "n")
        text = wait_for(name, lambda t: " | round 1" in t and len(hand_of(t)) >= 10, timeout=120)
        assert game_code(text) != first_code and "Tester (you)" in text and "Bot 1" in text
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "Quit the game? y / n" in t, timeout=20)
        tmux("send-keys", "-t", name, "y")
        wait_for(name, lambda t: "rommy-exited-" in t, timeout=60)
        shown = tmux("capture-pane", "-p", "-J", "-t", name)  # -J: a long path wraps
    finally:
        tmux("kill-session", "-t", name)
    assert "rommy-exited-0" in shown, shown
    found = re.search(r"transcript: (\S+)", shown)
    assert found, shown
    path = Path(found.group(1))
    assert path.is_relative_to(data / "p2p-rommy" / "games") and path.is_file(), shown
    assert f"rommy verify {path}" in shown
    done = subprocess.run(
        [sys.executable, "-m", "p2p_rommy", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("FAIR"), done.stdout


def test_overlays_fit_60x20_and_the_header_and_players_fit_80x24(tmp_path):
    """Family issue (30), small windows: below ~80x22 the help, score and info overlays
    were empty frames and the header ran past 80 columns. At 60x20 each overlay shows its
    text, wrapped, with PgDn to the rest; at 80x24 (Danish, Løbere og Passere, the
    longest header) the header fits and the own seat is in the player list."""
    need_tmux()
    name = f"rommysmall{os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy play --variant lp --bots 3 --seed 4 --name Tester "
        f"--ascii --lang da --data-dir {tmp_path}"
    )
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    try:
        text = wait_for(name, lambda t: len(hand_of(t)) >= 11, timeout=120)
        assert all(len(line) <= 80 for line in text.splitlines())
        header = next(line for line in text.splitlines() if "runde 1/7" in line)
        assert "bunke" in header and len(header.rstrip()) <= 80, header
        assert "Tester (dig)" in text, text
        tmux("resize-window", "-t", name, "-x", "60", "-y", "20")
        time.sleep(1)
        tmux("send-keys", "-t", name, "?")
        shown = wait_for(name, lambda t: "Taster" in t and "PgUp/PgDn" in t, timeout=20)
        assert all(len(line) <= 60 for line in shown.splitlines()), shown
        assert "rød" not in shown  # (a Danish word not in the help: the text is the help's)
        paged = {"timeout": 40, "again": PAGE_AGAIN_S}
        press_until(name, "PageDown", lambda t: "afslut" in t, **paged)  # the last key
        press_until(name, "PageDown", lambda t: "runde 7: 3 løbere" in t, **paged)  # rules
        tmux("send-keys", "-t", name, "?")
        tmux("send-keys", "-t", name, "i")
        info = wait_for(name, lambda t: "spilkode" in t and "Tester" in t, timeout=20)
        assert all(len(line) <= 60 for line in info.splitlines()), info
        tmux("send-keys", "-t", name, "i", "q")
        wait_for(name, lambda t: "y / n" in t or "j / n" in t, timeout=20)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


def xterm_rgb(index: int) -> str:
    """The #rrggbb an xterm draws colour `index` of its 256 in."""
    if index >= 232:
        grey = 8 + 10 * (index - 232)
        return f"{grey:02x}" * 3
    if index >= 16:
        steps = [0, 95, 135, 175, 215, 255]
        index -= 16
        return "".join(f"{steps[c]:02x}" for c in (index // 36, index // 6 % 6, index % 6))
    raise ValueError(f"a palette colour of the terminal's own: {index}")


def log_colour(ansi: str, shown: str) -> str:
    """The foreground colour the log line holding `shown` is drawn in (256 or true colour)."""
    line = next(line for line in ansi.splitlines() if shown in line)
    found = re.search(r"\x1b\[38;5;(\d+)m[^\x1b]*" + re.escape(shown), line)
    if found:
        return xterm_rgb(int(found.group(1)))
    true = re.search(r"\x1b\[38;2;(\d+);(\d+);(\d+)m[^\x1b]*" + re.escape(shown), line)
    assert true, repr(line)
    return "".join(f"{int(c):02x}" for c in true.groups())


def test_the_log_is_readable_on_a_light_and_a_dark_terminal(tmp_path):
    """Family issue (30): the log was `ansigray`, near invisible on white. Captured from
    the real terminal with --theme light (over a dark ROMMY_THEME: the flag wins) and
    with ROMMY_THEME=dark, the log's colour has a contrast ratio of at least 4.5 against
    that background (WCAG AA)."""
    need_tmux()
    from tests.test_tui_family import contrast

    for palette, background in (("light", "ffffff"), ("dark", "000000")):
        name = f"rommy{palette}{os.getpid()}"
        chosen = "--theme light" if palette == "light" else ""
        command = (
            f"env ROMMY_THEME=dark {sys.executable} -m p2p_rommy play --variant rummy {chosen} "
            f"--bots 1 --seed 4 --name Tester --ascii --lang en --data-dir {tmp_path / palette}"
        )
        tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
        try:
            press_until(name, "d", lambda t: "You draw from the stock" in t, timeout=120)
            ansi = tmux("capture-pane", "-e", "-p", "-t", name)
            colour = log_colour(ansi, "You draw from the stock")
            ratio = contrast(colour, background)
            print(f"{palette}: the log in #{colour}, {ratio:.1f}:1 against #{background}")
            assert ratio >= 4.5, (palette, colour, ratio)
            tmux("send-keys", "-t", name, "q")
            wait_for(name, lambda t: "Quit the game?" in t, timeout=20)
            tmux("send-keys", "-t", name, "y")
        finally:
            tmux("kill-session", "-t", name)


def test_a_person_pressing_k_promptly_wins_koeb_against_normal_bots(tmp_path):
    """Issue 25, end to end: in a real terminal, a person who presses `k` as soon as a
    Køb! prompt shows buys in most of 10 windows against `normal` bots (they call after
    a person-like reaction time), and where a bot called too the log names who was
    first on how many screens."""
    need_tmux()
    name = f"rommykob{os.getpid()}"
    command = (
        f"{sys.executable} -m p2p_rommy play --variant lp --bots 3 --bot-level normal "
        f"--seed 11 --name Tester --ascii --lang en --data-dir {tmp_path}"
    )
    tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "40", command)
    outcomes: list[bool] = []
    races: set[str] = set()
    try:
        deadline = time.monotonic() + 400
        wait_for(name, lambda t: len(hand_of(t)) >= 11, timeout=120)
        while time.monotonic() < deadline and len(outcomes) < 10:
            text = screen(name)
            races |= {line.strip("│ ") for line in text.splitlines() if "was first on" in line}
            races |= {line.strip("│ ") for line in text.splitlines() if "were first on" in line}
            status = status_line(text)
            if KOEB.search(status):
                size = len(hand_of(text))
                tmux("send-keys", "-t", name, "k")
                bought = False
                until = time.monotonic() + 10
                while time.monotonic() < until and not bought:
                    time.sleep(0.1)
                    bought = len(hand_of(screen(name))) == size + 2
                outcomes.append(bought)
                continue
            if "Your turn: d draws" in status:
                size = len(hand_of(text))
                text = press_until(name, "d", lambda t, s=size: len(hand_of(t)) > s, timeout=30)
                last = hand_of(text)[-1].split(":")[0]
                tmux("send-keys", "-t", name, last)
                press_until(name, "x", lambda t, s=size: len(hand_of(t)) <= s, timeout=30)
                continue
            if "After round" in text:
                tmux("send-keys", "-t", name, " ")
            time.sleep(0.05)
        print(outcomes, races)
        assert len(outcomes) >= 10, outcomes
        assert sum(outcomes) > len(outcomes) // 2, outcomes  # most windows
        for line in races:  # a race the person was in: first on every screen
            if "from you and" in line or "and you:" in line:
                assert "you were first on 4 of 4 screens" in line, line
        tmux("send-keys", "-t", name, "q")
        wait_for(name, lambda t: "Quit the game?" in t, timeout=20)
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
