"""Where log records go while the full-screen client runs: a file in the data dir.

Nothing may write to the terminal under the full-screen app except the app itself (a
warning on stderr scrolls and garbles the screen). `log_to_file` sends every record
to `<data dir>/rommy.log` (0600, rotated at 1 MiB, three kept) instead; what a player
should see reaches the log pane through the session as a sentence with names.

One file per process: a second rommy running at the same time on the same data dir (a
host and a `rommy play`, two seats on one machine) writes `rommy-2.log`, a third
`rommy-3.log`. Each process holds a lock beside its file (`rommy.log.lock`) while it
runs, so no two rotate one file (on Windows, renaming a file another process holds
open fails). A record that still cannot be written is dropped, never printed over the
screen as logging's own traceback.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

from p2p_rommy.limits import LOG_FILE_BYTES, LOG_FILES_KEPT
from p2p_rommy.portable import files
from p2p_rommy.seat.storage import private_dir, private_file

LOG_NAME = "rommy.log"


def log_name(slot: int) -> str:
    """The log file of the `slot`th rommy running at once (from 1)."""
    return LOG_NAME if slot == 1 else f"rommy-{slot}.log"


class LogFile(logging.handlers.RotatingFileHandler):
    """A rotating log file that this process alone writes (it holds `lock_fd`)."""

    def __init__(self, path: Path, lock_fd: int) -> None:
        super().__init__(
            path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILES_KEPT, encoding="utf-8"
        )
        self.lock_fd: int | None = lock_fd

    def handleError(self, record: logging.LogRecord) -> None:
        """Drop the record: a traceback on stderr would garble the full-screen client."""

    def close(self) -> None:
        super().close()
        if self.lock_fd is not None:
            fd, self.lock_fd = self.lock_fd, None
            try:
                files.unlock(fd)
            finally:
                os.close(fd)


def claim_log(data_dir: Path) -> tuple[Path, int]:
    """The first log file in `data_dir` that no other running rommy holds, and the fd
    of the lock that now makes it this process's."""
    slot = 1
    while True:
        path = Path(data_dir) / log_name(slot)
        fd = private_file(path.with_name(path.name + ".lock"), os.O_WRONLY)
        try:
            if files.try_lock(fd):
                return path, fd
        except OSError:
            os.close(fd)
            raise
        os.close(fd)
        slot += 1


def log_to_file(data_dir: Path) -> Path:
    """Send every log record (INFO and up) to this process's log file in the data dir
    and none to the terminal; returns the file's path."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
        if isinstance(old, LogFile):  # an earlier call's: let go of its file first
            old.close()
    private_dir(data_dir)
    path, lock_fd = claim_log(data_dir)
    handler = LogFile(path, lock_fd)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    files.restrict_path(path, 0o600)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path
