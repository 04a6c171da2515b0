"""Sealed Køb! answers under `buy_priority = seat` or `lot` (SPEC §4.7): no last look.

Where the winner does not depend on who called first, an answer sent in the clear lets
a seat wait until it holds its rivals' answers and claim only to block one. So each
eligible seat first broadcasts a `buy/seal` — a hash of its answer and a nonce — and
opens it (the `buy/answer` with its nonce) only once it holds every eligible seat's
seal: by then every answer is fixed. The nonce is derived from the seat's own signature
(deterministic Ed25519) over the game and window, so a seat that restarts inside the
window can still open what it sealed, and nobody else can guess it.
"""

from __future__ import annotations

import hashlib

from p2p_rommy.engine.state import GameState
from p2p_rommy.wire.identity import Identity

SEAL_DOMAIN = b"p2p-rommy/v5/buy-seal\x00"
NONCE_DOMAIN = b"p2p-rommy/v5/buy-nonce\x00"


def sealed(state: GameState) -> bool:
    """Whether answers in this game's windows are sealed first (not a race)."""
    return state.rules.buy_priority != "first"


def seal_of(game: bytes, window: int, seat: int, claim: bool, nonce: bytes) -> bytes:
    """SHA-256(domain || game || u64 window || u8 seat || u8 claim || nonce)."""
    return hashlib.sha256(
        SEAL_DOMAIN + game + window.to_bytes(8, "big") + bytes([seat, int(claim)]) + nonce
    ).digest()


def nonce_of(identity: Identity, game: bytes, window: int) -> bytes:
    """This seat's nonce for `window`: secret until it opens, the same after a restart."""
    message = NONCE_DOMAIN + game + window.to_bytes(8, "big")
    return hashlib.sha256(NONCE_DOMAIN + identity.signature(message)).digest()
