"""The games this player may resume: `rommy resume` without a game id.

A game directory holds its transcript (the genesis first: the table, the seats); a game
that ended on this machine — played to the end, or ended without a seat — gets an
`over` mark beside it, so only the unfinished ones are offered. Reading a game here
reads its genesis frame only: no proof is checked until it is resumed.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

from p2p_rommy.config import GameConfig
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.i18n import _
from p2p_rommy.log.transcript import MAGIC, FrameReader, check_genesis
from p2p_rommy.wire.text import inert

OVER_MARK = "over"
"""The file beside a transcript that says the game ended on this machine."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One unfinished game in the data dir."""

    game: str
    """The game id, in hex."""
    config: GameConfig
    changed: float
    """When its transcript last grew (seconds since the epoch)."""

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.changed))
        return _("{game}: table {table}, {players}; last played {when}").format(
            game=self.game[:16],
            table=inert(self.config.table),
            players=", ".join(inert(seat.name) for seat in self.config.seats),
            when=when,
        )


def mark_over(directory: Path) -> None:
    """Remember that the game in `directory` is over (best effort: a full disk only
    means it is offered again)."""
    with contextlib.suppress(OSError):
        (Path(directory) / OVER_MARK).touch()


def unfinished_games(data_dir: Path, key: bytes) -> list[SavedGame]:
    """The games under `data_dir` in which the key `key` holds a seat and that have not
    ended here, the latest first."""
    games = Path(data_dir) / "games"
    found = []
    for directory in sorted(games.iterdir()) if games.is_dir() else []:
        transcript = directory / "transcript"
        if (directory / OVER_MARK).exists() or not transcript.is_file():
            continue
        try:
            with open(transcript, "rb") as file:
                if file.read(len(MAGIC)) != MAGIC:
                    continue
                first = next(iter(FrameReader(file)), None)
            config = None if first is None else check_genesis(first).config
            changed = transcript.stat().st_mtime
        except (OSError, ProtocolError):
            continue
        if config is not None and config.seat_of(key) is not None:
            found.append(SavedGame(directory.name, config, changed))
    return sorted(found, key=lambda saved: -saved.changed)


def the_unfinished_game(data_dir: Path, key: bytes) -> str:
    """The id of the one game to resume; `ConfigError` listing them if there are several,
    or saying so if there is none."""
    games = unfinished_games(data_dir, key)
    if not games:
        raise ConfigError(
            _("no unfinished game to resume under {where}").format(where=Path(data_dir) / "games")
        )
    if len(games) > 1:
        listed = "\n".join("  " + saved.describe() for saved in games)
        raise ConfigError(
            _("several unfinished games; resume one with rommy resume GAME_ID:\n{listed}").format(
                listed=listed
            )
        )
    return games[0].game
