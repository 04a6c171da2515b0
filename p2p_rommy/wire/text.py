"""Text that came from someone else: names, chat, TXT records, reasons in a NACK.

Such text must be inert wherever it is shown: an escape sequence in a player's name
must not rewrite a verdict line on a terminal, a newline must not fake a chat line or
an opponent's row. Names are validated where they enter (`name_problem`); everything
drawn or printed goes through `inert` (or `printable` for text of several lines).
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 32
"""Characters in a player's name."""
TABLE_NAME_MAX = 64
"""Characters in a table's name."""
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
"""Unicode categories that steer a terminal or hide text: controls, format characters
(bidi overrides, zero-width), surrogates, private use, line and paragraph separators."""


def _shown(char: str) -> str:
    if unicodedata.category(char) not in _HIDDEN:
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def inert(text: str) -> str:
    """`text` with every control or format character written out as an escape."""
    if text.isprintable():
        return text
    return "".join(_shown(char) for char in text)


def printable(text: str) -> str:
    """Like `inert`, line by line: our own newlines stay, nothing else steers."""
    return "\n".join(inert(line) for line in text.split("\n"))


def name_problem(name: object, limit: int = NAME_MAX) -> str | None:
    """Why `name` cannot be a player's (or, with its limit, a table's) name, or None."""
    if not isinstance(name, str):
        return "a name must be text"
    if not name.strip():
        return "a name must not be empty"
    if len(name) > limit:
        return f"a name must be at most {limit} characters"
    if name != name.strip() or any(unicodedata.category(c) in _HIDDEN for c in name):
        return "a name must not contain control characters, line breaks or outer spaces"
    return None


def distinct_names(names: list[str]) -> list[str]:
    """The names as shown: a name that several players share is numbered ("Player 2")."""
    seen: dict[str, int] = {}
    shown = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        shown.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return shown


def chat_line(text: str, limit: int) -> str:
    """A chat line as shown: one line, whitespace collapsed, nothing that steers."""
    return inert(" ".join(text.split()))[:limit]
