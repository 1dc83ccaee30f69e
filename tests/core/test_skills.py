"""The skills extension (SEP-2640) against a real server: listing, lazy loading, and every check.

The peer is the official ``mcp`` server with a skills ``Extension`` (tests/servers/skills_server.py):
``skills/list`` in pages of two, honest and tampered skills, and a ``reads()`` tool that says which
skill files and list pages it served. Each stdio test starts its own server process, so the log
holds that test's traffic only. Tests assert what a user sees: the entries, the skill's text, the
error and its message, and what the server was asked for.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from mcp_client import (
    Client,
    ClientStateError,
    MCPError,
    SkillEntry,
    SkillVerificationError,
    StdioServerParameters,
)
from tests.core.helpers import text_of
from tests.support.servers import SERVERS_DIR, start_http_server, stdio_command

pytestmark = pytest.mark.anyio

SKILLS_SERVER = SERVERS_DIR / "skills_server.py"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "skills.md"
PDF = "skill://pdf-processing/SKILL.md"
ALL_SKILLS = [
    PDF,
    "skill://tampered-digest/SKILL.md",
    "skill://tampered-size/SKILL.md",
    "skill://tampered-frontmatter/SKILL.md",
    "skill://tampered-file/SKILL.md",
    "skill://acme/dynamic-notes/SKILL.md",
]


def _server() -> StdioServerParameters:
    command, args = stdio_command(SKILLS_SERVER)
    return StdioServerParameters(command=command, args=args)


@pytest.fixture(params=["legacy", "2026-07-28"])
async def client(request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    async with Client(_server(), mode=request.param, skills=True, timeout=30) as connected:
        yield connected


async def _served(client: Client) -> list[str]:
    """What the server served so far: `list <cursor> declared=<bool>` and `read <uri>` lines."""
    log = text_of(await client.call_tool("reads", {}))
    return log.splitlines() if log else []


async def _entry(client: Client, uri: str) -> SkillEntry:
    return next(entry for entry in await client.list_skills() if entry.uri == uri)


async def test_listing_follows_every_page_declares_the_extension_and_reads_no_file(client: Client) -> None:
    entries = await client.list_skills()

    assert [entry.uri for entry in entries] == ALL_SKILLS
    pdf = entries[0]
    assert pdf.name == "pdf-processing"
    assert pdf.description.startswith("Extract, fill, and assemble PDF documents")
    assert pdf.resources != "dynamic" and pdf.resources is not None
    assert [file.uri for file in pdf.resources] == [
        PDF,
        "skill://pdf-processing/references/FORMS.md",
        "skill://pdf-processing/assets/logo.bin",
    ]
    assert pdf.resources[0].digest.startswith("sha256:") and pdf.resources[0].size == 306
    assert entries[-1].resources is None  # the dynamic skill
    # three pages, each asked for with the extension declared, and not one skill file fetched
    assert await _served(client) == [
        "list None declared=True",
        "list 2 declared=True",
        "list 4 declared=True",
    ]


async def test_loading_reads_the_skill_md_only_and_supporting_files_on_demand(client: Client) -> None:
    entry = await _entry(client, PDF)

    skill = await client.load_skill(entry)

    assert skill.instructions.startswith("---\nname: pdf-processing\n")
    assert "Read `references/FORMS.md` before filling a form." in skill.instructions
    # YAML types as JSON renders them: the list, the map, the unquoted date as its ISO string
    assert skill.frontmatter == entry.frontmatter
    assert skill.frontmatter["metadata"] == {"version": "2.1.0", "reviewed": "2026-11-30", "pages": 12}
    assert skill.frontmatter["allowed-tools"] == ["read_pdf", "fill_form"]
    assert [line for line in await _served(client) if line.startswith("read")] == [f"read {PDF}"]

    assert await skill.read("references/FORMS.md") == "# Forms\n\nFill every field; sign last.\n"
    assert await skill.read("skill://pdf-processing/assets/logo.bin") == bytes(range(256))
    assert await skill.read("references/FORMS.md") == "# Forms\n\nFill every field; sign last.\n"  # cached
    assert [line for line in await _served(client) if line.startswith("read")] == [
        f"read {PDF}",
        "read skill://pdf-processing/references/FORMS.md",
        "read skill://pdf-processing/assets/logo.bin",
    ]
    assert sorted(skill.files) == sorted(
        file.uri for file in entry.resources or [] if not isinstance(file, str)
    )


async def test_a_skill_md_that_differs_from_its_digest_is_refused_before_any_other_file(
    client: Client,
) -> None:
    entry = await _entry(client, "skill://tampered-digest/SKILL.md")

    with pytest.raises(SkillVerificationError) as caught:
        await client.load_skill(entry, read_files=True)

    error = caught.value
    assert error.skill == error.file == "skill://tampered-digest/SKILL.md"
    assert re.fullmatch(
        r"its digest is sha256:[0-9a-f]{64}, the skill entry says sha256:[0-9a-f]{64}", error.reason
    )
    assert str(error).startswith("skill skill://tampered-digest/SKILL.md: its SKILL.md failed verification")
    assert "The content was not used" in str(error)
    assert [line for line in await _served(client) if line.startswith("read")] == [
        "read skill://tampered-digest/SKILL.md"
    ]


async def test_a_skill_md_longer_than_its_listed_size_is_refused(client: Client) -> None:
    with pytest.raises(SkillVerificationError, match="it is 89 bytes long, the skill entry says 84 bytes"):
        await client.load_skill(await _entry(client, "skill://tampered-size/SKILL.md"))


async def test_a_frontmatter_that_differs_from_the_entry_is_refused(client: Client) -> None:
    with pytest.raises(SkillVerificationError) as caught:
        await client.load_skill(await _entry(client, "skill://tampered-frontmatter/SKILL.md"))

    assert caught.value.reason == (
        "its frontmatter differs from the skill entry's: description: the file has "
        '"What the file says", the entry has "What the listing says"'
    )


async def test_a_tampered_supporting_file_is_refused_when_read_and_never_kept(client: Client) -> None:
    skill = await client.load_skill(await _entry(client, "skill://tampered-file/SKILL.md"))

    with pytest.raises(SkillVerificationError, match="its digest is sha256:") as caught:
        await skill.read("references/GUIDE.md")

    assert caught.value.file == "skill://tampered-file/references/GUIDE.md"
    assert "skill://tampered-file/references/GUIDE.md failed verification" in str(caught.value)
    assert list(skill.files) == ["skill://tampered-file/SKILL.md"]


async def test_a_file_the_entry_does_not_list_is_refused_without_being_read(client: Client) -> None:
    skill = await client.load_skill(await _entry(client, PDF))

    with pytest.raises(SkillVerificationError, match=r"does not list this file, so it was not read$"):
        await skill.read("scripts/extract.py")

    assert "read skill://pdf-processing/scripts/extract.py" not in await _served(client)


async def test_a_dynamic_skill_is_refused_unless_the_app_allows_unverified_content(client: Client) -> None:
    entry = await _entry(client, "skill://acme/dynamic-notes/SKILL.md")

    with pytest.raises(SkillVerificationError, match=r"lists no files with digests.*anyway$"):
        await client.load_skill(entry)
    assert not [line for line in await _served(client) if line.startswith("read")]

    skill = await client.load_skill(entry, allow_unverified=True)
    assert skill.frontmatter == {"name": "dynamic-notes", "description": "Generated on every read"}


async def test_a_skill_loaded_by_uri_gets_its_entry_with_skills_get(client: Client) -> None:
    skill = await client.load_skill(PDF)
    assert skill.entry.name == "pdf-processing"

    with pytest.raises(MCPError) as caught:
        await client.get_skill("skill://nowhere/SKILL.md")
    assert caught.value.code == -32602


async def test_without_skills_true_the_client_says_how_to_declare_the_extension() -> None:
    async with Client(_server(), mode="legacy", timeout=30) as client:
        with pytest.raises(ClientStateError, match="pass skills=True to Client"):
            await client.list_skills()
        with pytest.raises(ClientStateError, match="pass skills=True to Client"):
            await client.load_skill(PDF)
        assert await _served(client) == []


async def test_over_http_with_the_era_found_by_discovery() -> None:
    with start_http_server(script=SKILLS_SERVER) as url:
        async with Client(url, skills=True, timeout=30) as client:
            assert client.protocol_version == "2026-07-28"
            assert len(await client.list_skills()) == len(ALL_SKILLS)
            skill = await client.load_skill(PDF, read_files=True)
            assert len(skill.files) == 3


def test_the_docs_example_runs_against_the_skills_server() -> None:
    example = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)[0]
    with start_http_server(script=SKILLS_SERVER) as url:
        code = example.replace("http://127.0.0.1:8000/mcp", url)
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0] == "pdf-processing - Extract, fill, and assemble PDF documents: forms, tables and signatures"
    )
    assert lines[-3:] == [
        "Apache-2.0",
        "# Forms",
        lines[-1],
    ]
    assert lines[-1].startswith("refused: its digest is sha256:")
