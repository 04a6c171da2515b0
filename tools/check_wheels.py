"""Does every runtime dependency install from a wheel on every machine a family has?

For each dependency in pyproject.toml's ``[project] dependencies`` and each target —
CPython 3.11 to 3.14 (the versions the classifiers name) on Linux x86_64 and aarch64
(manylinux), macOS arm64 and x86_64, and Windows amd64 — the package index is asked
with ``pip download --no-deps --only-binary=:all: --platform ... --python-version ...
--implementation cp``. A dependency without a wheel for a target means a compiler on that
player's laptop (on Windows: always a failed install). Prints a table and every gap;
exit 0 when there is none, 1 for a gap, 2 when the index could not be asked.

    python tools/check_wheels.py [--pyproject FILE] [--jobs N] [pip options ...]

Options after the known ones go to pip (``--no-index --find-links DIR`` for a local
index). Run by `.ci/run` (it needs the package index); the wheels are kept in a folder
under the temporary directory (a second run downloads none again), and the targets are
asked concurrently.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Platform:
    """An OS and CPU, as pip's platform tags and as environment-marker values."""

    name: str
    tags: tuple[str, ...]
    """Every tag a wheel for it may carry: pip takes any of them."""
    sys_platform: str
    platform_system: str
    platform_machine: str
    os_name: str


def _manylinux(machine: str) -> tuple[str, ...]:
    """manylinux tags up to glibc 2.28 (Debian 11, Ubuntu 20.04 and newer have it),
    in both spellings (PEP 600 and the legacy aliases)."""
    return tuple(
        f"{tag}_{machine}"
        for tag in (
            "manylinux_2_28",
            "manylinux_2_17",
            "manylinux2014",
            "manylinux_2_12",
            "manylinux2010",
            "manylinux_2_5",
            "manylinux1",
        )
    )


PLATFORMS = (
    Platform("linux-x86_64", _manylinux("x86_64"), "linux", "Linux", "x86_64", "posix"),
    Platform("linux-aarch64", _manylinux("aarch64"), "linux", "Linux", "aarch64", "posix"),
    # macOS 12: pip widens a macOS tag to the older versions and to universal2 wheels
    Platform("macos-arm64", ("macosx_12_0_arm64",), "darwin", "Darwin", "arm64", "posix"),
    Platform("macos-x86_64", ("macosx_12_0_x86_64",), "darwin", "Darwin", "x86_64", "posix"),
    Platform("windows-amd64", ("win_amd64",), "win32", "Windows", "AMD64", "nt"),
)


@dataclass(frozen=True, slots=True)
class Target:
    python: str
    """``3.14``"""
    platform: Platform

    def __str__(self) -> str:
        return f"CPython {self.python} {self.platform.name}"

    def environment(self) -> dict[str, str]:
        """Environment-marker values on this target (PEP 508)."""
        return {
            "python_version": self.python,
            "python_full_version": f"{self.python}.0",
            "sys_platform": self.platform.sys_platform,
            "platform_system": self.platform.platform_system,
            "platform_machine": self.platform.platform_machine,
            "os_name": self.platform.os_name,
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "extra": "",
        }


@dataclass(frozen=True, slots=True)
class Project:
    dependencies: tuple[Requirement, ...]
    pythons: tuple[str, ...]


