"""``rommy host|join|resume`` in the full-screen client: the lobby screen until the game
starts, then the game screen on this seat's network session.

I/O glue only: the lobby protocol is `p2p_rommy.lobby`, the session
`p2p_rommy.seat.session`, the screens `p2p_rommy.tui`.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.hints import hint_when_alone
from p2p_rommy.frontends.namesakes import warn_of_namesakes
from p2p_rommy.frontends.saved_games import mark_over
from p2p_rommy.i18n import _
from p2p_rommy.net.lobby import LobbyHost, LobbyState, Started, join_table
from p2p_rommy.rules.variants import RuleSet, ruleset
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.seat.opening import SeatOptions, open_session
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.table_view import TableView
from p2p_rommy.tui.lobby import LobbyModel, build_lobby_app
from p2p_rommy.tui.model import ClientModel
from p2p_rommy.wire.identity import Identity, fingerprint


@dataclass(frozen=True, slots=True)
class Screen:
    """Where the screens draw and read keys (None: the terminal); `watch` sees each
    screen's model as it is made (for tests)."""

    input: Any = None
    output: Any = None
    watch: Callable[[object], None] = lambda model: None


TERMINAL = Screen()


async def host_in_client(
    options: SeatOptions,
    identity: Identity,
    lobby: LobbyHost,
    rules: RuleSet,
    sock: socket.socket,
    screen: Screen = TERMINAL,
    where: str = "",
) -> int:
    settings = lobby.settings
    model = LobbyModel(
        settings.table,
        settings.variant,
        list(settings.house),
        settings.seats,
        rules.min_players,
        identity.public_key,
        start=lobby.start_now,
        remove=lobby.remove,
        known=KnownPlayers(options.data_dir),
        creator=identity.public_key,
        lobby=lobby.lobby,
    )
    model.update_members(lobby.members)
    lobby.on_change = model.update_members
    port = await lobby.listen(options.interface or "0.0.0.0")
    model.where = where
    address = f"{lobby.members[0].addresses[0][0]}:{port}" if lobby.members[0].addresses else ""

    def alone(hint: str) -> None:
        model.hint = hint

    hinting = asyncio.ensure_future(hint_when_alone(lobby, address, alone))
    namesakes = asyncio.ensure_future(
        warn_of_namesakes(
            options.interface, settings.table, fingerprint(identity.public_key), alone
        )
    )
    try:
        return await _lobby_then_game(model, lobby.run(), options, identity, sock, screen)
    finally:
        hinting.cancel()
        namesakes.cancel()


async def join_in_client(
    options: SeatOptions,
    identity: Identity,
    target: tuple[str, int],
    lobby: bytes | None,
    addresses: list[tuple[str, int]],
    sock: socket.socket,
    screen: Screen = TERMINAL,
    creator: str | None = None,
    where: str = "",
) -> int:
    model = LobbyModel(
        f"{target[0]}:{target[1]}",
        "?",
        [],
        0,
        0,
        identity.public_key,
        known=KnownPlayers(options.data_dir),
        where=where,
    )

    def on_state(state: LobbyState) -> None:
        model.update_state(state)
        model.min_players = ruleset(state.variant, {}).min_players

    joining = join_table(
        identity, options.name, target[0], target[1], lobby, addresses, on_state, creator
    )
    return await _lobby_then_game(model, joining, options, identity, sock, screen)


