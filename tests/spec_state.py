"""SPEC §2 read by a second implementer: the public state and its canonical encoding,
written from the SPEC's text (the field table, "the new game", the deal, "field 18, the
discarder", "field 8, the seat in turn") and §4.7's buy rule alone — not the engine.
It follows the moves that move cards between places without judging melds: `start`,
`draw`, `take`, `discard` and `buy` (`tests/test_spec_state.py` replays the state
vectors through it, for every variant).

`field18` says which reading of field 18 to follow: ``"spec"`` (the text as it stands)
or ``"v3-text"`` (what SPEC v3 said: nil whenever nothing is offered), so a test can
show that the vectors tell the two apart."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgpack

VARIANTS = {  # §2's table: cards, players, hand size by players, dealer's extra card, buying
    "lp": {"cards": 108, "hand": lambda n: 11, "extra": 0, "dealer_acts": False, "buying": True},
    "rummy": {
        "cards": 52,
        "hand": lambda n: 10 if n == 2 else 7 if n <= 4 else 6,
        "extra": 0,
        "dealer_acts": False,
        "buying": False,
    },
    "romme": {"cards": 110, "hand": lambda n: 13, "extra": 1, "dealer_acts": True, "buying": False},
}


@dataclass
class SpecState:
    """The 31 fields of §2 as plain values, named by their number in the table."""

    variant: str
    house: list[list[Any]]
    players: int
    first_dealer: int
    field18: str = "spec"
    f: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """ "The new game": the state step 1 builds on (n = 0)."""
        n, dealer = self.players, self.first_dealer
        self.f = {
            5: 0,
            6: dealer,
            7: "round_start",
            8: dealer,
            9: [],
            10: [],
            11: [],
            12: [[] for _ in range(n)],
            13: [],
            14: [],
            15: [False] * n,
            16: [0] * n,
            17: None,
            18: None,
            19: [],
            20: None,
            21: False,
            22: 0,
            23: [],
            24: 0,
            25: None,
            26: None,
            27: False,
            28: [False] * n,
            29: [0] * n,
            30: [],
        }

    @property
    def rules(self) -> dict[str, Any]:
        return VARIANTS[self.variant]

    def house_rule(self, key: str) -> Any:
        return dict((k, v) for k, v in self.house)[key]

    def encoding(self) -> bytes:
        fields = ["p2p-rommy/state/v1", self.variant, self.house, self.players, self.first_dealer]
        fields += [self.f[i] for i in range(5, 31)]
        data: bytes = msgpack.packb(fields, use_bin_type=True)
        return data

    def state_hash(self) -> bytes:
        return hashlib.sha256(b"p2p-rommy/v1/state-hash\x00" + self.encoding()).digest()

    def _fresh_turn(self) -> None:
        """Fields 20-23 hold what happened "this turn"."""
        self.f.update({20: None, 21: False, 22: 0, 23: []})

    def apply(self, move: list[Any]) -> None:
        getattr(self, "_" + move[0])(*move[1:])

    def _start(self, upcard: int) -> None:
        """The deal: one card at a time from the dealer's left, Rommé's dealer one more,
        then the upcard; the stock is every later slot."""
        n, dealer, rules = self.players, self.f[6], self.rules
        hands: list[list[int]] = [[] for _ in range(n)]
        slot = 0
        for _ in range(rules["hand"](n)):
            for offset in range(1, n + 1):
                hands[(dealer + offset) % n].append(slot)
                slot += 1
        for _ in range(rules["extra"]):
            hands[dealer].append(slot)
            slot += 1
        faces: list[int | None] = [None] * rules["cards"]
        faces[slot] = upcard
        acts = dealer if rules["dealer_acts"] else (dealer + 1) % n
        self.f.update(
            {
                7: "play" if rules["dealer_acts"] else "draw",
                8: acts,
                9: faces,
                10: list(range(slot + 1, rules["cards"])),
                11: [slot],
                12: hands,
                13: [],
                14: [],
                15: [False] * n,
                16: [0] * n,
                17: slot if rules["buying"] else None,
                18: None,
                19: [],
                24: 0,
                25: None,
                26: None,
                27: False,
                28: [False] * n,
            }
        )
        self._fresh_turn()

    def _draw(self, seat: int) -> None:
        assert seat == self.f[8] and self.f[7] == "draw" and self.f[10], "not modelled"
        self.f[12][seat].append(self.f[10].pop(0))
        self.f[7] = "play"
        eligible = self._eligible()
        if eligible:
            self.f.update({7: "buy", 19: eligible})
        else:
            self.f.update({17: None, 18: None})

    def _eligible(self) -> list[int]:
        """§4.7 and the lp rules: the seats after the discarder (the dealer for the
        upcard) but the one in turn and the discarder, within `max_buys`, opened seats
        only if `open_players_may_buy`; only while the offered card is on top and the
        stock can give a penalty card."""
        offered = self.f[17]
        if offered is None or not self.f[11] or self.f[11][-1] != offered or not self.f[10]:
            return []
        reference = self.f[18] if self.f[18] is not None else self.f[6]
        most = self.house_rule("max_buys")
        seats = []
        for offset in range(1, self.players + 1):
            seat = (reference + offset) % self.players
            if seat in (self.f[8], self.f[18]):
                continue
            if most is not None and self.f[16][seat] >= most:
                continue
            if self.f[15][seat] and not self.house_rule("open_players_may_buy"):
                continue
            seats.append(seat)
        return seats

    def _take(self, seat: int) -> None:
        assert seat == self.f[8] and self.f[7] == "draw"
        slot = self.f[11].pop()
        self.f[12][seat].append(slot)
        self.f.update({7: "play", 20: slot, 17: None, 18: None})

    def _discard(self, seat: int, slot: int, card: int) -> None:
        assert seat == self.f[8] and self.f[7] == "play"
        self.f[12][seat].remove(slot)
        assert self.f[12][seat], "going out is not modelled"
        self.f[11].append(slot)
        self.f[9][slot] = card
        offered = slot if self.rules["buying"] else None
        # the text: every variant keeps the seat of the last discard; v3 said nil unless offered
        v3_nil = self.field18 != "spec" and offered is None
        discarder = None if v3_nil else seat
        self.f.update({7: "draw", 8: (seat + 1) % self.players, 17: offered, 18: discarder})
        self._fresh_turn()

    def _buy(self, claims: list[int]) -> None:
        """§4.7: under `buy_priority = seat` the claimant nearest after the discarder,
        under `first` and `lot` the first claimant listed (the log layer ranks them),
        takes the card and the stock's top card as its penalty."""
        priority = self.house_rule("buy_priority")
        assert self.f[7] == "buy" and priority in ("first", "seat", "lot")
        eligible = self.f[19]
        self.f.update({7: "play", 19: [], 17: None, 18: None})
        if claims:
            winner = min(claims, key=eligible.index) if priority == "seat" else claims[0]
            card, penalty = self.f[11].pop(), self.f[10].pop(0)
            self.f[12][winner] += [card, penalty]
            self.f[16][winner] += 1
            self.f[24] = 0
