"""The transcript format: the committed log with every signature, as bytes.

A transcript is a magic line, then frames ``u32 length || payload || u32 CRC-32``.
Frame 0 is the genesis: the game config and every seat's signature on it. Every
later frame is a committed `Record` (the step's envelope and all ACK envelopes).
A torn last frame (a crash in mid-write) fails its length or CRC and is reported,
never misread. A bad frame with a good frame after it is not a torn tail but damage
to the file, and is reported as such: nothing after it is ever silently dropped.
Pure encoding here; the file lives in `p2p_rommy.storage`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from p2p_rommy.config import GameConfig, decode_config
from p2p_rommy.errors import ProtocolError
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
        raise ProtocolError(None, "the transcript does not start with a game config")
    config = decode_config(value[0])
    roster = roster_of(config.public_keys)
    if len(value[1]) != config.players:
        raise ProtocolError(None, "the game config is not signed by every seat")
    for seat, envelope in enumerate(value[1]):
        opened = open_envelope(envelope, roster)
        if opened.seat != seat or opened.body != value[0]:
            raise ProtocolError(seat, "a seat's signature is not on this game config")
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
        raise ProtocolError(None, "not a p2p-rommy transcript (bad magic line)")
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
    frames: list[bytes] = []
    offset = 0
    while offset < len(data):
        size = int.from_bytes(data[offset : offset + 4], "big") if len(data) - offset >= 8 else -1
        end = offset + 4 + size
        if size < 0 or end + 4 > len(data) or _crc(data[offset + 4 : end]) != data[end : end + 4]:
            later = _next_frame(data, offset + 1)
            if later is not None:
                return Split(frames, offset, damaged=f"a damaged record at byte {offset}")
            return Split(frames, offset, torn=f"a torn record at byte {offset}")
        frames.append(data[offset + 4 : end])
        offset = end + 4
    return Split(frames, offset)


def _crc(payload: bytes) -> bytes:
    return zlib.crc32(payload).to_bytes(4, "big")


FRAME_START = 0x92
"""Every frame's payload is a two-item msgpack array (genesis or record)."""


def _next_frame(data: bytes, start: int) -> int | None:
    """The offset of a whole, CRC-correct frame at or after `start`, if there is one."""
    at = data.find(bytes([FRAME_START]), start + 4)
    while at != -1:
        offset = at - 4
        size = int.from_bytes(data[offset:at], "big")
        end = at + size
        if end + 4 <= len(data) and _crc(data[at:end]) == data[end : end + 4]:
            return offset
        at = data.find(bytes([FRAME_START]), at + 1)
    return None
