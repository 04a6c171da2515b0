"""`rommy host` in the full-screen client, headless: the lobby screen lists the players
who join (names and fingerprints), Enter starts the game by hand, and the game screen
plays a turn on the network session against two bot seats that joined."""

from __future__ import annotations

import asyncio
import random

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_rommy.bots import make_bot
from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.screen import Screen, host_in_client
from p2p_rommy.net.lobby import LobbyHost, TableSettings, join_table
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.seat.opening import SeatOptions, game_socket, open_session
from p2p_rommy.tui.lobby import LobbyModel, lines
from p2p_rommy.tui.model import ClientModel
from p2p_rommy.wire.identity import Identity, fingerprint


async def bot_joiner(tmp_path, name: str, port: int) -> None:
    identity = Identity.generate()
    sock = game_socket("127.0.0.1")
    addresses = [("127.0.0.1", sock.getsockname()[1])]
    started = await join_table(identity, name, "127.0.0.1", port, None, addresses)
    options = SeatOptions(name, tmp_path / name, "127.0.0.1", "random")
    player = make_bot("random", random.Random(len(name)))
    session, _ = await open_session(options, identity, started, sock, player, None)
    await session.run()


async def until(condition, timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


def test_host_in_the_client_starts_by_hand_and_plays():
    async def main(tmp_path):
        identity = Identity.generate()
        rules = ruleset("rummy", {"target_score": "500"})
        sock = game_socket("127.0.0.1")
        addresses = [("127.0.0.1", sock.getsockname()[1])]
        settings = TableSettings("Lobby test", "rummy", rules.house.values, rules.max_players)
        lobby = LobbyHost(identity, "Ann", settings, addresses, "127.0.0.1", None, advertise=False)
        options = SeatOptions("Ann", tmp_path / "Ann", "127.0.0.1", None, ascii_only=True)
        models: list[object] = []
        with create_pipe_input() as keys:
            screen = Screen(keys, DummyOutput(), models.append)
            hosting = asyncio.create_task(
                host_in_client(options, identity, lobby, rules, sock, screen)
            )
            await until(lambda: lobby.port and models)
            lobby_model = models[0]
            assert isinstance(lobby_model, LobbyModel)
            assert "waiting for players (1/2 needed)" in lobby_model.prompt()
            keys.send_text("\r")  # too few players: the status line says so
            await until(lambda: "needs at least 2 players" in lobby_model.status)
            lobby_model.status = ""
            joiners = [
                asyncio.create_task(bot_joiner(tmp_path, name, lobby.port)) for name in ("Bo", "Cy")
            ]
            await until(lambda: len(lobby_model.members) == 3)
            shown = "".join(text for _, text in lines(lobby_model))
            assert "Bo" in shown and "Cy" in shown and fingerprint(identity.public_key) in shown
            assert "Enter starts the game with 3 players" in lobby_model.prompt()
            keys.send_text("\r")
            await until(lambda: len(models) == 2)
            game = models[1]
            assert isinstance(game, ClientModel)
            await until(lambda: game.table.my_turn and game.table.state.phase is Phase.DRAW)
            keys.send_text("d")
            await until(lambda: any("You draw from the stock" in line for line in game.log))
            keys.send_text("qy")
            await asyncio.wait_for(hosting, 20)
            for task in joiners:
                task.cancel()
            await asyncio.gather(*joiners, return_exceptions=True)
        return game

    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        game = asyncio.run(main(Path(directory)))
    assert game.quit and [s.name for s in game.config.seats].count("Ann") == 1


def test_join_in_the_client_follows_the_lobby_into_the_game():
    from p2p_rommy.frontends.screen import join_in_client

    async def bot_host(tmp_path, lobby: LobbyHost, sock) -> None:
        started = await lobby.run()
        identity = lobby.identity
        options = SeatOptions("Host", tmp_path / "Host", "127.0.0.1", "random")
        player = make_bot("random", random.Random(1))
        session, _ = await open_session(options, identity, started, sock, player, None)
        await session.run()

    async def main(tmp_path):
        host_identity = Identity.generate()
        rules = ruleset("romme", {})
        host_sock = game_socket("127.0.0.1")
        addresses = [("127.0.0.1", host_sock.getsockname()[1])]
        settings = TableSettings("Join test", "romme", rules.house.values, rules.max_players)
        lobby = LobbyHost(
            host_identity, "Host", settings, addresses, "127.0.0.1", 3, advertise=False
        )
        await lobby.listen("127.0.0.1")
        hosting = asyncio.create_task(bot_host(tmp_path, lobby, host_sock))
        identity = Identity.generate()
        sock = game_socket("127.0.0.1")
        mine = [("127.0.0.1", sock.getsockname()[1])]
        options = SeatOptions("Dag", tmp_path / "Dag", "127.0.0.1", None, ascii_only=True)
        models: list[object] = []
        with create_pipe_input() as keys:
            screen = Screen(keys, DummyOutput(), models.append)
            target = ("127.0.0.1", lobby.port)
            joining = asyncio.create_task(
                join_in_client(options, identity, target, None, mine, sock, screen)
            )
            await until(lambda: models and len(models[0].members) == 2)
            lobby_model = models[0]
            assert isinstance(lobby_model, LobbyModel)
            assert lobby_model.variant == "romme" and lobby_model.table == "Join test"
            assert "waiting for the creator to start the game" in lobby_model.prompt()
            keys.send_text("\r")  # a joiner cannot start the game
            await until(lambda: "creator starts the game" in lobby_model.status)
            third = asyncio.create_task(bot_joiner(tmp_path, "Eva", lobby.port))
            await until(lambda: len(models) == 2)  # three seated: the host's bot started
            game = models[1]
            assert isinstance(game, ClientModel) and game.config.variant == "romme"
            await until(lambda: game.table.n > 0)
            keys.send_text("qy")
            await asyncio.wait_for(joining, 20)
            for task in (hosting, third):
                task.cancel()
            await asyncio.gather(hosting, third, return_exceptions=True)
        return game

    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        game = asyncio.run(main(Path(directory)))
    assert game.quit and sorted(s.name for s in game.config.seats) == ["Dag", "Eva", "Host"]


def test_a_player_waiting_for_the_table_to_reopen_is_not_told_to_wait_for_himself():
    """Issue 30 (a new game at a network table, seen in tests/test_new_game_tmux.py):
    after `n`, Bo's screen, still looking for Ann's reopened table, said "Waiting for
    Bo, Ann, Cy (n on the last game's summary)" under "seats: 0/0" and "house rules:
    the defaults" (nothing is known of the table yet; the last game's rules were not
    the defaults). While looking it names the table only (the status line says whom
    it waits for); at the table, the players still missing never include himself."""
    ann, bo, cy = (Identity.generate().public_key for _ in range(3))
    last_game = [("Bo", bo), ("Ann", ann), ("Cy", cy)]
    model = LobbyModel("Fredag", "?", [], 0, 0, bo, last_game=last_game)
    shown = "".join(text for _, text in lines(model))
    assert "Table 'Fredag'" in shown
    assert "Waiting for" not in shown and "0/0" not in shown and "the defaults" not in shown
    model.members = [("Ann", ann), ("Bo", bo)]
    model.variant, model.seats = "rummy", 6
    shown = "".join(text for _, text in lines(model))
    assert "Waiting for Cy (n on the last game's summary)." in shown, shown
    assert model.missing() == ["Cy"]
    model.members = [("Ann", ann)]  # the creator's state before Bo's entry
    assert model.missing() == ["Cy"]  # never "Bo", on Bo's own screen