def read_project(pyproject: Path) -> Project:
    """The runtime dependencies and the CPython versions the classifiers promise."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    pythons = tuple(
        found.group(1)
        for classifier in project.get("classifiers", [])
        if (found := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", classifier))
    )
    if not pythons:
        raise SystemExit(f"{pyproject}: no 'Programming Language :: Python :: 3.N' classifier")
    return Project(tuple(Requirement(d) for d in project.get("dependencies", [])), pythons)


def targets(project: Project) -> list[Target]:
    return [Target(python, platform) for python in project.pythons for platform in PLATFORMS]


def needed(requirement: Requirement, target: Target) -> bool:
    """Whether the requirement applies on `target` (its marker, if any, holds there)."""
    return requirement.marker is None or requirement.marker.evaluate(target.environment())


def without_marker(requirement: Requirement) -> str:
    return f"{requirement.name}{requirement.specifier}"


@dataclass(frozen=True, slots=True)
class Answer:
    """What the index said about some requirements on one target."""

    target: Target
    missing: tuple[str, ...]
    """Requirements with no wheel there."""
    errors: tuple[str, ...]
    """pip failures that were not a missing wheel (the index unreachable, say)."""


def _pip_download(
    requirements: Sequence[str], target: Target, into: Path, pip_options: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    platforms = [option for tag in target.platform.tags for option in ("--platform", tag)]
    command = [
        *(sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"),
        *platforms,
        *("--python-version", target.python, "--implementation", "cp"),
        *("--disable-pip-version-check", "--quiet", "-d", str(into)),
        *pip_options,
        *requirements,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


NO_WHEEL = "No matching distribution found for"


def ask(
    requirements: Sequence[str], target: Target, into: Path, pip_options: Sequence[str]
) -> Answer:
    """One pip call for all of them; if it fails, one for each, to name every gap (pip
    stops at the first it cannot find)."""
    if not requirements or _pip_download(requirements, target, into, pip_options).returncode == 0:
        return Answer(target, (), ())
    missing, errors = [], []
    for requirement in requirements:
        done = _pip_download([requirement], target, into, pip_options)
        if done.returncode == 0:
            continue
        if NO_WHEEL in done.stderr:
            missing.append(requirement)
        else:
            lines = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
            errors.append(f"{requirement}: {' '.join(lines) or done.stderr.strip()[-300:]}")
    return Answer(target, tuple(missing), tuple(errors))


CACHE = Path(tempfile.gettempdir()) / "rommy-wheels"
"""Where the wheels go, a folder per target; pip reuses a wheel already there."""


def check(project: Project, jobs: int, pip_options: Sequence[str], cache: Path) -> list[Answer]:
    def one(target: Target) -> Answer:
        into = cache / f"cp{target.python}-{target.platform.name}"  # no two pips share one
        wanted = [without_marker(r) for r in project.dependencies if needed(r, target)]
        return ask(wanted, target, into, pip_options)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, targets(project)))


def table(project: Project, answers: Sequence[Answer]) -> str:
    """A row per dependency, a column per platform; a cell is ``ok``, the CPython versions
    without a wheel (``no 3.14``), or ``-`` where the dependency does not apply."""
    gaps: dict[tuple[str, str], list[str]] = {}
    for answer in answers:
        for requirement in answer.missing:
            gaps.setdefault((requirement, answer.target.platform.name), []).append(
                answer.target.python
            )
    head = ["dependency", *(platform.name for platform in PLATFORMS)]
    rows = [head]
    for requirement in project.dependencies:
        name = without_marker(requirement)
        row = [str(requirement)]
        for platform in PLATFORMS:
            applies = any(
                needed(requirement, Target(python, platform)) for python in project.pythons
            )
            missing = gaps.get((name, platform.name))
            row.append("no " + ",".join(missing) if missing else "ok" if applies else "-")
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    parser.add_argument("--jobs", type=int, default=8, help="pip calls at once (default 8)")
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help=f"where the wheels go (default {CACHE})"
    )
    args, pip_options = parser.parse_known_args(argv)
    project = read_project(args.pyproject)
    answers = check(project, args.jobs, pip_options, args.cache)
    print(
        f"Wheels for {len(project.dependencies)} runtime dependencies on CPython "
        f"{', '.join(project.pythons)} ({len(answers)} targets):"
    )
    print(table(project, answers))
    errors = [f"{a.target}: {error}" for a in answers for error in a.errors]
    gaps = [f"{requirement} on {a.target}" for a in answers for requirement in a.missing]
    if errors:
        print(f"\nERROR: the index could not be asked ({len(errors)}):", *errors, sep="\n  ")
        return 2
    if gaps:
        print(f"\nFAIL: no wheel ({len(gaps)}): pip would compile these", *gaps, sep="\n  ")
        return 1
    print("\nOK: every dependency installs from a wheel on every target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
