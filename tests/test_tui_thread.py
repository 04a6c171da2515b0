"""One thread owns a seat's screen: the client runs on the event loop's thread only.

The peer computes in the session's worker threads; the client used to be told of
commits from there (and caught every error while drawing, since a drawing could meet a
state half way through a step). Now the session publishes an immutable `TableView` on
the loop after each call, and the client reads only that. This plays a game of the
real app against a bot and records the thread of every client call: the model's news,
every drawing and every key handler."""

from __future__ import annotations

import asyncio
import threading

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.local import local_table
from p2p_rommy.seat.table_view import TableView
from p2p_rommy.tui import app as tui_app
from p2p_rommy.tui import render
from p2p_rommy.tui.app import build_app
from p2p_rommy.tui.model import ClientModel


def test_the_client_runs_on_the_loop_thread_only(monkeypatch):
    threads: set[int] = set()
    calls = {"news": 0, "draw": 0}

    def recorded(name, function):
        def call(*args, **kwargs):
            threads.add(threading.get_ident())
            calls[name] += 1
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(ClientModel, "_published", recorded("news", ClientModel._published))
    for name in ("header", "opponents", "table", "hand", "log", "status"):
        monkeypatch.setattr(tui_app.render, name, recorded("draw", getattr(render, name)))

    async def main() -> tuple[int, ClientModel]:
        loop_thread = threading.get_ident()
        human, others = await local_table("rummy", ["normal"], {"target_score": "15"}, "Ann", 3)
        robots = [asyncio.create_task(s.run()) for s in others]
        human.start()
        model = ClientModel(human, ascii_only=True)
        try:
            with create_pipe_input() as keys:
                app = build_app(model, input=keys, output=DummyOutput())
                running = asyncio.create_task(app.run_async())
                async with asyncio.timeout(120):
                    while model.table.n < 40 and not model.table.over:
                        if model.show_scores:  # a round's summary: space goes on
                            keys.send_text(" ")
                        elif model.table.state.phase is Phase.BUY:
                            keys.send_text("p")
                        elif model.table.my_turn and model.table.state.phase is Phase.DRAW:
                            keys.send_text("d")
                        elif model.table.my_turn and model.table.state.phase is Phase.PLAY:
                            hand = model.hand()
                            if hand:  # the first card, by its label (labels stay put)
                                keys.send_text("c" + model.label(hand[0][0]) + "x")
                        app.invalidate()
                        await asyncio.sleep(0.05)
                keys.send_text("qy")
                await asyncio.wait_for(running, 10)
        finally:
            for task in robots:
                task.cancel()
            await asyncio.gather(*robots, return_exceptions=True)
            await human.close()
        return loop_thread, model

    loop_thread, model = asyncio.run(main())
    assert calls["news"] > 10 and calls["draw"] > 10
    assert threads == {loop_thread}
    assert isinstance(model.table, TableView)
    assert any("discard" in line for line in model.log)
