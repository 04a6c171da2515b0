"""Weak Ed25519 keys are refused wherever a key enters (trust issue, attack 4).

For a small-order key such as the identity point, the signature (R = identity, S = 0)
"verifies" on every message under a lax verifier, so anyone could sign as that seat.
"""

from __future__ import annotations

import asyncio
import secrets

import pytest

from p2p_rommy.config import PROTOCOL_VERSION, GameConfig, Seat, decode_config
from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.identity import (
    SIGNATURE_DOMAIN,
    Identity,
    roster_of,
    valid_public_key,
    verify_signature,
)

IDENTITY_POINT = b"\x01" + bytes(31)
ORDER_TWO = b"\xec" + b"\xff" * 30 + b"\x7f"  # (0, -1)
NON_CANONICAL = b"\xee" + b"\xff" * 30 + b"\x7f"  # y = p + 1
WEAK = [IDENTITY_POINT, ORDER_TWO, NON_CANONICAL, bytes(32)]
FORGERY = IDENTITY_POINT + bytes(32)  # R = identity, S = 0


@pytest.mark.parametrize("key", WEAK, ids=["identity", "order-2", "non-canonical", "zero"])
def test_a_weak_key_is_never_valid_and_signs_nothing(key):
    assert not valid_public_key(key)
    assert not verify_signature(key, FORGERY, SIGNATURE_DOMAIN + b"anything")
    with pytest.raises(ProtocolError, match="weak"):
        roster_of([Identity.generate().public_key, key])


def test_a_config_seating_a_weak_key_is_refused():
    good = [Identity.generate().public_key for _ in range(2)]
    with pytest.raises(ConfigError, match="weak"):
        GameConfig(
            "rummy", (), (Seat("A", good[0]), Seat("B", good[1]), Seat("Z", IDENTITY_POINT)), 0
        )
    config = GameConfig("rummy", (), (Seat("A", good[0]), Seat("B", good[1])), 0)
    body = unpack(config.encode())
    body["seats"].append(["Z", IDENTITY_POINT])
    with pytest.raises(ProtocolError, match="weak"):
        decode_config(pack(body))


def test_a_handshake_with_a_weak_key_is_refused_over_tcp():
    async def go() -> str:
        server_identity = Identity.generate()
        table = secrets.token_bytes(32)
        outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def accepted(reader, writer):
            try:
                await handshake(reader, writer, server_identity, table, lambda key: True)
                outcome.set_result("accepted")
            except ProtocolError as error:
                outcome.set_result(error.reason)
            writer.close()

        server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        hello = {
            "kind": "hello",
            "table": table,
            "nonce": bytes(32),
            "key": IDENTITY_POINT,
            "version": PROTOCOL_VERSION,
        }
        writer.write(frame(pack(hello)))
        await read_frame(reader, 4096)  # the server's hello
        writer.write(frame(pack({"kind": "auth", "signature": FORGERY})))
        result = await asyncio.wait_for(outcome, 5)
        writer.close()
        server.close()
        return result

    assert "weak" in asyncio.run(go())
