"""`apply(state, move)`: the rules as one pure function.

Every handler checks first and builds the new state last, so a refused move
raises `IllegalMove` and the caller keeps the state it had (it is frozen anyway).
Reasons are written for the player ("a løber needs at least 4 cards"). Comments
cite the rule documents in ``shared/rules/`` and the decisions in
``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict, TypeVar

from p2p_rommy.cards import DeckComposition, composition
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.phases import MOVE_NAMES, PHASE_HINTS, PHASE_MOVES
from p2p_rommy.engine.scoring import hand_points, match_over, round_scores
from p2p_rommy.engine.state import GameState, Phase, RoundEnd, changed
from p2p_rommy.errors import ConfigError, IllegalMove
from p2p_rommy.i18n import N_
from p2p_rommy.rules.melds import (
    Meld,
    MeldKind,
    Placed,
    check_meld,
    joker_targets,
    lay_off,
    normalized,
    opening_value,
    swap_joker,
)
from p2p_rommy.rules.variants import RuleSet

T = TypeVar("T")


def new_game(rules: RuleSet, players: int, first_dealer: int = 0) -> GameState:
    """A match before its first deal. `first_dealer` comes from the joint coin."""
    rules.check_players(players)
    if not 0 <= first_dealer < players:
        raise ConfigError(f"the first dealer must be a seat from 0 to {players - 1}")
    empty = tuple(() for _ in range(players))
    zeros = tuple(0 for _ in range(players))
    falses = tuple(False for _ in range(players))
    return GameState(
        rules=rules,
        players=players,
        first_dealer=first_dealer,
        round_index=0,
        dealer=first_dealer,
        phase=Phase.ROUND_START,
        turn=first_dealer,
        faces=(),
        stock=(),
        discard=(),
        hands=empty,
        melds=(),
        retired=(),
        opened=falses,
        buys=zeros,
        offer=None,
        discarder=None,
        buy_eligible=(),
        taken_discard=None,
        opened_this_turn=False,
        new_melds_this_turn=0,
        swapped_jokers=(),
        rebuilds_since_progress=0,
        round_end=None,
        closer=None,
        closer_at_once=False,
        revealed=falses,
        scores=zeros,
        round_scores=(),
    )


def deal_layout(rules: RuleSet, players: int, dealer: int) -> list[tuple[int, int]]:
    """(slot, seat) of the deal in order: one card at a time from the dealer's left,
    then Rommé's extra card to the dealer. The deck protocol deals the same layout."""
    layout = []
    position = 0
    for _ in range(rules.hand_size(players)):
        for offset in range(1, players + 1):
            layout.append((position, (dealer + offset) % players))
            position += 1
    # rule doc `romme`: "kortgiveren tager fjorten og starter med at kaste af"
    for _ in range(rules.dealer_extra_cards):
        layout.append((position, dealer))
        position += 1
    return layout


def upcard_slot(rules: RuleSet, players: int) -> int:
    """The slot turned up after the deal: the first one past every hand."""
    return rules.hand_size(players) * players + rules.dealer_extra_cards


def deck_of(state: GameState) -> DeckComposition:
    return composition(state.rules.deck_size)


def apply(state: GameState, move: Move) -> GameState:
    """The state after `move`, or `IllegalMove` saying why not (the state is untouched)."""
    allowed = PHASE_MOVES[state.phase]
    if not isinstance(move, allowed):
        name = MOVE_NAMES.get(type(move), type(move).__name__)
        raise IllegalMove(
            N_("{doing} is not possible now: {why}"), doing=name, why=PHASE_HINTS[state.phase]
        )
    match move:
        case StartRound():
            return _start_round(state, move)
        case DrawStock():
            return _draw_stock(state, move)
        case TakeDiscard():
            return _take_discard(state, move)
        case LayDown():
            return _lay_down(state, move)
        case LayOff():
            return _lay_off(state, move)
        case SwapJoker():
            return _swap_joker(state, move)
        case Discard():
            return _discard(state, move)
        case ResolveBuy():
            return _resolve_buy(state, move)
        case RevealHand():
            return _reveal_hand(state, move)


# --- dealing ---------------------------------------------------------------


