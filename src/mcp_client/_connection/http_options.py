"""How every HTTP request of one ``Client`` goes out: TLS trust, client certificate, proxy, or the app's own
``httpx2.AsyncClient`` factory.

``Client(verify=..., cert=..., proxy=..., trust_env=..., httpx_client_factory=...)`` builds one
``HttpOptions``; the MCP transport (streamable HTTP and HTTP+SSE alike: requests, the standalone stream,
the session's DELETE) and the OAuth wing (discovery, registration, token and revocation requests) all make
their ``httpx2.AsyncClient`` through it, so a corporate CA or proxy set once reaches every request.

* ``verify``: ``True`` (the system's trust as httpx2 sees it: the operating system's store, or
  ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when ``trust_env``), ``False`` (no verification: for a throwaway
  test server only), a CA bundle file or folder path, or a ready ``ssl.SSLContext``.
* ``cert``: a client certificate for mutual TLS: a PEM path holding key and certificate, or
  ``(certfile, keyfile)`` / ``(certfile, keyfile, password)``.
* ``proxy``: a proxy URL (``http://proxy:3128``) or ``httpx2.Proxy``; with ``trust_env`` (the default, as
  httpx2) ``HTTPS_PROXY`` / ``HTTP_PROXY`` / ``ALL_PROXY`` / ``NO_PROXY`` are honoured when no proxy is given.
* ``httpx_client_factory(headers=..., timeout=..., auth=...) -> httpx2.AsyncClient``: everything else (the
  name the official SDK and fastmcp use). It excludes the four options above: configure them in it. A
  factory written for httpx that returns an ``httpx.AsyncClient`` is refused with a ``TypeError`` saying
  to build an ``httpx2.AsyncClient`` with the same arguments: the two clients share no connection pool,
  transport or auth class, so no adapter could keep what the app configured in it.

The TLS context is built once, on first use, and shared by every client made from these options (building
one reads the CA bundle: milliseconds, not something to repeat per request, nor to pay at import or for a
stdio server). With the defaults it is the very context httpx2 would build (the system's store, or
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
from typing import Any, Protocol, TypeAlias

import httpx2

from mcp_client._connection.http_auth import HttpAuth, as_httpx2_auth

__all__ = [
    "DEFAULT_HTTP_OPTIONS",
    "HttpClientFactory",
    "HttpOptions",
    "ProxyLike",
    "ProxyOption",
    "require_httpx2_client",
    "untrusted_certificate_advice",
]

CertTypes = str | os.PathLike[str] | tuple[str, str] | tuple[str, str, str]


class HttpClientFactory(Protocol):
    """Makes the ``httpx2.AsyncClient`` a transport or an OAuth flow sends with (the official SDK's shape).

    ``auth`` is always an ``httpx2.Auth`` here (an app's ``httpx.Auth`` arrives adapted).
    """

    def __call__(
        self,
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient: ...


class ProxyLike(Protocol):
    """An ``httpx.Proxy`` from an app written for httpx: taken over as an ``httpx2.Proxy`` (same fields)."""

    @property
    def url(self) -> object: ...
    @property
    def auth(self) -> tuple[str, str] | None: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def ssl_context(self) -> ssl.SSLContext | None: ...


ProxyOption: TypeAlias = str | httpx2.Proxy | ProxyLike
"""What ``proxy=`` takes: a proxy URL, an ``httpx2.Proxy``, or an app's ``httpx.Proxy``."""


@dataclass(frozen=True, eq=False)
class HttpOptions:
    """See the module docstring. Checked at construction: a mistake is a ``ValueError`` naming the option."""

    verify: bool | str | os.PathLike[str] | ssl.SSLContext = True
    cert: CertTypes | None = None
    proxy: ProxyOption | None = None
    trust_env: bool = True
    httpx_client_factory: HttpClientFactory | None = None
    _ssl: ssl.SSLContext | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "proxy", _as_httpx2_proxy(self.proxy))
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
                    f"{', '.join(given)} inside the factory's httpx2.AsyncClient instead"
                )
            return
        _check_paths(self.verify, self.cert)
        if isinstance(self.proxy, str) and not self.proxy.startswith(("http://", "https://", "socks5://")):
            raise ValueError(f"proxy must be an http://, https:// or socks5:// URL; got {self.proxy!r}")

    @property
    def is_default(self) -> bool:
        """No option differs from httpx2's own defaults."""
        return (
            self.httpx_client_factory is None
            and self.verify is True
            and self.cert is None
            and self.proxy is None
            and self.trust_env
        )

    def _tls(self) -> ssl.SSLContext | bool:
        """httpx2's own default where nothing was asked for; else our context, built on first use and kept."""
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
        auth: HttpAuth | None = None,
        timeout: httpx2.Timeout | float | None = None,
        **extra: Any,
    ) -> httpx2.AsyncClient:
        """A new ``httpx2.AsyncClient`` with these options; redirects are left to the caller (off).

        ``extra`` (e.g. ``limits``) is passed on when the client is ours to build; a factory's client keeps
        its own. ``auth`` may be an app's ``httpx.Auth`` (``http_auth``): it is adapted here.
        """
        timeouts = timeout if isinstance(timeout, httpx2.Timeout) else httpx2.Timeout(timeout)
        auth = as_httpx2_auth(auth)
        factory = self.httpx_client_factory
        if factory is not None:
            try:
                client = factory(headers=dict(headers or {}), timeout=timeouts, auth=auth)
            except TypeError as exc:
                if 'Invalid "auth" argument' in str(exc):  # httpx.AsyncClient given our httpx2.Auth
                    exc.add_note(_not_httpx2_note)
                raise
            require_httpx2_client(client, "httpx_client_factory returned", "return")
            client.follow_redirects = False
            return client
        return httpx2.AsyncClient(
            headers=dict(headers or {}),
            auth=auth,
            timeout=timeouts,
            follow_redirects=False,
            verify=self._tls(),
            proxy=_as_httpx2_proxy(self.proxy),  # already one (__post_init__): for the checker
            trust_env=self.trust_env,
            **extra,
        )


