"""The transcript format: the committed log with every signature, as bytes.

A transcript is a magic line, then frames ``u32 length || payload || u32 CRC-32``.
Frame 0 is the genesis: the game config and every seat's signature on it. Every
later frame is a committed `Record` (the step's envelope and all ACK envelopes).
A torn last frame (a crash in mid-write) fails its length or CRC and is reported,
never misread. Pure encoding here; the file lives in `p2p_rommy.storage`.
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
    """Why the tail could not be read, if it could not (a crash in mid-write)."""


def parse(data: bytes) -> Parsed:
    """A transcript's genesis and records; `ProtocolError` if it is not a transcript."""
    if not data.startswith(MAGIC):
        raise ProtocolError(None, "not a p2p-rommy transcript (bad magic line)")
    frames, torn, _ = split_frames(data[len(MAGIC) :])
    if not frames:
        raise ProtocolError(
            None, "the transcript has no game config" + (f" ({torn})" if torn else "")
        )
    genesis = check_genesis(frames[0])
    records = [decode_record(payload) for payload in frames[1:]]
    return Parsed(genesis, records, torn)


def split_frames(data: bytes) -> tuple[list[bytes], str | None, int]:
    """The whole frames in `data`, why the rest could not be read (or None), and the
    length of the good part."""
    frames: list[bytes] = []
    offset = 0
    while offset < len(data):
        if len(data) - offset < 8:
            return frames, f"a torn record at byte {offset}", offset
        size = int.from_bytes(data[offset : offset + 4], "big")
        end = offset + 4 + size
        if end + 4 > len(data):
            return frames, f"a torn record at byte {offset}", offset
        payload = data[offset + 4 : end]
        if zlib.crc32(payload).to_bytes(4, "big") != data[end : end + 4]:
            return frames, f"a damaged record at byte {offset}", offset
        frames.append(payload)
        offset = end + 4
    return frames, None, offset
