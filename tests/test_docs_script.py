"""``bash scripts/docs`` after the README's set-up (``bash scripts/demo``: no docs extra) installs the extra.

The venvs here are real (``python -m venv --without-pip``) and the script runs as a user runs it. One
has no pip at all: the install fails, and the script must say which command installs the extra. The
other has a stand-in ``pip`` that records how it was called and "installs" stand-in Sphinx modules, so
the install path runs offline: the script must install the docs extra once, then build with it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALL = 'python -m pip install -e ".[docs]"'

# A stand-in for pip: records its arguments and puts stand-ins for the docs extra's modules in place.
FAKE_PIP = """
import pathlib, sys
here = pathlib.Path(__file__).resolve().parent.parent
with open(here / "pip-calls.txt", "a", encoding="utf-8") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
for name in ("furo", "myst_parser", "pytest", "textual"):
    (here / f"{name}.py").write_text("", encoding="utf-8")
(here / "sphinx").mkdir()
(here / "sphinx" / "__init__.py").write_text("", encoding="utf-8")
(here / "sphinx" / "__main__.py").write_text(
    "import pathlib, sys\\nout = pathlib.Path(sys.argv[-1])\\nout.mkdir(parents=True)\\n"
    "(out / 'index.html').write_text('built', encoding='utf-8')\\n",
    encoding="utf-8",
)
"""


def _venv(path: Path) -> Path:
    """A real venv without pip (and so without Sphinx); its site-packages folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    purelib = subprocess.run(
        [str(path / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    return Path(purelib)


def _docs(venv: Path, build: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VENV": str(venv), "DOCS_BUILD": str(build)}
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "docs")], env=env, capture_output=True, text=True, timeout=300
    )


def test_without_the_docs_extra_it_is_installed_then_the_site_built(tmp_path: Path) -> None:
    site_packages = _venv(tmp_path / "venv")
    (site_packages / "pip").mkdir()
    (site_packages / "pip" / "__init__.py").write_text("", encoding="utf-8")
    (site_packages / "pip" / "__main__.py").write_text(FAKE_PIP, encoding="utf-8")

    first = _docs(tmp_path / "venv", tmp_path / "build")
    assert first.returncode == 0, first.stderr
    assert "lacks the docs extra" in first.stderr and INSTALL in first.stderr, first.stderr
    assert (site_packages / "pip-calls.txt").read_text(encoding="utf-8") == "install --quiet -e .[docs]\n"
    assert (tmp_path / "build" / "docs" / "index.html").read_text(encoding="utf-8") == "built"

    again = _docs(tmp_path / "venv", tmp_path / "build")  # installed now: pip is not called again
    assert again.returncode == 0, again.stderr
    assert "lacks the docs extra" not in again.stderr
    assert (site_packages / "pip-calls.txt").read_text(encoding="utf-8") == "install --quiet -e .[docs]\n"


def test_when_the_install_fails_it_names_the_command_to_run(tmp_path: Path) -> None:
    _venv(tmp_path / "venv")  # no pip: the install cannot run

    result = _docs(tmp_path / "venv", tmp_path / "build")

    assert result.returncode == 1
    assert "could not install the docs extra" in result.stderr, result.stderr
    assert f"{tmp_path / 'venv'}/bin/{INSTALL}" in result.stderr, result.stderr
    assert not (tmp_path / "build" / "docs").exists()


def test_without_a_venv_it_says_how_to_make_one(tmp_path: Path) -> None:
    result = _docs(tmp_path / "nothing", tmp_path / "build")

    assert result.returncode == 1
    assert "bash scripts/demo" in result.stderr and "VENV=" in result.stderr, result.stderr
