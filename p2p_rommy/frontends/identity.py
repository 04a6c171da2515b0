"""``rommy id``: who this player is to the others, and how not to lose it.

A player's identity is one private key file in the data dir. Friends' clients remember
the key under the player's name (`seat.known_players`), so a lost key is not only a new
fingerprint: the next game with them opens with a warning that someone else may be
using that name. Hence a backup, and the commands to make and restore one, in the
shell of this machine (PowerShell on Windows, a POSIX shell elsewhere).
"""

from __future__ import annotations

import shlex
import textwrap
from pathlib import Path

from p2p_rommy.i18n import _
from p2p_rommy.seat.opening import load_identity
from p2p_rommy.wire.identity import fingerprint

IDENTITY_FILE = "identity"
"""The key's file in the data dir, as `load_identity` names it (a test holds them equal)."""
WIDTH = 78
"""Columns a paragraph is wrapped to (an 80-column terminal)."""
BACKUP = "rommy-identity.backup"
"""The copy's file name in the home directory (moved somewhere safe from there)."""


def identity_report(data_dir: Path, windows: bool) -> str:
    """The fingerprint, where the key is, and the backup and restore commands; reads the
    key if there is one (refused like at a table if others may read it), never makes one."""
    path = Path(data_dir) / IDENTITY_FILE
    lines = []
    if path.exists():
        key = load_identity(data_dir).public_key
        lines += [
            _("Your fingerprint: {fingerprint}").format(fingerprint=fingerprint(key)),
            _("Your identity key: {path}").format(path=path),
            "",
            *_prose(
                _(
                    "Friends' clients know you by this key. If it is lost, rommy makes a new "
                    "one, and their clients warn that someone else may be using your name."
                )
            ),
            "",
            *_prose(_("Back it up, then keep the copy somewhere safe, private like a password:")),
            *_commands(_backup(path, windows)),
        ]
    else:
        lines += _prose(
            _("No identity yet in {directory}.").format(directory=path.parent)
            + " "
            + _("One is made the first time you host or join a table.")
        )
    lines += [
        "",
        *_prose(_("To restore a backup (on a new machine too), before you host or join:")),
        *_commands(_restore(path, windows)),
    ]
    return "\n".join(lines)


def _prose(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)


def _commands(commands: list[str]) -> list[str]:
    """Indented, one a line, never wrapped: they are copied into a shell."""
    return ["  " + command for command in commands]


def _backup(path: Path, windows: bool) -> list[str]:
    if windows:
        return [f'Copy-Item {_powershell(path)} "$HOME\\{BACKUP}"']
    return [f"cp {shlex.quote(str(path))} ~/{BACKUP}"]


def _restore(path: Path, windows: bool) -> list[str]:
    if windows:  # the profile's ACL guards the data dir: no mode to set
        return [
            f"New-Item -ItemType Directory -Force {_powershell(path.parent)} | Out-Null",
            f'Copy-Item "$HOME\\{BACKUP}" {_powershell(path)}',
        ]
    return [
        f"mkdir -p {shlex.quote(str(path.parent))}",
        f"cp ~/{BACKUP} {shlex.quote(str(path))}",
        f"chmod 600 {shlex.quote(str(path))}",
    ]


def _powershell(path: Path) -> str:
    """`path` as a PowerShell literal: single quotes, an inner quote doubled."""
    return "'" + str(path).replace("'", "''") + "'"
