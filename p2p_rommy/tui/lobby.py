"""The lobby screen: who is at the table (names and key fingerprints), the variant and
house rules; the creator starts the game by hand once enough players are seated.

The model only holds what the lobby reported and what the player asked for; the
lobby protocol itself lives in `p2p_rommy.lobby`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import Frame

from p2p_rommy.i18n import _
from p2p_rommy.lobby import LobbyState, Member, table_code
from p2p_rommy.rules.house_words import changed_rules, variant_name
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.tui.app import screen_style
from p2p_rommy.wire.identity import fingerprint


@dataclass
class LobbyModel:
    table: str
    variant: str
    house: list[tuple[str, object]]
    seats: int
    min_players: int
    you: bytes
    """This player's public key."""
    start: Callable[[], None] | None = None
    """The creator's start (None for a player who joined)."""
    remove: Callable[[bytes], None] | None = None
    """The creator's way to send a member away (None for a player who joined)."""
    removing: bool = False
    members: list[tuple[str, bytes]] = field(default_factory=list)
    known: KnownPlayers | None = None
    """Players met before: a known name with a new key is warned about."""
    warnings: list[str] = field(default_factory=list)
    creator: bytes | None = None
    """The creator's key as proven in the handshake (or this player's, for the host)."""
    lobby: bytes = b""
    where: str = ""
    """Which of this machine's addresses the table uses (host), or where it was joined."""
    hint: str = ""
    """Advice when nothing happens (a creator still alone: try `rommy doctor`)."""
    status: str = ""
    starting: bool = False
    confirm_quit: bool = False
    quit: bool = False
    last_game: list[tuple[str, bytes]] = field(default_factory=list)
    """A new game at the same table (`n`): the last game's players, names and keys."""

    def missing(self) -> list[str]:
        """The last game's players not back at the table yet (each comes back with `n`
        on the last game's summary; one who quit does not)."""
        here = {key for _name, key in self.members} | {self.you}  # he waits for others
        return [name for name, key in self.last_game if key not in here]

    def update_members(self, members: list[Member]) -> None:
        self.members = [(m.name, m.key) for m in members]
        if self.known is not None:
            self.warnings = self.known.warnings(self.members, self.you)

    @property
    def table_code(self) -> str:
        """Six characters for this table, from its id and its creator's proven key: the
        same on every screen at this table, different at an impostor's."""
        if self.creator is None:
            return "------"
        return table_code(self.lobby, self.creator)

    def update_state(self, state: LobbyState) -> None:
        """A lobby state from the creator (for a player who joined): names and keys come
        from each member's own signed entry."""
        self.table = state.table
        self.lobby = state.lobby
        self.creator = state.members[0].key
        self.variant = state.variant
        self.house = list(state.house)
        self.seats = state.seats
        self.update_members(list(state.members))

    def start_game(self) -> None:
        if self.start is None:
            self.status = _("the table's creator starts the game")
            return
        if len(self.members) < self.min_players:
            self.status = _("{variant} needs at least {count} players").format(
                variant=variant_name(self.variant), count=self.min_players
            )
            return
        self.starting = True
        self.status = _("starting: seats and the first dealer are drawn by a joint coin...")
        self.start()

    def choose_removal(self) -> None:
        """`x`: the creator picks a player to send away by number."""
        if self.remove is not None and len(self.members) > 1:
            self.removing = True

    def remove_number(self, number: int) -> None:
        self.removing = False
        if self.remove is None or not 2 <= number <= len(self.members):
            return
        name, key = self.members[number - 1]
        self.remove(key)
        self.status = _("{name} was sent away from the table").format(name=name)

    def prompt(self) -> str:
        if self.removing:
            return _("Send away which player? 2-{last}, Esc cancels").format(last=len(self.members))
        if self.confirm_quit:
            return _("Leave the table? y / n")
        if self.status:
            return self.status
        if self.start is not None:
            if len(self.members) >= self.min_players:
                return _(
                    "Enter starts the game with {count} players; x sends a player away; q leaves"
                ).format(count=len(self.members))
            return _("waiting for players ({count}/{needed} needed); q leaves").format(
                count=len(self.members), needed=self.min_players
            )
        return _("waiting for the creator to start the game; q leaves")


