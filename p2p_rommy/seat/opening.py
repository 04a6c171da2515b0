"""Seating a player at a table: its identity, its options, its game listener, and the
one way a seat is opened (`open_seat`: replica, peer, session, listening, dialling) for
every front-end (`frontends/`: bots, the full-screen client, `rommy play`) and the
in-process matches (`loopback_match`)."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.i18n import N_, _, say_os_error, say_reason
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.portable.sockets import listening_socket
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.storage import GameStore, SavedGame, check_private, private_dir
from p2p_rommy.wire.identity import Entropy, Identity

if TYPE_CHECKING:  # `rommy play` opens seats with no lobby and no mDNS: not imported
    from p2p_rommy.lobby import Started


def load_identity(data_dir: Path) -> Identity:
    """This player's long-term key, made on first use and kept at mode 0600."""
    path = Path(data_dir) / "identity"
    if path.exists():
        check_private(path, N_("identity key"))
        data = path.read_bytes()
        if len(data) != 32:
            raise ConfigError(
                _("{path} is not a p2p-rommy identity (expected 32 bytes)").format(path=path)
            )
        return Identity(data)
    private_dir(path.parent)
    identity = Identity.generate()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(identity.private_bytes)
    return identity


@dataclass
class SeatOptions:
    name: str
    data_dir: Path
    interface: str | None
    bot: str | None
    """A bot level, or None for the full-screen client."""
    ascii_only: bool = False
    four_colour: bool = False
    """Four suit colours in the client (colour-blind safe)."""


def game_socket(interface: str | None, port: int = 0) -> socket.socket:
    try:
        return listening_socket(interface or "0.0.0.0", port)
    except OSError as error:
        raise ConfigError(
            _("cannot listen on port {port}: {why}").format(port=port, why=say_os_error(error))
        ) from None


async def open_seat(
    config: GameConfig,
    identity: Identity,
    player: Player | None,
    *,
    listen: socket.socket | tuple[str, int],
    addresses: Mapping[int, list[tuple[str, int]]] | None = None,
    store: GameStore | None = None,
    saved: SavedGame | None = None,
    entropy: Entropy = secrets.token_bytes,
    stall_after: float = STALL_AFTER_S,
    end_after: float | None = None,
) -> Session:
    """This seat of `config` opened: its replica (with `saved`, a restart: its transcript
    replayed, every signature, proof and ACK checked, and its round seeds), its peer
    (moves from `player`, or from the client when None), its session (keeping its
    files in `store`), listening on `listen` and — given `addresses` — dialling the
    others. Not started: `session.start()` or `session.run()`."""
    seat = config.seat_of(identity.public_key)
    if seat is None:
        raise ConfigError(
            _("this identity holds no seat in game {game}").format(game=config.game_id.hex()[:16])
        )
    if saved is None:
        replica = SeatedReplica(config, seat, identity, entropy)
    else:  # every proof of the transcript is checked again: off the event loop
        secrets_path = None if store is None else store.secrets_path
        replica = await asyncio.to_thread(
            _restored, config, seat, identity, entropy, saved, secrets_path
        )
    records = None if saved is None else saved.records
    acked = None if saved is None else saved.acked
    peer = Peer(
        replica,
        player,
        stall_after,
        records=records,
        end_after=end_after,
        archive=store,
        acked=acked,
    )
    session = Session(peer, config, store)
    if isinstance(listen, socket.socket):
        await session.listen(sock=listen)
    else:
        await session.listen(*listen)
    if addresses is not None:
        session.connect(dict(addresses))
    return session


def _restored(
    config: GameConfig,
    seat: int,
    identity: Identity,
    entropy: Entropy,
    saved: SavedGame,
    secrets_path: Path | None = None,
) -> SeatedReplica:
    """This seat's replica replayed from its saved transcript and seeds (read from
    `secrets_path`, named if the seed a replay needs is not in it)."""
    replica = SeatedReplica(config, seat, identity, entropy, seeds=saved.seeds)
    try:
        for record in saved.records:
            replica.restore(record.step, record.acks)
    except ProtocolError as error:
        round_no = None if replica.deck is None else replica.deck.seat.params.round_no
        if secrets_path is not None and round_no is not None and round_no not in saved.seeds:
            # without its seed this seat cannot open its own cards: the replay fails on
            # the first, which says nothing of the cause
            template = (
                _(
                    "cannot resume: the round secrets file {path} is missing; it held this "
                    "seat's secret for round {round}, without which its cards cannot be opened"
                )
                if not secrets_path.exists()
                else _(
                    "cannot resume: the round secrets file {path} lacks this seat's secret "
                    "for round {round}, without which its cards cannot be opened"
                )
            )
            raise ConfigError(template.format(path=secrets_path, round=round_no + 1)) from None
        raise ConfigError(
            _("the saved transcript does not replay: {why}").format(
                why=say_reason(str(error), quote_unknown=False)
            )
        ) from None
    return replica


async def open_session(
    options: SeatOptions,
    identity: Identity,
    started: Started,
    sock: socket.socket,
    player: Player | None,
    end_after: float | None,
) -> tuple[Session, GameStore]:
    """This seat's session for a started game: files begun, listening, dialing."""
    config = started.config
    seat = config.seat_of(identity.public_key)
    assert seat is not None
    store = GameStore(options.data_dir, config.game_id)
    store.begin(started.genesis)
    addresses = dict(started.addresses)
    port = sock.getsockname()[1]
    from p2p_rommy.net.addresses import local_addresses  # a network seat's: not `rommy play`'s

    addresses[seat] = [(a, port) for a in local_addresses(options.interface)]
    store.save_addresses(addresses)
    KnownPlayers(options.data_dir).remember((s.name, s.public_key) for s in config.seats)
    session = await open_seat(
        config, identity, player, listen=sock, addresses=addresses, store=store, end_after=end_after
    )
    return session, store
