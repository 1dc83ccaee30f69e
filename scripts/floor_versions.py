"""Print each runtime dependency of pyproject.toml pinned at its floor ("httpx>=0.27" -> "httpx==0.27").

Extras named as arguments (``floor_versions.py redis``) are added at their floors too.

Used by scripts/test to install the lowest versions the project claims to support into .venv-floor, so a
floor that is too low (an API the code uses that the old version lacks) fails CI instead of a user.
Only ">=" floors are read; a dependency without one is an error, since its floor could not be tested.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_FLOOR = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*$")


def main() -> int:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    extras = [requirement for extra in sys.argv[1:] for requirement in optional[extra]]
    for requirement in [*project["dependencies"], *extras]:
        match = _FLOOR.match(requirement.split(";")[0].split(",")[0])
        if match is None:
            print(f"no '>=' floor in dependency {requirement!r}", file=sys.stderr)
            return 1
        print(f"{match.group(1)}=={match.group(2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
