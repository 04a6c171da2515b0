"""Scripted deals and short-hands for rule tests.

`scripted_table` puts chosen cards into chosen hands, the upcard and the top of
the stock, exactly as the deck protocol's shuffle would deliver them (chance is
an input), and fills the rest of the deck in a fixed order.

Card tokens: ``7H``, ``10S``, ``AS`` for naturals; ``JK:8`` is a joker standing
for an 8 (``JK:A`` low ace, ``JK:14`` high ace); ``AH:14`` a high ace in a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from p2p_rommy.cards import ACE_HIGH, composition, parse_card
from p2p_rommy.engine.apply import deal_layout, new_game, upcard_slot
from p2p_rommy.engine.moves import LayDown, LayOff, NewMeld, SwapJoker
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.rules.melds import MeldKind, Placed
from p2p_rommy.rules.variants import ruleset


def deal_positions(rules, players: int, dealer: int) -> dict[int, list[int]]:
    """Slots each seat is dealt, in deal order (the engine's own layout)."""
    positions: dict[int, list[int]] = {seat: [] for seat in range(players)}
    for slot, seat in deal_layout(rules, players, dealer):
        positions[seat].append(slot)
    return positions


def _take(deck, used: set[int], token: str) -> int:
    card = parse_card(token.split(":")[0])
    for card_id, candidate in enumerate(deck.cards):
        if card_id not in used and candidate.face == card.face:
            used.add(card_id)
            return card_id
    raise ValueError(f"no {token} left in the deck")


def scripted_order(
    rules, players: int, dealer: int, hands: Mapping[int, str], upcard: str, stock: str = ""
) -> list[int]:
    deck = composition(rules.deck_size)
    used: set[int] = set()
    order: list[int | None] = [None] * rules.deck_size
    positions = deal_positions(rules, players, dealer)
    for seat, text in hands.items():
        tokens = text.split()
        if len(tokens) > len(positions[seat]):
            raise ValueError(f"seat {seat} is dealt {len(positions[seat])} cards")
        for slot, token in zip(positions[seat], tokens, strict=False):
            order[slot] = _take(deck, used, token)
    up = upcard_slot(rules, players)
    order[up] = _take(deck, used, upcard)
    for offset, token in enumerate(stock.split()):
        order[up + 1 + offset] = _take(deck, used, token)
    rest = iter(card_id for card_id in range(rules.deck_size) if card_id not in used)
    return [slot_card if slot_card is not None else next(rest) for slot_card in order]


def scripted_table(
    variant: str,
    players: int,
    hands: Mapping[int, str],
    upcard: str,
    stock: str = "",
    dealer: int = 0,
    house: Mapping[str, object] | None = None,
    round_index: int = 0,
) -> OpenTable:
    """A table just dealt: seat hands, the upcard and the stock's top as given."""
    rules = ruleset(variant, house)  # type: ignore[arg-type]
    order = scripted_order(rules, players, dealer, hands, upcard, stock)
    state = replace(new_game(rules, players, dealer), round_index=round_index)
    return OpenTable(state).start_round(order)


def bury_stock(table: OpenTable, keep: int) -> OpenTable:
    """Move all but `keep` stock cards under the discard pile, face up, as if discarded."""
    state = table.state
    buried = state.stock[keep:]
    faces = list(state.faces)
    for slot in buried:
        faces[slot] = table.truth[slot]
    return OpenTable(
        replace(
            state, stock=state.stock[:keep], discard=buried + state.discard, faces=tuple(faces)
        ),
        table.truth,
    )


def slot_of(table: OpenTable, seat: int, token: str, skip: set[int] | None = None) -> int:
    """A slot in `seat`'s hand whose true face is `token` (first not in `skip`)."""
    deck = composition(table.state.rules.deck_size)
    wanted = parse_card(token.split(":")[0]).face
    for slot in table.state.hands[seat]:
        if (skip is None or slot not in skip) and deck.card(table.truth[slot]).face == wanted:
            return slot
    raise ValueError(f"seat {seat} holds no {token}")


def placed(table: OpenTable, seat: int, token: str, skip: set[int] | None = None) -> Placed:
    """The `Placed` for `token` from `seat`'s hand, with the rank it stands for."""
    slot = slot_of(table, seat, token, skip)
    card = parse_card(token.split(":")[0])
    if ":" in token:
        meaning = token.split(":")[1]
        rank = int(meaning) if meaning.isdigit() else parse_card(meaning + "S").rank
    else:
        rank = card.rank
    return Placed(slot, table.truth[slot], rank)


def new_meld(table: OpenTable, seat: int, kind: str, tokens: str) -> NewMeld:
    used: set[int] = set()
    cards = []
    for token in tokens.split():
        card = placed(table, seat, token, used)
        used.add(card.slot)
        cards.append(card)
    return NewMeld(MeldKind(kind), tuple(cards))


def lay_down(table: OpenTable, seat: int, *melds: tuple[str, str]) -> LayDown:
    """A lay-down of ("set"|"run", "tokens") melds, unrelated tokens never sharing a slot."""
    used: set[int] = set()
    built = []
    for kind, tokens in melds:
        cards = []
        for token in tokens.split():
            card = placed(table, seat, token, used)
            used.add(card.slot)
            cards.append(card)
        built.append(NewMeld(MeldKind(kind), tuple(cards)))
    return LayDown(seat, tuple(built))


def lay_off(table: OpenTable, seat: int, meld: int, token: str) -> LayOff:
    return LayOff(seat, meld, placed(table, seat, token))


def swap(table: OpenTable, seat: int, meld: int, token: str) -> SwapJoker:
    """Swap the first joker of meld `meld` that `token` can replace."""
    card = parse_card(token)
    deck = composition(table.state.rules.deck_size)
    for joker in table.state.melds[meld].cards:
        if deck.card(joker.card).is_joker:
            ranks = {card.rank, ACE_HIGH} if card.rank == 1 else {card.rank}
            if joker.rank in ranks:
                slot = slot_of(table, seat, token)
                return SwapJoker(
                    seat, meld, joker.slot, Placed(slot, table.truth[slot], joker.rank)
                )
    raise ValueError(f"no joker in meld {meld} for {token}")


def discard(table: OpenTable, seat: int, token: str):
    from p2p_rommy.engine.moves import Discard

    slot = slot_of(table, seat, token)
    return Discard(seat, slot, table.truth[slot])


FILLERS = (
    "2S 5S 8S JS 3H 6H 9H QH 4D 7D 10D KD 2C 5C 8C JC",
    "3S 6S 9S QS 4H 7H 10H KH 5D 8D JD 3C 6C 9C QC",
)


def filler(count: int, avoid: str = "", alt: bool = False) -> str:
    """`count` cards that form no meld together: ranks at most twice, suits spaced by 3.

    `alt` draws from a second pool, so three seats can be padded from a 2-pack deck.
    """
    pool = FILLERS[alt].split()
    skip = set(avoid.split())
    return " ".join([token for token in pool if token not in skip][:count])


def cards_of(tokens: str, deck_size: int = 108) -> tuple[Placed, ...]:
    """Placed cards for `tokens` straight from a deck (slot = position in the list)."""
    deck = composition(deck_size)
    used: set[int] = set()
    result = []
    for index, token in enumerate(tokens.split()):
        card_id = _take(deck, used, token)
        card = deck.card(card_id)
        if ":" in token:
            meaning = token.split(":")[1]
            rank = int(meaning) if meaning.isdigit() else parse_card(meaning + "S").rank
        else:
            rank = card.rank
        result.append(Placed(index, card_id, rank))
    return tuple(result)


def draw(table: OpenTable, seat: int) -> OpenTable:
    """Draw from the stock; if that opens a buy window, nobody buys."""
    from p2p_rommy.engine.moves import DrawStock, ResolveBuy
    from p2p_rommy.engine.state import Phase

    table = table.play(DrawStock(seat), reshuffle=list)
    if table.state.phase is Phase.BUY:
        table = table.play(ResolveBuy(()))
    return table


def first_card(table: OpenTable, seat: int) -> str:
    """Notation of the first card in `seat`'s hand (to discard something harmless)."""
    deck = composition(table.state.rules.deck_size)
    return deck.card(table.truth[table.state.hands[seat][0]]).notation()


def pass_turns(table: OpenTable, seats) -> OpenTable:
    """Each seat in turn draws from the stock and discards its first card."""
    for seat in seats:
        table = draw(table, seat)
        table = table.play(discard(table, seat, first_card(table, seat)))
    return table
