"""Every timing constant of the network layer, in one place, with its unit and reason."""

from __future__ import annotations

FRAME_CAP_BYTES = 2 << 20
"""Largest frame accepted (2 MiB): a step with a 110-card shuffle is ~20 KiB."""
HANDSHAKE_TIMEOUT_S = 10.0
"""A peer that has not proved its key by then is dropped."""
FRAME_TIMEOUT_S = 30.0
"""Once a frame's length has arrived, its body must follow within this time."""
HEARTBEAT_S = 2.0
"""How often an idle connection sends a ping."""
DEAD_AFTER_S = 60.0
"""Silence after which a peer counts as disconnected. Generous: a peer busy verifying
a 6-seat shuffle (several seconds of CPU) in the same process must not look dead."""
RECONNECT_FIRST_S = 0.2
RECONNECT_MAX_S = 5.0
"""Reconnect backoff: doubling from the first delay up to the maximum."""
TICK_S = 0.1
"""How often a session lets time pass (buy windows)."""
MAX_STRIKES = 20
"""Refused messages on one connection before it is closed."""
PENALTY_S = 2.0
"""After closing a connection for garbage (or several failed handshakes), new
connections from that address are refused for this long."""
MAX_PENDING_HANDSHAKES = 32
"""Connections still proving a key; more are closed at once (a flood)."""
FAILED_HANDSHAKES_BEFORE_PENALTY = 5
MAX_PENDING_PER_SOURCE = 8
"""Connections from one address still proving a key (a 6-seat table dials 5 at once)."""
RESERVED_FOR_SEATS = 8
"""Handshake slots beyond `MAX_PENDING_HANDSHAKES` kept for the addresses seated peers
listed: strangers rotating their source address cannot lock a returning seat out."""
REMEMBERED_ADDRESSES = 1024
"""Addresses whose failures and penalties are remembered; beyond it, the expired go."""
START_STAGE_TIMEOUT_S = 30.0
"""Each stage of a lobby's start (coin commits, coin reveals, config signatures) must
complete within this time; then the start stops, naming who did not send theirs."""
LOBBY_REPLY_TIMEOUT_S = 20.0
"""A joiner that hears nothing from the table's creator for this long gives up."""
