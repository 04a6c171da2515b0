"""The transcript format: the committed log with every signature, as bytes.

A transcript is a magic line, then frames ``u32 length || payload || u32 CRC-32``.
Frame 0 is the genesis: the game config and every seat's signature on it. Every
later frame is a committed `Record` (the step's envelope and all ACK envelopes).
A torn last frame (a crash in mid-write) fails its length or CRC and is reported,
never misread. A bad frame with a good frame after it is not a torn tail but damage
to the file, and is reported as such: nothing after it is ever silently dropped.
Pure encoding here; the file lives in `p2p_rommy.seat.storage`.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from p2p_rommy.config import GameConfig, decode_config
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.messages import Record, decode_record
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.identity import Identity, open_envelope, roster_of

MAGIC = b"P2P-ROMMY TRANSCRIPT 1\n"


def frame_record(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload + zlib.crc32(payload).to_bytes(4, "big")


@dataclass(frozen=True, slots=True)
class Genesis:
    config: GameConfig
    config_bytes: bytes
    signatures: tuple[bytes, ...]
    """Each seat's envelope whose body is the config bytes, by seat."""

    def encode(self) -> bytes:
        return pack([self.config_bytes, list(self.signatures)])


def sign_config(config: GameConfig, identity: Identity) -> bytes:
    return identity.sign(config.encode())


def check_genesis(payload: bytes) -> Genesis:
    """Decode and check the genesis: a valid config signed by every seat."""
    value = unpack(payload, None)
    if not (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], bytes)
        and isinstance(value[1], list)
    ):
        raise ProtocolError(None, N_("the transcript does not start with a game config"))
    config = decode_config(value[0])
    roster = roster_of(config.public_keys)
    if len(value[1]) != config.players:
        raise ProtocolError(None, N_("the game config is not signed by every seat"))
    for seat, envelope in enumerate(value[1]):
        opened = open_envelope(envelope, roster)
        if opened.seat != seat or opened.body != value[0]:
            raise ProtocolError(seat, N_("a seat's signature is not on this game config"))
    return Genesis(config, value[0], tuple(value[1]))


@dataclass(frozen=True, slots=True)
class Parsed:
    genesis: Genesis
    records: list[Record]
    torn: str | None
    """Why the last record could not be read, if it could not (a crash in mid-write)."""
    damaged: str | None = None
    """Where the file is damaged before its end (records after it are not read)."""


def parse(data: bytes) -> Parsed:
    """A transcript's genesis and records; `ProtocolError` if it is not a transcript."""
    if not data.startswith(MAGIC):
        raise ProtocolError(None, N_("not a p2p-rommy transcript (bad magic line)"))
    split = split_frames(data[len(MAGIC) :])
    if not split.frames:
        problem = split.damaged or split.torn
        raise ProtocolError(
            None, "the transcript has no game config" + (f" ({problem})" if problem else "")
        )
    genesis = check_genesis(split.frames[0])
    records: list[Record] = []
    damaged = split.damaged
    for index, payload in enumerate(split.frames[1:], start=1):
        try:
            records.append(decode_record(payload))
        except ProtocolError as error:
            damaged = damaged or f"record {index} is unreadable ({error.reason})"
            break
    return Parsed(genesis, records, split.torn, damaged)


@dataclass(frozen=True, slots=True)
class Split:
    frames: list[bytes]
    """The whole frames before any problem."""
    good: int
    """Bytes of `data` those frames take."""
    torn: str | None = None
    """The last frame is cut off or fails its CRC, and nothing readable follows it."""
    damaged: str | None = None
    """A frame fails, and a readable frame follows it: damage, not a crash."""


def split_frames(data: bytes) -> Split:
    """The whole frames in `data`, and what stopped the reading, if anything."""
    reader = FrameReader(io.BytesIO(data))
    frames = list(reader)
    return Split(frames, reader.good, reader.torn, reader.damaged)