def _start_round(state: GameState, move: StartRound) -> GameState:
    """Deal one card at a time from the left of the dealer, then turn up the next.

    RULES-DECISIONS "Dealer": deal order and the starter card come from the
    shuffled deck: slot ``k`` is the k-th card off the shuffled deck.
    """
    rules, n = state.rules, state.players
    size = rules.deck_size
    if not 0 <= move.upcard < size:
        raise IllegalMove(N_("card {card} is not in a deck of {size}"), card=move.upcard, size=size)
    dealer = state.dealer
    hands: list[list[int]] = [[] for _ in range(n)]
    for position, seat in deal_layout(rules, n, dealer):
        hands[seat].append(position)
    upcard = upcard_slot(rules, n)
    faces: list[int | None] = [None] * size
    faces[upcard] = move.upcard
    starts = dealer if rules.dealer_starts else (dealer + 1) % n
    return changed(
        state,
        phase=Phase.PLAY if rules.dealer_starts else Phase.DRAW,
        turn=starts,
        faces=tuple(faces),
        stock=tuple(range(upcard + 1, size)),
        discard=(upcard,),
        hands=tuple(tuple(hand) for hand in hands),
        melds=(),
        retired=(),
        opened=tuple(False for _ in range(n)),
        buys=tuple(0 for _ in range(n)),
        # RULES-DECISIONS Køb: "The starter card after the deal is treated as a discard"
        offer=upcard if rules.buying else None,
        discarder=None,
        buy_eligible=(),
        rebuilds_since_progress=0,
        round_end=None,
        closer=None,
        closer_at_once=False,
        revealed=tuple(False for _ in range(n)),
        **_fresh_turn(),
    )


class _FreshTurn(TypedDict):
    taken_discard: int | None
    opened_this_turn: bool
    new_melds_this_turn: int
    swapped_jokers: tuple[int, ...]


def _fresh_turn() -> _FreshTurn:
    """The per-turn fields as a new turn starts."""
    return {
        "taken_discard": None,
        "opened_this_turn": False,
        "new_melds_this_turn": 0,
        "swapped_jokers": (),
    }


# --- drawing and buying ----------------------------------------------------


def _draw_stock(state: GameState, move: DrawStock) -> GameState:
    """Take the stock's top card; drawing from the stock declines the discard."""
    seat = _own_turn(state, move.seat)
    if not state.stock:
        state = _rebuild_stock(state)
        if state.phase is Phase.REVEAL:
            return state
    slot = state.stock[0]
    drawn = changed(
        state,
        stock=state.stock[1:],
        hands=_with_hand(state.hands, seat, (*state.hands[seat], slot)),
        phase=Phase.PLAY,
    )
    eligible = _buy_eligible(drawn)
    if eligible:
        return changed(drawn, phase=Phase.BUY, buy_eligible=eligible)
    return changed(drawn, offer=None, discarder=None)


def _rebuild_stock(state: GameState) -> GameState:
    """A new stock from the discard pile, or the round's end when none can be made.

    lp "Tom bunke": the discard pile but its top card is shuffled (house rule: turned
    over). rummy "Hvis trekkbunken blir tom": the whole pile is turned over unshuffled
    (house rule: shuffled). A shuffled rebuild puts the cards under fresh, hidden
    slots and retires the old ones: the deck protocol shuffles them anew.
    """
    rules = state.rules
    keep = state.discard[-1:] if rules.rebuild_keeps_top else ()
    pool = state.discard[: len(state.discard) - len(keep)]
    if not pool:
        return _end_round(state, RoundEnd.STOCK_EXHAUSTED)
    # RULES-DECISIONS "Stall guard": rebuilt twice with no progress in between.
    if state.rebuilds_since_progress >= 1:
        return _end_round(state, RoundEnd.STALLED)
    if rules.empty_stock == "turn_over":
        # The bottom of a face-up pile turned over is the top of the new stock.
        return changed(
            state,
            stock=pool,
            discard=keep,
            rebuilds_since_progress=state.rebuilds_since_progress + 1,
        )
    first = len(state.faces)
    return changed(
        state,
        faces=state.faces + (None,) * len(pool),
        stock=tuple(range(first, first + len(pool))),
        retired=state.retired + pool,
        discard=keep,
        rebuilds_since_progress=state.rebuilds_since_progress + 1,
    )


