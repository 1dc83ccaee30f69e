"""The Agent Skills extension (SEP-2640, ``io.modelcontextprotocol/skills``), client side.

A server serves skills (a ``SKILL.md`` and supporting files) as resources, lists them with
``skills/list`` (paginated) and answers ``skills/get`` for one. Each entry carries the SKILL.md's
frontmatter and every file's ``digest`` (and ``size``). The spec asks three things of a client, and
this module is where they are kept:

* nothing is read ahead of need: listing fetches entries only; ``load_skill`` reads the SKILL.md;
  a supporting file is read when ``Skill.read`` asks for it (or ``load_skill(..., read_files=True)``);
* every file read is checked against the entry (``_skills.integrity``) and refused on any mismatch;
* only files the entry lists are read as part of the skill.

The declaration (``capabilities.extensions``) is ``_extensions.SKILLS_EXTENSION``, declared by
``Client(skills=True)`` through the extension seam tasks use too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

from pydantic import Field

from mcp_client._errors import ClientStateError, ProtocolError, SkillVerificationError
from mcp_client._protocol.extensions import SKILLS
from mcp_client._session import results as _results
from mcp_client._skills.integrity import compare_frontmatter, content_bytes, parse_frontmatter, verify_bytes
from mcp_client.types import WireModel

Request = Callable[[str, dict[str, Any] | None], Awaitable[dict[str, Any]]]


class SkillFile(WireModel):
    """One file of a skill as its entry lists it: ``uri``, ``digest`` (``sha256:<hex>``), ``size`` (bytes)."""

    uri: str
    digest: str
    size: int | None = None


class SkillEntry(WireModel):
    """A skill as ``skills/list`` or ``skills/get`` describes it, before anything of it is read.

    ``uri`` is its ``SKILL.md``; ``frontmatter`` the SKILL.md's YAML frontmatter as JSON (``name`` and
    ``description`` at least); ``resources`` every file with its digest, or ``None`` for a skill the
    server generates on the fly (no digests: ``load_skill`` refuses it unless ``allow_unverified``).
    """

    uri: str
    frontmatter: dict[str, Any] = Field(default_factory=dict[str, Any])
    resources: list[SkillFile] | Literal["dynamic"] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")

    @property
    def name(self) -> str:
        """The skill's name (frontmatter ``name``; the last segment of its path)."""
        name = self.frontmatter.get("name")
        return name if isinstance(name, str) else self.uri.removesuffix("/SKILL.md").rsplit("/", 1)[-1]

    @property
    def description(self) -> str:
        """What the skill is for (frontmatter ``description``)."""
        description = self.frontmatter.get("description")
        return description if isinstance(description, str) else ""

    @property
    def root(self) -> str:
        """The skill's directory URI (``uri`` without ``/SKILL.md``), against which paths resolve."""
        return self.uri.removesuffix("/SKILL.md")

    def file(self, uri: str) -> SkillFile | None:
        """The listed file at ``uri``, or ``None``."""
        files = self.resources if isinstance(self.resources, list) else []
        return next((f for f in files if f.uri == uri), None)


class Skill:
    """A loaded skill: its ``SKILL.md`` verified against ``entry``, and the files verified so far.

    ``instructions`` is the SKILL.md text (frontmatter included), ``frontmatter`` the parsed
    frontmatter (equal to the entry's), ``files`` every verified file read so far by URI (text as
    ``str``, binary as ``bytes``). ``await skill.read("references/FORMS.md")`` reads one more, by a
    path relative to the skill's root or by its full URI; only files the entry lists can be read.
    """

    def __init__(
        self,
        entry: SkillEntry,
        instructions: str,
        frontmatter: dict[str, Any],
        reader: Callable[[SkillEntry, str], Awaitable[str | bytes]],
    ) -> None:
        self.entry = entry
        self.instructions = instructions
        self.frontmatter = frontmatter
        self.files: dict[str, str | bytes] = {entry.uri: instructions}
        self._reader = reader

    @property
    def uri(self) -> str:
        """The skill's ``SKILL.md`` URI."""
        return self.entry.uri

    @property
    def name(self) -> str:
        """The skill's name (frontmatter ``name``)."""
        return self.entry.name

    def __repr__(self) -> str:
        return f"Skill({self.entry.uri!r}, files={len(self.files)})"

    async def read(self, path: str) -> str | bytes:
        """One file of the skill, verified: ``path`` relative to the skill's root, or a full URI."""
        uri = path if "://" in path else f"{self.entry.root}/{path.lstrip('/')}"
        if uri not in self.files:
            self.files[uri] = await self._reader(self.entry, uri)
        return self.files[uri]

    async def read_all(self) -> dict[str, str | bytes]:
        """Every file the entry lists, verified (in the entry's order); returns ``files``."""
        for listed in self.entry.resources if isinstance(self.entry.resources, list) else []:
            await self.read(listed.uri)
        return self.files


