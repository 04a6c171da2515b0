"""Where log records go while the full-screen client runs: a file in the data dir.

Nothing may write to the terminal under the full-screen app except the app itself (a
warning on stderr scrolls and garbles the screen). `log_to_file` sends every record
to `<data dir>/rommy.log` (0600, rotated at 1 MiB, three kept) instead; what a player
should see reaches the log pane through the session as a sentence with names.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

from p2p_rommy.limits import LOG_FILE_BYTES, LOG_FILES_KEPT
from p2p_rommy.seat.storage import private_dir

LOG_NAME = "rommy.log"


def log_to_file(data_dir: Path) -> Path:
    """Send every log record (INFO and up) to the data dir's log file and none to the
    terminal; returns the file's path."""
    private_dir(data_dir)
    path = Path(data_dir) / LOG_NAME
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILES_KEPT, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    os.chmod(path, 0o600)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path
