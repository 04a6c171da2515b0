"""The lobby core: players gather at a table, agree on seats, and all sign the config.

Sans-IO, like the deck and log cores: `Host` (the table's creator) and `Joiner` (every
other player) take envelopes and the time in and give envelopes out; `net/lobby.py`
does the sockets and mDNS around them.

The creator opens the table and relays the lobby's messages; every message is signed
by its author, so the creator can drop one but not forge one. Each member's entry in
the lobby is its own signed join message: the names and fingerprints a joiner sees
come from those signatures (and the creator's from the key it proved in the
handshake, which must be the one its advert names), never from what the creator
says about them. Starting takes three stages, all through the creator:

1. every player commits to a random value (its hash);
2. once all commitments are out, every player reveals its value; the coin is the
   hash of all values, so nobody — the creator included — can steer it;
3. from the coin come the seat order, the first dealer and the config's nonce;
   every player builds the same config and signs it; the game id is its hash.

The creator sees the others' values before it relays them, so it could stop a start
whose seating it dislikes and open the table again. It cannot do so unseen: a
joiner whose reveal is not followed by the relay within twice
`START_STAGE_TIMEOUT_S` stops with a message naming the creator and saying what
this means. Every stage is timed and names the members it waited for.

After that the creator has no more power than anyone: the game runs on the full
mesh and the log.
"""

from p2p_rommy.lobby.coin import Coin, Started
from p2p_rommy.lobby.host import Begun, Changed, Drop, Host, Send, Stopped
from p2p_rommy.lobby.joiner import Joiner, JoinerOutput
from p2p_rommy.lobby.messages import (
    Begin,
    CoinCommit,
    CoinReveal,
    ConfigSignature,
    LobbyState,
    Member,
    Relay,
    TableSettings,
    join_entry,
    table_code,
)

__all__ = [
    "Begin",
    "Begun",
    "Changed",
    "Coin",
    "CoinCommit",
    "CoinReveal",
    "ConfigSignature",
    "Drop",
    "Host",
    "Joiner",
    "JoinerOutput",
    "LobbyState",
    "Member",
    "Relay",
    "Send",
    "Started",
    "Stopped",
    "TableSettings",
    "join_entry",
    "table_code",
]
