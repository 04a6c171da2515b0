"""The README stays true: every `rommy` command it names exists, and every command line
in its code blocks parses with the real parser."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from p2p_rommy.cli import build_parser

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def code_lines() -> list[str]:
    blocks = re.findall(r"```(?:sh|powershell)?\n(.*?)```", README, re.S)
    return [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]


def test_every_command_named_exists():
    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    named = set(re.findall(r"\brommy ([a-z]+)", README))
    assert named <= set(commands.choices), named - set(commands.choices)


def test_every_command_line_parses():
    lines = [line for line in code_lines() if line.startswith("rommy ")]
    assert lines
    for line in lines:
        build_parser().parse_args(shlex.split(line)[1:])  # exits 2 on a wrong flag


def test_the_test_command_is_what_ci_runs():
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text()
    assert ".venv/bin/python -m pytest -n 2" in ci.splitlines()
    assert "pip install -e '.[test]' && .venv/bin/python -m pytest -n 2" in README
