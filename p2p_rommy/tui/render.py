"""Pure render functions: a `ClientModel` in, prompt_toolkit formatted text out."""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2p_rommy.engine.due import mover
from p2p_rommy.engine.state import Phase
from p2p_rommy.i18n import N_, _
from p2p_rommy.tui.model import ClientModel
from p2p_rommy.wire.text import inert

StyleText = StyleAndTextTuples
"""prompt_toolkit's formatted text: (style, text) pairs."""

HELP_KEYS = N_("""\
Keys
  1-9 0 B F G L N U Y  select or unselect a card of your hand (either case)
  Z and a key   a card labelled Z1, ZB, ... (a big hand)
  c        clear the selection and staged melds
  d        draw from the stock          t   take the discard
  m        stage the selected cards as a meld
  r        another reading of the last staged meld (set or run, joker)""")
HELP_OPENING = N_("""\
  Enter    lay down the staged melds (your opening: the whole contract)""")
HELP_LAY_DOWN = N_("""\
  Enter    lay down the staged melds""")
HELP_LAY_OFF = N_("""\
  o N      lay off the selected card on meld N (type N, Enter if needed)""")
HELP_SWAP = N_("""\
  w N      swap the selected card for the joker in meld N""")
HELP_DISCARD = N_("""\
  x        discard the selected card""")
HELP_BUY = N_("""\
  k / p    Køb! (buy the discard) / pass, while the buy window is open
  a        auto-pass every Køb! window (again: off)""")
HELP_REST = N_("""\
  s        sort by suit or by rank      h   melds you could make
  v        the score sheet of every round so far
  PgUp/Dn  scroll the table (Tab: scroll the log instead)
  e        end the game without a player the table has long waited for
  i        the game code, the fingerprints, how to resume
  /        say something (Enter sends)  ?   this help    q   quit""")

HELP_THEME = N_("""\
  Colours for a light or dark terminal: --theme light (or dark), or ROMMY_THEME""")


def help_text(model: ClientModel | None = None) -> str:
    """The keys, only those this game's rules use (no Køb!, joker swap or opening in
    Rummy, which has none)."""
    rules = model.config.rules if model is not None else None
    parts = [HELP_KEYS]
    parts.append(HELP_OPENING if rules is None or rules.opening != "none" else HELP_LAY_DOWN)
    parts.append(HELP_LAY_OFF)
    if rules is None or rules.joker_swap:
        parts.append(HELP_SWAP)
    parts.append(HELP_DISCARD)
    if rules is None or rules.buying:
        parts.append(HELP_BUY)
    parts.append(HELP_REST)
    parts.append(HELP_THEME)
    text = "\n".join(_(part) for part in parts)
    if rules is not None:  # the rules were not in the app: the game's summary, to scroll to
        from p2p_rommy.rules.summary import rules_summary

        summary = rules_summary(rules.variant, _)
        house = "\n\n  " + _("House rules (--house KEY=VALUE):")  # the defaults, not this table's
        text += "\n\n" + summary.split(house)[0]
    return text


