"""What a user installs from PyPI: the wheel and sdist built as a release would build them.

Built with the lowest hatchling ``[build-system]`` allows (a constraint on the isolated build
environment), then checked with ``twine check --strict`` as PyPI's upload would: a floor too low to write
the license metadata twine accepts fails here. Both archives carry the MIT ``LICENSE`` the metadata
declares, and the version in the metadata is the package's ``__version__`` (written once).
"""

from __future__ import annotations

import email.parser
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import mcp_client
from mcp_client._connection import options as _options

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _hatchling_floor() -> str:
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"][
        "requires"
    ]
    (floor,) = [m.group(1) for r in requires if (m := re.fullmatch(r"hatchling>=([0-9.]+)", r))]
    return floor


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    constraints = out / "constraints.txt"
    constraints.write_text(f"hatchling=={_hatchling_floor()}\n", encoding="utf-8")
    env = {**os.environ, "PIP_CONSTRAINT": str(constraints)}
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out / "out"), str(ROOT)],
        env=env,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out / "out"


def test_twine_accepts_the_wheel_and_the_sdist(dist: Path) -> None:
    files = sorted(str(p) for p in dist.iterdir())
    assert len(files) == 2, files
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_both_archives_ship_the_license_the_metadata_declares(dist: Path) -> None:
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License")
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA")).rsplit("/", 1)[0]
        assert archive.read(f"{info}/licenses/LICENSE").decode() == license_text
        metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read().decode() == license_text


def test_the_version_is_written_once(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    assert wheel.name.startswith(f"mcp_elicit_client-{mcp_client.__version__}-")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert _options._DEFAULT_CLIENT_INFO["version"] == mcp_client.__version__


def test_the_index_shows_the_project_links(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(archive.read(name).decode())
    assert metadata["Name"] == "mcp-elicit-client"
    repository = "https://github.com/mcp-elicit-client/mcp-elicit-client"
    assert sorted(metadata.get_all("Project-URL") or []) == [
        f"Changelog, {repository}/blob/main/docs/changelog.md",
        f"Documentation, {repository}/blob/main/docs/index.md",
        f"Homepage, {repository}",
        f"Issues, {repository}/issues",
        f"Repository, {repository}",
    ]
