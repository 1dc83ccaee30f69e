"""Agent Skills (SEP-2640) test peer, built on the official `mcp==2.3.0` server's extension interface.

An `Extension` (`io.modelcontextprotocol/skills`) adds `skills/list` (paginated, `--page-size`, cursor
= offset) and `skills/get`; every skill file is an ordinary resource read with `resources/read`. Some
skills are honest, some break one promise of their entry, so a client's checks can be seen to work:

| skill (`skill://<path>/SKILL.md`) | what is wrong |
|---|---|
| `pdf-processing` | nothing: YAML frontmatter with a list, a map, a date; a text and a binary file |
| `tampered-digest` | SKILL.md served differs from the digest listed (same length) |
| `tampered-size` | SKILL.md served is longer than the size listed (digest of the served bytes) |
| `tampered-frontmatter` | entry's frontmatter `description` differs from the file's (digest, size honest) |
| `tampered-file` | SKILL.md honest; `references/GUIDE.md` differs from its digest |
| `acme/dynamic-notes` | no `resources` at all (a dynamic skill) |

The tool `reads()` returns every `resources/read` of a skill file and every `skills/list` page this
process served, in order (`read <uri>`, `list <cursor> declared=<bool>`: whether the client
declared the extension in its capabilities), so a test can see what a client fetched.

    python tests/servers/skills_server.py stdio [--page-size N]
    python tests/servers/skills_server.py http --port N [--page-size N]
"""

import hashlib
from typing import Any

from _serve import serve, transport_parser
from mcp.server.context import ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import PaginatedRequestParams, RequestParams

SERVER_NAME = "skills"
READY_MARKER = "SKILLS_SERVER_READY"
SKILLS = "io.modelcontextprotocol/skills"

PDF_SKILL = """---
name: pdf-processing
description: "Extract, fill, and assemble PDF documents: forms, tables and signatures"
license: Apache-2.0
allowed-tools: [read_pdf, fill_form]
metadata:
  version: "2.1.0"
  reviewed: 2026-11-30
  pages: 12
---

# PDF processing

Read `references/FORMS.md` before filling a form.
"""
FORMS = "# Forms\n\nFill every field; sign last.\n"
LOGO = bytes(range(256))  # not UTF-8: served as a blob

PLAIN_BODY = "---\nname: {name}\ndescription: {description}\n---\n\nSkill body.\n"


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


class Skill:
    """One served skill: its files as served, and the entry as listed (which may lie)."""

    def __init__(self, path: str, files: dict[str, str | bytes], frontmatter: dict[str, Any]) -> None:
        self.path = path
        self.uri = f"skill://{path}/SKILL.md"
        self.served = {f"skill://{path}/{name}": body for name, body in files.items()}
        self.frontmatter = frontmatter
        self.listed: dict[str, bytes] | None = {uri: _raw(body) for uri, body in self.served.items()}
        self.size_offset: dict[str, int] = {}

    def entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"uri": self.uri, "frontmatter": self.frontmatter}
        if self.listed is not None:
            entry["resources"] = [
                {"uri": uri, "digest": _digest(data), "size": len(data) + self.size_offset.get(uri, 0)}
                for uri, data in self.listed.items()
            ]
        return entry


def _raw(body: str | bytes) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else body


def _plain(name: str, description: str) -> tuple[dict[str, str | bytes], dict[str, Any]]:
    return {"SKILL.md": PLAIN_BODY.format(name=name, description=description)}, {
        "name": name,
        "description": description,
    }


