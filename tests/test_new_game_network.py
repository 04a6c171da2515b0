"""Issue 30: `n` for a new game at a network table, over the real lobby and mesh (TCP
and mDNS on 127.0.0.1). Ann opens the table and Bo joins, each in the full-screen
client (the real app on a pipe; a bot makes their moves, so nothing waits on a
person), and Cy's seat is a headless bot. After a one-round match each client presses
`n` on the final summary: Ann's client opens the table again, under its name, for the
last game's players only; Bo's looks for it by name and Ann's key and joins. Cy has
quit (a headless seat leaves at the end): the lobby says whom it waits for, and Ann
starts without him. The new game has a new game id and the players who came back."""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_rommy.bots import make_bot
from p2p_rommy.errors import ProtocolError
from p2p_rommy.frontends.screen import Screen, host_in_client, look_and_join_in_client
from p2p_rommy.lobby import Host, TableSettings, join_entry
from p2p_rommy.net.lobby import LobbyHost
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.seat.opening import SeatOptions, game_socket
from p2p_rommy.tui.lobby import LobbyModel, lines
from p2p_rommy.tui.model import ClientModel
from p2p_rommy.wire.identity import Identity
from tests.test_tui_lobby import bot_joiner, until


def played_by_a_bot(models: list[object]):
    """A screen's watch: each game screen's seat gets a bot for its moves (the keys
    that matter here are the summary's), every model is kept."""

    def watch(model: object) -> None:
        if isinstance(model, ClientModel):
            model.session.peer.player = make_bot("normal", random.Random(len(models)))
        models.append(model)

    return watch


async def own_app_session(client: Coroutine[Any, Any, int]) -> int:
    """A client in its own prompt_toolkit session, as in its own process: the default
    session is one object, and the app started last would take every key's `event.app`."""
    with create_app_session():
        return await client


def games(models: list[object]) -> list[ClientModel]:
    return [m for m in models if isinstance(m, ClientModel)]


def lobbies(models: list[object]) -> list[LobbyModel]:
    return [m for m in models if isinstance(m, LobbyModel)]


def test_n_at_a_network_table_starts_a_new_game_with_the_players_who_come_back():
    async def main(tmp_path: Path) -> tuple[ClientModel, ClientModel, ClientModel, ClientModel]:
        table = f"Familie{os.getpid()}"
        ann, bo = Identity.generate(), Identity.generate()
        rules = ruleset("rummy", {"target_score": "1"})
        sock = game_socket("127.0.0.1")
        settings = TableSettings(table, "rummy", rules.house.values, rules.max_players)
        lobby = LobbyHost(
            ann, "Ann", settings, [("127.0.0.1", sock.getsockname()[1])], "127.0.0.1", None
        )
        ann_options = SeatOptions("Ann", tmp_path / "ann", "127.0.0.1", None, ascii_only=True)
        bo_options = SeatOptions("Bo", tmp_path / "bo", "127.0.0.1", None, ascii_only=True)
        ann_models: list[object] = []
        bo_models: list[object] = []
        with create_pipe_input() as ann_keys, create_pipe_input() as bo_keys:
            hosting = asyncio.create_task(
                own_app_session(
                    host_in_client(
                        ann_options,
                        ann,
                        lobby,
                        rules,
                        sock,
                        Screen(ann_keys, DummyOutput(), played_by_a_bot(ann_models)),
                    )
                )
            )
            await until(lambda: lobby.port and ann_models)
            bo_sock = game_socket("127.0.0.1")
            bo_screen = Screen(bo_keys, DummyOutput(), played_by_a_bot(bo_models))
            bo_joins = look_and_join_in_client(
                bo_options,
                bo,
                table,
                None,
                30.0,
                [("127.0.0.1", bo_sock.getsockname()[1])],
                bo_sock,
                bo_screen,
            )
            joining = asyncio.create_task(own_app_session(bo_joins))
            cy = asyncio.create_task(bot_joiner(tmp_path, "Cy", lobby.port))
            first_lobby = lobbies(ann_models)[0]
            await until(lambda: len(first_lobby.members) == 3, timeout=90)
            ann_keys.send_text("\r")
            await until(lambda: games(ann_models) and games(bo_models), timeout=120)
            first = games(ann_models)[0], games(bo_models)[0]
            assert all(game.new_game_offered for game in first)  # a network table offers n
            await until(lambda: all(game.match_over() for game in first), timeout=600)
            await asyncio.wait_for(cy, 60)  # Cy's headless seat leaves at the end
            for keys in (bo_keys, ann_keys):  # Bo first: he waits for Ann to open it
                keys.send_text("n")
            await until(lambda: len(lobbies(bo_models)) == 2, timeout=30)
            waiting = lobbies(bo_models)[1]
            await until(lambda: len(lobbies(ann_models)) == 2, timeout=30)
            again = lobbies(ann_models)[1]
            await until(lambda: len(again.members) == 2, timeout=90)  # Bo is back
            shown = "".join(text for _, text in lines(again))
            assert "Waiting for Cy" in shown and "Enter starts without them" in shown, shown
            assert again.table == table and waiting.table == table
            ann_keys.send_text("\r")  # Cy does not come: Ann starts without him
            await until(lambda: len(games(ann_models)) == 2 and len(games(bo_models)) == 2)
            second = games(ann_models)[1], games(bo_models)[1]
            await until(lambda: all(game.table.n > 0 for game in second), timeout=120)
            for keys in (ann_keys, bo_keys):
                keys.send_text("qy")
            await asyncio.wait_for(asyncio.gather(hosting, joining), 60)
        return first[0], first[1], second[0], second[1]

    with tempfile.TemporaryDirectory() as directory:
        ann_first, bo_first, ann_second, bo_second = asyncio.run(main(Path(directory)))
    old, new = ann_first.config, ann_second.config
    assert bo_first.config.game_id == old.game_id and bo_second.config.game_id == new.game_id
    assert new.game_id != old.game_id  # a new game id, from a new lobby's coin
    assert new.table == old.table and new.variant == old.variant and new.house == old.house
    assert sorted(s.name for s in old.seats) == ["Ann", "Bo", "Cy"]
    assert sorted(s.name for s in new.seats) == ["Ann", "Bo"]  # Cy, who quit, is left out
    assert {s.public_key for s in new.seats} < {s.public_key for s in old.seats}


def test_a_new_game_lobby_seats_only_the_last_games_players():
    """A stranger does not take a seat at the reopened table while a player is still
    reading the summary (`Host`'s `only`)."""
    ann, bo, stranger = Identity.generate(), Identity.generate(), Identity.generate()
    settings = TableSettings("Fredag", "rummy", (), 6)
    host = Host(
        ann,
        "Ann",
        settings,
        [],
        b"L" * 32,
        b"c" * 32,
        2,
        frozenset({ann.public_key, bo.public_key}),
    )
    with pytest.raises(ProtocolError, match="last game's players"):
        host.join(stranger.public_key, join_entry(stranger, b"L" * 32, "Eve", []), 0.0)
    assert len(host.members) == 1
    effects = host.join(bo.public_key, join_entry(bo, b"L" * 32, "Bo", []), 0.0)
    assert len(host.members) == 2 and host.phase != "open" and effects  # all back: it starts
