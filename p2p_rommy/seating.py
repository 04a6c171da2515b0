"""Seating this player at a table: its identity, its options, its game listener, and
the session of a started game (files begun, listening, dialling). Shared by the
bot seats (`headless.py`) and the full-screen client (`netclient.py`)."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ConfigError
from p2p_rommy.known_players import KnownPlayers
from p2p_rommy.lobby import Started
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.replica import SeatedReplica
from p2p_rommy.net.discovery import local_addresses
from p2p_rommy.session import Session
from p2p_rommy.storage import GameStore, check_private, private_dir
from p2p_rommy.wire.identity import Identity


def load_identity(data_dir: Path) -> Identity:
    """This player's long-term key, made on first use and kept at mode 0600."""
    path = Path(data_dir) / "identity"
    if path.exists():
        check_private(path, "identity key")
        data = path.read_bytes()
        if len(data) != 32:
            raise ConfigError(f"{path} is not a p2p-rommy identity (expected 32 bytes)")
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
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((interface or "0.0.0.0", port))
    except OSError as error:
        sock.close()
        raise ConfigError(f"cannot listen on port {port}: {error}") from None
    sock.listen(16)
    sock.setblocking(False)
    return sock


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
    addresses[seat] = [(a, port) for a in local_addresses(options.interface)]
    store.save_addresses(addresses)
    KnownPlayers(options.data_dir).remember((s.name, s.public_key) for s in config.seats)
    peer = Peer(SeatedReplica(config, seat, identity), player, end_after=end_after)
    session = Session(peer, config, store)
    await session.listen(sock=sock)
    session.connect(addresses)
    return session, store
