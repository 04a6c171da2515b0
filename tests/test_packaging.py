"""Laptops issue, packaging: the sdist carries the licence and everything its own tests
read (conftest, the helpers, tools/, protocol/, docs/), the metadata names real
classifiers, and the version is written once. Built offline from this tree (build's
--no-isolation, with the setuptools of the test extra); `.ci/run` installs the sdist
into a fresh venv and runs tests from it."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
from email.parser import HeaderParser
from pathlib import Path

import pytest
import trove_classifiers

from p2p_rommy import __version__

ROOT = Path(__file__).resolve().parent.parent
CARRIED = ("tests", "tools", "protocol", "docs")
"""The folders the sdist carries whole, beside the package."""


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> tarfile.TarFile:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    (archive,) = out.glob("p2p_rommy-*.tar.gz")
    return tarfile.open(archive)


def members(sdist: tarfile.TarFile) -> set[str]:
    """Paths inside the sdist, without its top folder."""
    return {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}


def metadata(sdist: tarfile.TarFile):
    (info,) = [
        m for m in sdist.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")
    ]
    file = sdist.extractfile(info)
    assert file is not None
    return HeaderParser().parsestr(file.read().decode())


def test_the_sdist_carries_what_its_tests_read(sdist):
    inside = members(sdist)
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for folder in CARRIED
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert on_disk - inside == set()
    for needed in (
        "LICENSE",
        "tests/conftest.py",
        "tests/helpers.py",
        "tests/loopback.py",
        "tools/catalogs.py",
        "protocol/SPEC.md",
        "p2p_rommy/py.typed",
        "p2p_rommy/locale/da/LC_MESSAGES/rommy.mo",
        "p2p_rommy/locale/nb/LC_MESSAGES/rommy.po",
    ):
        assert needed in inside, needed
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in inside)


def test_the_metadata_names_the_licence_real_classifiers_and_one_version(sdist):
    info = metadata(sdist)
    assert info["License-Expression"] == "MIT" and info["License-File"] == "LICENSE"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert info["Version"] == __version__
    classifiers = info.get_all("Classifier")
    assert set(classifiers) <= trove_classifiers.classifiers, (
        set(classifiers) - trove_classifiers.classifiers
    )
    for wanted in (
        "Environment :: Console",
        "Operating System :: OS Independent",
        "Operating System :: Microsoft :: Windows",
        "Operating System :: MacOS",
        "Operating System :: POSIX :: Linux",
        "Topic :: Games/Entertainment :: Board Games",
        *(f"Programming Language :: Python :: 3.{minor}" for minor in (11, 12, 13, 14)),
    ):
        assert wanted in classifiers, wanted
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]  # written once
    assert info["Requires-Python"] == project["requires-python"]
