"""Seeded randomness: a deterministic stand-in for `secrets.token_bytes`.

For repeatable games (`rommy play --seed`, `rommy simulate`), test vectors and tests;
a real seat draws from the operating system. Its stream is SHAKE-256 of a label and a
counter (from 1, as u64 big-endian), which is how the vectors define it (SPEC §3)."""

from __future__ import annotations

import hashlib


class StreamEntropy:
    """`entropy(size)` gives the next `size` bytes of the label's stream."""

    def __init__(self, label: bytes) -> None:
        self.label = label
        self.count = 0

    def __call__(self, size: int) -> bytes:
        self.count += 1
        return hashlib.shake_256(self.label + self.count.to_bytes(8, "big")).digest(size)