def _buy_eligible(state: GameState) -> tuple[int, ...]:
    """Who may call "Køb!" on the offered discard, in seat order after the discarder.

    lp "Køb": the next player declined it (drew from the stock); then everyone
    but the discarder may buy. RULES-DECISIONS: a buy needs a penalty card, so the
    stock must not be empty; "Maks. køb pr. runde" counts per player per round.
    """
    rules = state.rules
    if not rules.buying or state.offer is None or state.top_discard() != state.offer:
        return ()
    if not state.stock:
        return ()
    reference = state.discarder if state.discarder is not None else state.dealer
    eligible = []
    for offset in range(1, state.players + 1):
        seat = (reference + offset) % state.players
        if seat in (state.turn, state.discarder):
            continue
        if rules.max_buys is not None and state.buys[seat] >= rules.max_buys:
            continue
        if state.opened[seat] and not rules.open_players_may_buy:
            continue
        eligible.append(seat)
    return tuple(eligible)


def _resolve_buy(state: GameState, move: ResolveBuy) -> GameState:
    """Give the discard and a penalty card to the winning claimant, if any.

    lp "Køb": "Prisen er ét strafkort fra den lukkede bunke, så hånden vokser med to."
    lp:24 "den første vinder": ``buy_priority=first`` (the default) and ``lot`` give it to
    the first of `move.claims`, which the log layer lists in the window's order (the
    call most seats saw first, SPEC §4.7; or the window's lot); ``seat``: the claimant
    nearest after the discarder wins.
    """
    if len(set(move.claims)) != len(move.claims):
        raise IllegalMove(N_("a seat may claim a discard only once"))
    for seat in move.claims:
        if seat not in state.buy_eligible:
            raise IllegalMove(N_("seat {seat} may not buy this card"), seat=seat + 1)
    closed = changed(state, phase=Phase.PLAY, buy_eligible=(), offer=None, discarder=None)
    if not move.claims:
        return closed
    winner = buy_order(state, move.claims)[0]
    card, penalty = state.discard[-1], state.stock[0]
    return changed(
        closed,
        discard=state.discard[:-1],
        stock=state.stock[1:],
        hands=_with_hand(state.hands, winner, (*state.hands[winner], card, penalty)),
        buys=_with(state.buys, winner, state.buys[winner] + 1),
        rebuilds_since_progress=0,
    )


def buy_order(state: GameState, claims: tuple[int, ...]) -> tuple[int, ...]:
    """The claims of the open window as they rank, the buyer first: the one place the
    `seat` house rule is applied (nearest after the discarder, whatever order the calls
    came in). Under `first` and `lot` the log layer has ranked them already (the race,
    the window's lot: SPEC §4.7), so their order stands."""
    if state.rules.buy_priority != "seat":
        return claims
    return tuple(sorted(claims, key=state.buy_eligible.index))


def _take_discard(state: GameState, move: TakeDiscard) -> GameState:
    seat = _own_turn(state, move.seat)
    if not state.discard:
        raise IllegalMove(N_("the discard pile is empty: draw from the stock"))
    slot = state.discard[-1]
    return changed(
        state,
        discard=state.discard[:-1],
        hands=_with_hand(state.hands, seat, (*state.hands[seat], slot)),
        phase=Phase.PLAY,
        taken_discard=slot,
        offer=None,
        discarder=None,
    )


# --- melding ---------------------------------------------------------------


