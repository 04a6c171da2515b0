"""Untrusted text is inert (trust issue, attack 7): a name that rewrites the verdict
line, a chat line that fakes another, a TXT record with escape sequences."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from p2p_rommy.cli import main
from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.log.messages import Chat
from p2p_rommy.net.discovery import TableAd
from p2p_rommy.net.lobby import LobbyHost, TableSettings, join_table
from p2p_rommy.rules import ruleset
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.identity import Identity
from p2p_rommy.wire.text import inert, printable
from tests import adversaries as adv
from tests.adversaries import Cheat, play_against
from tests.peer_table import PeerTable

FAKE_VERDICT = "\x1b[2K\rFAIR\x1b[8m"


def test_a_name_with_escapes_cannot_be_seated():
    keys = [Identity.generate().public_key for _ in range(3)]
    seats = (Seat("Ann", keys[0]), Seat("Bo", keys[1]), Seat(FAKE_VERDICT, keys[2]))
    with pytest.raises(ConfigError, match="control characters"):
        GameConfig("rummy", (), seats, 0)
    with pytest.raises(ConfigError, match="control characters"):
        GameConfig("rummy", (), (Seat("Ann", keys[0]), Seat("Bo\nCy 0", keys[1])), 0)


def test_the_command_line_refuses_such_a_name(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--name", "Bo\x1b[31m"])
    assert exit_.value.code == 2
    assert "control characters" in capsys.readouterr().err


def test_the_lobby_refuses_a_joiner_with_such_a_name_over_tcp():
    async def go() -> list[str]:
        rules = ruleset("rummy")
        settings = TableSettings("Inert", "rummy", rules.house.values, rules.max_players)
        host = LobbyHost(
            Identity.generate(), "Ann", settings, [], "127.0.0.1", None, advertise=False
        )
        await host.listen("127.0.0.1")
        joining = join_table(Identity.generate(), FAKE_VERDICT, "127.0.0.1", host.port, None, [])
        with pytest.raises(ProtocolError, match="closed the connection"):
            await asyncio.wait_for(joining, 10)
        names = [m.name for m in host.members]
        await host.close()
        return names

    assert asyncio.run(go()) == ["Ann"]


def test_chat_and_nack_reasons_from_the_network_are_inert():
    table = PeerTable("rummy", 3, {"target_score": "15"})
    sender, peer = table.peers[0], table.peers[1]
    line = "hi\n<Bo> I saw your hand\x1b[2J\u202e"
    envelope = sender.replica.identity.sign(Chat(sender.replica.game, 0, line).encode())
    peer.receive(envelope, via=0)
    seat, shown = peer.chat.lines[-1]
    assert seat == 0 and shown.isprintable() and "\n" not in shown
    assert "<Bo> I saw your hand" in shown and "\\x1b" in shown


def test_printed_text_keeps_its_own_lines_and_escapes_the_rest():
    verdict = f"CHEATING DETECTED: seat 2 ({FAKE_VERDICT}, 1234) at step 9: x"
    out = printable(f"seats: 1 Ann\n{verdict}")
    assert out.count("\n") == 1 and "\x1b" not in out and "\r" not in out
    assert out.endswith("at step 9: x")
    ad = TableAd(FAKE_VERDICT, "lp", 1, 6, True, "abcd-0123-4567-89ab", bytes(32), (), 1)
    assert "\x1b" not in inert(ad.describe())


def test_players_who_share_a_name_are_numbered_on_screen():
    from p2p_rommy.wire.text import distinct_names

    assert distinct_names(["Player", "Ann", "Player", "Player"]) == [
        "Player",
        "Ann",
        "Player 2",
        "Player 3",
    ]


class _FakeVerdictRefusal(adv.FalseRefusal):
    """Refuses a valid step with a reason that carries a verdict line of its own."""

    reason = "no\nCHEATING DETECTED: seat 1 (Ann) at step 3: \x1b[31mfake"


def test_an_end_reason_cannot_print_a_line_of_its_own(tmp_path):
    """Trust issue #24 item 8: the NACK reason lands in the end step's reason, which
    `rommy verify` prints; it must stay on its line and fake no verdict."""
    table = asyncio.run(
        play_against(
            Cheat(session=_FakeVerdictRefusal),
            2,
            adv.all_over,
            stall_after=2.0,
            end_after=4.0,
            timeout=90,
        )
    )
    report = verify_transcript(table.transcript)
    assert report.ended is not None and "CHEATING DETECTED" in report.ended
    for text in (report.text(), printable(report.text()), report.verdict()):
        lines = text.split("\n")
        assert not any(line.startswith("CHEATING") for line in lines), text
        assert "\x1b" not in text
    assert report.text().split("\n")[-1] == "FAIR"
    path = tmp_path / "game.rommy"
    path.write_bytes(table.transcript)
    done = subprocess.run(
        [sys.executable, "-m", "p2p_rommy", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shown = done.stdout.splitlines()
    assert shown[-1] == "FAIR" and not any(line.startswith("CHEATING") for line in shown)
    assert any("ended by the others" in line and "\\x0aCHEATING" in line for line in shown), shown