_not_httpx2_note = (
    "httpx_client_factory is given an httpx2.Auth and an httpx2.Timeout: build an httpx2.AsyncClient "
    "with them (httpx2 is the maintained successor of httpx, same API), not an httpx.AsyncClient"
)


def _as_httpx2_proxy(proxy: ProxyOption | None) -> str | httpx2.Proxy | None:
    """``proxy`` as httpx2 takes it: an ``httpx.Proxy`` is rebuilt field by field (httpx2 reads its own)."""
    if proxy is None or isinstance(proxy, str | httpx2.Proxy):
        return proxy
    if not all(hasattr(proxy, name) for name in ("url", "auth", "headers", "ssl_context")):
        raise TypeError(
            f"proxy must be a proxy URL (http://proxy:3128) or an httpx2.Proxy; got {type(proxy).__name__}"
        )
    return httpx2.Proxy(
        str(proxy.url), auth=proxy.auth, headers=list(proxy.headers.items()), ssl_context=proxy.ssl_context
    )


def require_httpx2_client(client: object, what: str, fix: str) -> None:
    """A ``TypeError`` naming what to pass when ``client`` (``what``) is not an ``httpx2.AsyncClient``.

    An app written for httpx hands us an ``httpx.AsyncClient``: nothing of it can be kept (its pool,
    transport and auth are httpx's own), so the error says to build the httpx2 one with the same
    arguments rather than adapting it.
    """
    if isinstance(client, httpx2.AsyncClient):
        return
    kind = type(client)
    if kind.__module__.partition(".")[0] == "httpx" and kind.__name__ == "AsyncClient":
        raise TypeError(
            f"{what} an httpx.AsyncClient; mcp_client sends with httpx2 (the maintained successor of "
            f"httpx, same API): {fix} httpx2.AsyncClient(...) with the same arguments (httpx2 is "
            "installed with mcp-client)"
        )
    raise TypeError(f"{what} {kind.__name__}, not an httpx2.AsyncClient")


_DEFAULT_CONTEXTS: dict[tuple[bool, str | None, str | None], ssl.SSLContext] = {}
"""httpx2's default TLS context, by what chooses its CA bundle; one per process."""


def _default_context(trust_env: bool) -> ssl.SSLContext:
    """The context httpx2 builds for ``verify=True``, built once for each CA bundle the environment names."""
    key = (
        trust_env,
        os.environ.get("SSL_CERT_FILE") if trust_env else None,
        os.environ.get("SSL_CERT_DIR") if trust_env else None,
    )
    context = _DEFAULT_CONTEXTS.get(key)
    if context is None:
        context = _DEFAULT_CONTEXTS[key] = httpx2.create_ssl_context(verify=True, trust_env=trust_env)
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
        context = httpx2.create_ssl_context(verify=True, trust_env=trust_env)
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
