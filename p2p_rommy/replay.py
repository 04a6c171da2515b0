"""``rommy replay``: a verified game step by step, every hand shown once known.

The transcript is verified once (`verify_transcript`), which hands over every step
it checked with the states around it; its audits then give the card at every slot
of every round whose seeds were revealed, and each move is told with its cards.
Hands of a round that never finished stay hidden: nobody can know them, and the
replay says so.

Moves are numbered as players count them: from 1 in each round, a draw, a meld and a
discard each one move (the transcript's own step numbers also count the deck's
shuffles and deals, so they jump). `--round R --step N` shows round R up to its move
N, then every hand as it was; on a terminal the replay waits for a key per move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from p2p_rommy.cards import composition
from p2p_rommy.engine.moves import DrawStock, TakeDiscard
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.i18n import _
from p2p_rommy.log.buy_window import buyer_of
from p2p_rommy.log.messages import MoveStep, Step
from p2p_rommy.narrate import describe_move
from p2p_rommy.verify import verify_transcript


@dataclass(frozen=True, slots=True)
class Replayed:
    """What `replay` tells: `lines`, each a whole line (`pause_after`: the indexes of
    lines after which a step-by-step replay waits), and the verdict's status."""

    lines: list[str]
    status: str
    pause_after: frozenset[int] = frozenset()


def replay_lines(data: bytes, only_round: int | None = None, ascii_only: bool = False) -> list[str]:
    """Every line of the replay (see `replay`)."""
    return replay(data, only_round, ascii_only).lines


def replay(
    data: bytes,
    only_round: int | None = None,
    ascii_only: bool = False,
    step: int | None = None,
) -> Replayed:
    """The game of `data`, move by move (only round `only_round`, from 1; up to its
    move `step`, from 1, and then the hands as they were)."""
    steps: list[tuple[int, Step, GameState, GameState, tuple[int, ...]]] = []
    report = verify_transcript(data, lambda *seen: steps.append(seen))
    config = report.config
    deck = composition(config.rules.deck_size)
    names = [seat.name for seat in config.seats]
    lines: list[str] = []
    pauses: set[int] = set()
    moves = 0
    """Moves so far in the round being told."""
    stopped = False

    def face(round_no: int, slot: int, state: GameState) -> str:
        card = state.faces[slot] if slot < len(state.faces) else None
        if card is None:
            card = report.cards.get(round_no, {}).get(slot)
        return "??" if card is None else deck.card(card).pretty(ascii_only)

    def say(round_no: int, text: str, pause: bool = False) -> None:
        if not stopped and (only_round is None or only_round == round_no + 1):
            lines.append(text)
            if pause:
                pauses.add(len(lines) - 1)

    def hands(r: int, state: GameState, label: Callable[[int], str]) -> None:
        for seat in range(config.players):
            hand = " ".join(face(r, slot, state) for slot in state.hands[seat])
            say(r, f"       {label(seat):<12} {hand}")
        if r not in report.cards and any(
            face(r, slot, state) == "??"
            for seat in range(config.players)
            for slot in state.hands[seat]
        ):
            say(
                r,
                "       "
                + _(
                    "(?? : a card nobody but its holder saw: round {round} did not finish, "
                    "so its cards were never shown)"
                ).format(round=r + 1),
            )

    last: tuple[int, GameState] | None = None
    for _n, body_step, before, after, claims in steps:
        round_no = before.round_index
        if isinstance(body_step.body, MoveStep):
            move = body_step.body.move

            def shown(slot: int, r: int = round_no, state: GameState = after) -> str:
                return face(r, slot, state)

            text = describe_move(move, names, shown, words=_)
            if isinstance(move, DrawStock | TakeDiscard) and after.hands[move.seat]:
                text += f" ({shown(after.hands[move.seat][-1])})"
            moves += 1
            say(round_no, f"{moves:>5}  {text}", pause=True)
            last = (round_no, after)
        elif body_step.kind == "buy":
            buyer = buyer_of(claims)
            text = (
                _("nobody buys")
                if buyer is None
                else _("{name} buys (Køb!) and takes a penalty card").format(name=names[buyer])
            )
            moves += 1
            say(round_no, f"{moves:>5}  {text}", pause=True)
            last = (round_no, after)
        if (
            step is not None
            and not stopped
            and last is not None
            and (only_round is None or only_round == last[0] + 1)
            and moves == step
        ):
            r, state = last
            say(r, "       " + _("-- the hands after move {step}:").format(step=step))
            hands(r, state, lambda seat: names[seat])
            stopped = True
        if before.phase is Phase.ROUND_START and after.phase is not Phase.ROUND_START:
            r = after.round_index
            moves = 0
            say(
                r,
                _("-- round {round}, dealer {dealer}, upcard {upcard}").format(
                    round=r + 1, dealer=names[after.dealer], upcard=face(r, after.discard[0], after)
                ),
            )
            hands(r, after, lambda seat: names[seat])
            if lines and not stopped:
                pauses.add(len(lines) - 1)
        if after.round_scores != before.round_scores:
            scores = ", ".join(
                f"{names[s]} {after.round_scores[-1][s]}" for s in range(config.players)
            )
            say(
                round_no,
                "       "
                + _("round {round} scores: {scores}").format(round=round_no + 1, scores=scores),
            )
    if only_round is not None and not lines:
        played = steps[-1][3].round_index + 1 if steps else 0
        lines.append(
            _("there is no round {round} in this game (it has {count})").format(
                round=only_round, count=played
            )
        )
    elif step is not None and not stopped:
        lines.append(_("round {round} has no move {step}").format(round=only_round, step=step))
    lines.append(report.verdict())
    return Replayed(lines, report.status, frozenset(pauses))
