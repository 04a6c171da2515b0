"""The prompt_toolkit application: a layout of plain windows over the render functions,
and key bindings that are tiny functions calling the model."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

if TYPE_CHECKING:  # prompt_toolkit defines it for the type checker only
    pass

from p2p_rommy.i18n import _
from p2p_rommy.tui import render
from p2p_rommy.tui.model import LABEL_KEYS, LABEL_PREFIX, ClientModel
from p2p_rommy.tui.pacing import redraw_on_changes
from p2p_rommy.tui.render import StyleText

Palette = dict[str, str]
DARK: Palette = {
    "background": "#000000",  # what the colours are chosen against (never drawn)
    "log": "fg:#b2b2b2",
    "dim": "fg:#a8a8a8",
    "hidden": "fg:#a8a8a8",
    "label": "fg:#5fd7ff",
}
"""For a dark terminal (light text on black)."""
LIGHT: Palette = {
    "background": "#ffffff",
    "log": "fg:#4e4e4e",
    "dim": "fg:#585858",
    "hidden": "fg:#585858",
    "label": "fg:#005f87",
}
"""For a light terminal (dark text on white): `ansigray` was near invisible there."""
EITHER: Palette = {
    "background": "#767676",  # the grey with at least 4.5:1 against black and white
    "log": "",
    "dim": "fg:#767676",
    "hidden": "fg:#767676",
    "label": "bold",
}
"""When the terminal does not say: the log in the terminal's own foreground, the dim
texts in the one grey readable on both black and white."""
PALETTES = {"dark": DARK, "light": LIGHT, "auto": EITHER}
THEMES = ("light", "dark")
"""What `--theme` and ROMMY_THEME take."""

_chosen: list[str] = []
"""The theme the command line chose (`--theme`), if it did: it wins over the environment."""


def use_theme(name: str | None) -> None:
    """Take `name` ("light", "dark"; None: back to the environment's) for every screen
    drawn from now on: `rommy ... --theme light`."""
    _chosen[:] = [name] if name in THEMES else []


def theme(environ: Mapping[str, str] | None = None) -> str:
    """The palette for this terminal: `--theme` (`use_theme`), else ROMMY_THEME=light|dark,
    else the background the terminal announces in COLORFGBG ("15;0" is light text on
    black), else "auto"."""
    if _chosen and environ is None:
        return _chosen[0]
    env = os.environ if environ is None else environ
    chosen = env.get("ROMMY_THEME", "").lower()
    if chosen in PALETTES:
        return chosen
    background = env.get("COLORFGBG", "").split(";")[-1]
    if background.isdigit():
        return "light" if int(background) in (7, 15) else "dark"
    return "auto"


BASE_STYLE = {
    "header": "reverse bold",
    "status": "reverse",
    "title": "bold",
    "warning": "bold fg:ansired",
    "joker": "fg:ansimagenta bold",
    "selected": "reverse",
    "fresh": "underline",
}
TWO_COLOURS = {
    "suit-hearts": "fg:ansired bold",
    "suit-diamonds": "fg:ansired bold",
    "suit-spades": "bold",  # the terminal's own foreground: legible on dark and light
    "suit-clubs": "bold",
}
FOUR_COLOURS = {
    "suit-hearts": "fg:ansired bold",
    "suit-diamonds": "fg:ansiblue bold",
    "suit-spades": "bold",
    "suit-clubs": "fg:ansigreen bold",
}


def style(four_colour: bool = False, palette: str = "auto") -> Style:
    """The client's style; `four_colour` gives each suit its own colour, `palette` is
    "dark", "light" or "auto" (see `theme`)."""
    colours = {k: v for k, v in PALETTES[palette].items() if k != "background"}
    return Style.from_dict(
        {**BASE_STYLE, **colours, **(FOUR_COLOURS if four_colour else TWO_COLOURS)}
    )


def screen_style() -> Style:
    """The style for screens without a model (the lobby): this terminal's palette, as it
    is chosen when the screen is built (after the command line is read)."""
    return style(palette=theme())


def _text(
    function: Callable[[ClientModel], StyleText], model: ClientModel, **window: Any
) -> Window:
    return Window(FormattedTextControl(lambda: function(model)), **window)


def bindings(
    model: ClientModel, chat: Window | None = None, status: Window | None = None
) -> KeyBindings:
    """The keys; `chat` and `status` are the windows the chat line moves focus between."""
    kb = KeyBindings()
    playing = Condition(
        lambda: (
            not model.confirm_quit
            and not model.show_help
            and not model.chatting
            and not model.summary_shown()
        )
    )
    free = Condition(lambda: not model.chatting)
    summary = Condition(lambda: model.summary_shown() and not model.confirm_quit)
    overlaid = Condition(lambda: model.show_help or model.show_info or model.show_history)

    @kb.add("space", filter=summary)
    def _next_round(event: KeyPressEvent) -> None:
        """Leave a round's summary for the next round."""
        model.hide_scores()

    @kb.add("n", filter=summary)
    @kb.add("N", filter=summary)
    def _new_game(event: KeyPressEvent) -> None:
        """A new game at this table: the app exits and the command starts it."""
        if model.ask_new_game():
            event.app.exit()

    @kb.add("/", filter=playing)
    def _chat(event: KeyPressEvent) -> None:
        """Say something to the table."""
        if chat is not None:
            model.chatting = True
            event.app.layout.focus(chat)

    @kb.add("escape", filter=Condition(lambda: model.chatting))
    def _stop_chat(event: KeyPressEvent) -> None:
        model.chatting = False
        if status is not None:
            event.app.layout.focus(status)

    for label in {*LABEL_KEYS, *LABEL_KEYS.lower()} - set("0123456789"):

        @kb.add(label, filter=playing)
        def _select(event: KeyPressEvent, label: str = label) -> None:
            """Select or unselect a card (its label, either case)."""
            model.select(label)

    for prefix in (LABEL_PREFIX, LABEL_PREFIX.lower()):

        @kb.add(prefix, filter=playing)
        def _second_row(event: KeyPressEvent) -> None:
            """Z: the next key picks a card labelled Z1, ZB, ..."""
            model.begin_second_row()

    @kb.add(Keys.Any, filter=playing)
    def _unknown(event: KeyPressEvent) -> None:
        """Any other key: say it does nothing (it used to be silent)."""
        text = event.data
        if text.isprintable() and text.strip():
            model.unknown_key(text)

    simple = {
        "d": model.draw,
        "t": model.take,
        "m": model.stage,
        "enter": lambda: (
            model.finish_meld_entry() if model.meld_entry is not None else model.lay_down()
        ),
        "x": model.discard,
        "s": model.toggle_sort,
        "c": model.clear,
        "k": lambda: model.buy(True),
        "p": lambda: model.buy(False),
        "r": model.next_reading,
        "e": model.end_without_stalled,
        "a": model.toggle_auto_pass,
    }
    for key, action in simple.items():

        @kb.add(key, filter=playing)
        @kb.add(key.upper() if len(key) == 1 else key, filter=playing)  # caps lock
        def _act(event: KeyPressEvent, action: Callable[[], object] = action) -> None:
            action()

    for digit in "0123456789":

        @kb.add(digit, filter=playing)
        def _digit(event: KeyPressEvent, digit: str = digit) -> None:
            """A meld number after o or w; otherwise a card label."""
            model.digit(digit)

    for key in "ow":

        @kb.add(key, filter=playing)
        def _meld_number(event: KeyPressEvent, key: str = key) -> None:
            """Lay off on (o) or swap with the joker of (w) meld N: type N."""
            model.begin_meld_entry(key)

    entering = Condition(lambda: model.meld_entry is not None)

    @kb.add("escape", filter=entering)
    def _cancel_number(event: KeyPressEvent) -> None:
        model.cancel_meld_entry()

    @kb.add("escape", filter=Condition(lambda: model.label_prefix))
    def _cancel_prefix(event: KeyPressEvent) -> None:
        model.label_prefix = False

    def page(lines: int) -> None:
        if model.show_help or model.show_info or model.show_history:
            model.overlay_scroll = max(0, model.overlay_scroll + lines)
        elif model.summary_shown():
            model.summary_scroll = max(0, model.summary_scroll + lines)
        else:
            model.scroll(lines)

    @kb.add("pageup", filter=free)
    def _page_up(event: KeyPressEvent) -> None:
        page(-5)

    @kb.add("pagedown", filter=free)
    def _page_down(event: KeyPressEvent) -> None:
        page(5)

    @kb.add("up", filter=free & (overlaid | summary))
    def _line_up(event: KeyPressEvent) -> None:
        page(-1)

    @kb.add("down", filter=free & (overlaid | summary))
    def _line_down(event: KeyPressEvent) -> None:
        page(1)

    @kb.add("tab", filter=playing)
    def _switch_scroll(event: KeyPressEvent) -> None:
        model.switch_scroll()

    @kb.add("v", filter=free)
    def _history(event: KeyPressEvent) -> None:
        """Show or hide the score sheet of every round so far."""
        model.show_history = not model.show_history
        model.overlay_scroll = 0

    @kb.add("h", filter=playing)
    def _hints(event: KeyPressEvent) -> None:
        """Show or hide the melds the hand could make."""
        model.show_hints = not model.show_hints

    @kb.add("?", filter=free)
    def _help(event: KeyPressEvent) -> None:
        """Open or close the help."""
        model.show_help = not model.show_help
        model.overlay_scroll = 0

    @kb.add("escape", filter=Condition(lambda: model.show_help))
    def _close_help(event: KeyPressEvent) -> None:
        model.show_help = False

    @kb.add("i", filter=free)
    def _info(event: KeyPressEvent) -> None:
        """Open or close the game code, the fingerprints and how to resume."""
        model.show_info = not model.show_info
        model.overlay_scroll = 0

    @kb.add("escape", filter=Condition(lambda: model.show_info))
    def _close_info(event: KeyPressEvent) -> None:
        model.show_info = False

    @kb.add("q", filter=free)
    def _quit(event: KeyPressEvent) -> None:
        """Ask before quitting."""
        if model.table.over or model.match_over():
            event.app.exit()
        else:
            model.confirm_quit = True

    @kb.add("y", filter=Condition(lambda: model.confirm_quit))
    @kb.add("j", filter=Condition(lambda: model.confirm_quit))  # ja (Danish, Norwegian)
    def _yes(event: KeyPressEvent) -> None:
        model.quit = True
        event.app.exit()

    @kb.add("n", filter=Condition(lambda: model.confirm_quit))
    def _no(event: KeyPressEvent) -> None:
        model.confirm_quit = False

    @kb.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        model.confirm_quit = True

    return kb


def _fragments_text(fragments: StyleText) -> list[str]:
    return "".join(fragment[1] for fragment in fragments).rstrip("\n").split("\n")


def overlay(
    model: ClientModel,
    app: Callable[[], Application[None]],
    text: Callable[[], list[str]],
    title: Callable[[], str],
    shown: Callable[[], bool],
    most: int = 76,
) -> ConditionalContainer:
    """A framed box over the game that fits the screen: wrapped to its width and paged
    to its height (PgUp/PgDn), at any size down to 60x20 (it was an empty frame)."""

    def size() -> tuple[int, int]:
        screen = app().output.get_size()
        return max(20, min(most, screen.columns - 4)), max(3, screen.rows - 4)

    def body() -> StyleText:
        width, height = size()
        lines, model.overlay_scroll = render.page(text(), width, height, model.overlay_scroll)
        return [("", "\n".join(lines))]

    def height() -> int:
        width, most_rows = size()
        return min(most_rows, len(render.page(text(), width, most_rows, 0)[0]))

    return ConditionalContainer(
        Frame(
            Window(FormattedTextControl(body), width=lambda: size()[0], height=height),
            title=title,
        ),
        filter=Condition(shown),
    )


def build_app(
    model: ClientModel, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    def said(buffer: Buffer) -> bool:
        model.say(buffer.text)
        model.chatting = False
        app.layout.focus(status_window)
        return False  # clears the line

    def columns() -> int:
        return app.output.get_size().columns

    def rows() -> int:
        return app.output.get_size().rows

    chat_buffer = Buffer(multiline=False, accept_handler=said)
    chat_window = Window(
        BufferControl(chat_buffer),
        height=1,
        get_line_prefix=lambda line, wrap: [("class:status", " " + _("say:") + " ")],
    )
    status_window = Window(
        FormattedTextControl(lambda: render.status(model, columns()), focusable=True),
        height=lambda: min(3, len(render.status_lines(model, columns()))),
    )
    table_window = Window(
        FormattedTextControl(
            lambda: (
                render.table(model, table_window.render_info.window_height)
                if table_window.render_info is not None
                else render.table(model)
            )
        )
    )
    hand_window = Window(
        FormattedTextControl(
            lambda: render.hand(
                model,
                hand_window.render_info.window_width if hand_window.render_info is not None else 80,
            )
        ),
        height=Dimension(min=2, max=6),
        wrap_lines=True,
    )
    game = HSplit(
        [
            Window(FormattedTextControl(lambda: render.header(model, columns())), height=1),
            _text(render.opponents, model, height=len(model.names)),
            table_window,
            _text(render.discard, model, height=1),
            hand_window,
            Frame(_text(render.log, model, height=4), title=_("Log")),
        ]
    )
    summary_window = Window(
        FormattedTextControl(
            lambda: render.summary(
                model, columns(), rows() - len(render.status_lines(model, columns()))
            )
        )
    )
    summary = Condition(model.summary_shown)
    body = HSplit(
        [
            ConditionalContainer(game, filter=~summary),
            ConditionalContainer(summary_window, filter=summary),
            ConditionalContainer(chat_window, filter=Condition(lambda: model.chatting)),
            ConditionalContainer(status_window, filter=Condition(lambda: not model.chatting)),
        ]
    )
    history_box = overlay(
        model,
        lambda: app,
        lambda: _fragments_text(render.history(model)),
        lambda: _("Scores so far (v closes)"),
        lambda: model.show_history,
    )
    help_box = overlay(
        model,
        lambda: app,
        lambda: render.help_text(model).split("\n"),
        lambda: _("Help (? closes)"),
        lambda: model.show_help,
    )
    info_box = overlay(
        model,
        lambda: app,
        lambda: _fragments_text(render.info(model)),
        lambda: _("This game (i closes)"),
        lambda: model.show_info,
        most=72,
    )
    root = FloatContainer(body, floats=[Float(help_box), Float(info_box), Float(history_box)])
    app: Application[None] = Application(
        layout=Layout(root, focused_element=status_window),
        key_bindings=bindings(model, chat_window, status_window),
        style=style(model.four_colour, theme()),
        full_screen=True,
        mouse_support=False,
        input=input,
        output=output,
        refresh_interval=0.5,  # the Køb! countdown, at most 0.5 s stale; the rest on events
    )
    app.pre_run_callables.append(lambda: _redraw_on_events(app, model))
    return app


def _redraw_on_events(app: Application[None], model: ClientModel) -> None:
    """Redraw whenever the session says something changed (no polling); during a deal
    its progress at a walk (`tui/pacing.py`)."""

    def redraw() -> bool:
        if model.new_game_wanted and model.ask_new_game():
            app.exit()  # `n` came before the last step committed; it has now
            return False
        app.invalidate()
        return True

    app.create_background_task(redraw_on_changes(model.session.changed, model.dealt_so_far, redraw))
