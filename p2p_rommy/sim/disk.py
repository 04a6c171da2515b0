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


class Frame:
    """A frame written but not yet encoded: its bytes (`frame_record` of `pack(value)`)
    are a function of the value, worked out when the file is read. Most of a game's
    frames are never read (only a resume or `rommy verify` reads a file), and a record
    holds the step's envelope and every ACK (~15 KiB for a shuffle)."""

    __slots__ = ("value",)

    def __init__(self, value: list[object]) -> None:
        self.value = value

    def encode(self) -> bytes:
        return frame_record(pack(self.value))


class AppendFile:
    """A file only ever appended to (the transcript, the secrets): kept as its writes, so
    that a long game's appends cost what they write, not the whole file each time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._chunks: list[bytes | Frame] = []
        self._synced = 0
        """Writes that survive a crash."""

    def _bytes(self, end: int) -> bytes:
        """The first `end` writes as bytes (a frame is encoded once, when first read)."""
        chunks = self._chunks
        for index in range(end):
            chunk = chunks[index]
            if isinstance(chunk, Frame):
                chunks[index] = chunk.encode()
        return b"".join(chunks[:end])  # type: ignore[arg-type]

    @property
    def written(self) -> bytes:
        """What the page cache holds."""
        return self._bytes(len(self._chunks))

    @property
    def durable(self) -> bytes:
        """What survives a crash."""
        return self._bytes(self._synced)

    def write(self, data: bytes | Frame, full: bool) -> None:
        if full:
            raise DiskFull(self.name)
        self._chunks.append(data)

    def fsync(self) -> None:
        self._synced = len(self._chunks)

    def crash(self) -> None:
        """Lose what was not fsynced."""
        del self._chunks[self._synced :]

    def truncate(self, length: int) -> None:
        """Keep the first `length` bytes written, durably (truncate, then fsync)."""
        self._chunks = [self.written[:length]]
        self._synced = 1

    def cut(self, length: int) -> None:
        """Keep the first `length` durable bytes (a torn tail cut off on resume)."""
        self._chunks = [self.durable[:length]]
        self._synced = 1


class LatestFile:
    """A file rewritten whole each time (the step ACKed last and its ACK): `durable`
    survives a crash; `written` is what the page cache holds. A frame is encoded when
    the file is read (`Frame`): a seat rewrites it for every ACK."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._durable: Frame | None = None
        self._written: Frame | None = None

    @property
    def durable(self) -> bytes:
        return b"" if self._durable is None else self._durable.encode()

    @property
    def written(self) -> bytes:
        return b"" if self._written is None else self._written.encode()

    def replace(self, frame: Frame) -> None:
        self._written = frame

    def fsync(self) -> None:
        self._durable = self._written

    def crash(self) -> None:
        """Lose what was not fsynced."""
        self._written = self._durable


class SimDisk:
    """The transcript and secrets of one seat (a `RecordArchive` for its peer)."""

    def __init__(self, genesis: Genesis, fsync: bool = True) -> None:
        self.transcript = AppendFile("transcript")
        self.secrets = AppendFile("secrets")
        self.acked = LatestFile("acked")
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
        frame = Frame([record.step, list(record.acks)])  # (`Record.encode` packs that)
        if self.tear:
            self.tear = False
            data = frame.encode()
            self.transcript.write(data[: len(data) // 2], False)
            self.transcript.fsync()
            raise Torn
        self.transcript.write(frame, self.full)
        if self.sync:
            self.transcript.fsync()
        self._held += 1

    def replace_last(self, record: Record) -> None:
        """`GameStore.replace_last`: the transcript cut before its last record (durably),
        then `record` appended."""
        split = split_frames(self.transcript.written[len(MAGIC) :])
        last = len(frame_record(split.frames[-1]))  # (its length and CRC words included)
        self.transcript.truncate(len(MAGIC) + split.good - last)
        self._held -= 1
        self.append(record)

    def save_secret(self, name: str, value: bytes) -> None:
        self.secrets.write(frame_record(pack([name, value])), self.full)
        if self.sync:
            self.secrets.fsync()

    def save_ack(self, step: bytes, ack: bytes) -> None:
        """The latest step ACKed and its ACK, replacing the one before (fsync)."""
        if self.full:
            raise DiskFull(self.acked.name)
        self.acked.replace(Frame([step, ack]))
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
