"""``rommy host``, ``join`` and ``resume``: one flow for each, with two front-ends.

Each flow loads this player's identity, opens its game listener and gathers the table
(the lobby: advertise or find, admit, the joint coin, the signed config) or, for a
resume, reads the seat's files. Then the front-end takes the seat: with ``--bot`` a
bot plays headless until the match ends and the final score sheet is printed (here);
without, the full-screen client shows the lobby and the game (`frontends/screen.py`).
"""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Coroutine
from typing import Any

from p2p_rommy.bots import make_bot
from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ConfigError
from p2p_rommy.frontends.finding import choose_table, joined_via, say
from p2p_rommy.frontends.hints import hint_when_alone, nothing_found_hint
from p2p_rommy.frontends.namesakes import warn_of_namesakes
from p2p_rommy.frontends.saved_games import mark_over
from p2p_rommy.i18n import _
from p2p_rommy.limits import END_AFTER_S, LOOK_FOR_TABLE_S
from p2p_rommy.narrate import score_sheet
from p2p_rommy.net.addresses import local_addresses, this_machine
from p2p_rommy.net.discovery import TableAd, find_tables
from p2p_rommy.net.lobby import (
    LobbyHost,
    LobbyState,
    Member,
    Started,
    TableSettings,
    join_table,
)
from p2p_rommy.rules.house_words import variant_name
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.seat.opening import SeatOptions, game_socket, load_identity, open_seat, open_session
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.storage import GameStore, find_game
from p2p_rommy.wire.identity import Identity, fingerprint
from p2p_rommy.wire.text import inert, printable

BOT_LEVELS = ("random", "easy", "normal", "hard")
"""``random`` plays random-legal moves; the others are the heuristic bot's levels."""


async def host_table(
    options: SeatOptions,
    table: str,
    variant: str,
    house: dict[str, str],
    start_when: int | None,
) -> int:
    rules = ruleset(variant, house)
    if start_when is None and options.bot is not None:
        raise ConfigError(
            _("a headless host needs --start-when N (the client starts games by hand)")
        )
    if start_when is not None:
        rules.check_players(start_when)
    identity = load_identity(options.data_dir)
    sock = game_socket(options.interface)
    port = sock.getsockname()[1]
    machine = this_machine(options.interface)
    addresses = [(a, port) for a in machine.ips]
    settings = TableSettings(table, variant, rules.house.values, rules.max_players)
    known = KnownPlayers(options.data_dir)

    def seated(members: list[Member]) -> None:
        say(
            _("{count} at the table: {players}").format(
                count=len(members),
                players=", ".join(f"{m.name} ({fingerprint(m.key)})" for m in members),
            )
        )
        for warning in known.warnings(((m.name, m.key) for m in members), identity.public_key):
            say(warning)

    lobby = LobbyHost(
        identity, options.name, settings, addresses, options.interface, start_when, seated
    )
    if options.bot is None:
        from p2p_rommy.frontends.screen import host_in_client

        return await host_in_client(
            options, identity, lobby, rules, sock, where=machine.shown().say(_)
        )
    lobby_port = await lobby.listen(options.interface or "0.0.0.0")
    say(
        _(
            "table {table!r} ({variant}) open on port {port}; you are {name} ({fingerprint}); "
            "starting at {count} players"
        ).format(
            table=table,
            variant=variant_name(variant),
            port=lobby_port,
            name=options.name,
            fingerprint=fingerprint(identity.public_key),
            count=start_when,
        )
    )
    print(printable(_("this table uses {where}").format(where=machine.shown().say(_))), flush=True)
    alone = asyncio.ensure_future(hint_when_alone(lobby, f"{machine.first.ip}:{lobby_port}", say))
    namesakes = asyncio.ensure_future(
        warn_of_namesakes(options.interface, table, fingerprint(identity.public_key), say)
    )
    try:
        started = await lobby.run()
    finally:
        alone.cancel()
        namesakes.cancel()
    return await _play(options, options.bot, identity, started, sock)


async def join_named_table(
    options: SeatOptions,
    table: str | None,
    connect: str | None,
    wait: float = LOOK_FOR_TABLE_S,
    creator: str | None = None,
) -> int:
    identity = load_identity(options.data_dir)
    if connect is None and options.bot is None:  # the client: a screen while it looks
        from p2p_rommy.frontends.screen import look_and_join_in_client

        sock = game_socket(options.interface)
        port = sock.getsockname()[1]
        addresses = [(a, port) for a in local_addresses(options.interface)]
        return await look_and_join_in_client(
            options, identity, table, creator, wait, addresses, sock
        )
    if connect is not None:
        host, _colon, port_text = connect.rpartition(":")
        if not host or not port_text.isdigit():
            raise ConfigError(_("--connect takes HOST:PORT, not {given!r}").format(given=connect))
        target, lobby = (host, int(port_text)), None
        via = _("joining at {address} (--connect)").format(address=connect)
    else:
        ad, address = await choose_table(identity, options.interface, table, creator, wait)
        target, lobby, creator = (address, ad.port), ad.lobby, ad.creator
        via = joined_via(ad, address)
    sock = game_socket(options.interface)
    port = sock.getsockname()[1]
    addresses = [(a, port) for a in local_addresses(options.interface)]
    if options.bot is None:
        from p2p_rommy.frontends.screen import join_in_client

        return await join_in_client(
            options, identity, target, lobby, addresses, sock, creator=creator, where=via
        )
    print(printable(via), flush=True)
    say(
        _("joining {address} as {name} ({fingerprint})").format(
            address=f"{target[0]}:{target[1]}",
            name=options.name,
            fingerprint=fingerprint(identity.public_key),
        )
    )
    known = KnownPlayers(options.data_dir)
    warned: set[str] = set()

    def seen(state: LobbyState) -> None:
        players = ((m.name, m.key) for m in state.members)
        for warning in known.warnings(players, identity.public_key):
            if warning not in warned:
                warned.add(warning)
                say(warning)

    started = await join_table(
        identity, options.name, target[0], target[1], lobby, addresses, seen, creator
    )
    return await _play(options, options.bot, identity, started, sock)


