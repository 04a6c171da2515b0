"""Files at the edge: a game's transcript (fsync at every commit) and its secrets.

Layout: ``DATA_DIR/games/<game id hex>/transcript`` and ``.../secrets``. The
default data dir is the system's user data dir (`portable.files.data_dir`). Everything is
private: directories 0700, files 0600; a key or secrets file that others can read is
refused, as OpenSSH refuses a private key with open permissions. On Windows modes say
nothing (every file reports 0666) and the user profile's ACL keeps the data dir
private, so the check is made where modes matter (`portable.files.modes_matter`).
"""

from __future__ import annotations

import errno
import os
import time
from dataclasses import dataclass
from io import FileIO
from pathlib import Path

from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.i18n import N_, _, say_os_error, say_reason
from p2p_rommy.log.messages import Record, decode_record
from p2p_rommy.log.transcript import (
    MAGIC,
    FrameReader,
    Genesis,
    frame_record,
    parse,
    split_frames,
)
from p2p_rommy.portable import files
from p2p_rommy.wire.codec import pack, unpack

Addresses = dict[int, list[tuple[str, int]]]


@dataclass(frozen=True, slots=True)
class SavedGame:
    """What a peer kept of a game: enough to restart it (`rommy resume`)."""

    genesis: Genesis
    records: list[Record]
    seeds: dict[int, bytes]
    """Round -> this seat's seed."""
    addresses: Addresses
    """Seat -> where it listened for the game (this seat's own port included)."""
    repaired: str | None
    """What was repaired in the transcript (a torn tail cut off, or a damaged file kept
    aside), as a sentence for the player, if anything."""
    acked: tuple[bytes, bytes] | None = None
    """The last step this seat ACKed and its ACK (envelopes), if any was kept: held
    again on restart unless it committed (`Peer`'s `acked`)."""


def find_game(data_dir: Path, game: str) -> Path:
    """The game directory whose id starts with `game` (hex, as `rommy` prints it)."""
    games = Path(data_dir) / "games"
    prefix = game.strip().lower()
    if len(prefix) < 4 or any(c not in "0123456789abcdef" for c in prefix):
        raise ConfigError(
            _("{game!r} is not a game id (the hex id rommy printed at the start)").format(game=game)
        )
    found = sorted(p for p in games.glob(prefix + "*") if p.is_dir()) if games.is_dir() else []
    if not found:
        raise ConfigError(_("no saved game {game!r} under {games}").format(game=game, games=games))
    if len(found) > 1:
        raise ConfigError(_("{game!r} names several games: give more of the id").format(game=game))
    return found[0]


def private_dir(path: Path) -> Path:
    """`path` (and missing parents) as a directory only its owner can enter (0700)."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if files.modes_matter() and path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path


def check_private(path: Path, what: str) -> None:
    """`ConfigError` if others may read or write the file at `path` (SSH-style), where
    modes say so (not on Windows: there every file reports 0666)."""
    mode = Path(path).stat().st_mode & 0o777
    if files.modes_matter() and mode & 0o077:
        raise ConfigError(
            _(
                "permissions {mode} for {path} are too open: your {what} must not be "
                "readable by others. Fix it with: chmod 600 {path}"
            ).format(mode=f"{mode:04o}", path=path, what=_(what))
        )


def private_file(path: Path, flags: int) -> int:
    """An fd for `path` opened with `flags`, created 0600."""
    fd = os.open(path, flags | os.O_CREAT, 0o600)
    files.restrict(fd, 0o600)
    return fd


def _write_all(fd: int, data: bytes, path: Path) -> None:
    """Write `data` to `fd` unbuffered and fsync it; `OSError` naming `path` on failure."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from None


def default_data_dir() -> Path:
    """The user's data dir (`portable.files.data_dir`: an existing ~/.local/share/p2p-rommy is
    kept; else the system's place for it)."""
    return files.data_dir()