class SkillsAccess:
    """``skills/list``, ``skills/get`` and verified loading over one session's ``request``."""

    def __init__(self, request: Request, server: str, *, declared: bool) -> None:
        self._request = request
        self._server = server
        self._declared = declared

    def _require_declared(self, what: str) -> None:
        if not self._declared:
            raise ClientStateError(
                f"{what} needs the skills extension ({SKILLS}); pass skills=True to Client to declare it"
            )

    async def list(self) -> list[SkillEntry]:
        self._require_declared("list_skills()")
        raw = await _results.list_all(self._request, "skills/list", "skills", self._server)
        return [_entry(item, "skills/list", self._server) for item in raw]

    async def get(self, uri: str) -> SkillEntry:
        self._require_declared("get_skill()")
        result = await self._request("skills/get", {"uri": uri})
        return _entry(result.get("skill"), "skills/get", self._server)

    async def load(
        self, skill: str | SkillEntry, *, read_files: bool = False, allow_unverified: bool = False
    ) -> Skill:
        self._require_declared("load_skill()")
        entry = skill if isinstance(skill, SkillEntry) else await self.get(skill)
        if not isinstance(entry.resources, list) and not allow_unverified:
            raise SkillVerificationError(
                entry.uri,
                entry.uri,
                "its entry lists no files with digests (a dynamic skill), so nothing can be verified; "
                "pass allow_unverified=True to load_skill to load it anyway",
                read=False,
            )
        data = await self._read_listed(entry, entry.uri, allow_unverified=allow_unverified)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise SkillVerificationError(entry.uri, entry.uri, "it is not UTF-8 text") from None
        frontmatter = parse_frontmatter(entry.uri, text)
        compare_frontmatter(entry.uri, frontmatter, entry.frontmatter)
        loaded = Skill(entry, text, frontmatter, self._reader(allow_unverified))
        if read_files:
            await loaded.read_all()
        return loaded

    def _reader(self, allow_unverified: bool) -> Callable[[SkillEntry, str], Awaitable[str | bytes]]:
        async def read(entry: SkillEntry, uri: str) -> str | bytes:
            data = await self._read_listed(entry, uri, allow_unverified=allow_unverified)
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                return data

        return read

    async def _read_listed(self, entry: SkillEntry, uri: str, *, allow_unverified: bool) -> bytes:
        """``uri``'s bytes, read only if the entry lists it, and verified against the entry."""
        listed = entry.file(uri)
        if listed is None and isinstance(entry.resources, list):
            where = "SKILL.md" if uri == entry.uri else "file"
            raise SkillVerificationError(
                entry.uri,
                uri,
                f"the skill entry does not list this {where}, so it was not read",
                read=False,
            )
        if listed is None and not uri.startswith(entry.root + "/"):
            raise SkillVerificationError(
                entry.uri, uri, "it is not inside the skill's directory, so it was not read", read=False
            )
        data = content_bytes(entry.uri, uri, await self._request("resources/read", {"uri": uri}))
        if listed is not None:
            verify_bytes(entry.uri, uri, data, listed.digest, listed.size)
        return data


def _entry(raw: object, what: str, server: str) -> SkillEntry:
    if not isinstance(raw, Mapping):
        raise ProtocolError(f"{server} sent a {what} result whose skill entry is not an object")
    return _results.parse(SkillEntry, dict(raw), what, server)  # pyright: ignore[reportUnknownArgumentType]
