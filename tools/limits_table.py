"""Print SPEC §4.9's table of limits from `p2p_rommy/limits.py` (paste it into SPEC.md;
`tests/test_limits.py` checks that the two agree).

    python tools/limits_table.py
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from p2p_rommy import limits


def rows() -> list[str]:
    body = ast.parse(Path(limits.__file__).read_text()).body
    lines = []
    for node, after in itertools.pairwise(body):
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if not name.isupper() or not isinstance(after, ast.Expr):
            continue
        doc = " ".join(str(after.value.value).split())  # type: ignore[attr-defined]
        value = getattr(limits, name)
        if name.endswith("_BYTES"):
            shown = (
                f"{value} ({value >> 20} MiB)"
                if value >= 1 << 20
                else f"{value} ({value >> 10} KiB)"
            )
        elif name.endswith("_PER_S"):
            shown = f"{value} per s"
        elif name.endswith("_S"):
            shown = f"{value} s"
        elif name.endswith("_BITS"):
            shown = f"{value} bits"
        else:
            shown = str(value)
        lines.append(f"| `{name}` | {shown} | {doc} |")
    return lines


if __name__ == "__main__":
    print("| Name | Value | Meaning |\n|---|---|---|")
    print("\n".join(rows()))