def _lay_down(state: GameState, move: LayDown) -> GameState:
    seat = _own_turn(state, move.seat)
    rules, deck = state.rules, deck_of(state)
    if not move.melds:
        raise IllegalMove(N_("lay down at least one meld"))
    placed = [card for meld in move.melds for card in meld.cards]
    _check_from_hand(state, seat, [card.slot for card in placed])
    _check_faces(state, [(card.slot, card.card) for card in placed])
    melds = []
    for new in move.melds:
        cards = normalized(new.kind, new.cards)
        check_meld(new.kind, cards, deck, rules)
        melds.append(Meld(new.kind, seat, cards))
    opening = not state.opened[seat]
    if opening:
        _check_opening(state, melds)
    elif state.opened_this_turn and not rules.new_melds_in_opening_turn:
        # lp: the opening is one lay-down; extra melds belong in it.
        raise IllegalMove(N_("you opened this turn: further new melds must wait for a later turn"))
    elif not rules.new_melds_after_opening:
        raise IllegalMove(
            N_(
                "house rule 'new melds after opening' is off: after opening you can only "
                "build on the table"
            )
        )
    if rules.one_new_meld_per_turn and state.new_melds_this_turn + len(melds) > 1:
        raise IllegalMove(N_("house rule: at most one new combination per turn"))
    laid = {card.slot for card in placed}
    hand = tuple(slot for slot in state.hands[seat] if slot not in laid)
    check_not_stranded(state, hand)
    after = changed(
        state,
        hands=_with_hand(state.hands, seat, hand),
        melds=state.melds + tuple(melds),
        faces=_with_faces(state.faces, ((c.slot, c.card) for c in placed)),
        opened=_with(state.opened, seat, True),
        opened_this_turn=state.opened_this_turn or opening,
        new_melds_this_turn=state.new_melds_this_turn + len(melds),
        swapped_jokers=tuple(j for j in state.swapped_jokers if j not in laid),
        rebuilds_since_progress=0,
    )
    return _after_play(after, seat)


def _check_opening(state: GameState, melds: list[Meld]) -> None:
    """lp: the whole contract at once; Rommé: at least 40 points at once; Rummy: nothing."""
    rules, deck = state.rules, deck_of(state)
    if rules.opening == "contract":
        contract = rules.contracts[state.round_index]
        sets = sum(1 for meld in melds if meld.kind is MeldKind.SET)
        runs = len(melds) - sets
        if sets < contract.sets or runs < contract.runs:
            wanted = contract.describe(rules.set_name, rules.run_name)
            raise IllegalMove(
                N_(
                    "your first lay-down must hold this round's whole contract: {wanted} "
                    "(this one has {runs} {run_name}, {sets} {set_name})"
                ),
                wanted=wanted,
                runs=runs,
                run_name=rules.run_name,
                sets=sets,
                set_name=rules.set_name,
            )
    elif rules.opening == "points":
        worth = sum(opening_value(meld.kind, meld.cards, deck, rules) for meld in melds)
        if worth < rules.opening_points:
            template = (
                N_(
                    "your first lay-down must be worth at least {points} points from natural "
                    "cards at once; this one is worth {worth}"
                )
                if rules.opening_naturals_only
                else N_(
                    "your first lay-down must be worth at least {points} points at once; "
                    "this one is worth {worth}"
                )
            )
            raise IllegalMove(template, points=rules.opening_points, worth=worth)


def check_may_build(state: GameState, seat: int, doing: str) -> None:
    rules = state.rules
    if rules.opening == "none":
        return
    if not state.opened[seat]:
        wanted = rules.describe_opening(state.round_index)
        raise IllegalMove(N_("you must open ({wanted}) before {doing}"), wanted=wanted, doing=doing)
    if state.opened_this_turn and not rules.build_in_opening_turn:
        # lp "Byg i åbningsturen (standard: fra)"; a joker swap counts as building.
        raise IllegalMove(
            N_("house rule 'build in opening turn' is off: no {doing} in the turn you open"),
            doing=doing,
        )


def _lay_off(state: GameState, move: LayOff) -> GameState:
    seat = _own_turn(state, move.seat)
    check_may_build(state, seat, N_("laying off on the table"))
    meld = _meld_at(state, move.meld)
    _check_from_hand(state, seat, [move.card.slot])
    _check_faces(state, [(move.card.slot, move.card.card)])
    grown = lay_off(meld, move.card, deck_of(state), state.rules)
    hand = tuple(slot for slot in state.hands[seat] if slot != move.card.slot)
    check_not_stranded(state, hand)
    opening = not state.opened[seat]
    after = changed(
        state,
        hands=_with_hand(state.hands, seat, hand),
        melds=_with(state.melds, move.meld, grown),
        faces=_with_faces(state.faces, [(move.card.slot, move.card.card)]),
        opened=_with(state.opened, seat, True),
        opened_this_turn=state.opened_this_turn or opening,
        swapped_jokers=tuple(j for j in state.swapped_jokers if j != move.card.slot),
        rebuilds_since_progress=0,
    )
    return _after_play(after, seat)


