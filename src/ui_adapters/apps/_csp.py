"""The Content-Security-Policy and the ``allow`` attribute of a view, built from what its resource declares.

A view is the server's code running in the person's browser, so its policy is ours to set and never looser
than the server declared (MCP Apps, "Content Security Policy"): nothing on the network unless named in
``connectDomains``, no script, style, image, font or media from elsewhere unless named in
``resourceDomains``, no nested frame unless named in ``frameDomains``. With nothing declared the view gets
the spec's restrictive default (``connect-src 'none'``, no frames).

The domains come from the server, so each is checked to be one plain source expression (a scheme, a host
that may start with ``*.``, an optional port and path): anything that could add a keyword or a directive
(quotes, ``;``, spaces, a lone ``*``, ``'unsafe-eval'``...) is dropped and logged, which only ever makes
the policy stricter.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["PERMISSION_FEATURES", "ViewPolicy", "allow_attribute", "clean_domains", "view_csp"]

logger = logging.getLogger("ui_adapters.apps")

_SOURCE = re.compile(
    r"(?:https?|wss?)://"  # a scheme the view may reach
    r"(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*"
    r"(?::(?:[0-9]{1,5}|\*))?"  # a port
    r"(?:/[A-Za-z0-9._~%!$&()*+,=:@/-]*)?"  # a path (no quote, semicolon, comma-free of spaces)
)
_MAX_DOMAINS = 64

PERMISSION_FEATURES: Mapping[str, str] = {
    "camera": "camera",
    "microphone": "microphone",
    "geolocation": "geolocation",
    "clipboardWrite": "clipboard-write",
}
"""The permissions a resource may ask for (``_meta.ui.permissions``) and their Permissions Policy names."""


def clean_domains(values: Iterable[object] | None, *, field: str) -> list[str]:
    """The entries of ``values`` that are one plain source expression each (the others: logged, dropped)."""
    if values is None or isinstance(values, str | bytes):
        if values is not None:
            logger.warning("the view's csp.%s is not a list; ignored", field)
        return []
    kept: list[str] = []
    for value in values:
        if isinstance(value, str) and _SOURCE.fullmatch(value) and "," not in value:
            if value not in kept:
                kept.append(value)
        else:
            logger.warning("the view's csp.%s entry %r is not a plain origin; ignored", field, value)
        if len(kept) >= _MAX_DOMAINS:
            break
    return kept


class ViewPolicy:
    """What a view may reach, as checked source lists (see ``view_csp``)."""

    def __init__(
        self,
        *,
        connect: Sequence[str] = (),
        resource: Sequence[str] = (),
        frame: Sequence[str] = (),
        base_uri: Sequence[str] = (),
    ) -> None:
        self.connect = clean_domains(connect, field="connectDomains")
        self.resource = clean_domains(resource, field="resourceDomains")
        self.frame = clean_domains(frame, field="frameDomains")
        self.base_uri = clean_domains(base_uri, field="baseUriDomains")

    @classmethod
    def of(cls, csp: object) -> ViewPolicy:
        """Read a resource's ``csp`` (an object with ``connect_domains``... or the wire mapping with
        ``connectDomains``...; ``None``: nothing declared)."""
        if csp is None:
            return cls()

        def read(snake: str, camel: str) -> list[str]:
            if isinstance(csp, Mapping):
                value = csp.get(camel, csp.get(snake))  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            else:
                value = getattr(csp, snake, None)
            if value is None:
                return []
            if isinstance(value, str) or not isinstance(value, Iterable):
                logger.warning("the view's csp.%s is not a list; ignored", camel)
                return []
            return [item for item in value if isinstance(item, str)]  # pyright: ignore[reportUnknownVariableType]

        policy = cls()
        policy.connect = clean_domains(read("connect_domains", "connectDomains"), field="connectDomains")
        policy.resource = clean_domains(read("resource_domains", "resourceDomains"), field="resourceDomains")
        policy.frame = clean_domains(read("frame_domains", "frameDomains"), field="frameDomains")
        policy.base_uri = clean_domains(read("base_uri_domains", "baseUriDomains"), field="baseUriDomains")
        return policy


def view_csp(policy: ViewPolicy, *, frame_ancestors: Sequence[str]) -> str:
    """The Content-Security-Policy header of a view's document.

    ``frame_ancestors``: the origins that may frame it (the host page's and the sandbox's own).
    """
    resources = " ".join(policy.resource)

    def sources(*fixed: str, extra: str = "") -> str:
        return " ".join(part for part in (*fixed, extra) if part)

    directives = [
        "default-src 'none'",
        "script-src " + sources("'self'", "'unsafe-inline'", extra=resources),
        "style-src " + sources("'self'", "'unsafe-inline'", extra=resources),
        "img-src " + sources("'self'", "data:", extra=resources),
        "font-src " + sources("'self'", "data:", extra=resources),
        "media-src " + sources("'self'", "data:", extra=resources),
        "connect-src " + (" ".join(policy.connect) or "'none'"),
        "frame-src " + (" ".join(policy.frame) or "'none'"),
        "base-uri " + (" ".join(policy.base_uri) or "'self'"),
        "object-src 'none'",
        "form-action 'none'",
        "frame-ancestors " + " ".join(frame_ancestors),
    ]
    return "; ".join(directives)


def allow_attribute(permissions: object) -> str:
    """The iframe ``allow`` attribute for a resource's ``permissions`` (only the four the spec names)."""
    if permissions is None:
        return ""
    features: list[str] = []
    for key, feature in PERMISSION_FEATURES.items():
        if isinstance(permissions, Mapping):
            value = permissions.get(key)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        else:
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()
            value = getattr(permissions, snake, getattr(permissions, key, None))
        if value is not None and value is not False:
            features.append(feature)
    return "; ".join(features)
