"""House issue: the layers hold. The cores (engine, rules, deck, wire, lobby, log) import
nothing that does I/O or draws; the client reads typed events and does not decode
wire bytes; and no import circle exists. Read from the source (every import, also
inside functions), like `farm-studio look`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "p2p_rommy"

CORES = ("engine", "rules", "deck", "wire", "cards", "errors", "limits", "config")
"""Pure layers: values in, values out."""
IO_AND_SCREENS = ("log", "net", "tui", "seat", "frontends", "cli", "lobby", "bench")
"""What a core must never import."""
CODECS = ("p2p_rommy.wire.codec", "p2p_rommy.log.move_codec", "p2p_rommy.log.transcript")
DECODERS = {"decode", "decode_body", "decode_record", "unpack", "pack", "open_envelope"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[tuple[str, str | None]]]:
    """Every module's imports of this package: (module, name imported or None)."""
    found: dict[str, set[tuple[str, str | None]]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        edges = found.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("p2p_rommy")
            ):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    is_module = (PACKAGE.parent / sub.replace(".", "/")).with_suffix(".py").exists()
                    edges.add((sub, None) if is_module else (node.module, alias.name))
            elif isinstance(node, ast.Import):
                edges.update((a.name, None) for a in node.names if a.name.startswith("p2p_rommy"))
    return found


def layer(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_the_cores_import_no_io_and_no_screen():
    bad = [
        f"{module} imports {target}"
        for module, edges in imports().items()
        if layer(module) in CORES
        for target, _ in edges
        if layer(target) in IO_AND_SCREENS
    ]
    assert not bad, bad


def test_the_client_does_not_decode_wire_bytes():
    bad = [
        f"{module} imports {target}" + (f".{name}" if name else "")
        for module, edges in imports().items()
        if layer(module) == "tui"
        for target, name in edges
        if target in CODECS or name in DECODERS
    ]
    assert not bad, bad


def test_no_import_circle():
    graph = {m: {t for t, _ in edges if t != m} for m, edges in imports().items()}
    for module in list(graph):  # a package's import of its own modules is no circle
        graph[module] = {t for t in graph[module] if not module_name_is_parent(module, t)}
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        seen[module] = 1
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if seen.get(target) == 1:
                raise AssertionError(
                    "import circle: " + " -> ".join([*stack[stack.index(target) :], target])
                )
            if target not in seen:
                visit(target)
        stack.pop()
        seen[module] = 2

    for module in sorted(graph):
        if module not in seen:
            visit(module)


def module_name_is_parent(module: str, target: str) -> bool:
    return target.startswith(module + ".") or module.startswith(target + ".")


ROOT_MODULES = {
    *("__init__", "__main__"),
    *("cli", "verify", "verify_words", "replay", "simulate", "bench", "doctor"),  # the commands
    *("cards", "config", "errors", "i18n", "raw_words", "limits", "narrate"),  # shared values
}


def test_the_package_root_holds_the_commands_and_the_shared_values_only():
    """House issue: orchestration lives in a package named for what it does (`seat/`:
    running one seat), not beside the commands."""
    assert {path.stem for path in PACKAGE.glob("*.py")} == ROOT_MODULES


def test_no_two_packages_import_each_other():
    """A circle between packages (the screens reading a seat's session while the seat's
    front-ends draw the screens) is a circle too, even when no two files close it."""
    edges: dict[str, set[str]] = {}
    for module, targets in imports().items():
        for target, _ in targets:
            if layer(module) != layer(target):
                edges.setdefault(layer(module), set()).add(layer(target))
    both = sorted(
        f"{a} <-> {b}" for a in edges for b in edges[a] if a < b and a in edges.get(b, set())
    )
    assert not both, both


VIEW_TYPES = "p2p_rommy.seat.table_view"
"""What a client reads of its seat (issue 28): `TableView` and its news items."""
VIEW_VALUES = {"p2p_rommy.log.stalls"}
"""The only part of `log/` the view types carry: plain frozen values (`Waiting`, `Stall`)."""


def test_the_client_imports_nothing_from_log_but_the_view_types():
    """Issue 28: the client (`tui/`) reads the published `TableView` and its news, never
    the peer's events, steps or messages; the view types themselves name no peer, no
    envelope and no step (`seat/snapshot.py` translates for them)."""
    found = imports()
    client = [
        f"{module} imports {target}"
        for module, edges in found.items()
        if layer(module) == "tui"
        for target, _ in edges
        if layer(target) == "log"
    ]
    assert not client, client
    assert any(target == VIEW_TYPES for target, _ in found["p2p_rommy.tui.model"])
    view = {target for target, _ in found[VIEW_TYPES] if layer(target) in IO_AND_SCREENS}
    assert view <= VIEW_VALUES, view
