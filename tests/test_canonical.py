"""One encoding per signed structure (trust issue, attack 1; SPEC §3.9).

Any other byte form of an envelope or a body — a longer header, a repeated map key —
is refused before it is compared, stored or blamed on anyone: a peer that already
holds the canonical message neither freezes nor keeps "evidence" against its signer.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.events import records, sends
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.identity import Identity, open_envelope, roster_of
from tests.peer_table import PeerTable

TABLE = PeerTable("rummy", 3, {"target_score": "15"})
FIRST = sends(TABLE.peers[0].start())  # seat 0's first step and its ACK


def _widths(minimal: int, options: list[int]) -> list[int]:
    return [o for o in options if o >= minimal]


def wide(value: object, draw) -> bytes:
    """msgpack of `value`, each header as wide as `draw` picks (at least the minimum)."""
    if isinstance(value, bytes):
        n = len(value)
        w = draw(st.sampled_from(_widths(1 if n < 256 else 2 if n < 65536 else 4, [1, 2, 4])))
        return bytes([0xC4 + (w > 1) + (w > 2)]) + n.to_bytes(w, "big") + value
    if isinstance(value, str):
        data = value.encode()
        n = len(data)
        minimal = 0 if n < 32 else 1 if n < 256 else 2
        w = draw(st.sampled_from(_widths(minimal, [0, 1, 2, 4])))
        head = bytes([0xA0 | n]) if w == 0 else bytes([0xD8 + w - (w == 4)]) + n.to_bytes(w, "big")
        return head + data
    if isinstance(value, bool) or value is None:
        return pack(value)
    if isinstance(value, int):
        if 0 <= value < 128:
            w = draw(st.sampled_from([0, 1, 2, 4, 8]))
        else:
            return pack(value)
        if w == 0:
            return pack(value)
        return bytes([0xCC + {1: 0, 2: 1, 4: 2, 8: 3}[w]]) + value.to_bytes(w, "big")
    if isinstance(value, list):
        n = len(value)
        w = draw(st.sampled_from(_widths(0 if n < 16 else 2, [0, 2, 4])))
        head = bytes([0x90 | n]) if w == 0 else bytes([0xDB + w // 2]) + n.to_bytes(w, "big")
        return head + b"".join(wide(v, draw) for v in value)
    if isinstance(value, dict):
        items = list(value.items())
        if draw(st.booleans()):  # a repeated key, the second copy wins in a naive decoder
            items.append(items[0])
        n = len(items)
        w = draw(st.sampled_from(_widths(0 if n < 16 else 2, [0, 2, 4])))
        head = bytes([0x80 | n]) if w == 0 else bytes([0xDD + w // 2]) + n.to_bytes(w, "big")
        return head + b"".join(wide(k, draw) + wide(v, draw) for k, v in items)
    raise TypeError(type(value))


@st.composite
def reencodings(draw) -> tuple[int, bytes]:
    """A re-encoding of one of seat 0's envelopes: of the envelope itself (same
    signature), or of its body re-wrapped canonically (the signature no longer fits)."""
    index = draw(st.sampled_from(range(len(FIRST))))
    envelope = FIRST[index]
    version, signer, body, signature = msgpack.unpackb(envelope)
    if draw(st.booleans()):
        data = wide([version, signer, body, signature], draw)
    else:
        data = pack([version, signer, wide(msgpack.unpackb(body), draw), signature])
    if data == envelope:
        data = b"\xdc\x00\x04" + envelope[1:]
    return index, data


@given(reencodings())
@settings(max_examples=200, deadline=None)
def test_a_reencoded_signed_structure_is_refused_without_blame(case):
    index, data = case
    table = PeerTable("rummy", 3, {"target_score": "15"})
    peer = table.peers[1]
    first = sends(table.peers[0].start())
    assert first == FIRST  # deterministic table
    for envelope in first[: index + 1]:  # peer 1 holds the canonical copy already
        peer.receive(envelope, via=0)
    before = (peer.replica.n, peer.replica.tentative, len(peer.trouble.refused))
    out = peer.receive(data, via=2)
    assert sends(out) == [] and records(out) == []
    assert peer.frozen is None and peer.culprit is None and peer.trouble.evidence == []
    assert (peer.replica.n, peer.replica.tentative) == before[:2]
    assert len(peer.trouble.refused) == before[2] + 1
    assert "canonical" in peer.trouble.refused[-1] or "bad signature" in peer.trouble.refused[-1]


def test_longer_forms_and_repeated_keys_are_not_values():
    identity = Identity.generate()
    envelope = identity.sign(pack({"kind": "x", "n": 1}))
    roster = roster_of([identity.public_key])
    assert open_envelope(envelope, roster).seat == 0
    with pytest.raises(ProtocolError, match="canonical"):
        open_envelope(b"\xdc\x00\x04" + envelope[1:], roster)
    with pytest.raises(ProtocolError, match="canonical"):
        unpack(b"\x82\xa1a\x01\xa1a\x02")  # {"a": 1, "a": 2}
    with pytest.raises(ProtocolError, match="canonical"):
        unpack(b"\xcc\x05")  # 5 as a uint8
    assert unpack(pack({"a": [1, b"x", "y"]})) == {"a": [1, b"x", "y"]}


def test_pack_gives_msgpacks_bytes_after_a_failure_and_on_every_thread():
    """`pack` keeps a packer per thread: the same bytes as `msgpack.packb`, also right
    after a value it could not pack, and from threads packing at once."""
    values = [{"kind": "x", "n": 2**40, "b": b"\x00" * 300}, [1, "æ", None, True], "y" * 40]
    with pytest.raises(TypeError):
        pack([1, object()])
    assert [pack(v) for v in values] == [msgpack.packb(v, use_bin_type=True) for v in values]

    def packs(seed: int) -> bool:
        mine = [[seed, i, b"z" * (seed * 50 + i)] for i in range(300)]
        return all(pack(v) == msgpack.packb(v, use_bin_type=True) for v in mine)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(packs, range(8)))
