"""Pure render functions: a `ClientModel` in, prompt_toolkit formatted text out."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2p_rommy.engine.due import mover
from p2p_rommy.engine.state import Phase
from p2p_rommy.i18n import N_, _
from p2p_rommy.tui.model import LABELS, ClientModel
from p2p_rommy.wire.text import inert

StyleText = StyleAndTextTuples
"""prompt_toolkit's formatted text: (style, text) pairs."""

HELP_TEXT = N_("""\
Keys
  A-Z 1-9  select or unselect a card of your hand
  c        clear the selection and staged melds
  d        draw from the stock          t   take the discard
  m        stage the selected cards as a meld
  r        another reading of the last staged meld (set or run, joker)
  Enter    lay down the staged melds (your opening: the whole contract)
  o N      lay off the selected card on meld N (type N, Enter if needed)
  w N      swap the selected card for the joker in meld N
  x        discard the selected card
  k / p    Køb! (buy the discard) / pass, while the buy window is open
  a        auto-pass every Køb! window (again: off)
  s        sort by suit or by rank      h   melds you could make
  v        the score sheet of every round so far
  PgUp/Dn  scroll the table (Tab: scroll the log instead)
  e        end the game without a player the table has long waited for
  i        the game code, the fingerprints, how to resume
  /        say something (Enter sends)  ?   this help    q   quit
""")


def help_text() -> str:
    return _(HELP_TEXT)


def _card_style(model: ClientModel, card_id: int | None) -> str:
    """The style class of a card: `suit-spades` etc. (never a bare colour name: a class
    called `black` is drawn #000000, invisible on a dark terminal)."""
    if card_id is None:
        return "class:hidden"
    card = model.deck.card(card_id)
    if card.is_joker or card.suit is None:
        return "class:joker"
    return f"class:suit-{card.suit.name.lower()}"


def header(model: ClientModel) -> StyleText:
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
    parts.append(_("dealer {name}").format(name=model.names[state.dealer]))
    parts.append(_("stock {count}").format(count=len(state.stock)))
    if rules.buying:
        left = _("any") if rules.max_buys is None else str(rules.max_buys - state.buys[model.seat])
        parts.append(_("buys {left}").format(left=left))
    return [("class:header", " | ".join(parts).ljust(80))]


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
    for seat, name in enumerate(model.names):
        if seat == model.seat:
            continue
        mark = "▶ " if mover(state) == seat else "  "
        over = model.table.over  # after the end, everyone hangs up: not news
        link = "" if over or connected.get(seat, True) else _("  (disconnected)")
        opened = _("opened") if state.opened[seat] else _("not opened")
        count = len(state.hands[seat]) if state.hands else 0
        score = state.scores[seat]
        cards = _("{count} cards").format(count=f"{count:>2}")
        line = f"{mark}{name:<12} {cards}  {opened:<10}  " + _("score {score}").format(score=score)
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
    for index, (slot, card) in enumerate(cards):
        label = LABELS[index] if index < len(LABELS) else "?"
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
        out.append(("class:dim", "\n  " + _("staged: {melds}").format(melds=staged)))
    if model.show_hints:
        hints = model.hints()
        out.append(
            (
                "class:dim",
                "\n  "
                + _("you could meld: {melds}").format(
                    melds="; ".join(hints) if hints else _("nothing yet")
                ),
            )
        )
    return out


def status(model: ClientModel) -> StyleText:
    line = model.status or model.prompt()
    if model.confirm_quit:
        line = _("Quit the game? y / n") + model.leaving_note
    return [("class:status", (" " + inert(line)).ljust(80))]


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
    """The score sheet: at the end of the match, and after each round until a key."""
    state = model.table.state
    if not state.round_scores:
        return []
    from p2p_rommy.narrate import score_sheet

    final = state.phase is Phase.MATCH_OVER or model.table.ended is not None
    title = (
        _("Final score sheet")
        if final
        else _("After round {number}").format(number=len(state.round_scores))
    )
    more = "" if final else "  " + _("(space goes on)")
    forfeited = model.table.forfeited
    return [
        ("class:title", f"{title}{more}\n"),
        ("", score_sheet(state, model.names, forfeited, words=_, abandoned=model.table.abandoned)),
    ]
