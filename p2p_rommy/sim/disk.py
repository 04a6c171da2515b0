"""A simulated disk for one seat: its transcript and secrets file as bytes, with
fsync, a crash that loses what was not fsynced, a torn last write and a full disk.

The bytes are those `seat/storage.py` writes (the transcript frames of
`log/transcript.py`, the secrets file's packed frames), so a crashed seat is resumed
the way `rommy resume` resumes one: its transcript parsed (a torn tail cut off), its
seeds read back, every record replayed.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence

from p2p_rommy.log.messages import Record
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, parse, split_frames
from p2p_rommy.wire.codec import pack, unpack


class Torn(Exception):
    """The process died in the middle of a write (half of the frame reached the disk)."""


class DiskFull(OSError):
    def __init__(self, path: str) -> None:
        super().__init__(errno.ENOSPC, "No space left on device", path)


class AppendFile:
    """A file only ever appended to (the transcript, the secrets): kept as its writes, so
    that a long game's appends cost what they write, not the whole file each time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._chunks: list[bytes] = []
        self._synced = 0
        """Writes that survive a crash."""

    @property
    def written(self) -> bytes:
        """What the page cache holds."""
        return b"".join(self._chunks)

    @property
    def durable(self) -> bytes:
        """What survives a crash."""
        return b"".join(self._chunks[: self._synced])

    def write(self, data: bytes, full: bool) -> None:
        if full:
            raise DiskFull(self.name)
        self._chunks.append(data)

    def fsync(self) -> None:
        self._synced = len(self._chunks)

    def crash(self) -> None:
        """Lose what was not fsynced."""
        del self._chunks[self._synced :]

    def cut(self, length: int) -> None:
        """Keep the first `length` durable bytes (a torn tail cut off on resume)."""
        self._chunks = [self.durable[:length]]
        self._synced = 1


class SimFile:
    """One file: `durable` survives a crash; `written` is what the page cache holds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.durable = b""
        self.written = b""

    def write(self, data: bytes, full: bool) -> None:
        if full:
            raise DiskFull(self.name)
        self.written += data

    def fsync(self) -> None:
        self.durable = self.written

    def crash(self) -> None:
        """Lose what was not fsynced."""
        self.written = self.durable


class SimDisk:
    """The transcript and secrets of one seat (a `RecordArchive` for its peer)."""

    def __init__(self, genesis: Genesis, fsync: bool = True) -> None:
        self.transcript = AppendFile("transcript")
        self.secrets = AppendFile("secrets")
        self.acked = SimFile("acked")
        """The step this seat ACKs last and its ACK (`GameStore.save_ack`)."""
        self.full = False
        self.sync = fsync
        """False: a broken store that never fsyncs (what a crash then loses is lost)."""
        self.transcript.write(MAGIC + frame_record(genesis.encode()), False)
        self.transcript.fsync()
        self._held = 0
        self.tear = False
        """The next record's write is cut in half by a crash (`Torn`)."""

    # --- what the store does (seat/storage.py's GameStore) ---------------------------

    def append(self, record: Record) -> None:
        frame = frame_record(record.encode())
        if self.tear:
            self.tear = False
            self.transcript.write(frame[: len(frame) // 2], False)
            self.transcript.fsync()
            raise Torn
        self.transcript.write(frame, self.full)
        if self.sync:
            self.transcript.fsync()
        self._held += 1

    def save_secret(self, name: str, value: bytes) -> None:
        self.secrets.write(frame_record(pack([name, value])), self.full)
        if self.sync:
            self.secrets.fsync()

    def save_ack(self, step: bytes, ack: bytes) -> None:
        """The latest step ACKed and its ACK, replacing the one before (fsync)."""
        if self.full:
            raise DiskFull(self.acked.name)
        self.acked.written = frame_record(pack([step, ack]))
        if self.sync:
            self.acked.fsync()

    def held(self) -> int:
        return self._held

    def read(self, start: int) -> Sequence[Record]:
        return parse(self.transcript.written).records[start : self._held]

    # --- faults and resume -----------------------------------------------------------

    def crash(self) -> None:
        """The process (or machine) stops: what was not fsynced is lost."""
        self.transcript.crash()
        self.secrets.crash()
        self.acked.crash()

    def load_acked(self) -> tuple[bytes, bytes] | None:
        """The step and ACK `save_ack` kept (`GameStore._acked`), or None."""
        frames = split_frames(self.acked.durable).frames
        if len(frames) != 1:
            return None
        step, ack = unpack(frames[0])
        return step, ack

    def load(self) -> tuple[list[Record], dict[int, bytes], str | None]:
        """What `rommy resume` reads: the records (a torn tail cut off, as
        `GameStore.load` cuts it), the round seeds, and what was repaired."""
        parsed = parse(self.transcript.durable)
        if parsed.damaged is not None:
            raise RuntimeError(f"simulated transcript damaged: {parsed.damaged}")
        if parsed.torn is not None:
            good = len(MAGIC) + split_frames(self.transcript.durable[len(MAGIC) :]).good
            self.transcript.cut(good)
        seeds: dict[int, bytes] = {}
        for frame in split_frames(self.secrets.durable).frames:
            name, value = unpack(frame)
            if isinstance(name, str) and name.startswith("seed/") and isinstance(value, bytes):
                seeds[int(name.removeprefix("seed/"))] = value
        self._held = len(parsed.records)
        return parsed.records, seeds, parsed.torn