MAX_FRAME_BYTES = 4 << 20
"""Largest frame read (a record holds at most a 1 MiB step and six small ACKs)."""
FRAME_START = 0x92
"""Every frame's payload is a two-item msgpack array (genesis or record)."""
SCAN_CHUNK_BYTES = 1 << 20
"""How much of a damaged file is searched at a time for a good frame after the damage."""
SCAN_MAX_CANDIDATES = 1 << 16
"""Look-alike frames (a possible length, then a payload's first byte) tried after damage."""
SCAN_BUDGET_BYTES = 64 << 20
"""Payload bytes read and CRC-checked while searching after damage. Without a bound a
crafted file of look-alike frames, each claiming megabytes, makes the search quadratic
(hours for 25 MiB); with it the search is linear in the file and a few seconds at most."""
_LOOK_ALIKE = re.compile(rb"(?=\x00[\x00-\x40][\x00-\xff]{2}\x92)")
"""Where a frame could start: a length of at most `MAX_FRAME_BYTES` (a u32 whose top
byte is 0 and next at most 0x40), then `FRAME_START`. Overlapping, hence the look-ahead."""


class FrameReader:
    """The frames of a file, one at a time: memory is bounded by the largest frame, not
    the file. Once iteration stops, `torn` or `damaged` says why if it was not the end:
    a bad frame with no whole, CRC-correct frame after it is a torn tail (a crash in
    mid-write); with one after it, damage. A file too full of look-alike frames to
    search within the scan's bounds is damage too (an honest crash never writes one).
    Offsets count from where reading began."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.base = file.tell()
        self.good = 0
        """Bytes of whole frames read so far."""
        self.torn: str | None = None
        self.damaged: str | None = None

    def __iter__(self) -> Iterator[bytes]:
        while True:
            start = self.file.tell()
            header = self.file.read(4)
            if not header:
                return
            payload = b""
            size = int.from_bytes(header, "big") if len(header) == 4 else -1
            if 0 <= size <= MAX_FRAME_BYTES:
                payload = self.file.read(size)
                check = self.file.read(4)
            if size < 0 or size > MAX_FRAME_BYTES or len(payload) < size or _crc(payload) != check:
                offset = start - self.base
                after = self._frame_after(start + 1)
                if after is None:
                    self.damaged = (
                        f"a damaged record at byte {offset}, followed by more look-alike "
                        "records than are searched for a good one"
                    )
                elif after:
                    self.damaged = f"a damaged record at byte {offset}"
                else:
                    self.torn = f"a torn record at byte {offset}"
                return
            self.good = self.file.tell() - self.base
            yield payload

    def _frame_after(self, start: int) -> bool | None:
        """Whether a whole, CRC-correct frame begins anywhere at or after `start`; None
        if the search ran out of its bounds first (`SCAN_MAX_CANDIDATES`, `SCAN_BUDGET_BYTES`)."""
        end = self.file.seek(0, io.SEEK_END)
        candidates = budget = 0
        position = start
        while position < end:
            self.file.seek(position)
            chunk = self.file.read(SCAN_CHUNK_BYTES + 4)  # + 4: a look-alike across the edge
            for match in _LOOK_ALIKE.finditer(chunk):
                if match.start() >= SCAN_CHUNK_BYTES:
                    break
                offset = position + match.start()
                size = int.from_bytes(chunk[match.start() : match.start() + 4], "big")
                candidates += 1
                if candidates > SCAN_MAX_CANDIDATES:
                    return None
                if size == 0 or size > MAX_FRAME_BYTES or offset + 8 + size > end:
                    continue  # no room for it before the end of the file
                budget += size
                if budget > SCAN_BUDGET_BYTES:
                    return None
                if self._whole_frame_at(offset, size):
                    return True
            position += SCAN_CHUNK_BYTES
        return False

    def _whole_frame_at(self, offset: int, size: int) -> bool:
        self.file.seek(offset + 4)
        payload = self.file.read(size)
        return len(payload) == size and _crc(payload) == self.file.read(4)


def _crc(payload: bytes) -> bytes:
    return zlib.crc32(payload).to_bytes(4, "big")