def _swap_joker(state: GameState, move: SwapJoker) -> GameState:
    """RULES-DECISIONS "Joker swap": an opened player, the exact card, joker to hand."""
    seat = _own_turn(state, move.seat)
    rules, deck = state.rules, deck_of(state)
    if not rules.joker_swap:
        raise IllegalMove(N_("house rule 'joker swaps' is off: a joker on the table stays there"))
    if not state.opened[seat]:
        raise IllegalMove(N_("only a player who has opened may swap a joker"))
    check_may_build(state, seat, N_("swapping a joker"))
    meld = _meld_at(state, move.meld)
    _check_from_hand(state, seat, [move.card.slot])
    _check_faces(state, [(move.card.slot, move.card.card)])
    swapped = swap_joker(meld, move.joker_slot, move.card, deck, rules)
    melds = _with(state.melds, move.meld, swapped)
    hand = (*(s for s in state.hands[seat] if s != move.card.slot), move.joker_slot)
    must_play = (move.joker_slot,) if rules.swapped_joker_must_be_played else ()
    return changed(
        state,
        hands=_with_hand(state.hands, seat, hand),
        melds=melds,
        faces=_with_faces(state.faces, [(move.card.slot, move.card.card)]),
        swapped_jokers=state.swapped_jokers + must_play,
        rebuilds_since_progress=0,
    )


# --- discarding and round end ---------------------------------------------


def _discard(state: GameState, move: Discard) -> GameState:
    """End the turn with one card on the discard pile (lp: "Smid ét kort")."""
    seat = _own_turn(state, move.seat)
    _check_from_hand(state, seat, [move.slot])
    _check_faces(state, [(move.slot, move.card)])
    if state.rules.discard_taken_card_barred and move.slot == state.taken_discard:
        # rummy: "Tok du toppkortet fra kastebunken, kan du ikke kaste det samme kortet tilbake"
        raise IllegalMove(
            N_("you cannot discard the card you took from the discard pile this turn")
        )
    if unplayed_swapped_joker(state) is not None:
        raise IllegalMove(N_("house rule: the joker you swapped must be laid down this turn"))
    hand = tuple(slot for slot in state.hands[seat] if slot != move.slot)
    after = changed(
        state,
        hands=_with_hand(state.hands, seat, hand),
        discard=(*state.discard, move.slot),
        faces=_with_faces(state.faces, [(move.slot, move.card)]),
    )
    if not hand:
        return _end_round(after, RoundEnd.WENT_OUT, closer=seat)
    nxt = state.next_seat(seat)
    return changed(
        after,
        turn=nxt,
        phase=Phase.DRAW,
        offer=move.slot if state.rules.buying else None,
        discarder=seat,
        **_fresh_turn(),
    )


def unplayed_swapped_joker(state: GameState) -> int | None:
    """A joker taken by a swap this turn that must still be laid down, if any.

    RULES-DECISIONS toggle ``swapped_joker_must_be_played``: the obligation holds
    while the joker fits a meld on the table; once it fits nowhere (a house rule
    on jokers, or full melds), the player may discard and keeps it, so a turn can
    never be left without a legal move (docs/rules.md).
    """
    deck = deck_of(state)
    for joker in state.swapped_jokers:
        if joker not in state.hands[state.turn]:
            continue
        for meld in state.melds:
            for rank in joker_targets(meld, deck, state.rules):
                try:
                    lay_off(meld, Placed(joker, state.public_face(joker), rank), deck, state.rules)
                except IllegalMove:
                    continue
                return joker
    return None


def _after_play(state: GameState, seat: int) -> GameState:
    """A meld or lay-off that empties the hand ends the round at once."""
    if state.hands[seat]:
        return state
    return _end_round(state, RoundEnd.WENT_OUT, closer=seat)


def _end_round(state: GameState, reason: RoundEnd, closer: int | None = None) -> GameState:
    ended = changed(
        state,
        phase=Phase.REVEAL,
        round_end=reason,
        closer=closer,
        closer_at_once=closer is not None and state.opened_this_turn,
        offer=None,
        discarder=None,
        buy_eligible=(),
        revealed=tuple(not hand for hand in state.hands),
    )
    return _score_if_revealed(ended)