class GameStore:
    """Appends committed records to the transcript with fsync; keeps secrets private."""

    def __init__(self, data_dir: Path, game_id: bytes) -> None:
        private_dir(data_dir)
        private_dir(Path(data_dir) / "games")
        self.directory = private_dir(Path(data_dir) / "games" / game_id.hex())
        self.transcript_path = self.directory / "transcript"
        self.secrets_path = self.directory / "secrets"
        self.addresses_path = self.directory / "peers"
        self.acked_path = self.directory / "acked"
        self._file: FileIO | None = None
        self._lock_fd: int | None = None
        self._held = 0
        """Records in the transcript file (a `RecordArchive` for the peer)."""

    def save_addresses(self, addresses: Addresses) -> None:
        """Where every seat listens: a restarted peer reconnects there."""
        data = pack({str(seat): [list(a) for a in found] for seat, found in addresses.items()})
        with os.fdopen(private_file(self.addresses_path, os.O_WRONLY | os.O_TRUNC), "wb") as file:
            file.write(data)

    def load(self) -> SavedGame:
        """Read the saved game and reopen its transcript for appending. A torn last
        record (a crash in mid-write) is cut off; damage anywhere else is never cut:
        the damaged file is kept beside the new one, which holds the records before the
        damage (the rest comes from the other seats). `ConfigError` if the files are not
        this game's, or another process holds the game."""
        self._lock()
        try:
            return self._load()
        except BaseException:
            self.close()  # a refused file: let go of the lock at once
            raise

    def _load(self) -> SavedGame:
        try:
            data = self.transcript_path.read_bytes()
        except OSError as error:
            raise ConfigError(
                _("cannot read {path}: {why}").format(
                    path=self.transcript_path, why=say_os_error(error, False)
                )
            ) from None
        try:
            parsed = parse(data)
        except ProtocolError as error:
            raise ConfigError(
                _("{path} is not a usable transcript: {why}").format(
                    path=self.transcript_path, why=say_reason(str(error), quote_unknown=False)
                )
            ) from None
        if parsed.genesis.config.game_id.hex() != self.directory.name:
            raise ConfigError(_("{path} belongs to another game").format(path=self.transcript_path))
        repaired = None
        if parsed.damaged is not None:
            kept = self.directory / f"transcript.damaged-{int(time.time())}"
            os.replace(self.transcript_path, kept)  # the damaged file, exactly as it was
            good = MAGIC + frame_record(parsed.genesis.encode())
            good += b"".join(frame_record(record.encode()) for record in parsed.records)
            fd = private_file(self.transcript_path, os.O_WRONLY | os.O_TRUNC)
            try:
                _write_all(fd, good, self.transcript_path)
            finally:
                os.close(fd)
            repaired = (
                f"the transcript is damaged ({parsed.damaged}): it is kept as {kept.name}; "
                f"its {len(parsed.records)} records before the damage are checked again and "
                "the rest is fetched from the other seats"
            )
        elif parsed.torn is not None:
            good_length = len(MAGIC) + split_frames(data[len(MAGIC) :]).good
            with open(self.transcript_path, "r+b") as file:
                file.truncate(good_length)
                os.fsync(file.fileno())
            repaired = (
                f"the transcript's last record was cut off ({parsed.torn}, a crash in "
                "mid-write); it will be fetched from the other seats"
            )
        # private, as files made by older releases were not
        files.restrict_path(self.transcript_path, 0o600)
        self._file = open(self.transcript_path, "ab", buffering=0)  # noqa: SIM115 - kept open
        self._held = len(parsed.records)
        return SavedGame(
            parsed.genesis,
            parsed.records,
            self._seeds(),
            self._addresses(),
            repaired,
            self._acked(),
        )

    def _acked(self) -> tuple[bytes, bytes] | None:
        """The step and ACK `save_ack` kept, or None (none kept, or cut off by a crash
        in mid-write: then that ACK never left)."""
        try:
            frames = split_frames(self.acked_path.read_bytes()).frames
        except OSError:
            return None
        if len(frames) != 1:
            return None
        try:
            value = unpack(frames[0])
        except ProtocolError:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, bytes) for v in value)
        ):
            return None
        return value[0], value[1]

    def _lock(self) -> None:
        """Hold an advisory lock on the game dir while this store is open: a second
        process on the same seat of the same game is refused, not interleaved."""
        if self._lock_fd is not None:
            return
        fd = private_file(self.directory / "lock", os.O_WRONLY)
        try:
            locked = files.try_lock(fd)
        except OSError:
            os.close(fd)
            raise
        if not locked:
            os.close(fd)
            raise ConfigError(
                _("another rommy is playing this seat of the game in {path}").format(
                    path=self.directory
                )
            ) from None
        self._lock_fd = fd

    def _seeds(self) -> dict[int, bytes]:
        if not self.secrets_path.exists():
            return {}
        check_private(self.secrets_path, N_("round secrets file"))
        seeds = {}
        for frame in split_frames(self.secrets_path.read_bytes()).frames:
            name, value = unpack(frame)
            if isinstance(name, str) and name.startswith("seed/") and isinstance(value, bytes):
                seeds[int(name.removeprefix("seed/"))] = value
        return seeds

    def _addresses(self) -> Addresses:
        if not self.addresses_path.exists():
            return {}
        try:
            raw = unpack(self.addresses_path.read_bytes())
            return {int(seat): [(str(h), int(p)) for h, p in found] for seat, found in raw.items()}
        except (ProtocolError, AttributeError, TypeError, ValueError):
            raise ConfigError(
                _(
                    "{path} is damaged (it lists where the others listen); move it away "
                    "and resume again to dial the addresses in the transcript"
                ).format(path=self.addresses_path)
            ) from None

    def begin(self, genesis: Genesis) -> None:
        """Start a new transcript with the signed game config."""
        self._lock()
        flags = os.O_WRONLY | os.O_TRUNC
        with os.fdopen(private_file(self.transcript_path, flags), "wb") as file:
            file.write(MAGIC + frame_record(genesis.encode()))
            file.flush()
            os.fsync(file.fileno())
        flags = os.O_WRONLY | os.O_APPEND
        self._file = os.fdopen(private_file(self.transcript_path, flags), "ab", buffering=0)
        self._held = 0

    def append(self, record: Record) -> None:
        """Append a committed record and fsync; `OSError` naming the file if that fails
        (the caller stops: a record that is not on disk must not be built upon)."""
        assert self._file is not None, "begin() first"
        _write_all(self._file.fileno(), frame_record(record.encode()), self.transcript_path)
        self._held += 1

    def replace_last(self, record: Record) -> None:
        """Replace the last committed record with `record` (an end that outranks it,
        `log/overturn.py`): the file is cut before it (fsync), then `record` appended. A
        crash between leaves the record before it last, and the step kept by `save_ack`
        in flight again: the end comes back with catch-up. `OSError` naming the file."""
        assert self._file is not None, "begin() first"
        with open(self.transcript_path, "rb") as file:
            file.seek(len(MAGIC))
            reader = FrameReader(file)
            ends = [len(MAGIC) + reader.good for _ in reader]  # where each frame ends
        if len(ends) < 2:  # the genesis, then at least one record
            raise OSError(errno.EINVAL, "no record to replace", str(self.transcript_path))
        try:
            self._file.truncate(ends[-2])
            os.fsync(self._file.fileno())
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.transcript_path)) from None
        self._held -= 1
        self.append(record)

    def save_ack(self, step: bytes, ack: bytes) -> None:
        """Keep the step this seat ACKs and its ACK (fsync) before the ACK leaves; only
        the latest matters (the one before it has committed, and the transcript holds
        it), so each replaces the last. `OSError` naming the file if that fails."""
        fd = private_file(self.acked_path, os.O_WRONLY | os.O_TRUNC)
        try:
            _write_all(fd, frame_record(pack([step, ack])), self.acked_path)
        finally:
            os.close(fd)

    def held(self) -> int:
        """How many committed records the transcript holds (durable)."""
        return self._held

    def read(self, start: int) -> list[Record]:
        """The transcript's records from index `start` on (read back for a seat that
        fell behind by more than a round, or for evidence): frame by frame, decoding
        only those, so memory holds what is asked for and not the whole file."""
        records = []
        with open(self.transcript_path, "rb") as file:
            file.seek(len(MAGIC))
            for index, payload in enumerate(FrameReader(file), start=-1):  # -1: genesis
                if index >= self._held:
                    break
                if index >= start:
                    records.append(decode_record(payload))
        return records

    def save_secret(self, name: str, value: bytes) -> None:
        """Add a named secret (a round seed, the identity) to the 0600 secrets file;
        `OSError` naming the file if it cannot be made durable."""
        try:
            fd = private_file(self.secrets_path, os.O_WRONLY | os.O_APPEND)
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.secrets_path)) from None
        try:
            _write_all(fd, frame_record(pack([name, value])), self.secrets_path)
        finally:
            os.close(fd)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._lock_fd is not None:
            try:
                files.unlock(self._lock_fd)
            finally:
                os.close(self._lock_fd)
                self._lock_fd = None
