"""Files at the edge: a game's transcript (fsync at every commit) and its secrets (0600).

Layout: ``DATA_DIR/games/<game id hex>/transcript`` and ``.../secrets``. The
default data dir is the platform's user data dir (``$XDG_DATA_HOME/p2p-rommy``
or ``~/.local/share/p2p-rommy``).
"""

from __future__ import annotations

import os
from pathlib import Path

from p2p_rommy.log.messages import Record
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record
from p2p_rommy.wire.codec import pack


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2p-rommy"


class GameStore:
    """Appends committed records to the transcript with fsync; keeps secrets private."""

    def __init__(self, data_dir: Path, game_id: bytes) -> None:
        self.directory = Path(data_dir) / "games" / game_id.hex()
        self.directory.mkdir(parents=True, exist_ok=True)
        self.transcript_path = self.directory / "transcript"
        self.secrets_path = self.directory / "secrets"
        self._file = None

    def begin(self, genesis: Genesis) -> None:
        """Start a new transcript with the signed game config."""
        with open(self.transcript_path, "wb") as file:
            file.write(MAGIC + frame_record(genesis.encode()))
            file.flush()
            os.fsync(file.fileno())
        self._file = open(self.transcript_path, "ab")  # noqa: SIM115 - kept open for appends

    def append(self, record: Record) -> None:
        assert self._file is not None, "begin() first"
        self._file.write(frame_record(record.encode()))
        self._file.flush()
        os.fsync(self._file.fileno())

    def save_secret(self, name: str, value: bytes) -> None:
        """Add a named secret (a round seed, the identity) to the 0600 secrets file."""
        fd = os.open(self.secrets_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, frame_record(pack([name, value])))
            os.fsync(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
