"""``rommy verify``'s report in plain words, for a player: what was checked, each
round's shuffles and cards, the scores, and the verdict on the last line.

Apart from `verify.py` (which checks) so the wording can change without touching the
checks. Every line goes through `_()`: the report is Danish or Norwegian on such a
machine (`--lang`). Seats, rounds and steps are counted from 1. The verdict keeps its
English keyword first in English (FAIR, CHEATING DETECTED, DAMAGED TRANSCRIPT,
INCOMPLETE): scripts look for it; the exit code says the same in every language.
The checkers' reasons stay English in the report's JSON and the transcript; they are
translated here (`i18n.say_reason`); text a seat signed that is none of our reasons (an
end's reason, a refusal's) is quoted as it was written, after a translated lead-in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.scoring import standings
from p2p_rommy.i18n import _, say_reason
from p2p_rommy.wire.identity import fingerprint
from p2p_rommy.wire.text import inert


class Round(Protocol):
    """What the report says of a round (`verify.RoundSummary`)."""

    round_no: int
    shufflers: list[str]
    dealt: int
    drawn: int
    revealed: int


class VerifyReport(Protocol):
    """What the words are made from (`verify.VerifyReport`; not imported: it imports
    this module)."""

    config: GameConfig
    steps: int
    culprit: int | None
    step: int | None
    what: str | None
    pending: list[str]
    scores: tuple[int, ...]
    finished: bool
    ended: str | None
    absent: tuple[int, ...]
    ended_by: tuple[int, ...]
    damage: str | None

    @property
    def rounds(self) -> Sequence[Round]: ...

    @property
    def status(self) -> str: ...

    @property
    def forfeited(self) -> tuple[int, ...]: ...

    @property
    def abandoned(self) -> bool: ...


def verdict_line(report: VerifyReport) -> str:
    """The verdict on one inert line: a reason a seat wrote cannot add lines to it."""
    return inert(_verdict(report))


def _verdict(report: VerifyReport) -> str:
    status = report.status
    if status == "damaged":
        return _(
            "DAMAGED TRANSCRIPT: {damage}; the file was changed or broken after the game, "
            "so no player is blamed (the {steps} steps before it were in order)"
        ).format(damage=say_reason(report.damage or ""), steps=report.steps)
    if status == "incomplete":
        return _(
            "INCOMPLETE: nobody cheated in the {steps} steps there are, but the game "
            "stops there, before its end (a player left, or the file was copied early)"
        ).format(steps=report.steps)
    if status == "fair":
        return _("FAIR")
    if report.culprit is None:
        return _("CHEATING DETECTED: the transcript at step {step}: {what}").format(
            step=report.step, what=say_reason(report.what or "")
        )
    seat = report.config.seats[report.culprit]
    return _(
        "CHEATING DETECTED: seat {seat} ({name}, {fingerprint}) at step {step}: {what}"
    ).format(
        seat=report.culprit + 1,
        name=seat.name,
        fingerprint=fingerprint(seat.public_key),
        step=report.step,
        what=say_reason(report.what or ""),
    )


def report_text(report: VerifyReport) -> str:
    """The whole report, one inert line each (a newline in a reason a peer wrote cannot
    print a line of its own, such as a fake verdict)."""
    config = report.config
    lines = [
        _("game {game} (code {code}): {rules}, {players} players, table {table}").format(
            game=config.game_id.hex(),
            code=config.short_code(),
            rules=config.rules.name,
            players=config.players,
            table=repr(config.table),
        ),
        _("seats: {seats}").format(
            seats=", ".join(
                f"{i + 1} {s.name} ({s.fingerprint})" for i, s in enumerate(config.seats)
            )
        ),
        _(
            "{steps} steps checked: each signed by its player, in turn, by the rules, every "
            "shuffle and deal proven, and confirmed by every player"
        ).format(steps=report.steps),
    ]
    for r in report.rounds:
        lines.append(
            _(
                "round {round}: shuffled by {shufflers}; {dealt} cards dealt, {drawn} drawn, "
                "{revealed} turned face up; audit clean (every card was where the deal said)"
            ).format(
                round=r.round_no + 1,
                shufflers=" > ".join(r.shufflers),
                dealt=r.dealt,
                drawn=r.drawn,
                revealed=r.revealed,
            )
        )
    if report.scores:
        lines.append(
            _("scores: {scores}").format(
                scores=", ".join(
                    f"{config.seats[s].name} {report.scores[s]}" for s in range(config.players)
                )
            )
        )
        if report.finished and not report.abandoned:
            forfeited = report.forfeited
            order = standings(config.rules, report.scores, forfeited)
            lines.append(
                _("standing: {places}").format(
                    places=", ".join(
                        f"{p}. {config.seats[s].name}"
                        + (" " + _("(forfeited)") if s in forfeited else "")
                        for p, s in order
                    )
                )
            )
    if report.ended is not None:
        lines.append(_ending(report, report.ended))
    for note in report.pending:
        lines.append(_pending(note, report))
    lines.append(verdict_line(report))
    return "\n".join(inert(line) for line in lines)


def _pending(note: str, report: VerifyReport) -> str:
    """What could not be checked yet, in words (the checker's notes have two shapes)."""
    unfinished = re.match(r"the seeds of round (\d+)", note)
    if unfinished:
        return _(
            "round {round} was not over: its cards stay secret, so its shuffles and deals "
            "were checked by their proofs only"
        ).format(round=unfinished.group(1))
    if note.startswith("the transcript ends in"):
        return _(
            "the file ends in the middle of a record (a crash while writing): the rest is missing"
        )
    return _("not yet checkable: {note}").format(note=say_reason(note))


def _ending(report: VerifyReport, reason: str) -> str:
    """How the game was ended, and on whose word (the seats that signed the end)."""
    config = report.config
    absent = report.absent[0] if report.absent else -1
    name = config.seats[absent].name if absent >= 0 else "?"
    names = [f"{s + 1} ({config.seats[s].name})" for s in report.ended_by]
    signers = ", ".join(names[:-1]) + _(" and ") + names[-1] if len(names) > 1 else "".join(names)
    if len(report.absent) > 1:
        out = [f"{s + 1} ({config.seats[s].name})" for s in report.absent]
        seats = ", ".join(out[:-1]) + _(" and ") + out[-1]
        # Several seats are left out only by a majority's end (SPEC §4.4), never on one
        # seat's word, so such an end is never abandoned.
        return _(
            "ended by the others' agreement without seats {seats}, who all forfeit, on the "
            "word of seats {signers}: {reason}"
        ).format(seats=seats, signers=signers, reason=say_reason(reason))
    if report.abandoned:
        return _(
            "abandoned on the word of seat {signers} alone, without seat {seat} ({name}): "
            "no standing (at a table of two one player's word forfeits nobody): {reason}"
        ).format(seat=absent + 1, name=name, signers=signers, reason=say_reason(reason))
    return _(
        "ended by the others' agreement without seat {seat} ({name}), on the word of "
        "seats {signers}: {reason}"
    ).format(seat=absent + 1, name=name, signers=signers, reason=say_reason(reason))
