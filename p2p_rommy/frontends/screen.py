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

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.state import Phase
from p2p_rommy.errors import ConfigError
from p2p_rommy.frontends.hints import hint_when_alone
from p2p_rommy.frontends.namesakes import warn_of_namesakes
from p2p_rommy.frontends.saved_games import mark_over
from p2p_rommy.i18n import _
from p2p_rommy.limits import AGAIN_SETTLE_S, JOIN_SETTLE_S, LOOK_FOR_TABLE_S
from p2p_rommy.net.addresses import local_addresses, this_machine
from p2p_rommy.net.lobby import LobbyHost, LobbyState, Started, TableSettings, join_table
from p2p_rommy.rules.variants import RuleSet, ruleset
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.seat.opening import SeatOptions, game_socket, open_session
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


@dataclass(frozen=True, slots=True)
class Again:
    """How this seat sits down to a new game at the same table (`n` on the final
    summary): the table's creator opens the table again, under its name, for the last
    game's players only, and starts it once all of them are back (or by hand, without
    those who left); each other player looks for that table by name and the creator's
    key and joins. A new lobby means a new joint coin: new seats order, a new game id."""

    options: SeatOptions
    identity: Identity
    creator: bytes
    """The key of the table's creator, as proven in the lobby's handshake."""

    async def play(self, config: GameConfig, screen: Screen) -> int:
        """The new game's lobby (it says whom it waits for), then the game."""
        options, identity = self.options, self.identity
        seat = config.seat_of(identity.public_key)
        assert seat is not None
        name = config.seats[seat].name
        players = [(s.name, s.public_key) for s in config.seats]
        sock = game_socket(options.interface)
        port = sock.getsockname()[1]
        if self.creator == identity.public_key:
            machine = this_machine(options.interface)
            lobby = reopened_lobby(config, identity, [(a, port) for a in machine.ips], options)
            return await host_in_client(
                options,
                identity,
                lobby,
                config.rules,
                sock,
                screen,
                where=machine.shown().say(_),
                again=(self, players),
            )
        addresses = [(a, port) for a in local_addresses(options.interface)]
        creator = next(n for n, key in players if key == self.creator)
        return await look_and_join_in_client(
            replace_name(options, name),
            identity,
            config.table,
            fingerprint(self.creator),
            LOOK_FOR_TABLE_S,
            addresses,
            sock,
            screen,
            again=(self, players),
            waiting_for=creator,
        )


def reopened_lobby(
    config: GameConfig,
    identity: Identity,
    addresses: list[tuple[str, int]],
    options: SeatOptions,
) -> LobbyHost:
    """The lobby of the table its creator opens again after `config`'s game: the same
    name and rules, for the last game's players only; it starts by itself once all
    are back. Its mDNS name was this creator's a game ago, so it is not probed for
    again (~1.1 s of the reopen, `Advertiser`)."""
    seat = config.seat_of(identity.public_key)
    assert seat is not None
    settings = TableSettings(config.table, config.variant, config.house, config.rules.max_players)
    return LobbyHost(
        identity,
        config.seats[seat].name,
        settings,
        addresses,
        options.interface,
        config.players,  # everyone back: it starts by itself
        only=frozenset(config.public_keys),
        probe=False,
    )


def replace_name(options: SeatOptions, name: str) -> SeatOptions:
    """`options` with the name this player had at the last game (a new game keeps it)."""
    from dataclasses import replace

    return replace(options, name=name)


async def host_in_client(
    options: SeatOptions,
    identity: Identity,
    lobby: LobbyHost,
    rules: RuleSet,
    sock: socket.socket,
    screen: Screen = TERMINAL,
    where: str = "",
    again: tuple[Again, list[tuple[str, bytes]]] | None = None,
) -> int:
    """The lobby screen of the table this player opens, then the game. `again`: a new
    game at the same table (see `Again`), with the last game's players."""
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
        last_game=[] if again is None else again[1],
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
    again_here = Again(options, identity, identity.public_key) if again is None else again[0]
    try:
        return await _lobby_then_game(
            model, lobby.run(), options, identity, sock, screen, again_here
        )
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
    return await _lobby_then_game(model, joining, options, identity, sock, screen, None)


