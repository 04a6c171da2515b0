"""Every limit and every timing constant, in one place, each with its unit and reason.

SPEC §4.9 lists them (a test checks that it names each one with its value). Sans-IO
helpers for them live here too: the token bucket that enforces rates, and the key
that groups source addresses into networks for penalties.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

# --- sizes on the wire ------------------------------------------------------------

FRAME_CAP_BYTES = 2 << 20
"""Largest frame accepted on a game connection (2 MiB): a 110-card shuffle is ~20 KiB."""
LOBBY_FRAME_BYTES = 64 << 10
"""Largest lobby frame (64 KiB): a lobby message is at most a few kilobytes."""
LOBBY_UNSENT_BYTES = 256 << 10
"""A lobby member that leaves this much of what it was sent unread is dropped."""

# --- timeouts and clocks (seconds) ------------------------------------------------

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
"""The first delay before redialling a dropped seat; it doubles on each failure..."""
RECONNECT_MAX_S = 5.0
"""...up to this delay..."""
RECONNECT_JITTER = 0.5
"""...each delay taken at random between (1 - this) and (1 + this) times itself, so seats
that lost each other at the same moment do not redial in lockstep."""
CONNECT_TIMEOUT_S = 3.0
"""A TCP connect to a peer's or a table's address that has not completed by then is
given up (a dead adapter's address would otherwise hold a dial for the OS's SYN
timeout: ~21 s on Windows, ~2 min on Linux)."""
DIAL_STAGGER_S = 0.25
"""A mesh dial tries a seat's listed addresses in order, starting on the next one when
the last has not connected within this time (RFC 8305's "happy eyeballs")."""
LOOK_FOR_TABLE_S = 20.0
"""`rommy join NAME` looks this long for the table before it gives up and suggests
`rommy doctor` (it joins as soon as the table is found)."""
JOIN_SETTLE_S = 1.0
"""Once `rommy join NAME` sees its table, it looks on this long for a namesake or the
real table beside an impostor before it chooses."""
AGAIN_SETTLE_S = 0.0
"""How long a player coming back for a new game (`n`) looks on once the table is seen:
its name and creator's key are known, and a table that fails its proof is looked for
again, so it joins at once (it waited `JOIN_SETTLE_S` after the reopen)."""
ALONE_HINT_S = 20.0
"""A creator still alone at its table after this long is told to try `rommy doctor`."""
DOCTOR_HEAR_S = 5.0
"""How long `rommy doctor` waits to hear its own mDNS advert on one address."""
TICK_S = 0.1
"""How often a session lets time pass (buy windows, stalls)."""
DEAL_REDRAW_S = 0.25
"""While a round is dealt, the client redraws its progress at most this often (a
change to the player's own cards at once): each redraw holds up the seats' work."""
STALL_AFTER_S = 30.0
"""Waiting this long for one seat's message is reported as a stall naming the seat; a
peer proposes or signs an end without that seat only once it has waited this long
itself (SPEC §4.4)."""
STALE_GRACE_S = 5.0
"""After a restarted seat has caught up, how long its refusals are not shown."""
DEPARTURE_GRACE_S = 3.0
"""How long a link stays down before its seat is said to have left (a blip says nothing)."""
END_CONFIRM_S = 10.0
"""How long after `e` a second `e` confirms ending the game without a player."""
RESYNC_S = 1.5
"""Without progress for this long, a peer asks each other seat that the table waits for
to send again what it may have missed."""
RESYNC_ALL_S = 4.5
"""Without progress for this long, a peer asks every seat (one it waits for may be gone
while the others went on)."""
ASK_AGAIN_S = 5.0
"""A seat that has not answered an ask (it may have been lost) is asked again after this."""
CUT_OFF_S = 10.0
"""A seat asked this long ago (catch-up or resync) and not heard from since is taken
to be cut off from this one: this seat proposes no end that needs its signature (a
seat cut off from the whole table cannot tell that it is the one cut off, and an end
nobody signs held it while the others ended the game without it, present). Twice
`ASK_AGAIN_S`: one lost answer is not a cut."""
CATCH_UP_REASK_S = 1.0
"""A restarted seat asks a seat that has not answered its catch-up ask again after this,
doubling each time (1 s, 2 s, 4 s, ...)."""
CATCH_UP_ASKS = 4
"""Catch-up asks to one seat after a restart: when the last has waited its turn
unanswered (15 s in all), the restarted seat goes on without it and reports it stalling.
Well inside `STALL_AFTER_S`, so the others never report the restarted seat instead."""
ALONE_AFTER_S = 25.0
"""A restarted seat that no other seat has answered since its first ask, this long,
concludes they have finished or left: it says so and stops. Until then it goes on
asking (from `CATCH_UP_ASKS` on, without them): a seat paused or cut off for longer
than the catch-up schedule (15 s) is not the end of the game, and leaving then lost
the table a signer or its majority."""
ASKS_KEPT = 8
"""Unanswered asks of one seat remembered (their answers are not replays); older ones
are forgotten, so lost answers cannot grow memory."""
END_AFTER_S = 300.0
"""A bot seat proposes to end the game without a seat it has waited for this long."""
PAUSE_FLUSH_S = 2.0
"""How long a seat that cannot write waits for its pause notice to go out."""
FINAL_FLUSH_S = 10.0
"""How long a seat whose game is over waits for its last queued words to reach seats
that have not left yet (one that never answers must not keep the process alive)."""
CLOSE_LINGER_S = 2.0
"""How long a leaving seat, having written its last words and closed its side of a
connection, reads (and drops) what the other side still sends until that side closes
too: closing with unread data would reset the connection and could lose those words."""
START_STAGE_TIMEOUT_S = 30.0
"""Each stage of a lobby's start (coin commits, coin reveals, config signatures) must
complete within this time; then the start stops, naming who did not send theirs."""
LOBBY_REPLY_TIMEOUT_S = 20.0
"""A joiner that hears nothing from the table's creator for this long gives up; a
lobby connection that has proved its key must send its join within this time."""

# --- connections (before and after the handshake) ----------------------------------

MAX_PENDING_HANDSHAKES = 32
"""Connections still proving a key (or, at a lobby, owing their join); more are
closed at once."""
MAX_PENDING_PER_SOURCE = 8
"""Of those, from one address (a 6-seat table dials 5 at once)."""
MAX_PENDING_PER_NETWORK = 16
"""Of those, from one source network (`SOURCE_NETWORK_V4_BITS`, `_V6_BITS`): a guest
rotating through the addresses of its network still holds at most this many."""
SOURCE_NETWORK_V4_BITS = 24
"""IPv4 addresses that share this prefix count as one source network."""
SOURCE_NETWORK_V6_BITS = 64
"""IPv6 addresses that share this prefix count as one source network."""
RESERVED_FOR_SEATS = 8
"""Handshake slots beyond `MAX_PENDING_HANDSHAKES` kept for the addresses seated peers
listed: strangers rotating their source address cannot lock a returning seat out."""
MAX_STRIKES = 20
"""Refused messages on one game connection before it is closed."""
FAILED_HANDSHAKES_BEFORE_PENALTY = 5
"""Failed handshakes from one source network before it is penalised."""
FAILED_HANDSHAKE_FORGIVEN_S = 10.0
"""A source's failed handshakes are forgiven one per this many seconds (they decay)."""
PENALTY_S = 2.0
"""After closing a connection for garbage (or several failed handshakes), new
connections from that source network are refused for this long (the addresses seated
peers listed are judged on their own)."""
REMEMBERED_ADDRESSES = 1024
"""Sources whose failures and penalties are remembered; beyond it, the expired go."""

# --- what one peer may ask of another --------------------------------------------

CHAT_LINES_PER_S = 1.0
"""Chat lines a seat may send per second, on average."""
CHAT_BURST = 5
"""Chat lines a seat may send at once."""
SYNC_ASKS_PER_S = 1.0
"""Catch-up asks (`log/sync` with ask) a seat may send per second, on average."""
SYNC_BURST = 4
"""Catch-up asks a seat may send at once (one per reconnect, one per quiet spell)."""
FUTURE_STEPS = 8
"""How far ahead of its committed state a peer keeps steps, ACKs and buy answers that
arrived early; later ones are refused."""
OUTBOX_MAX = 4096
"""Envelopes queued for one link; a link that falls further behind is cut and resynced."""
LOBBY_FRAMES_PER_S = 2.0
"""Frames a lobby connection may send per second, on average (a member sends four
messages in all: its join and one of each start message)..."""
LOBBY_FRAMES_BURST = 8
"""...and at once; a connection over its rate is closed."""
LOBBY_STRIKES = 5
"""Unexpected lobby messages from one member before its connection is closed."""

# --- what a peer keeps in memory ---------------------------------------------------

CHAT_KEPT = 500
"""Chat lines kept in memory (the oldest go first)."""
EVIDENCE_KEPT = 16
"""Pairs of contradicting signed messages kept as proof (more prove nothing new)."""
OPENED_ANSWERS_KEPT = 64
"""Køb! answers and seals a peer keeps as it opened them on arrival, for the checks of
the open window that read them again (the answer's own, the resolution's): each is
opened once. Cleared as windows close; six seats send at most twelve in a window."""
BUY_WINDOWS_KEPT = 8
"""Closed Køb! windows whose signed answers and seals a peer keeps, and late answers
(or seals) per seat it keeps for closed windows it holds nothing of: a second,
different one from that seat for one of them is proof (SPEC §4.7 "Two answers")."""
REFUSED_KEPT = 200
"""Refusal reasons kept in memory (a flood of bad input must not grow without bound)."""
VERIFIED_PROOFS_KEPT = 4096
"""Shuffle proofs remembered as verified in one process (a fingerprint each, 32 bytes):
seats sharing a process check each proof once."""
LOG_FILE_BYTES = 1 << 20
"""The client's log file (`rommy.log` in the data dir) is rotated at this size (1 MiB)..."""
LOG_FILES_KEPT = 3
"""...and this many old ones are kept."""


@dataclass
class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up; `take` spends one if it can.
    Sans-IO: told the time (`now`, seconds on any monotonic clock)."""

    rate: float
    burst: int
    tokens: float = -1.0
    at: float | None = None

    def take(self, now: float) -> bool:
        if self.at is None:
            self.tokens, self.at = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def source_network(address: str) -> str:
    """The source network `address` belongs to, for penalties and per-network caps
    (like OpenSSH's PerSourceNetBlockSize): 10.0.0.7 → "10.0.0.0/24". An address that
    does not parse is its own network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = SOURCE_NETWORK_V4_BITS if ip.version == 4 else SOURCE_NETWORK_V6_BITS
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def jittered(delay: float, unit: float) -> float:
    """`delay` spread by `RECONNECT_JITTER`, given `unit`, a random number in [0, 1)."""
    return delay * (1.0 - RECONNECT_JITTER + 2.0 * RECONNECT_JITTER * unit)


LOOKAHEAD_HANDS = 600
"""Hands a ``hard`` bot may newly cost in one decision's look-ahead before it plays its
best so far: a count of work, not seconds, so that its play is the same on a busy
machine (a decision's limit is 200 ms; this keeps the bench's max well under it).
Local: not on the wire."""

BOT_REACTION_LOW_S = 0.7
"""A `random` or `reference` bot calls Køb! no sooner than this after a window opens on
its clock (the heuristic levels carry their own range, bots/heuristic.py)..."""
BOT_REACTION_HIGH_S = 2.0
"""...and no later than this, drawn uniformly per window from the bot's seed, so a
person who presses `k` promptly wins the race. Local: not on the wire."""
BOTS_ONLY_REACTION_S = (0.02, 0.1)
"""The reaction range at a table of bots only (`bots.reaction.hurried`): seeded races
among bots, without minutes of waiting in whole-match tests and simulations. Local."""
PROMPT_PERSON_S = 0.4
"""The bench's prompt person calls Køb! this long after a window opens."""
KOB_HOP_S = 0.005
"""One message's way from seat to seat on a home LAN, in the bench's Køb! race."""