async def _play(
    options: SeatOptions, bot: str, identity: Identity, started: Started, sock: socket.socket
) -> int:
    config = started.config
    seat = config.seat_of(identity.public_key)
    assert seat is not None
    say(
        _("game {game} code {code}: you are seat {seat} of {count}; first dealer {dealer}").format(
            game=config.game_id.hex()[:16],
            code=config.short_code(),
            seat=seat + 1,
            count=config.players,
            dealer=config.seats[config.first_dealer].name,
        )
    )
    player = make_bot(bot, random.Random())
    session, store = await open_session(options, identity, started, sock, player, END_AFTER_S)
    return await _finish(session, store)


async def resume_game(options: SeatOptions, game: str) -> int:
    """Restart this seat of a game from its transcript and secrets, catch up from the
    others (checking every step and ACK), and play on."""
    if options.bot is None:
        from p2p_rommy.frontends.screen import play_in_client

        session, _store = await resumed_session(options, game, None, None)
        return await play_in_client(session, options.ascii_only, four_colour=options.four_colour)
    bot = make_bot(options.bot, random.Random())
    session, store = await resumed_session(options, game, bot, END_AFTER_S)
    return await _finish(session, store)


async def resumed_session(
    options: SeatOptions,
    game: str,
    player: Player | None,
    end_after: float | None,
) -> tuple[Session, GameStore]:
    """A restarted seat's session: its transcript replayed, listening where it did,
    dialing the others; it catches up before it proposes anything."""
    identity = load_identity(options.data_dir)
    directory = find_game(options.data_dir, game)
    store = GameStore(options.data_dir, bytes.fromhex(directory.name))
    saved = store.load()
    config = saved.genesis.config
    seat = config.seat_of(identity.public_key)
    if seat is None:
        raise ConfigError(
            _("this identity holds no seat in game {game}").format(game=directory.name[:16])
        )
    if saved.repaired:
        say(saved.repaired)
    own = saved.addresses.get(seat, [])
    sock = game_socket(options.interface, own[0][1] if own else 0)
    session = await open_seat(
        config,
        identity,
        player,
        listen=sock,
        addresses=saved.addresses,
        store=store,
        saved=saved,
        end_after=end_after,
    )
    say(
        _("resuming game {game} as seat {seat} ({name}) at step {step}; catching up").format(
            game=config.game_id.hex()[:16],
            seat=seat + 1,
            name=config.seats[seat].name,
            step=session.peer.replica.n,
        )
    )
    return session, store


async def _finish(session: Session, store: GameStore) -> int:
    config, peer = session.config, session.peer
    final = await session.run()
    if session.halted is not None:
        say(_("stopped: {reason}").format(reason=session.halted))
        return 1
    if peer.frozen and peer.replica.ended is None:
        say(_("the table froze: {reason}").format(reason=peer.frozen))
        return 1
    if peer.alone:
        say(
            _(
                "nobody else is at the table any more: the others have finished the match "
                "or left. This seat's transcript ends at step {step}; if the match is over, "
                "the last steps are in theirs. When they are back: rommy resume {game}"
            ).format(step=peer.replica.n, game=config.game_id.hex()[:16])
        )
        return 1
    if peer.replica.ended is not None:
        say(
            _("the game was ended by agreement: {reason}").format(
                reason=inert(peer.replica.ended[1])
            )
        )
    mark_over(store.directory)
    forfeited = peer.replica.forfeited
    names = [s.name for s in config.seats]
    sheet = score_sheet(final, names, forfeited, words=_, abandoned=peer.replica.abandoned)
    print(printable(sheet))
    print(_("transcript: {path}").format(path=store.transcript_path))
    return 0


async def list_tables(interface: str | None, wait: float) -> int:
    tables = await find_tables(interface, wait)
    if not tables:
        print(printable(_("no tables found.") + " " + nothing_found_hint(interface)))
    for ad in tables:
        print(inert(described(ad)))
    return 0


def described(ad: TableAd) -> str:
    """One table as `rommy tables` lists it, in the player's language."""
    return (
        (
            _("{table}: {variant}, {taken} of {seats} seats, open to join")
            if ad.open
            else _("{table}: {variant}, {taken} of {seats} seats, playing")
        ).format(
            table=repr(ad.table), variant=variant_name(ad.variant), taken=ad.taken, seats=ad.seats
        )
        + "; "
        + _("creator {creator} at {where}").format(
            creator=ad.creator, where=", ".join(f"{a}:{ad.port}" for a in ad.addresses)
        )
    )


def run(coroutine: Coroutine[Any, Any, int]) -> int:
    result: int = asyncio.run(coroutine)
    return result
