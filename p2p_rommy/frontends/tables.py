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
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from p2p_rommy.bots import make_bot
from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ConfigError
from p2p_rommy.frontends.hints import hint_when_alone, nothing_found_hint
from p2p_rommy.frontends.namesakes import did_you_mean, warn_of_namesakes
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
    first_proven,
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


def _say(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)


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
        _say(
            _("{count} at the table: {players}").format(
                count=len(members),
                players=", ".join(f"{m.name} ({fingerprint(m.key)})" for m in members),
            )
        )
        for warning in known.warnings(((m.name, m.key) for m in members), identity.public_key):
            _say(warning)

    lobby = LobbyHost(
        identity, options.name, settings, addresses, options.interface, start_when, seated
    )
    if options.bot is None:
        from p2p_rommy.frontends.screen import host_in_client

        return await host_in_client(
            options, identity, lobby, rules, sock, where=machine.shown().say(_)
        )
    lobby_port = await lobby.listen(options.interface or "0.0.0.0")
    _say(
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
    alone = asyncio.ensure_future(hint_when_alone(lobby, f"{machine.first.ip}:{lobby_port}", _say))
    namesakes = asyncio.ensure_future(
        warn_of_namesakes(options.interface, table, fingerprint(identity.public_key), _say)
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
    _say(
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
                _say(warning)

    started = await join_table(
        identity, options.name, target[0], target[1], lobby, addresses, seen, creator
    )
    return await _play(options, options.bot, identity, started, sock)


def joined_via(ad: TableAd, address: str) -> str:
    """Where a table was joined, and why there."""
    return (
        _(
            "joining at {address}: of the {count} addresses the table advertises, the "
            "first at which its creator proved its key"
        )
        if len(ad.addresses) > 1
        else _("joining at {address}, where the table's creator proved its key")
    ).format(address=f"{address}:{ad.port}", count=len(ad.addresses))


class NoTableYet(ConfigError):
    """No open table of that name was seen (yet): the client keeps looking."""


async def choose_table(
    identity: Identity,
    interface: str | None,
    table: str | None,
    creator: str | None,
    wait: float,
    say: Callable[[str], None] = _say,
) -> tuple[TableAd, str]:
    """The open table to join, by name and (if given) creator fingerprint. Tables whose
    host cannot prove the key their advert names are impostors and are passed over;
    tables of the same name by different creators are not guessed between. Returns the
    table and the address at which its host proved the key (all its addresses are tried
    at once). Looks for up to `wait` seconds, and stops looking once one is seen."""

    def wanted(ads: list[TableAd]) -> list[TableAd]:
        return [
            ad
            for ad in ads
            if ad.open
            and (table is None or ad.table == table)
            and (creator is None or ad.creator == creator)
        ]

    where = (_(" named {table!r}").format(table=table) if table else "") + (
        _(" by {creator}").format(creator=creator) if creator else ""
    )
    say(
        _("looking for the table{where} (up to {seconds:.0f} s)...").format(
            where=where, seconds=wait
        )
    )
    ads = await find_tables(interface, wait, until=lambda ads: bool(wanted(ads)))
    found = wanted(ads)
    other = sorted({ad.version for ad in found if ad.version != PROTOCOL_VERSION})
    found = [ad for ad in found if ad.version == PROTOCOL_VERSION]
    if not found and other:
        raise ConfigError(
            _(
                "the open table{where} speaks protocol v{theirs}, this p2p-rommy "
                "v{ours}: both need the same release"
            ).format(where=where, theirs=other[0], ours=PROTOCOL_VERSION)
        )
    if not found:
        close = did_you_mean(table, [ad.table for ad in ads if ad.open])
        raise NoTableYet(
            _("no open table{where} found in {seconds:.0f} s.").format(where=where, seconds=wait)
            + " "
            + (
                _("Did you mean {table!r}?").format(table=inert(close))
                if close is not None
                else nothing_found_hint(interface)
            )
        )
    creators = sorted({(ad.table, ad.creator) for ad in found})
    if len(creators) > 1:
        listed = "; ".join(
            _("{table!r} by {creator}").format(table=inert(name), creator=inert(fp))
            for name, fp in creators
        )
        raise ConfigError(
            _(
                "several open tables{where}: {listed}. Ask the creator for the fingerprint "
                "on their screen and join with the table's name and --creator FINGERPRINT"
            ).format(where=where, listed=listed)
        )
    for ad in found:
        address, seen = await first_proven(identity, ad.addresses, ad.port, ad.lobby, ad.creator)
        if address is not None:
            return ad, address
        for address, proven in seen.items():
            say(
                (
                    _(
                        "passed over a table {table!r} at {address}: it claims the creator "
                        "{creator} but proves the key {proven} (an impostor, or a table "
                        "that has closed)"
                    )
                    if proven
                    else _(
                        "passed over a table {table!r} at {address}: it claims the creator "
                        "{creator} but proves no key (an impostor, or a table that has closed)"
                    )
                ).format(
                    table=inert(ad.table),
                    address=f"{address}:{ad.port}",
                    creator=inert(ad.creator),
                    proven=proven,
                )
            )
    raise ConfigError(
        _("no table{where} proves the creator's key it advertises; not joining").format(where=where)
    )


async def _play(
    options: SeatOptions, bot: str, identity: Identity, started: Started, sock: socket.socket
) -> int:
    config = started.config
    seat = config.seat_of(identity.public_key)
    assert seat is not None
    _say(
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
        _say(saved.repaired)
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
    _say(
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
        _say(_("stopped: {reason}").format(reason=session.halted))
        return 1
    if peer.frozen:
        _say(_("the table froze: {reason}").format(reason=peer.frozen))
        return 1
    if peer.alone:
        _say(
            _(
                "nobody else is at the table any more: the others have finished the match "
                "or left. This seat's transcript ends at step {step}; if the match is over, "
                "the last steps are in theirs. When they are back: rommy resume {game}"
            ).format(step=peer.replica.n, game=config.game_id.hex()[:16])
        )
        return 1
    if peer.replica.ended is not None:
        _say(
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
