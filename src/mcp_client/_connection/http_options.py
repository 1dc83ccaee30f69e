"""How every HTTP request of one ``Client`` goes out: TLS trust, client certificate, proxy, or the app's own
``httpx.AsyncClient`` factory.

``Client(verify=..., cert=..., proxy=..., trust_env=..., httpx_client_factory=...)`` builds one
``HttpOptions``; the MCP transport (streamable HTTP and HTTP+SSE alike: requests, the standalone stream,
the session's DELETE) and the OAuth wing (discovery, registration, token and revocation requests) all make
their ``httpx.AsyncClient`` through it, so a corporate CA or proxy set once reaches every request.

* ``verify``: ``True`` (the system's trust as httpx sees it: certifi, or ``SSL_CERT_FILE`` /
  ``SSL_CERT_DIR`` when ``trust_env``), ``False`` (no verification: for a throwaway test server only), a
  CA bundle file or folder path, or a ready ``ssl.SSLContext``.
* ``cert``: a client certificate for mutual TLS: a PEM path holding key and certificate, or
  ``(certfile, keyfile)`` / ``(certfile, keyfile, password)``.
* ``proxy``: a proxy URL (``http://proxy:3128``) or ``httpx.Proxy``; with ``trust_env`` (the default, as
  httpx) ``HTTPS_PROXY`` / ``HTTP_PROXY`` / ``ALL_PROXY`` / ``NO_PROXY`` are honoured when no proxy is given.
* ``httpx_client_factory(headers=..., timeout=..., auth=...) -> httpx.AsyncClient``: everything else (the
  name the official SDK and fastmcp use). It excludes the four options above: configure them in it.

The TLS context is built once, on first use, and shared by every client made from these options (building
one reads the CA bundle: milliseconds, not something to repeat per request, nor to pay at import or for a
stdio server). With the defaults it is the very context httpx would build (certifi's bundle, or
``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` under ``trust_env``), built once per process for each of those
settings and shared by every ``Client``: a ``ClientGroup`` of 300 servers used to read the bundle 300
times, about 30 ms each with the event loop blocked, long enough for other servers' connection
attempts to pass their deadlines and fail as timeouts instead of saying what happened.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

__all__ = ["DEFAULT_HTTP_OPTIONS", "HttpClientFactory", "HttpOptions", "untrusted_certificate_advice"]

CertTypes = str | os.PathLike[str] | tuple[str, str] | tuple[str, str, str]


class HttpClientFactory(Protocol):
    """Makes the ``httpx.AsyncClient`` a transport or an OAuth flow sends with (the official SDK's shape)."""

    def __call__(
        self,
        headers: dict[str, str] | None = None,
        timeout: httpx.Timeout | None = None,
        auth: httpx.Auth | None = None,
    ) -> httpx.AsyncClient: ...


@dataclass(frozen=True, eq=False)
class HttpOptions:
    """See the module docstring. Checked at construction: a mistake is a ``ValueError`` naming the option."""

    verify: bool | str | os.PathLike[str] | ssl.SSLContext = True
    cert: CertTypes | None = None
    proxy: str | httpx.Proxy | None = None
    trust_env: bool = True
    httpx_client_factory: HttpClientFactory | None = None
    _ssl: ssl.SSLContext | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.httpx_client_factory is not None:
            given = [
                name
                for name, value, default in (
                    ("verify", self.verify, True),
                    ("cert", self.cert, None),
                    ("proxy", self.proxy, None),
                )
                if value is not default
            ]
            if given:
                raise ValueError(
                    f"{', '.join(given)} and httpx_client_factory were both given; configure "
                    f"{', '.join(given)} inside the factory's httpx.AsyncClient instead"
                )
            return
        _check_paths(self.verify, self.cert)
        if isinstance(self.proxy, str) and not self.proxy.startswith(("http://", "https://", "socks5://")):
            raise ValueError(f"proxy must be an http://, https:// or socks5:// URL; got {self.proxy!r}")

    @property
    def is_default(self) -> bool:
        """No option differs from httpx's own defaults."""
        return (
            self.httpx_client_factory is None
            and self.verify is True
            and self.cert is None
            and self.proxy is None
            and self.trust_env
        )

    def _tls(self) -> ssl.SSLContext | bool:
        """httpx's own default where nothing was asked for; else our context, built on first use and kept."""
        if self.verify is True and self.cert is None:
            return _default_context(self.trust_env)
        if self._ssl is None:
            object.__setattr__(self, "_ssl", _ssl_context(self.verify, self.cert, self.trust_env))
        assert self._ssl is not None
        return self._ssl

    def client(
        self,
        *,
        headers: Mapping[str, str] | None = None,
        auth: httpx.Auth | None = None,
        timeout: httpx.Timeout | float | None = None,
        **extra: Any,
    ) -> httpx.AsyncClient:
        """A new ``httpx.AsyncClient`` with these options; redirects are left to the caller (off).

        ``extra`` (e.g. ``limits``) is passed on when the client is ours to build; a factory's client keeps
        its own.
        """
        timeouts = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        factory = self.httpx_client_factory
        if factory is not None:
            client = factory(headers=dict(headers or {}), timeout=timeouts, auth=auth)
            if not isinstance(client, httpx.AsyncClient):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise TypeError(
                    f"httpx_client_factory returned {type(client).__name__}, not an httpx.AsyncClient"
                )
            client.follow_redirects = False
            return client
        return httpx.AsyncClient(
            headers=dict(headers or {}),
            auth=auth,
            timeout=timeouts,
            follow_redirects=False,
            verify=self._tls(),
            proxy=self.proxy,
            trust_env=self.trust_env,
            **extra,
        )


_DEFAULT_CONTEXTS: dict[tuple[bool, str | None, str | None], ssl.SSLContext] = {}
"""httpx's default TLS context, by what chooses its CA bundle; one per process."""


def _default_context(trust_env: bool) -> ssl.SSLContext:
    """The context httpx builds for ``verify=True``, built once for each CA bundle the environment names."""
    key = (
        trust_env,
        os.environ.get("SSL_CERT_FILE") if trust_env else None,
        os.environ.get("SSL_CERT_DIR") if trust_env else None,
    )
    context = _DEFAULT_CONTEXTS.get(key)
    if context is None:
        context = _DEFAULT_CONTEXTS[key] = httpx.create_ssl_context(verify=True, trust_env=trust_env)
    return context


def _check_paths(verify: object, cert: CertTypes | None) -> None:
    """Missing files are reported when the options are given, not at the first request."""
    if isinstance(verify, str | os.PathLike) and not os.path.exists(verify):
        raise ValueError(f"verify={os.fspath(verify)!r}: no such CA bundle file or folder")
    if cert is not None:
        parts = (os.fspath(cert),) if isinstance(cert, str | os.PathLike) else tuple(cert)
        for part in parts[:2]:
            if not os.path.isfile(part):
                raise ValueError(f"cert: no such file {part!r}")


def _ssl_context(
    verify: bool | str | os.PathLike[str] | ssl.SSLContext, cert: CertTypes | None, trust_env: bool
) -> ssl.SSLContext:
    if isinstance(verify, ssl.SSLContext):
        context = verify
    elif verify is False:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    elif verify is True:
        context = httpx.create_ssl_context(verify=True, trust_env=trust_env)
    else:
        path = os.fspath(verify)
        if os.path.isdir(path):
            context = ssl.create_default_context(capath=path)
        elif os.path.isfile(path):
            try:
                context = ssl.create_default_context(cafile=path)
            except ssl.SSLError as exc:
                raise ValueError(f"verify={path!r} holds no usable CA certificate (PEM): {exc}") from None
        else:
            raise ValueError(f"verify={path!r}: no such CA bundle file or folder")
    if cert is not None:
        parts = (os.fspath(cert),) if isinstance(cert, str | os.PathLike) else tuple(cert)
        missing = [p for p in parts[:2] if not os.path.isfile(p)]
        if missing:
            raise ValueError(f"cert: no such file {missing[0]!r}")
        try:
            context.load_cert_chain(*parts)  # type: ignore[arg-type]
        except ssl.SSLError as exc:
            raise ValueError(f"cert: the client certificate or key could not be loaded: {exc}") from None
    return context


DEFAULT_HTTP_OPTIONS = HttpOptions()


def untrusted_certificate_advice(exc: BaseException) -> str | None:
    """The fix for a server certificate this machine does not trust (a private CA), or ``None``.

    "Check that the server is running" is the wrong advice there: the server answered, its certificate
    was refused. Shared by the MCP transports and the OAuth requests, which fail the same way.
    """
    text = str(exc)
    if "CERTIFICATE_VERIFY_FAILED" not in text and "certificate verify failed" not in text:
        return None
    return (
        "the server's TLS certificate is not trusted here; if a private CA signed it, pass its bundle "
        "as verify='ca.pem' (mcp-client: --ca-bundle ca.pem) or set SSL_CERT_FILE"
    )
