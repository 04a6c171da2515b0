"""Engine moves on the wire: ``[kind, fields...]`` msgpack arrays, schema-checked.

A move from a peer is untrusted: every field is type- and range-checked here, the
rules are checked by the engine, and the faces it shows by the deck protocol.
"""

from __future__ import annotations

from typing import Any

from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    NewMeld,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.rules.melds import MeldKind, Placed
from p2p_rommy.wire.codec import SchemaError, array, fixed, integer, text

_SLOT = integer(0, 65535)
_CARD = integer(0, 255)
_RANK = integer(0, 14)
_SEAT = integer(0, 5)
_PLACED = fixed(_SLOT, _CARD, _RANK)
_MELD = fixed(text(8), array(_PLACED, 14, 1))


def encode_move(move: Move) -> list[Any]:
    match move:
        case StartRound(upcard):
            return ["start", upcard]
        case DrawStock(seat):
            return ["draw", seat]
        case TakeDiscard(seat):
            return ["take", seat]
        case LayDown(seat, melds):
            return ["lay", seat, [[m.kind.value, [_placed(p) for p in m.cards]] for m in melds]]
        case LayOff(seat, meld, card):
            return ["layoff", seat, meld, _placed(card)]
        case SwapJoker(seat, meld, joker_slot, card):
            return ["swap", seat, meld, joker_slot, _placed(card)]
        case Discard(seat, slot, card):
            return ["discard", seat, slot, card]
        case ResolveBuy(claims):
            return ["buy", list(claims)]
        case RevealHand(seat, cards):
            return ["reveal", seat, [list(pair) for pair in cards]]
    raise TypeError(f"not a move: {move!r}")


def _placed(card: Placed) -> list[int]:
    return [card.slot, card.card, card.rank]


_SCHEMAS = {
    "start": (_CARD,),
    "draw": (_SEAT,),
    "take": (_SEAT,),
    "lay": (_SEAT, array(_MELD, 20, 1)),
    "layoff": (_SEAT, integer(0, 200), _PLACED),
    "swap": (_SEAT, integer(0, 200), _SLOT, _PLACED),
    "discard": (_SEAT, _SLOT, _CARD),
    "buy": (array(_SEAT, 6),),
    "reveal": (_SEAT, array(fixed(_SLOT, _CARD), 200)),
}


def decode_move(value: Any, sender: int | None = None) -> Move:
    """A move from its wire form, or `ProtocolError` naming the sender."""
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise ProtocolError(sender, N_("a move must be a list starting with its kind"))
    kind, fields = value[0], value[1:]
    schema = _SCHEMAS.get(kind)
    if schema is None:
        raise ProtocolError(sender, N_("unknown move kind {kind!r}").format(kind=kind))
    try:
        if len(fields) != len(schema):
            raise SchemaError(
                N_("a {kind} move has {value} fields").format(kind=kind, value=len(schema))
            )
        f = [
            check(v, f"{kind}[{i}]")
            for i, (check, v) in enumerate(zip(schema, fields, strict=True))
        ]
        return _build(kind, f)
    except (SchemaError, ValueError) as error:
        raise ProtocolError(sender, N_("malformed move: {error}").format(error=error)) from None


def _build(kind: str, f: list[Any]) -> Move:
    if kind == "start":
        return StartRound(f[0])
    if kind == "draw":
        return DrawStock(f[0])
    if kind == "take":
        return TakeDiscard(f[0])
    if kind == "lay":
        melds = tuple(NewMeld(MeldKind(k), tuple(Placed(*p) for p in cards)) for k, cards in f[1])
        return LayDown(f[0], melds)
    if kind == "layoff":
        return LayOff(f[0], f[1], Placed(*f[2]))
    if kind == "swap":
        return SwapJoker(f[0], f[1], f[2], Placed(*f[3]))
    if kind == "discard":
        return Discard(f[0], f[1], f[2])
    if kind == "buy":
        return ResolveBuy(tuple(f[0]))
    return RevealHand(f[0], tuple(tuple(pair) for pair in f[1]))
