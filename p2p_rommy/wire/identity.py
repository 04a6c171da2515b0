"""Long-term Ed25519 identities (pyca/cryptography) and signed envelopes.

An envelope carries the exact body bytes, the signature over them and the
signer's key id; nobody re-encodes a body to check a signature (ARCHITECTURE.md,
"Signatures cover the exact bytes sent").
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    PublicFormat,
)

from p2p_rommy.errors import ProtocolError
from p2p_rommy.wire.codec import MAX_BODY_BYTES, blob, fixed, pack, text, unpack

Entropy = Callable[[int], bytes]
"""Where randomness comes from: `secrets.token_bytes` unless a test passes its own."""

KEY_ID_DOMAIN = b"p2p-rommy/v1/key-id\x00"
SIGNATURE_DOMAIN = b"p2p-rommy/v1/envelope\x00"
ENVELOPE_VERSION = "env1"


def key_id(public_key: bytes) -> bytes:
    """16 bytes naming a public key: H(domain || key)[:16]."""
    return hashlib.sha256(KEY_ID_DOMAIN + public_key).digest()[:16]


def fingerprint(public_key: bytes) -> str:
    """A short key fingerprint for people to compare: 4 groups of 4 hex digits."""
    digest = key_id(public_key).hex()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True, slots=True)
class Identity:
    """A player's signing key. `generate` is the only way in for randomness."""

    private_bytes: bytes

    @classmethod
    def generate(cls, entropy: Entropy = secrets.token_bytes) -> Identity:
        return cls(entropy(32))

    @property
    def _key(self) -> Ed25519PrivateKey:
        return _private_key(self.private_bytes)

    @property
    def public_key(self) -> bytes:
        return self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def key_id(self) -> bytes:
        return key_id(self.public_key)

    def sign(self, body: bytes) -> bytes:
        """An envelope: [version, key id, body, signature over domain || body]."""
        signature = self._key.sign(SIGNATURE_DOMAIN + body)
        return pack([ENVELOPE_VERSION, self.key_id, body, signature])


@functools.lru_cache(maxsize=64)
def _private_key(private_bytes: bytes) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(private_bytes)


@functools.lru_cache(maxsize=256)
def _public_key(public_bytes: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(public_bytes)


_ENVELOPE = fixed(text(8), blob(16), blob(max_size=MAX_BODY_BYTES), blob(64))


@dataclass(frozen=True, slots=True)
class Opened:
    """A verified envelope: who signed it (seat) and the exact body bytes."""

    seat: int
    body: bytes
    signature: bytes
    raw: bytes


def open_envelope(data: bytes, roster: Mapping[bytes, tuple[int, bytes]]) -> Opened:
    """Check an envelope against the seated keys (key id -> (seat, public key)).

    Raises `ProtocolError` for anything but a good signature by a seated key.
    """
    raw = unpack(data, None, MAX_BODY_BYTES + 256)
    try:
        version, signer, body, signature = _ENVELOPE(raw, "envelope")
    except ValueError as error:
        raise ProtocolError(None, f"malformed envelope: {error}") from None
    if version != ENVELOPE_VERSION:
        raise ProtocolError(None, f"unknown envelope version {version!r}")
    seated = roster.get(signer)
    if seated is None:
        raise ProtocolError(f"key {signer.hex()}", "this key is not seated at the table")
    seat, public = seated
    try:
        _public_key(public).verify(signature, SIGNATURE_DOMAIN + body)
    except InvalidSignature:
        raise ProtocolError(seat, "bad signature") from None
    return Opened(seat, body, signature, bytes(data))


def roster_of(public_keys: list[bytes]) -> dict[bytes, tuple[int, bytes]]:
    """Key id -> (seat, public key) for keys listed in seat order."""
    return {key_id(key): (seat, key) for seat, key in enumerate(public_keys)}
