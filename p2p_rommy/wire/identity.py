"""Long-term Ed25519 identities and signed envelopes.

An envelope carries the exact body bytes, the signature over them and the
signer's key id; nobody re-encodes a body to check a signature (ARCHITECTURE.md,
"Signatures cover the exact bytes sent"). Envelopes and bodies have one encoding
(`wire.codec.unpack` refuses any other), so two envelopes from one seat differ only
if their signed bodies do.

Keys are checked where they enter (`check_public_key`): a small-order or
non-canonical Ed25519 key would let anyone "sign" as that seat. Signatures are
made and checked by libsodium (through PyNaCl), which checks strictly: canonical S,
no small-order R or key.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from nacl.bindings import (
    crypto_core_ed25519_is_valid_point,
    crypto_sign,
    crypto_sign_BYTES,
    crypto_sign_open,
    crypto_sign_seed_keypair,
)
from nacl.exceptions import BadSignatureError

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.wire.codec import MAX_BODY_BYTES, blob, fixed, pack, text, unpack

Entropy = Callable[[int], bytes]
"""Where randomness comes from: `secrets.token_bytes` unless a test passes its own."""

KEY_ID_DOMAIN = b"p2p-rommy/v1/key-id\x00"
SIGNATURE_DOMAIN = b"p2p-rommy/v1/envelope\x00"
ENVELOPE_VERSION = "env1"


@functools.lru_cache(maxsize=64)
def key_id(public_key: bytes) -> bytes:
    """16 bytes naming a public key: H(domain || key)[:16] (worked out once for the
    table's few keys: every envelope names its signer's)."""
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
    def public_key(self) -> bytes:
        return _keypair(self.private_bytes)[0]

    @property
    def key_id(self) -> bytes:
        return key_id(self.public_key)

    def signature(self, message: bytes) -> bytes:
        """The bare 64-byte Ed25519 signature of exactly `message` (its domain string
        included by the caller: the handshake's transcript)."""
        return crypto_sign(message, _keypair(self.private_bytes)[1])[:crypto_sign_BYTES]

    def sign(self, body: bytes) -> bytes:
        """An envelope: [version, key id, body, signature over domain || body]."""
        signature = self.signature(SIGNATURE_DOMAIN + body)
        return pack([ENVELOPE_VERSION, self.key_id, body, signature])


@functools.lru_cache(maxsize=64)
def _keypair(private_bytes: bytes) -> tuple[bytes, bytes]:
    """(public key, libsodium's 64-byte secret key) of an RFC 8032 private key (the
    32-byte seed)."""
    public, secret = crypto_sign_seed_keypair(private_bytes)
    return public, secret


def valid_public_key(public_key: bytes) -> bool:
    """Whether `public_key` is a canonical Ed25519 point of the prime-order subgroup
    (not small order): the only keys whose signatures pin their owner."""
    return (
        isinstance(public_key, bytes)
        and len(public_key) == 32
        and crypto_core_ed25519_is_valid_point(public_key)
    )


def check_public_key(public_key: bytes, sender: int | str | None = None) -> bytes:
    """`public_key` if valid (see `valid_public_key`), else `ProtocolError`."""
    if not valid_public_key(public_key):
        raise ProtocolError(
            sender, N_("a weak or malformed public key (refused: anyone could sign)")
        )
    return public_key


def verify_signature(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Strict Ed25519 verification (libsodium); False for any bad signature.

    Nothing is remembered: a peer opens each envelope once where it arrives and hands
    the opened value on (`Opened`, a `Record`'s decoded step and ACKs), and `rommy
    verify` opens each once too (issue #28), so there is no second check to spare."""
    if len(signature) != 64 or len(public_key) != 32:
        return False
    try:
        crypto_sign_open(signature + message, public_key)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def envelope_body(envelope: bytes) -> bytes:
    """The signed body inside an envelope this peer already accepted (its fields as
    `envelope_fields` split them, looked up through the module: the simulator
    remembers them, `sim/one_process.py`)."""
    return envelope_fields(envelope)[1]


def same_body(first: bytes, second: bytes) -> bool:
    """Whether two accepted envelopes carry the same signed body (equivocation is two
    different bodies, never two encodings or signatures of one)."""
    return first == second or envelope_body(first) == envelope_body(second)


_ENVELOPE = fixed(text(8), blob(16), blob(max_size=MAX_BODY_BYTES), blob(64))


@dataclass(frozen=True, slots=True)
class Opened:
    """A verified envelope: who signed it (seat) and the exact body bytes."""

    seat: int
    body: bytes
    signature: bytes
    raw: bytes


def envelope_fields(data: bytes) -> tuple[bytes, bytes, bytes]:
    """(signer's key id, body, signature) of a well-formed envelope of this version, or
    `ProtocolError`: a function of the bytes alone (nothing checked against a key yet)."""
    raw = unpack(data, None, MAX_BODY_BYTES + 256)
    try:
        version, signer, body, signature = _ENVELOPE(raw, "envelope")
    except ValueError as error:
        raise ProtocolError(None, N_("malformed envelope: {error}").format(error=error)) from None
    if version != ENVELOPE_VERSION:
        raise ProtocolError(
            None, N_("unknown envelope version {version!r}").format(version=version)
        )
    return signer, body, signature


def open_envelope(data: bytes, roster: Mapping[bytes, tuple[int, bytes]]) -> Opened:
    """Check an envelope against the seated keys (key id -> (seat, public key)).

    Raises `ProtocolError` for anything but a good signature by a seated key.
    """
    signer, body, signature = envelope_fields(data)
    seated = roster.get(signer)
    if seated is None:
        raise ProtocolError(f"key {signer.hex()}", N_("this key is not seated at the table"))
    seat, public = seated
    if not verify_signature(public, signature, SIGNATURE_DOMAIN + body):
        raise ProtocolError(
            None, N_("bad signature (under the key of seat {seat})").format(seat=seat)
        )
    return Opened(seat, body, signature, bytes(data))


def envelope_head(signer: bytes, body: bytes) -> bytes:
    """The bytes of `body`'s envelope by key id `signer` before its 64 signature bytes:
    the one encoding (`pack`) of [version, signer, body, signature] is this, then the
    signature itself (`is_envelope_of`)."""
    return pack([ENVELOPE_VERSION, signer, body, bytes(64)])[:-64]


def is_envelope_of(data: bytes, head: bytes, public: bytes, body: bytes) -> bool:
    """Whether `data` is exactly the envelope of `body` (its `envelope_head`) with a good
    signature under `public`: what `open_envelope` would accept as that body by that
    key, without decoding anything. False says nothing of why (open it to find out).
    `rommy verify` knows each ACK's body before it reads it (issue #27)."""
    return (
        len(data) == len(head) + 64
        and data.startswith(head)
        and verify_signature(public, data[-64:], SIGNATURE_DOMAIN + body)
    )


def roster_of(public_keys: list[bytes]) -> dict[bytes, tuple[int, bytes]]:
    """Key id -> (seat, public key) for keys listed in seat order; a weak key is refused."""
    return {
        key_id(check_public_key(key, seat)): (seat, key) for seat, key in enumerate(public_keys)
    }