async def look_and_join_in_client(
    options: SeatOptions,
    identity: Identity,
    table: str | None,
    creator: str | None,
    wait: float,
    addresses: list[tuple[str, int]],
    sock: socket.socket,
    screen: Screen = TERMINAL,
) -> int:
    """`rommy join [NAME]` in the client: the lobby screen at once, saying it is looking
    for the table (for as long as it takes: the table may not be open yet; q leaves),
    then the lobby of the table found."""
    from p2p_rommy.frontends.finding import NoTableYet, choose_table, joined_via

    model = LobbyModel(
        table or "?", "?", [], 0, 0, identity.public_key, known=KnownPlayers(options.data_dir)
    )

    def on_state(state: LobbyState) -> None:
        model.update_state(state)
        model.min_players = ruleset(state.variant, {}).min_players

    def looking(text: str) -> None:  # each look, and a table passed over
        if "..." in text:
            text = (
                _("looking for the table {name!r}...").format(name=table)
                if table
                else _("looking for a table...")
            )
        model.status = text + " " + _("(q leaves)")

    async def look_then_join() -> Started:
        while True:
            try:
                ad, address = await choose_table(
                    identity, options.interface, table, creator, wait, say=looking
                )
                break
            except NoTableYet as error:
                model.hint = str(error) + " " + _("Still looking...")
        model.status, model.hint = "", ""
        model.where = joined_via(ad, address)
        return await join_table(
            identity, options.name, address, ad.port, ad.lobby, addresses, on_state, ad.creator
        )

    return await _lobby_then_game(model, look_then_join(), options, identity, sock, screen)


async def _lobby_then_game(
    model: LobbyModel,
    starting: Awaitable[Started],
    options: SeatOptions,
    identity: Identity,
    sock: socket.socket,
    screen: Screen,
) -> int:
    screen.watch(model)
    app = build_lobby_app(model, screen.input, screen.output)
    lobby_task = asyncio.ensure_future(starting)
    shown = asyncio.ensure_future(app.run_async())
    await asyncio.wait({lobby_task, shown}, return_when=asyncio.FIRST_COMPLETED)
    if not lobby_task.done():  # the player left the lobby
        lobby_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await lobby_task
        return 0
    if not shown.done():
        app.exit()
        await shown
    started = lobby_task.result()
    session, _ = await open_session(options, identity, started, sock, None, None)
    return await play_in_client(session, options.ascii_only, screen, options.four_colour)


async def play_in_client(
    session: Session, ascii_only: bool, screen: Screen = TERMINAL, four_colour: bool = False
) -> int:
    """The game screen on a network session, until the player quits."""
    from p2p_rommy.tui.app import build_app

    resumed = session.peer.catching_up
    session.start()
    model = ClientModel(session, ascii_only, four_colour)
    model.leaving_note = _(" (the table waits for you: rommy resume)")
    if resumed:
        session.listeners.append(_welcome_back(session, model))
    screen.watch(model)
    try:
        await build_app(model, screen.input, screen.output).run_async()
    finally:
        await session.mesh.flushed(2.0)
        await session.close()
    if session.store is not None:
        print(_("transcript: {path}").format(path=session.store.transcript_path))
    table = session.view
    if session.store is not None and (table.over or table.ended is not None):
        mark_over(session.store.directory)
    elif not (table.frozen or session.halted):
        print(_("You left the table; the others wait for you. Come back with:"))
        print(f"  rommy resume {session.config.game_id.hex()[:16]}")
    return 0


def _welcome_back(session: Session, model: ClientModel) -> Callable[[TableView], None]:
    """A listener that says, once the restarted seat has caught up, what to do now."""
    said = False

    def listen(table: TableView) -> None:
        nonlocal said
        if said or session.peer.catching_up:
            return
        said = True
        model.log.append(welcome_back(table, model.names))

    return listen


def welcome_back(table: TableView, names: list[str]) -> str:
    """The welcome-back line: what this seat does now, from its view."""
    state, seat = table.state, table.seat
    if table.over or table.ended is not None:
        doing = _("the game is over")
    elif state.phase is Phase.BUY and seat in state.buy_eligible and not table.answered_buy:
        doing = _("Køb! is open: k buys, p passes")
    elif table.my_turn and state.phase is Phase.DRAW:
        doing = _("your turn: draw a card (d or t)")
    elif table.my_turn and state.phase is Phase.PLAY:
        doing = _("you have drawn: meld, or discard a card (x)")
    elif table.waiting is not None and table.waiting.seat != seat:
        doing = _("waiting for {name}").format(name=names[table.waiting.seat])
    else:
        doing = _("the table goes on")
    return _("Welcome back: {doing}").format(doing=doing)