def _skills() -> list[Skill]:
    honest = Skill(
        "pdf-processing",
        {"SKILL.md": PDF_SKILL, "references/FORMS.md": FORMS, "assets/logo.bin": LOGO},
        {
            "name": "pdf-processing",
            "description": "Extract, fill, and assemble PDF documents: forms, tables and signatures",
            "license": "Apache-2.0",
            "allowed-tools": ["read_pdf", "fill_form"],
            "metadata": {"version": "2.1.0", "reviewed": "2026-11-30", "pages": 12},
        },
    )
    digest = Skill("tampered-digest", *_plain("tampered-digest", "Its SKILL.md is not what was listed"))
    assert digest.listed is not None
    digest.listed[digest.uri] = _raw(str(digest.served[digest.uri]).replace("Skill body.", "Evil body!!"))
    size = Skill("tampered-size", *_plain("tampered-size", "Its SKILL.md is longer than listed"))
    size.size_offset[size.uri] = -5
    files, frontmatter = _plain("tampered-frontmatter", "What the file says")
    front = Skill("tampered-frontmatter", files, {**frontmatter, "description": "What the listing says"})
    bad_file = Skill(
        "tampered-file",
        {
            **_plain("tampered-file", "A supporting file was changed")[0],
            "references/GUIDE.md": "Good guide.\n",
        },
        _plain("tampered-file", "A supporting file was changed")[1],
    )
    assert bad_file.listed is not None
    bad_file.listed["skill://tampered-file/references/GUIDE.md"] = b"Evil guide.\n"  # same length
    dynamic = Skill("acme/dynamic-notes", *_plain("dynamic-notes", "Generated on every read"))
    dynamic.listed = None
    return [honest, digest, size, front, bad_file, dynamic]


SKILL_SET = _skills()
LOG: list[str] = []


class SkillsExtension(Extension):
    identifier = SKILLS

    def __init__(self, page_size: int) -> None:
        self.page_size = page_size

    def methods(self) -> list[MethodBinding]:
        return [
            MethodBinding("skills/list", PaginatedRequestParams, self.list_skills),
            MethodBinding("skills/get", GetSkillParams, self.get_skill),
        ]

    async def list_skills(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams
    ) -> dict[str, Any]:
        capabilities = ctx.session.client_capabilities
        extensions = (capabilities.extensions if capabilities else None) or {}
        LOG.append(f"list {params.cursor} declared={SKILLS in extensions}")
        start = int(params.cursor or 0)
        page = SKILL_SET[start : start + self.page_size]
        result: dict[str, Any] = {"skills": [skill.entry() for skill in page]}
        if start + self.page_size < len(SKILL_SET):
            result["nextCursor"] = str(start + self.page_size)
        return result

    async def get_skill(
        self, ctx: ServerRequestContext[Any, Any], params: "GetSkillParams"
    ) -> dict[str, Any]:
        for skill in SKILL_SET:
            if skill.uri == params.uri:
                return {"skill": skill.entry()}
        raise MCPError(-32602, f"no skill at {params.uri}")


class GetSkillParams(RequestParams):
    uri: str


def build(page_size: int) -> MCPServer:
    mcp = MCPServer(
        SERVER_NAME, version="1.0.0", log_level="WARNING", extensions=[SkillsExtension(page_size)]
    )
    for skill in SKILL_SET:
        for uri, body in skill.served.items():
            _add_file(mcp, uri, body)

    @mcp.tool()
    def reads() -> str:
        """Every skill file read and skills/list page served so far, one per line."""
        return "\n".join(LOG)

    return mcp


def _add_file(mcp: MCPServer, uri: str, body: str | bytes) -> None:
    mime = "text/markdown" if uri.endswith(".md") else "application/octet-stream"

    @mcp.resource(uri, name=uri.rsplit("/", 1)[-1], mime_type=mime)
    def read() -> str | bytes:
        LOG.append(f"read {uri}")
        return body


def main() -> None:
    parser, stdio, http = transport_parser(__doc__)
    for sub in (stdio, http):
        assert sub is not None
        sub.add_argument("--page-size", type=int, default=2)
    args = parser.parse_args()
    serve(args, ready_marker=READY_MARKER, server=build(args.page_size))


if __name__ == "__main__":
    main()
