"""The connection handshake: each side proves its Ed25519 identity.

Both send ``hello`` (table id, a fresh nonce, their public key); then both send
``auth``: a signature over the table id, both nonces and both keys, in the order
(signer's, other's). A replayed or relayed handshake fails because the other
side's nonce is fresh. The caller decides whether the proven key may sit at the
table (`allowed`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import HANDSHAKE_TIMEOUT_S
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.wire.codec import Schema, blob, integer, pack, unpack
from p2p_rommy.wire.identity import Identity, valid_public_key, verify_signature

DOMAIN = b"p2p-rommy/v1/handshake\x00"
_HELLO = Schema(
    "hello",
    {"table": blob(32), "nonce": blob(32), "key": blob(32), "version": integer(1, 1000)},
)
_AUTH = Schema("auth", {"signature": blob(64)})


@dataclass(frozen=True, slots=True)
class Proven:
    public_key: bytes
    table: bytes


def _hello(table: bytes, nonce: bytes, key: bytes) -> bytes:
    return pack(
        {"kind": "hello", "table": table, "nonce": nonce, "key": key, "version": PROTOCOL_VERSION}
    )


def _transcript(
    table: bytes, signer_nonce: bytes, other_nonce: bytes, signer: bytes, other: bytes
) -> bytes:
    return DOMAIN + table + signer_nonce + other_nonce + signer + other


async def handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    table: bytes | None,
    allowed: Callable[[bytes], bool],
) -> Proven:
    """Prove ourselves and check the other side; `ProtocolError` (with a reason) if it fails.

    A dialer that does not know the table id yet (``--connect HOST:PORT``) passes None
    and adopts the listener's: it says hello only after hearing it.
    """
    nonce = secrets.token_bytes(32)
    mine = identity.public_key
    if table is not None:
        writer.write(frame(_hello(table, nonce, mine)))
        await writer.drain()
    async with asyncio.timeout(HANDSHAKE_TIMEOUT_S):
        hello = _HELLO.check(unpack(await read_frame(reader, 4096)))
        if table is None:
            table = hello["table"]
            writer.write(frame(_hello(table, nonce, mine)))
            await writer.drain()
        if hello["version"] != PROTOCOL_VERSION:
            raise ProtocolError(
                None,
                N_(
                    "the other side speaks protocol v{value}, this one v{PROTOCOL_VERSION}: "
                    "both need the same p2p-rommy release"
                ).format(value=hello["version"], PROTOCOL_VERSION=PROTOCOL_VERSION),
            )
        if hello["table"] != table:
            raise ProtocolError(None, N_("the other side is at another table"))
        theirs = hello["key"]
        if not valid_public_key(theirs):
            raise ProtocolError(None, N_("the other side's key is weak or malformed"))
        if theirs == mine:
            raise ProtocolError(None, N_("the other side uses this peer's own key"))
        if not allowed(theirs):
            raise ProtocolError(None, N_("this key is not seated at the table"))
        signature = identity.signature(_transcript(table, nonce, hello["nonce"], mine, theirs))
        writer.write(frame(pack({"kind": "auth", "signature": signature})))
        await writer.drain()
        auth = _AUTH.check(unpack(await read_frame(reader, 4096)))
    if not verify_signature(
        theirs, auth["signature"], _transcript(table, hello["nonce"], nonce, theirs, mine)
    ):
        raise ProtocolError(None, N_("the other side could not prove its key"))
    return Proven(theirs, table)