def _card_style(model: ClientModel, card_id: int | None) -> str:
    """The style class of a card: `suit-spades` etc. (never a bare colour name: a class
    called `black` is drawn #000000, invisible on a dark terminal)."""
    if card_id is None:
        return "class:hidden"
    card = model.deck.card(card_id)
    if card.is_joker or card.suit is None:
        return "class:joker"
    return f"class:suit-{card.suit.name.lower()}"


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, broken between words (a word longer
    than a line is cut), the spaces between words kept; every newline kept. A line
    that goes on is indented under its text (a help line's key column stays clear)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        if get_cwidth(paragraph) <= width:  # as it is, its columns kept
            out.append(paragraph)
            continue
        column = re.match(r" *\S+(?: \S+)*? {2,}", paragraph)  # "  d        draw ..."
        lead = len(paragraph) - len(paragraph.lstrip(" "))
        hang = column.end() if column and column.end() <= width // 2 else lead
        line = ""
        for token in re.findall(r" *\S+", paragraph):  # each word with the spaces before it
            if not line.strip() or get_cwidth(line + token) <= width:
                line += token
            else:
                out.append(line)
                line = " " * hang + token.lstrip(" ")
            while get_cwidth(line) > width:
                out.append(line[:width])
                line = line[width:]
        out.append(line)
    return out


def header(model: ClientModel, width: int = 80) -> StyleText:
    state = model.table.state
    rules = model.config.rules
    rounds = f"/{rules.rounds}" if rules.rounds else ""
    parts = [
        f" {model.config.short_code()} {rules.variant}",
        _("round {number}").format(number=state.round_index + 1) + rounds,
    ]
    if rules.opening != "none":
        round_index = min(state.round_index, len(rules.contracts) - 1) if rules.contracts else 0
        opening = (
            _("{points} points").format(points=rules.opening_points)
            if rules.opening == "points"
            else rules.describe_opening(round_index)
        )
        parts.append(_("to open: {contract}").format(contract=opening))
    parts.append(_("stock {count}").format(count=len(state.stock)))
    if rules.buying:
        left = _("any") if rules.max_buys is None else str(rules.max_buys - state.buys[model.seat])
        parts.append(_("buys {left}").format(left=left))
    parts.append(_("dealer {name}").format(name=model.names[state.dealer]))
    line = " | ".join(parts)
    if get_cwidth(line) > width:  # tighter first, then the dealer, buys... go
        line = "|".join(parts)
    while get_cwidth(line) > width and len(parts) > 2:
        parts.pop()
        line = "|".join(parts)
    if get_cwidth(line) > width:
        line = line[: width - 1] + "…"
    return [("class:header", line + " " * (width - get_cwidth(line)))]


def info(model: ClientModel) -> StyleText:
    """The game code and every seat's fingerprint (to compare aloud), and how to resume."""
    config = model.config
    game = config.game_id.hex()
    out: StyleText = [
        ("", " " + _("game code") + " "),
        ("class:title", config.short_code()),
        ("", "  (" + _("the same on every screen at this table") + ")\n"),
        ("", " " + _("game id") + f" {game[:32]}\n         {game[32:]}\n\n"),
        ("", " " + _("Players (compare the fingerprints out loud):") + "\n"),
    ]
    for seat, player in enumerate(config.seats):
        mark = "  " + _("(you)") if seat == model.seat else ""
        out.append(("", f"  {seat + 1}. {player.name:<20} {player.fingerprint}{mark}\n"))
    out.append(("", "\n " + _("after a crash: rommy resume {game}").format(game=game[:16]) + "\n"))
    return out


def opponents(model: ClientModel) -> StyleText:
    state = model.table.state
    connected = dict(model.table.connected)
    out: StyleText = []
    turn = state.turn if state.phase in (Phase.DRAW, Phase.PLAY) else mover(state)
    for seat, name in enumerate(model.names):
        mark = "▶ " if turn == seat else "  "
        if seat == model.seat:
            name = _("{name} (you)").format(name=name)
        over = model.table.over  # after the end, everyone hangs up: not news
        link = "" if over or connected.get(seat, True) else _("  (disconnected)")
        opened = ""
        if model.config.rules.opening != "none":  # Rummy has no opening
            opened = _("opened") if state.opened[seat] else _("not opened")
            opened = f"{opened:<12}"
        count = len(state.hands[seat]) if state.hands else 0
        score = state.scores[seat]
        cards = _("{count} cards").format(count=f"{count:>2}")
        shown = name if len(name) <= 24 else name[:23] + "…"
        line = f"{mark}{shown:<16} {cards}  {opened}" + _("score {score}").format(score=score)
        out.append(("", f"{line}{link}\n"))
    return out


def table(model: ClientModel, rows: int | None = None) -> StyleText:
    """The melds, numbered (the numbers `o` and `w` take), grouped by owner; scrolled by
    PageUp/PageDown when they do not fit."""
    state = model.table.state
    numbered = sorted(enumerate(state.melds, start=1), key=lambda item: item[1].owner)
    lines: list[StyleText] = []
    for number, meld in numbered:
        line: StyleText = [("", f"  {number:>2} {model.names[meld.owner]:<10} ")]
        for placed in meld.cards:
            card = model.deck.card(placed.card)
            text = model.card_text(placed.card) + model.stands_for(placed)
            style = "class:joker" if card.is_joker else _card_style(model, placed.card)
            line.append((style, text + " "))
        lines.append(line)
    model.table_scroll = min(model.table_scroll, max(0, len(lines) - 1))
    start = model.table_scroll
    shown = lines[start:] if rows is None else lines[start : start + max(1, rows - 1)]
    more_above, more_below = start, len(lines) - start - len(shown)
    title = _("Table")
    if more_above or more_below:
        title += "  " + _("(melds {first}-{last} of {count}; PgUp/PgDn)").format(
            first=start + 1, last=start + len(shown), count=len(lines)
        )
    out: StyleText = [("class:title", title + "\n")]
    if not lines:
        out.append(("class:dim", "  " + _("no melds yet") + "\n"))
    for line in shown:
        out.extend(line)
        out.append(("", "\n"))
    return out


def discard(model: ClientModel) -> StyleText:
    """The discard pile's top card: always on screen, however many melds are down."""
    state = model.table.state
    top = state.top_discard()
    out: StyleText = [("", "  " + _("Discard:") + " ")]
    if top is None:
        out.append(("class:dim", _("empty")))
    else:
        card = state.faces[top]
        out.append((_card_style(model, card), model.card_text(card)))
        count = len(state.discard)
        pile = _("1 card") if count == 1 else _("{count} cards").format(count=count)
        out.append(("class:dim", f"  ({pile})"))
    if model.auto_pass:
        out.append(("class:dim", "   " + _("auto-pass Køb! is on (a)")))
    return out


def hand(model: ClientModel, width: int = 80) -> StyleText:
    """The hand, each card with its key label, wrapped between cards (never inside one)
    to `width` columns."""
    cards = model.hand()
    me = model.names[model.seat]
    state = model.table.state
    title = _("Your hand ({name}, score {score})").format(name=me, score=state.scores[model.seat])
    out: StyleText = [("class:title", title + "\n  ")]
    column = 2
    for slot, card in cards:
        label = model.label(slot)
        style = _card_style(model, card)
        if slot in model.fresh:
            style += " class:fresh"
        if slot in model.selected:
            style += " class:selected"
        text = model.card_text(card)
        size = get_cwidth(f"{label}:{text} ")
        if column > 2 and column + size > width:
            out.append(("", "\n  "))
            column = 2
        out.append(("class:label", f"{label}:"))
        out.append((style, text))
        out.append(("", " "))
        column += size
    if model.staged:
        staged = "  |  ".join(
            " ".join(model.card_text(p.card) for p in m.cards) for m in model.staged
        )
        progress = model.staged_progress()
        staged_line = (
            _("staged ({progress}): {melds}").format(progress=progress, melds=staged)
            if progress
            else _("staged: {melds}").format(melds=staged)
        )
        out.append(("class:dim", "\n  " + "\n  ".join(wrap(staged_line, width - 3))))
    if model.show_hints:
        hints = model.hints()
        text = _("you could meld: {melds}").format(
            melds="; ".join(hints) if hints else _("nothing yet")
        )
        out.append(("class:dim", "\n  " + "\n  ".join(wrap(text, width - 3))))
    return out


def status_lines(model: ClientModel, width: int = 80) -> list[str]:
    """The status line, wrapped between words (a refusal is never cut at the edge)."""
    line = model.status_text()
    if model.confirm_quit:
        line = _("Quit the game? y / n") + model.leaving_note
    return [text.ljust(width) for text in wrap(inert(line), width - 1)]


def status(model: ClientModel, width: int = 80) -> StyleText:
    return [
        ("class:status", "\n".join(" " + text[: width - 1] for text in status_lines(model, width)))
    ]


def log(model: ClientModel, lines: int = 4) -> StyleText:
    """The last lines of the log; Tab then PageUp/PageDown scroll back."""
    everything = model.log_lines()
    model.log_scroll = min(model.log_scroll, max(0, len(everything) - lines))
    end = len(everything) - model.log_scroll
    shown = everything[max(0, end - lines) : end]
    return [("class:log", "\n".join(inert(line) for line in shown))]


def history(model: ClientModel) -> StyleText:
    """Every round's scores so far with the totals (the `v` key)."""
    state = model.table.state
    if not state.round_scores:
        return [("class:dim", _("No round has been scored yet.") + "\n")]
    from p2p_rommy.narrate import score_sheet

    return [("", score_sheet(state, model.names, words=_))]


def scores(model: ClientModel) -> StyleText:
    """The summary's text at 80 columns, unscrolled (after a round and at the end)."""
    if not model.table.state.round_scores:
        return []
    return [(style_name, line + "\n") for style_name, line in summary_lines(model, 80)]


def _winner_line(model: ClientModel, forfeited: list[int]) -> str:
    from p2p_rommy.engine.scoring import standings

    state = model.table.state
    first = [seat for place, seat in standings(state.rules, state.scores, forfeited) if place == 1]
    names = [_("you") if seat == model.seat else model.names[seat] for seat in first]
    score = state.scores[first[0]]
    if len(first) > 1:
        return _("{names} share first place with {score} points").format(
            names=" & ".join(names), score=score
        )
    if first[0] == model.seat:
        return _("You win with {score} points!").format(score=score)
    return _("{name} wins with {score} points").format(name=names[0], score=score)


def summary_lines(model: ClientModel, width: int = 80) -> list[tuple[str, str]]:
    """The round or game summary as (style, line) pairs, every line within `width`:
    why the round ended, every round's row, the totals, the places, forfeits and, at the
    end, the winner."""
    from p2p_rommy.narrate import score_sheet

    state = model.table.state
    rounds = len(state.round_scores)
    ended = model.table.ended
    forfeited = list(model.table.forfeited)
    abandoned = model.table.abandoned
    final = model.match_over()
    out: list[tuple[str, str]] = []

    def add(style: str, text: str) -> None:
        out.extend((style, line) for line in wrap(text, width))

    if final:
        add("class:title", _("The game is over"))
        cheated = model.table.frozen is not None  # ended after the table froze on its cheat
        if ended is not None and abandoned:
            text = (
                _("abandoned without {name}, caught cheating: no standing")
                if cheated
                else _("abandoned without {name}, who left: no standing")
            )
            add("class:warning", text.format(name=", ".join(model.names[s] for s in ended[0])))
        elif ended is not None:
            text = (
                _("ended without {name}, caught cheating (forfeited)")
                if cheated
                else _("ended without {name}, who left (forfeited)")
            )
            add("class:warning", text.format(name=", ".join(model.names[s] for s in ended[0])))
    if rounds:
        why = model.why_round_ended(rounds)
        title = _("Round {number} is over").format(number=rounds)
        add("class:title" if not final else "", f"{title}: {why}" if why else title)
        add("", "")
        who = 12  # a column for who went out in each round
        sheet = score_sheet(
            state, model.names, forfeited, words=_, abandoned=abandoned, columns=width - who
        )
        for index, line in enumerate(sheet.split("\n")):
            if index == 0:
                line += "  " + _("went out")
            elif index <= rounds and index <= len(model.round_ends):
                closer = model.round_ends[index - 1][1]
                line += "  " + ("-" if closer is None else model.names[closer][: who - 2])
            add("", line)
    if final and rounds and not abandoned:
        add("", "")
        add("class:title", _winner_line(model, forfeited))
    return out


def summary(model: ClientModel, width: int = 80, height: int = 24) -> StyleText:
    """The full-screen round or game summary, scrolled by PageUp/PageDown when it does
    not fit; its last line says which keys go on."""
    lines = summary_lines(model, width)
    room = max(1, height - 1)
    model.summary_scroll = max(0, min(model.summary_scroll, len(lines) - room))
    shown = lines[model.summary_scroll : model.summary_scroll + room]
    if not model.match_over():
        keys = _("space: next round")
    elif model.new_game_wanted:
        keys = model.status  # `n` came before the last step committed: it follows
    elif model.new_game_offered:
        keys = _("n: new game at this table   q: quit")
    else:
        keys = _("q: quit")
    if len(lines) > room:
        keys += "   " + _("PgUp/PgDn: more ({first}-{last} of {count})").format(
            first=model.summary_scroll + 1,
            last=model.summary_scroll + len(shown),
            count=len(lines),
        )
    out: StyleText = []
    for style_name, line in shown:
        out.append((style_name, line + "\n"))
    out.extend([("", "\n")] * (room - len(shown)))
    out.append(("class:status", wrap(keys, width - 1)[0].ljust(width)))
    return out


def page(lines: list[str], width: int, height: int, scroll: int) -> tuple[list[str], int]:
    """An overlay's text wrapped to `width` and cut to `height` lines from `scroll` (the
    last line says how to see more); returns the lines and the scroll kept in range."""
    wrapped = [part for line in lines for part in wrap(line, width)]
    if len(wrapped) <= height:
        return wrapped, 0
    room = max(1, height - 1)
    scroll = max(0, min(scroll, len(wrapped) - room))
    shown = wrapped[scroll : scroll + room]
    more = _("PgUp/PgDn: more ({first}-{last} of {count})").format(
        first=scroll + 1, last=scroll + len(shown), count=len(wrapped)
    )
    return [*shown, more[:width]], scroll
