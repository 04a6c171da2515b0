"""``rommy play``: one human seat and bot seats on this machine, over the real protocol.

Every seat is a real peer with its own TCP listener on 127.0.0.1, the full deck
protocol and consensus on every step; nothing is advertised by mDNS. With a
seed, the bots' choices and all randomness are repeatable (for tests and demos).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from pathlib import Path

from p2p_rommy.bots import make_bot
from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.i18n import _
from p2p_rommy.log.transcript import Genesis
from p2p_rommy.seat.opening import open_seat
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Entropy, Identity


async def local_table(
    variant: str,
    bots: list[str],
    house: dict[str, str],
    name: str,
    seed: int | None,
    data_dir: Path | None = None,
) -> tuple[Session, list[Session]]:
    """The human's session (seat 0 of the config list, seated by the coin-free order) and
    the bots' sessions, listening and connected, not yet started. With `data_dir`, the
    human's seat keeps its transcript and secrets there like a network seat (so
    `rommy verify`, `rommy replay` and `rommy resume` work on a game against bots)."""
    players = len(bots) + 1
    if seed is None:
        entropies: list[Entropy] = [secrets.token_bytes for _ in range(players)]
        identities = [Identity.generate() for _ in range(players)]
        nonce, rng = secrets.token_bytes(16), random.Random()
    else:
        label = b"play %d" % seed
        entropies = [StreamEntropy(label + b" deck %d" % s) for s in range(players)]
        identities = [
            Identity.generate(StreamEntropy(label + b" id %d" % s)) for s in range(players)
        ]
        nonce, rng = hashlib.sha256(label).digest()[:16], random.Random(seed)
    names = [name] + [f"Bot {i + 1}" for i in range(len(bots))]
    seats = tuple(
        Seat(n[:32], identity.public_key) for n, identity in zip(names, identities, strict=True)
    )
    config = GameConfig(
        variant, tuple(house.items()), seats, rng.randrange(players), table="local", nonce=nonce
    )
    store = None
    if data_dir is not None:
        config_bytes = config.encode()
        signatures = tuple(identity.sign(config_bytes) for identity in identities)
        store = GameStore(data_dir, config.game_id)
        store.begin(Genesis(config, config_bytes, signatures))
    sessions = []
    for seat in range(players):
        player = None if seat == 0 else make_bot(bots[seat - 1], random.Random(rng.getrandbits(64)))
        sessions.append(
            await open_seat(
                config,
                identities[seat],
                player,
                listen=("127.0.0.1", 0),
                store=store if seat == 0 else None,
                entropy=entropies[seat],
            )
        )
    addresses = {seat: [session.address] for seat, session in enumerate(sessions)}
    for session in sessions:
        session.connect(addresses)
    if store is not None:
        store.save_addresses(addresses)
    return sessions[0], sessions[1:]


async def play(
    *,
    variant: str,
    bots: list[str],
    house: dict[str, str],
    name: str,
    seed: int | None,
    ascii_only: bool,
    four_colour: bool,
    data_dir: Path | None,
) -> int:
    """The full-screen client at a local table, until the player leaves. With `data_dir`
    the player's seat keeps the transcript there, and where it is is printed at the end.
    Keyword-only: eight positional values once hid a data dir that was never passed."""
    from p2p_rommy.tui.app import build_app
    from p2p_rommy.tui.model import ClientModel

    while True:  # `n` on the final summary: another game, same seats, a new game id
        human, others = await local_table(variant, bots, house, name, seed, data_dir)
        robots = [asyncio.create_task(session.run()) for session in others]
        human.start()
        model = ClientModel(human, ascii_only, four_colour)
        model.new_game_offered = True
        app = build_app(model)
        try:
            await app.run_async()
        finally:
            for task in robots:
                task.cancel()
            await asyncio.gather(*robots, return_exceptions=True)
            await human.close()
        if human.store is not None:
            path = shell_word(str(human.store.transcript_path))
            print(_("transcript: {path}").format(path=path))
            print(_("check it: rommy verify {path}").format(path=path))
        if not model.new_game:
            return 0
        seed = None if seed is None else seed + 1  # another deal, another game id


def shell_word(text: str) -> str:
    """`text` as one word for a POSIX shell and PowerShell alike: quoted if it has a space
    (a Windows profile such as ``C:\\Users\\Anne Marie``)."""
    return f'"{text}"' if any(c.isspace() for c in text) else text