def lines(model: LobbyModel) -> StyleAndTextTuples:
    if not model.members:  # still looking for the table: nothing is known of it yet
        return looking_lines(model)
    out: StyleAndTextTuples = [
        (
            "class:title",
            " "
            + _("Table {name!r}: {variant}").format(
                name=model.table, variant=variant_name(model.variant)
            )
            + "\n",
        ),
        (
            "",
            " "
            + _("seats: {taken}/{seats}").format(taken=len(model.members), seats=model.seats)
            + "\n",
        ),
        ("", " " + _("house rules:") + " "),
        ("", changed_rules(model.variant, model.house, _) or _("the defaults")),
        ("", "\n " + _("table code:") + " "),
        ("class:title", model.table_code),
        ("", "  " + _("(compare it aloud now; the game gets a code of its own)")),
        ("", "\n\n " + _("Players (compare the fingerprints out loud):") + "\n"),
    ]
    for index, (name, key) in enumerate(model.members):
        mark = (
            "  " + _("(you)") if key == model.you else "  " + _("(creator)") if index == 0 else ""
        )
        out.append(("", f"  {index + 1}. {name:<20} {fingerprint(key)}{mark}\n"))
    missing = model.missing()
    if missing:
        # one sentence a line: together they were cut at 80 columns ("... En")
        out.append(("class:title", "\n " + _("A new game at this table.") + "\n"))
        waiting = _("Waiting for {names} (n on the last game's summary).")
        out.append(("", " " + waiting.format(names=", ".join(missing)) + "\n"))
        if model.start is not None and len(model.members) >= model.min_players:
            out.append(("", " " + _("Enter starts without them.") + "\n"))
    for warning in model.warnings:
        out.append(("class:warning", f"\n {warning}\n"))
    if model.where:
        out.append(("", f"\n {model.where}\n"))
    if model.hint and len(model.members) <= 1:
        out.append(("class:warning", f"\n {model.hint}\n"))
    return out


def looking_lines(model: LobbyModel) -> StyleAndTextTuples:
    """Before the table is found: its name, and any advice (the status line says what
    it looks or waits for). No seats, rules or code: they would be guesses."""
    out: StyleAndTextTuples = []
    if model.table != "?":
        out.append(("class:title", " " + _("Table {name!r}").format(name=model.table) + "\n"))
    for warning in model.warnings:
        out.append(("class:warning", f"\n {warning}\n"))
    if model.hint:
        out.append(("class:warning", f"\n {model.hint}\n"))
    return out


def build_lobby_app(
    model: LobbyModel, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    kb = KeyBindings()
    idle = Condition(lambda: not model.confirm_quit and not model.starting)

    @kb.add("enter", filter=idle)
    def _start(event: KeyPressEvent) -> None:
        model.start_game()

    @kb.add("x", filter=idle)
    def _remove(event: KeyPressEvent) -> None:
        """Send a player away (the creator)."""
        model.choose_removal()

    for digit in "23456":

        @kb.add(digit, filter=Condition(lambda: model.removing))
        def _remove_number(event: KeyPressEvent, digit: str = digit) -> None:
            model.remove_number(int(digit))

    @kb.add("escape", filter=Condition(lambda: model.removing))
    def _cancel_remove(event: KeyPressEvent) -> None:
        model.removing = False

    @kb.add("q")
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        model.confirm_quit = True

    @kb.add("y", filter=Condition(lambda: model.confirm_quit))
    @kb.add("j", filter=Condition(lambda: model.confirm_quit))  # ja (Danish, Norwegian)
    def _yes(event: KeyPressEvent) -> None:
        model.quit = True
        event.app.exit()

    @kb.add("n", filter=Condition(lambda: model.confirm_quit))
    def _no(event: KeyPressEvent) -> None:
        model.confirm_quit = False

    body = HSplit(
        [
            Frame(
                Window(FormattedTextControl(lambda: lines(model)), wrap_lines=True),
                title=_("Lobby"),
            ),
            Window(
                FormattedTextControl(lambda: [("class:status", " " + model.prompt())]), height=1
            ),
        ]
    )
    return Application(
        layout=Layout(body),
        key_bindings=kb,
        style=screen_style(),
        full_screen=True,
        input=input,
        output=output,
        refresh_interval=0.3,
    )
