"""Length-prefixed frames: a 4-byte big-endian length, then that many bytes.

The length is checked against the cap *before* anything is read, and the body is
read under a timeout, so a peer cannot make us allocate or wait without bound.
"""

from __future__ import annotations

import asyncio

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import FRAME_CAP_BYTES, FRAME_TIMEOUT_S


def frame(payload: bytes) -> bytes:
    if len(payload) > FRAME_CAP_BYTES:
        raise ValueError("frame too large")
    return len(payload).to_bytes(4, "big") + payload


async def read_frame(
    reader: asyncio.StreamReader, cap: int = FRAME_CAP_BYTES, timeout: float = FRAME_TIMEOUT_S
) -> bytes:
    """One frame's payload; `ProtocolError` for an oversize length, `IncompleteReadError` at EOF."""
    header = await reader.readexactly(4)
    size = int.from_bytes(header, "big")
    if size > cap:
        raise ProtocolError(
            None, N_("frame of {size} bytes is over the {cap} byte cap").format(size=size, cap=cap)
        )
    async with asyncio.timeout(timeout):
        return await reader.readexactly(size)
