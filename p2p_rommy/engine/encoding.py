"""The canonical encoding of the public state and its hash (protocol/SPEC.md, "State hash").

msgpack has no canonical form in general, so the encoding is pinned: one msgpack
array with the fields in a fixed order, no maps, no floats, ints in msgpack's
shortest form (which msgpack-python always writes), strings as str, house rules
as [key, value] pairs in the variant's spec order. Peers sign the hash of these
bytes when they commit a step.
"""

from __future__ import annotations

import hashlib

from p2p_rommy.engine.state import GameState
from p2p_rommy.wire.codec import pack

STATE_ENCODING_VERSION = "p2p-rommy/state/v1"
STATE_HASH_DOMAIN = b"p2p-rommy/v1/state-hash\x00"


def state_fields(state: GameState) -> list[object]:
    """The public state as plain values in the pinned field order (msgpack writes a
    tuple as the array a list would be, so the state's tuples go in as they are)."""
    return [
        STATE_ENCODING_VERSION,
        state.rules.variant,
        [[key, value] for key, value in state.rules.house.values],
        state.players,
        state.first_dealer,
        state.round_index,
        state.dealer,
        state.phase.value,
        state.turn,
        state.faces,
        state.stock,
        state.discard,
        state.hands,
        [
            [meld.kind.value, meld.owner, [[p.slot, p.card, p.rank] for p in meld.cards]]
            for meld in state.melds
        ],
        state.retired,
        state.opened,
        state.buys,
        state.offer,
        state.discarder,
        state.buy_eligible,
        state.taken_discard,
        state.opened_this_turn,
        state.new_melds_this_turn,
        state.swapped_jokers,
        state.rebuilds_since_progress,
        None if state.round_end is None else state.round_end.value,
        state.closer,
        state.closer_at_once,
        state.revealed,
        state.scores,
        state.round_scores,
    ]


def encode_state(state: GameState) -> bytes:
    """The canonical bytes of the public state (`pack`: the bytes `msgpack.packb` gives
    with `use_bin_type`, from a packer kept per thread rather than one made per call)."""
    return pack(state_fields(state))


def state_hash(state: GameState) -> bytes:
    """SHA-256 over the domain string and the canonical encoding."""
    return hashlib.sha256(STATE_HASH_DOMAIN + encode_state(state)).digest()
