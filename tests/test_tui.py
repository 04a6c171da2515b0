"""The real prompt_toolkit app, headless (pipe input + DummyOutput), playing real turns
against a bot over the real protocol on loopback: draw, lay down, discard, help, quit."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.local import local_table
from p2p_rommy.rules.finder import candidate_melds
from p2p_rommy.tui import render
from p2p_rommy.tui.app import build_app
from p2p_rommy.tui.model import ClientModel

SEED = 1  # deals the human seat a meld in its first hand (Rummy, one bot)


async def until(condition, timeout: float = 90.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


def test_a_whole_turn_in_the_real_app():
    async def main() -> ClientModel:
        human, others = await local_table("rummy", ["normal"], {"target_score": "500"}, "Ann", SEED)
        robots = [asyncio.create_task(s.run()) for s in others]
        human.start()
        model = ClientModel(human, ascii_only=True)
        my_draw = lambda: model.table.my_turn and model.table.state.phase is Phase.DRAW  # noqa: E731
        try:
            with create_pipe_input() as keys:
                app = build_app(model, input=keys, output=DummyOutput())
                running = asyncio.create_task(app.run_async())
                await until(my_draw)
                assert "Your turn: d draws" in render.status(model)[0][1]
                keys.send_text("x")  # nothing selected: the status line explains
                await until(lambda: "select exactly one card" in model.status)
                keys.send_text("h")
                await until(lambda: model.show_hints)
                keys.send_text("d")
                await until(lambda: model.table.state.phase is Phase.PLAY and model.table.my_turn)
                hand = model.hand()
                meld = candidate_melds(hand, model.deck, model.config.rules)[0]
                labels = [model.label(slot) for slot, _ in hand if slot in meld.slots]
                keys.send_text("".join(labels) + "m\r")
                await until(lambda: any(m.owner == model.seat for m in model.table.state.melds))
                await until(lambda: model.table.my_turn)
                keys.send_text(model.label(model.hand()[0][0]))  # labels stay: "1" may be down
                keys.send_text("x")
                await until(lambda: any("You discard" in line for line in model.log))
                keys.send_text("?")
                await until(lambda: model.show_help)
                keys.send_text("?q")
                await until(lambda: model.confirm_quit)
                assert "Quit the game?" in render.status(model)[0][1]
                keys.send_text("y")
                await asyncio.wait_for(running, 10)
        finally:
            for task in robots:
                task.cancel()
            await asyncio.gather(*robots, return_exceptions=True)
            await human.close()
        return model

    model = asyncio.run(main())
    assert model.quit
    log = "\n".join(model.log)
    assert "You draw from the stock" in log and "You lay down" in log and "You discard" in log


def test_render_functions_show_the_table_and_the_hand():
    async def main() -> tuple[str, str]:
        human, others = await local_table("lp", ["random"] * 3, {}, "Ann", 5)
        robots = [asyncio.create_task(s.run()) for s in others]
        human.start()
        model = ClientModel(human)
        try:
            await until(lambda: model.hand() and model.table.state.phase is not Phase.ROUND_START)
            header = "".join(text for _, text in render.header(model))
            hand = "".join(text for _, text in render.hand(model))
        finally:
            for task in robots:
                task.cancel()
            await asyncio.gather(*robots, return_exceptions=True)
            await human.close()
        return header, hand

    header, hand = asyncio.run(main())
    code, rest = header.strip().split(" ", 1)
    assert len(code) == 6 and code.isalnum()  # the game code, always on screen
    assert rest.startswith("lp | round 1/7") and "to open: 2 passere" in header
    assert "buys any" in header
    assert "1:" in hand and ("♠" in hand or "♥" in hand or "♦" in hand or "♣" in hand)
