"""The prompt_toolkit application: a layout of plain windows over the render functions,
and key bindings that are tiny functions calling the model."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
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

from p2p_rommy.engine.state import Phase
from p2p_rommy.i18n import _
from p2p_rommy.tui import render
from p2p_rommy.tui.model import LABELS, ClientModel
from p2p_rommy.tui.render import StyleText

BASE_STYLE = {
    "header": "reverse bold",
    "status": "reverse",
    "title": "bold",
    "warning": "bold fg:ansired",
    "joker": "fg:ansimagenta bold",
    "hidden": "fg:ansigray",
    "selected": "reverse",
    "fresh": "underline",
    "label": "fg:ansicyan",
    "dim": "fg:ansigray",
    "log": "fg:ansigray",
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


def style(four_colour: bool = False) -> Style:
    """The client's style; `four_colour` gives each suit its own colour."""
    return Style.from_dict({**BASE_STYLE, **(FOUR_COLOURS if four_colour else TWO_COLOURS)})


STYLE = style()


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
        lambda: not model.confirm_quit and not model.show_help and not model.chatting
    )
    free = Condition(lambda: not model.chatting)

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

    for label in LABELS:

        @kb.add(label, filter=playing)
        def _select(event: KeyPressEvent, label: str = label) -> None:
            """Select or unselect a card."""
            model.select(label)

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
        "space": model.hide_scores,
        "a": model.toggle_auto_pass,
    }
    for key, action in simple.items():

        @kb.add(key, filter=playing)
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

    @kb.add("pageup", filter=free)
    def _page_up(event: KeyPressEvent) -> None:
        model.scroll(-5)

    @kb.add("pagedown", filter=free)
    def _page_down(event: KeyPressEvent) -> None:
        model.scroll(5)

    @kb.add("tab", filter=playing)
    def _switch_scroll(event: KeyPressEvent) -> None:
        model.switch_scroll()

    @kb.add("v", filter=free)
    def _history(event: KeyPressEvent) -> None:
        """Show or hide the score sheet of every round so far."""
        model.show_history = not model.show_history

    @kb.add("h", filter=playing)
    def _hints(event: KeyPressEvent) -> None:
        """Show or hide the melds the hand could make."""
        model.show_hints = not model.show_hints

    @kb.add("?", filter=free)
    def _help(event: KeyPressEvent) -> None:
        """Open or close the help."""
        model.show_help = not model.show_help

    @kb.add("escape", filter=Condition(lambda: model.show_help))
    def _close_help(event: KeyPressEvent) -> None:
        model.show_help = False

    @kb.add("i", filter=free)
    def _info(event: KeyPressEvent) -> None:
        """Open or close the game code, the fingerprints and how to resume."""
        model.show_info = not model.show_info

    @kb.add("escape", filter=Condition(lambda: model.show_info))
    def _close_info(event: KeyPressEvent) -> None:
        model.show_info = False

    @kb.add("q", filter=free)
    def _quit(event: KeyPressEvent) -> None:
        """Ask before quitting."""
        if model.table.over:
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


def build_app(
    model: ClientModel, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    def said(buffer: Buffer) -> bool:
        model.say(buffer.text)
        model.chatting = False
        app.layout.focus(status_window)
        return False  # clears the line

    chat_buffer = Buffer(multiline=False, accept_handler=said)
    chat_window = Window(
        BufferControl(chat_buffer),
        height=1,
        get_line_prefix=lambda line, wrap: [("class:status", " " + _("say:") + " ")],
    )
    status_window = Window(
        FormattedTextControl(lambda: render.status(model), focusable=True), height=1
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
    body = HSplit(
        [
            _text(render.header, model, height=1),
            _text(render.opponents, model, height=max(1, len(model.names) - 1)),
            table_window,
            _text(render.discard, model, height=1),
            hand_window,
            ConditionalContainer(
                _text(render.scores, model),
                filter=Condition(
                    lambda: (
                        model.show_scores
                        or model.table.state.phase is Phase.MATCH_OVER
                        or model.table.ended is not None
                    )
                ),
            ),
            Frame(_text(render.log, model, height=4), title=_("Log")),
            ConditionalContainer(chat_window, filter=Condition(lambda: model.chatting)),
            ConditionalContainer(status_window, filter=Condition(lambda: not model.chatting)),
        ]
    )
    history_box = ConditionalContainer(
        Frame(
            Window(FormattedTextControl(lambda: render.history(model)), width=76),
            title=_("Scores so far (v closes)"),
        ),
        filter=Condition(lambda: model.show_history),
    )
    help_box = ConditionalContainer(
        Frame(
            Window(FormattedTextControl(render.help_text), width=76, height=19),
            title=_("Help (? closes)"),
        ),
        filter=Condition(lambda: model.show_help),
    )
    info_box = ConditionalContainer(
        Frame(
            Window(FormattedTextControl(lambda: render.info(model)), width=70, height=13),
            title=_("This game (i closes)"),
        ),
        filter=Condition(lambda: model.show_info),
    )
    root = FloatContainer(body, floats=[Float(help_box), Float(info_box), Float(history_box)])
    app: Application[None] = Application(
        layout=Layout(root, focused_element=status_window),
        key_bindings=bindings(model, chat_window, status_window),
        style=style(model.four_colour),
        full_screen=True,
        mouse_support=False,
        input=input,
        output=output,
        refresh_interval=1.0,  # the Køb! countdown; everything else redraws on events
    )
    app.pre_run_callables.append(lambda: _redraw_on_events(app, model))
    return app


def _redraw_on_events(app: Application[None], model: ClientModel) -> None:
    """Redraw whenever the session says something changed (no polling)."""
    changed = model.session.changed

    async def watch() -> None:
        while True:
            await changed.wait()
            changed.clear()
            app.invalidate()

    app.create_background_task(watch())
