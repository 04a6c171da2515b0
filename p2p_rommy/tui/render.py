"""Pure render functions: a `ClientModel` in, prompt_toolkit formatted text out."""

from __future__ import annotations

from p2p_rommy.engine.state import Phase
from p2p_rommy.i18n import N_, _
from p2p_rommy.tui.model import LABELS, ClientModel
from p2p_rommy.wire.text import inert

StyleText = list[tuple[str, str]]

HELP_TEXT = N_("""\
Keys
  A-Z      select or unselect a card of your hand
  c        clear the selection and staged melds
  d        draw from the stock          t   take the discard
  m        stage the selected cards as a meld
  r        another reading of the last staged meld (set or run, what a joker is)
  Enter    lay down the staged melds (your opening: the whole contract at once)
  o N      lay off the selected card on meld N (1-9, 0 = 10)
  w N      swap the selected card for the joker in meld N
  x        discard the selected card
  k / p    Køb! (buy the discard) / pass, while the buy window is open
  s        sort by suit or by rank       h   show melds you could make
  e        end the game without a player the table has long waited for
  i        the game code, everyone's key fingerprint, how to resume
  /        say something to the table (Enter sends, Esc cancels)
  ?        this help                     q   quit (asks first)
""")


def help_text() -> str:
    return _(HELP_TEXT)


def _card_style(model: ClientModel, card_id: int | None) -> str:
    if card_id is None:
        return "class:hidden"
    card = model.deck.card(card_id)
    if card.is_joker:
        return "class:joker"
    return "class:red" if card.suit is not None and card.suit.is_red else "class:black"


def header(model: ClientModel) -> StyleText:
    state = model.replica.state
    rules = model.config.rules
    rounds = f"/{rules.rounds}" if rules.rounds else ""
    parts = [
        f" {model.config.short_code()} {rules.variant}",
        _("round {number}").format(number=state.round_index + 1) + rounds,
    ]
    if rules.opening != "none":
        round_index = min(state.round_index, len(rules.contracts) - 1) if rules.contracts else 0
        parts.append(_("to open: {contract}").format(contract=rules.describe_opening(round_index)))
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
    state = model.replica.state
    connected = model.session.mesh.connected()
    out: StyleText = []
    for seat, name in enumerate(model.names):
        if seat == model.seat:
            continue
        mark = "▶ " if state.current_seat == seat else "  "
        link = "" if connected.get(seat, True) else _("  (disconnected)")
        opened = _("opened") if state.opened[seat] else _("not opened")
        count = len(state.hands[seat]) if state.hands else 0
        score = state.scores[seat]
        cards = _("{count} cards").format(count=f"{count:>2}")
        line = f"{mark}{name:<12} {cards}  {opened:<10}  " + _("score {score}").format(score=score)
        out.append(("", f"{line}{link}\n"))
    return out


def table(model: ClientModel) -> StyleText:
    state = model.replica.state
    out: StyleText = [("class:title", _("Table") + "\n")]
    if not state.melds:
        out.append(("class:dim", "  " + _("no melds yet") + "\n"))
    numbered = sorted(enumerate(state.melds, start=1), key=lambda item: item[1].owner)
    for number, meld in numbered:  # grouped by owner; the number is the one o/w take
        out.append(("", f"  {number:>2} {model.names[meld.owner]:<10} "))
        for placed in meld.cards:
            card = model.deck.card(placed.card)
            if card.is_joker:
                from p2p_rommy.cards import rank_name

                out.append(("class:joker", f"JK={rank_name(placed.rank)} "))
            else:
                out.append((_card_style(model, placed.card), model.card_text(placed.card) + " "))
        out.append(("", "\n"))
    top = state.top_discard()
    out.append(("", "\n  " + _("Discard:") + " "))
    if top is None:
        out.append(("class:dim", _("empty")))
    else:
        card = state.faces[top]
        out.append((_card_style(model, card), model.card_text(card)))
        out.append(("class:dim", "  " + _("({count} cards)").format(count=len(state.discard))))
    out.append(("", "\n"))
    return out


def hand(model: ClientModel) -> StyleText:
    cards = model.hand()
    me = model.names[model.seat]
    state = model.replica.state
    title = _("Your hand ({name}, score {score})").format(name=me, score=state.scores[model.seat])
    out: StyleText = [("class:title", title + "\n  ")]
    for index, (slot, card) in enumerate(cards):
        label = LABELS[index] if index < len(LABELS) else "?"
        style = _card_style(model, card) + (" class:selected" if slot in model.selected else "")
        out.append(("class:label", f"{label}:"))
        out.append((style, model.card_text(card)))
        out.append(("", " "))
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
        line = _("Quit the game? y / n")
    return [("class:status", (" " + inert(line)).ljust(80))]


def log(model: ClientModel, lines: int = 6) -> StyleText:
    shown = model.log_lines()[-lines:]
    return [("class:log", "\n".join(inert(line) for line in shown))]


def scores(model: ClientModel) -> StyleText:
    """The score sheet: at the end of the match, and after each round until a key."""
    state = model.replica.state
    if not state.round_scores:
        return []
    from p2p_rommy.simulate import score_sheet

    final = state.phase is Phase.MATCH_OVER or model.replica.ended is not None
    title = (
        _("Final score sheet")
        if final
        else _("After round {number}").format(number=len(state.round_scores))
    )
    more = "" if final else "  " + _("(space goes on)")
    ended = model.replica.ended
    forfeited = [ended[0]] if ended is not None else []
    return [("class:title", f"{title}{more}\n"), ("", score_sheet(state, model.names, forfeited))]
