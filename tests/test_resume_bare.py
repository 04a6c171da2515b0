"""Client issue 30, item 1: `rommy resume` alone was an argparse error; the game id was
shown only in the `i` box. Now it resumes the one unfinished game, or lists them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace

from p2p_rommy.frontends.saved_games import mark_over
from p2p_rommy.log.transcript import Genesis, sign_config
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.storage import GameStore


def saved_game(data_dir, seed: int):
    """A game whose first seat is this data dir's identity, begun on disk."""
    config, identities = seeded_config("rummy", 3, {}, 1)  # the same players each time
    config = replace(config, table=f"simulate-{seed}", nonce=bytes([seed]) * 16)
    identity = data_dir / "identity"
    if not identity.exists():
        data_dir.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(identity, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, identities[0].private_bytes)
        os.close(fd)
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
    store = GameStore(data_dir, config.game_id)
    store.begin(genesis)
    store.close()
    return config, store


def resume(data_dir, *more: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    argv = ["resume", "--bot", "--data-dir", str(data_dir), "--lang", lang, *more]
    return subprocess.run(
        [sys.executable, "-m", "p2p_rommy", *argv], capture_output=True, text=True, timeout=60
    )


def test_bare_resume_with_no_game_says_so(tmp_path):
    done = resume(tmp_path)
    assert done.returncode == 2 and "no unfinished game to resume" in done.stderr, done.stderr
    danish = resume(tmp_path, lang="da")
    assert "intet uafsluttet spil at fortsætte" in danish.stderr, danish.stderr


def test_bare_resume_lists_several_unfinished_games_and_skips_finished_ones(tmp_path):
    data = tmp_path / "data"
    first, _ = saved_game(data, 1)
    time.sleep(0.05)
    second, _ = saved_game(data, 2)
    over, store = saved_game(data, 3)
    mark_over(store.directory)
    done = resume(data)
    assert done.returncode == 2, done.stderr
    assert "several unfinished games; resume one with rommy resume GAME_ID" in done.stderr
    listed = done.stderr.split("GAME_ID:")[1]
    assert first.game_id.hex()[:16] in listed and second.game_id.hex()[:16] in listed
    assert over.game_id.hex()[:16] not in listed
    assert "table simulate-2, Bot 1, Bot 2, Bot 3" in listed
    assert listed.index(second.game_id.hex()[:16]) < listed.index(first.game_id.hex()[:16])


def test_bare_resume_takes_the_one_unfinished_game(tmp_path):
    data = tmp_path / "data"
    config, _ = saved_game(data, 1)
    _over, store = saved_game(data, 2)
    mark_over(store.directory)
    process = subprocess.Popen(
        [sys.executable, "-m", "p2p_rommy", "resume", "--bot", "--data-dir", str(data)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
    finally:
        process.kill()
        process.wait()
    assert line.startswith(f"resuming game {config.game_id.hex()[:16]} as seat 1"), line
