"""Who may open a connection and start a handshake: caps and penalties before anyone
has proved a key (like OpenSSH's MaxStartups and PerSourcePenalties). Pure: told the
address and the time; the listeners in `mesh.py` and `lobby.py` ask it.

Counting and penalties are keyed by *source network* (`limits.source_network`), so a
guest rotating through the addresses of its network is one source. The addresses the
seated players listed are judged on their own, exact address: a neighbour's garbage
never locks out a seat, and they keep `RESERVED_FOR_SEATS` slots of their own.
"""

from __future__ import annotations

from collections.abc import Collection

from p2p_rommy.limits import (
    FAILED_HANDSHAKE_FORGIVEN_S,
    FAILED_HANDSHAKES_BEFORE_PENALTY,
    MAX_PENDING_HANDSHAKES,
    MAX_PENDING_PER_NETWORK,
    MAX_PENDING_PER_SOURCE,
    PENALTY_S,
    REMEMBERED_ADDRESSES,
    RESERVED_FOR_SEATS,
    source_network,
)


class Admission:
    def __init__(self) -> None:
        self.pending = 0
        self._by_address: dict[str, int] = {}
        self._by_network: dict[str, int] = {}
        self._failed: dict[str, tuple[float, float]] = {}
        """Per source: its failed handshakes (less those forgiven) and when counted."""
        self._penalty: dict[str, float] = {}
        self.refused = 0
        """Connections refused at once (caps, penalties)."""

    def admit(self, address: str, now: float, seated: Collection[str] = ()) -> bool:
        """Whether a connection from `address` may start its handshake; if so it counts
        as pending until `release`."""
        self._forget(now)
        network = source_network(address)
        key = _key(address, seated)
        allowed = (
            self._penalty.get(key, 0.0) <= now
            and self._by_address.get(address, 0) < MAX_PENDING_PER_SOURCE
            and (address in seated or self._by_network.get(network, 0) < MAX_PENDING_PER_NETWORK)
            and (
                self.pending < MAX_PENDING_HANDSHAKES
                or (
                    address in seated and self.pending < MAX_PENDING_HANDSHAKES + RESERVED_FOR_SEATS
                )
            )
        )
        if not allowed:
            self.refused += 1
            return False
        self.pending += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1
        self._by_network[network] = self._by_network.get(network, 0) + 1
        return True

    def release(self, address: str) -> None:
        """A pending connection proved its key (or joined), or ended."""
        self.pending -= 1
        for counts, key in (
            (self._by_address, address),
            (self._by_network, source_network(address)),
        ):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]

    def failed(self, address: str, now: float, seated: Collection[str] = ()) -> None:
        """A handshake from `address` failed; after `FAILED_HANDSHAKES_BEFORE_PENALTY`
        its source is penalised (failures are forgiven as time passes)."""
        key = _key(address, seated)
        count, since = self._failed.get(key, (0.0, now))
        # one failure forgiven every FAILED_HANDSHAKE_FORGIVEN_S: a neighbour's few
        # mishaps in an evening never add up to a penalty
        count = max(0.0, count - (now - since) / FAILED_HANDSHAKE_FORGIVEN_S) + 1
        if count >= FAILED_HANDSHAKES_BEFORE_PENALTY:
            del self._failed[key]
            self.penalise(address, now, seated)
        else:
            self._failed[key] = (count, now)

    def penalise(self, address: str, now: float, seated: Collection[str] = ()) -> None:
        """`address` sent garbage: its source may not connect for `PENALTY_S`."""
        self._penalty[_key(address, seated)] = now + PENALTY_S

    def _forget(self, now: float) -> None:
        if len(self._penalty) > REMEMBERED_ADDRESSES or len(self._failed) > REMEMBERED_ADDRESSES:
            self._penalty = {a: t for a, t in self._penalty.items() if t > now}
            self._failed.clear()


def _key(address: str, seated: Collection[str]) -> str:
    return address if address in seated else source_network(address)
