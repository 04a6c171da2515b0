"""``rommy replay``: a verified game step by step, every hand shown once known.

The transcript is verified once (`verify_transcript`), which hands over every step
it checked with the states around it; its audits then give the card at every slot
of every round whose seeds were revealed, and each move is told with its cards.
Hands of a round that never finished stay hidden: nobody can know them.
"""

from __future__ import annotations

from p2p_rommy.cards import composition
from p2p_rommy.engine.moves import (
    DrawStock,
    TakeDiscard,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.log.messages import MoveStep, Step
from p2p_rommy.narrate import describe_move
from p2p_rommy.verify import verify_transcript


def replay_lines(data: bytes, only_round: int | None = None, ascii_only: bool = False) -> list[str]:
    steps: list[tuple[int, Step, GameState, GameState]] = []
    report = verify_transcript(data, lambda *seen: steps.append(seen))
    config = report.config
    deck = composition(config.rules.deck_size)
    names = [seat.name for seat in config.seats]
    lines: list[str] = []

    def face(round_no: int, slot: int, state: GameState) -> str:
        card = state.faces[slot] if slot < len(state.faces) else None
        if card is None:
            card = report.cards.get(round_no, {}).get(slot)
        return "??" if card is None else deck.card(card).pretty(ascii_only)

    def say(round_no: int, text: str) -> None:
        if only_round is None or only_round == round_no + 1:
            lines.append(text)

    for n, step, before, after in steps:
        round_no = before.round_index
        kind = step.kind
        if isinstance(step.body, MoveStep):
            move = step.body.move

            def shown(slot: int, r: int = round_no, state: GameState = after) -> str:
                return face(r, slot, state)

            text = describe_move(move, names, shown)
            if isinstance(move, DrawStock | TakeDiscard) and after.hands[move.seat]:
                text += f" ({shown(after.hands[move.seat][-1])})"
            say(round_no, f"{n:>5}  {text}")
        elif kind == "buy":
            buyer = next((s for s in range(config.players) if after.buys[s] > before.buys[s]), None)
            text = (
                "nobody buys"
                if buyer is None
                else f"{names[buyer]} buys (Køb!) and takes a penalty card"
            )
            say(round_no, f"{n:>5}  {text}")
        if before.phase is Phase.ROUND_START and after.phase is not Phase.ROUND_START:
            r = after.round_index
            say(
                r,
                f"-- round {r + 1}, dealer {names[after.dealer]}, "
                f"upcard {face(r, after.discard[0], after)}",
            )
            for seat in range(config.players):
                hand = " ".join(face(r, slot, after) for slot in after.hands[seat])
                say(r, f"       {names[seat]:<12} {hand}")
        if after.round_scores != before.round_scores:
            scores = ", ".join(
                f"{names[s]} {after.round_scores[-1][s]}" for s in range(config.players)
            )
            say(round_no, f"       round {round_no + 1} scores: {scores}")
    lines.append(report.verdict())
    return lines
