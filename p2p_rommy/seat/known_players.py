"""Players met before: trust on first use, like SSH's known_hosts.

The data dir's ``known_players`` file lists, a line each, a public key (hex) and the
name it sat under at a game this player started. A known name that arrives with a key
never seen under it gets a loud warning: it may be someone else using a friend's name.
The file is only a memory; a line that cannot be read is skipped, never trusted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from p2p_rommy.wire.identity import fingerprint, valid_public_key
from p2p_rommy.wire.text import inert, name_problem

FILE_NAME = "known_players"


class KnownPlayers:
    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / FILE_NAME
        self.keys: dict[str, set[bytes]] = {}
        """Name -> every key seen under it."""
        self._load()

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        for line in text.splitlines():
            key_hex, _, name = line.partition(" ")
            try:
                key = bytes.fromhex(key_hex)
            except ValueError:
                continue
            if valid_public_key(key) and name_problem(name) is None:
                self.keys.setdefault(name, set()).add(key)

    def warnings(self, players: Iterable[tuple[str, bytes]], own: bytes) -> list[str]:
        """A warning for each player whose name is known here with other keys only."""
        out = []
        for name, key in players:
            known = self.keys.get(name)
            if key == own or not known or key in known:
                continue
            before = ", ".join(sorted(fingerprint(k) for k in known))
            out.append(
                f"WARNING: {inert(name)!s} has the key {fingerprint(key)}, but the "
                f"{inert(name)!s} you played with before had {before}. It may be someone "
                "else using that name: ask them to read their fingerprint aloud."
            )
        return out

    def remember(self, players: Iterable[tuple[str, bytes]]) -> None:
        """Add these (name, key) pairs to the file (mode 0600, written whole)."""
        added = False
        for name, key in players:
            if key not in self.keys.setdefault(name, set()):
                self.keys[name].add(key)
                added = True
        if not added:
            return
        lines = sorted(f"{key.hex()} {name}" for name, keys in self.keys.items() for key in keys)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)
