"""The checks a skill file must pass (``_skills.integrity``), on contents no well-behaved server sends.

The server-facing behaviour is in test_skills.py; here, the edges: frontmatter that YAML and JSON
read differently, a SKILL.md without frontmatter, a malformed digest, a blob, and a client without
PyYAML (it must say what to install, and ``import mcp_client`` must never load PyYAML).
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys

import pytest

from mcp_client import SkillVerificationError
from mcp_client._skills.integrity import compare_frontmatter, content_bytes, parse_frontmatter, verify_bytes

URI = "skill://demo/SKILL.md"


def test_yaml_scalars_compare_as_the_json_of_the_entry() -> None:
    parsed = parse_frontmatter(
        URI,
        "\ufeff---\nname: demo\ndescription: >\n  folded\n  text\nversion: 1.0\n"
        "released: 2026-01-02\nflags: {beta: yes}\n---\nbody\n",
    )
    assert parsed == {
        "name": "demo",
        "description": "folded text\n",
        "version": 1.0,
        "released": "2026-01-02",
        "flags": {"beta": True},
    }
    compare_frontmatter(URI, parsed, {**parsed, "version": 1})  # 1.0 and 1 are the same JSON number


@pytest.mark.parametrize(
    ("entry_change", "expected"),
    [
        ({"flags": {"beta": "yes"}}, 'flags: the file has {"beta": true}, the entry has {"beta": "yes"}'),
        ({"extra": "x"}, 'extra: the file has null, the entry has "x"'),
        ({"version": True}, "version: the file has 1.0, the entry has true"),
    ],
)
def test_any_field_difference_is_named(entry_change: dict[str, object], expected: str) -> None:
    parsed = parse_frontmatter(URI, "---\nname: demo\nversion: 1.0\nflags: {beta: yes}\n---\n")
    with pytest.raises(SkillVerificationError) as caught:
        compare_frontmatter(URI, parsed, {**parsed, **entry_change})
    assert caught.value.reason == f"its frontmatter differs from the skill entry's: {expected}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("# no frontmatter\n", "it does not begin with a '---' delimited YAML frontmatter block"),
        ("---\n- a\n- b\n---\n", "its frontmatter is not a YAML mapping"),
        ("---\nname: [unclosed\n---\n", "its frontmatter is not valid YAML"),
    ],
)
def test_a_skill_md_without_a_usable_frontmatter_is_refused(text: str, reason: str) -> None:
    with pytest.raises(SkillVerificationError) as caught:
        parse_frontmatter(URI, text)
    assert caught.value.reason.startswith(reason)


def test_digest_format_and_blob_contents() -> None:
    data = bytes(range(10))
    result = {"contents": [{"uri": URI, "blob": base64.b64encode(data).decode()}]}
    assert content_bytes(URI, URI, result) == data
    verify_bytes(URI, URI, data, "sha256:" + hashlib.sha256(data).hexdigest(), 10)
    with pytest.raises(SkillVerificationError, match="is not 'sha256:' and 64 lowercase hex digits"):
        verify_bytes(URI, URI, data, "sha256:" + hashlib.sha256(data).hexdigest().upper(), None)
    with pytest.raises(SkillVerificationError, match="resources/read returned no contents"):
        content_bytes(URI, URI, {"contents": []})
    with pytest.raises(SkillVerificationError, match="blob is not valid base64"):
        content_bytes(URI, URI, {"contents": [{"uri": URI, "blob": "!!"}]})


def test_without_pyyaml_loading_says_what_to_install_and_importing_never_needs_it() -> None:
    code = (
        "import sys; sys.modules['yaml'] = None\n"
        "import mcp_client\n"
        "from mcp_client._skills.integrity import parse_frontmatter\n"
        "try:\n"
        "    parse_frontmatter('skill://demo/SKILL.md', '---\\nname: demo\\n---\\n')\n"
        "except mcp_client.SkillVerificationError as exc:\n"
        "    print(exc.reason)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "its YAML frontmatter cannot be checked: PyYAML is not installed; "
        "run: pip install 'mcp-elicit-client[skills]'"
    )
    light = subprocess.run(
        [sys.executable, "-c", "import sys, mcp_client; print('yaml' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert light.stdout.strip() == "False", light.stderr
