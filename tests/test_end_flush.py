"""Issue 30 (a new game at a network table, seen in tests/test_new_game_tmux.py): at
the end of a match, `n` or `q` on the final summary froze the screen for 2 s. The
first seat to finish closes its connections, so what the client still had queued for
it is never written, and the client waited the whole of `Mesh.flushed(2.0)` for that
queue before it opened the next lobby (or quit). A seat whose connection is closed once
the match is over has finished too: its queue is not waited for."""

from __future__ import annotations

import asyncio
import random
import time

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_rommy.bots import make_bot
from p2p_rommy.frontends.local import local_table
from p2p_rommy.frontends.screen import Screen, play_in_client
from p2p_rommy.tui.model import ClientModel
from tests.test_tui_lobby import until


def test_quitting_a_finished_match_does_not_wait_for_a_seat_that_has_closed():
    async def main() -> float:
        human, others = await local_table("rummy", ["normal"], {"target_score": "1"}, "Ann", 3)
        human.peer.player = make_bot("normal", random.Random(3))  # its moves, by a bot
        models: list[object] = []
        with create_pipe_input() as keys:
            screen = Screen(keys, DummyOutput(), models.append)
            client = asyncio.create_task(play_in_client(human, True, screen))
            bot = asyncio.create_task(others[0].run())
            await until(lambda: models, timeout=30)
            model = models[0]
            assert isinstance(model, ClientModel)
            await until(model.match_over, timeout=300)
            await asyncio.wait_for(bot, 60)  # the bot's seat finished and closed its links
            await until(lambda: not human.mesh.connected()[1], timeout=30)
            human.mesh.send(1, [b"its last words, never written"])  # as when it closed first
            pressed = time.monotonic()
            keys.send_text("q")
            await asyncio.wait_for(client, 30)
            return time.monotonic() - pressed

    took = asyncio.run(main())
    assert took < 1.5, took  # was 2.0 s and more: the whole flush timeout