def _reveal_hand(state: GameState, move: RevealHand) -> GameState:
    seat = move.seat
    if not 0 <= seat < state.players or state.revealed[seat]:
        raise IllegalMove(N_("seat {seat} has no hand left to show"), seat=seat + 1)
    slots = [slot for slot, _ in move.cards]
    if sorted(slots) != sorted(state.hands[seat]):
        raise IllegalMove(N_("show exactly the cards in your hand"))
    _check_faces(state, move.cards)
    shown = changed(
        state,
        faces=_with_faces(state.faces, move.cards),
        revealed=_with(state.revealed, seat, True),
    )
    return _score_if_revealed(shown)


def _score_if_revealed(state: GameState) -> GameState:
    if not all(state.revealed):
        return state
    rules, deck = state.rules, deck_of(state)
    totals = [
        hand_points([state.public_face(slot) for slot in hand], deck, rules) for hand in state.hands
    ]
    scored = round_scores(rules, totals, state.opened, state.closer, state.closer_at_once)
    scores = tuple(old + new for old, new in zip(state.scores, scored, strict=True))
    played = state.round_index + 1
    if match_over(rules, played, scores):
        return changed(
            state,
            phase=Phase.MATCH_OVER,
            scores=scores,
            round_scores=(*state.round_scores, scored),
        )
    dealer = state.next_seat(state.dealer)
    return changed(
        state,
        phase=Phase.ROUND_START,
        scores=scores,
        round_scores=(*state.round_scores, scored),
        round_index=played,
        dealer=dealer,
        turn=dealer,
    )


# --- checks and helpers ----------------------------------------------------


def _own_turn(state: GameState, seat: int) -> int:
    if seat != state.turn:
        raise IllegalMove(N_("it is not your turn (seat {seat} is to play)"), seat=state.turn + 1)
    return seat


def _check_from_hand(state: GameState, seat: int, slots: list[int]) -> None:
    if len(set(slots)) != len(slots):
        raise IllegalMove(N_("the same card is used twice"))
    hand = set(state.hands[seat])
    for slot in slots:
        if slot not in hand:
            raise IllegalMove(N_("card slot {slot} is not in your hand"), slot=slot)


def _check_faces(state: GameState, shown: Iterable[tuple[int, int]]) -> None:
    """A shown face must fit what is public: the same face where one is known, and a
    card id no other live slot already shows."""
    shown = list(shown)
    size = state.rules.deck_size
    fresh = []
    for slot, card in shown:
        if not 0 <= card < size:
            raise IllegalMove(N_("card {card} is not in this deck"), card=card)
        known = state.faces[slot]
        if known is not None:
            if known != card:
                name = deck_of(state).card(known).notation()
                raise IllegalMove(
                    N_("card slot {slot} is {card}, not the card claimed"), slot=slot, card=name
                )
        else:
            fresh.append(card)
    if not fresh:
        return
    if len(set(fresh)) != len(fresh):
        raise IllegalMove(N_("two slots claim the same physical card"))
    if not any(card in state.faces for card in fresh):
        return  # shown nowhere, not even in a retired slot (the usual case)
    retired = set(state.retired)
    public = {
        face for slot, face in enumerate(state.faces) if face is not None and slot not in retired
    }
    for card in fresh:
        if card in public:
            raise IllegalMove(N_("that card is already elsewhere on the table"))


def check_not_stranded(state: GameState, hand: tuple[int, ...]) -> None:
    """Rummy: never keep only the card taken from the discard pile (it cannot be discarded)."""
    if state.rules.discard_taken_card_barred and hand == (state.taken_discard,):
        raise IllegalMove(
            N_(
                "that would leave you holding only the card you took from the discard pile, "
                "which you may not discard this turn"
            )
        )


def _meld_at(state: GameState, index: int) -> Meld:
    if not 0 <= index < len(state.melds):
        raise IllegalMove(N_("there is no meld number {number} on the table"), number=index + 1)
    return state.melds[index]


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _with_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return _with(hands, seat, hand)


def _with_faces(
    faces: tuple[int | None, ...], shown: Iterable[tuple[int, int]]
) -> tuple[int | None, ...]:
    updated = list(faces)
    for slot, card in shown:
        updated[slot] = card
    return tuple(updated)


__all__ = [
    "apply",
    "check_may_build",
    "check_not_stranded",
    "deal_layout",
    "deck_of",
    "new_game",
    "unplayed_swapped_joker",
    "upcard_slot",
]