async def look_and_join_in_client(
    options: SeatOptions,
    identity: Identity,
    table: str | None,
    creator: str | None,
    wait: float,
    addresses: list[tuple[str, int]],
    sock: socket.socket,
    screen: Screen = TERMINAL,
    again: tuple[Again, list[tuple[str, bytes]]] | None = None,
    waiting_for: str | None = None,
) -> int:
    """`rommy join [NAME]` in the client: the lobby screen at once, saying it is looking
    for the table (for as long as it takes: the table may not be open yet; q leaves),
    then the lobby of the table found. `again`: a new game at the same table (see
    `Again`); `waiting_for` names its creator while it has not opened it yet."""
    from p2p_rommy.frontends.finding import NoTableYet, choose_table, joined_via

    model = LobbyModel(
        table or "?",
        "?",
        [],
        0,
        0,
        identity.public_key,
        known=KnownPlayers(options.data_dir),
        last_game=[] if again is None else again[1],
    )

    def on_state(state: LobbyState) -> None:
        model.update_state(state)
        model.min_players = ruleset(state.variant, {}).min_players

    def looking(text: str) -> None:  # each look, and a table passed over
        if "..." in text:
            text = (
                _("waiting for {name} to open the table {table!r} again...").format(
                    name=waiting_for, table=table
                )
                if waiting_for is not None
                else _("looking for the table {name!r}...").format(name=table)
                if table
                else _("looking for a table...")
            )
        model.status = text + " " + _("(q leaves)")

    async def look_then_join() -> Started:
        while True:
            try:
                ad, address = await choose_table(
                    identity,
                    options.interface,
                    table,
                    creator,
                    wait,
                    say=looking,
                    settle=AGAIN_SETTLE_S if again is not None else JOIN_SETTLE_S,
                )
                break
            except NoTableYet as error:
                model.hint = str(error) + " " + _("Still looking...")
            except ConfigError as error:
                if again is None:
                    raise
                # the last game's lobby, still cached, proves nothing now: look again
                model.hint = str(error) + " " + _("Still looking...")
                await asyncio.sleep(1.0)
        model.status, model.hint = "", ""
        model.where = joined_via(ad, address)
        return await join_table(
            identity, options.name, address, ad.port, ad.lobby, addresses, on_state, ad.creator
        )

    def again_with_creator() -> Again:
        assert model.creator is not None  # the lobby state came before the start
        return Again(options, identity, model.creator)

    return await _lobby_then_game(
        model,
        look_then_join(),
        options,
        identity,
        sock,
        screen,
        again_with_creator,
    )


async def _lobby_then_game(
    model: LobbyModel,
    starting: Awaitable[Started],
    options: SeatOptions,
    identity: Identity,
    sock: socket.socket,
    screen: Screen,
    again: Again | Callable[[], Again] | None,
) -> int:
    """The lobby screen until the game starts, then the game screen. `again`: how this
    seat sits down to a new game at the same table (`n`), or what gives it once the
    lobby has named the creator."""
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
    if callable(again):
        again = again()
    return await play_in_client(session, options.ascii_only, screen, options.four_colour, again)


async def play_in_client(
    session: Session,
    ascii_only: bool,
    screen: Screen = TERMINAL,
    four_colour: bool = False,
    again: Again | None = None,
) -> int:
    """The game screen on a network session, until the player quits; with `again`, `n`
    on the final summary sits down to a new game at the same table (`Again`)."""
    from p2p_rommy.tui.app import build_app

    resumed = session.peer.catching_up
    session.start()
    model = ClientModel(session, ascii_only, four_colour)
    model.leaving_note = _(" (the table waits for you: rommy resume)")
    model.new_game_offered = again is not None
    if resumed:
        session.listeners.append(_welcome_back(session, model))
    screen.watch(model)
    try:
        await build_app(model, screen.input, screen.output).run_async()
    finally:
        await session.mesh.flushed(2.0, settled=_gone_at_the_end(session))
        await session.close()
    if session.store is not None:
        print(_("transcript: {path}").format(path=session.store.transcript_path))
    table = session.view
    if session.store is not None and (table.over or table.ended is not None):
        mark_over(session.store.directory)
        if again is not None and model.new_game:
            print(_("A new game at the same table..."), flush=True)
            return await again.play(session.config, screen)
    elif not (table.frozen or session.halted):
        print(_("You left the table; the others wait for you. Come back with:"))
        print(f"  rommy resume {session.config.game_id.hex()[:16]}")
    return 0


def _gone_at_the_end(session: Session) -> Callable[[int], bool]:
    """For the flush before the client closes: once the match is over, a seat whose
    connection is closed has finished too (the first to finish closes its links), so
    what is queued for it would never be written; waiting for it froze `n` and `q`."""

    def gone(seat: int) -> bool:
        table = session.view
        over = table.over or table.ended is not None
        return over and not session.mesh.connected().get(seat, False)

    return gone


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
