"""Laptops issue: `tools/check_wheels.py` fails, naming every gap, when a runtime
dependency has no wheel for a target, and passes when each has one. Real pip against a
local index of wheels made here (``--no-index --find-links``): no network."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

from tools.check_wheels import PLATFORMS, main

PROJECT = """\
[project]
name = "demo"
version = "1"
classifiers = [
    "Programming Language :: Python :: 3.13",
    "Programming Language :: Python :: 3.14",
]
dependencies = [{dependencies}]
"""


def wheel(folder: Path, name: str, tags: str) -> None:
    """A minimal valid wheel `name-1.0-<tags>.whl` (pip reads its metadata)."""
    info = f"{name}-1.0.dist-info"
    files = {
        f"{name}/__init__.py": b"",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n",
    }
    record = [
        f"{path},sha256="
        f"{base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
        f"{len(data)}"
        for path, data in files.items()
    ]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(folder / f"{name}-1.0-{tags}.whl", "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)


def index(tmp_path: Path, compiled_314: bool) -> Path:
    """`compiled` has wheels for 3.13 everywhere and for 3.14 on Windows only (unless
    `compiled_314`); `pure` is py3-none-any; `winonly` exists for Windows alone."""
    folder = tmp_path / "index"
    folder.mkdir()
    for python in ("cp313", "cp314"):
        for platform in PLATFORMS:
            if python == "cp314" and platform.name != "windows-amd64" and not compiled_314:
                continue
            wheel(folder, "compiled", f"{python}-{python}-{platform.tags[0]}")
    wheel(folder, "pure", "py3-none-any")
    wheel(folder, "winonly", "cp313-abi3-win_amd64")
    return folder


def run(tmp_path: Path, compiled_314: bool, capsys) -> tuple[int, str]:
    deps = '"compiled>=1", "pure", "winonly; sys_platform == \'win32\'"'
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(PROJECT.format(dependencies=deps))
    found = index(tmp_path, compiled_314)
    code = main(
        [
            *("--pyproject", str(pyproject), "--cache", str(tmp_path / "cache")),
            *("--no-index", "--find-links", str(found)),
        ]
    )
    return code, capsys.readouterr().out


def test_every_gap_is_named_and_a_marker_is_honoured(tmp_path, capsys):
    code, out = run(tmp_path, compiled_314=False, capsys=capsys)
    assert code == 1, out
    gaps = out.split("FAIL: no wheel (4): pip would compile these\n")[1].split("\n")
    assert sorted(line.strip() for line in gaps if line.strip()) == sorted(
        f"compiled>=1 on CPython 3.14 {name}"
        for name in ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64")
    )
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:5]}
    assert rows["compiled>=1"] == ["no", "3.14"] * 4 + ["ok"]
    assert rows["pure"] == ["ok"] * 5
    assert rows["winonly;"][-5:] == ["-", "-", "-", "-", "ok"]  # only Windows needs it


def test_it_passes_when_every_target_has_a_wheel(tmp_path, capsys):
    code, out = run(tmp_path, compiled_314=True, capsys=capsys)
    assert code == 0, out
    assert "OK: every dependency installs from a wheel on every target" in out
