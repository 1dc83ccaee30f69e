"""The thin async driver: performs the steps a sans-IO flow (``_flow``) yields, and sends back results.

HTTP requests go out on their own ``httpx2.AsyncClient`` (not the MCP transport's): redirects are never
followed blindly (a GET may follow one to the same origin; a POST carrying a code or a secret never
follows one), bodies are read up to ``MAX_DOCUMENT_BYTES``, and nothing but http(s) is fetched. The
browser step runs with the client's request clocks stopped: time a person spends logging in does not
count against ``Client(timeout=...)``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Generator
from typing import TypeVar
from urllib.parse import urljoin, urlsplit

import httpx2

from mcp_client._connection.http_options import untrusted_certificate_advice
from mcp_client._connection.shown_url import without_credentials
from mcp_client._errors import OAuthError
from mcp_client._session.timeouts import waiting_on_a_person
from mcp_client.auth import _urls
from mcp_client.auth._flow import LoadClient, OpenBrowser, Step
from mcp_client.auth._reason import telling
from mcp_client.auth._storage import TokenStorage
from mcp_client.auth._token_signing import TokenRequestSigner
from mcp_client.auth._wire import MAX_DOCUMENT_BYTES, HttpRequest, HttpResponse

logger = logging.getLogger("mcp_client.auth")

_T = TypeVar("_T")
_MAX_REDIRECTS = 3

Authorize = Callable[[str], Awaitable[str]]


class StepRunner:
    """Runs flows for one MCP server (``server``: the storage key) with one HTTP client."""

    def __init__(
        self,
        http: httpx2.AsyncClient,
        storage: TokenStorage,
        server: str,
        authorize: Authorize,
        *,
        signer: TokenRequestSigner | None = None,
    ) -> None:
        self._http = http
        self._storage = storage
        self._server = server
        self._authorize = authorize
        self._signer = signer

    async def run(self, flow: Generator[Step, object, _T]) -> _T:
        try:
            step = next(flow)
            while True:
                reply = await self._perform(step)
                step = flow.send(reply)
        except StopIteration as done:
            return done.value
        finally:
            flow.close()

    async def _perform(self, step: Step) -> object:
        if isinstance(step, HttpRequest):
            return await self.send(step)
        if isinstance(step, OpenBrowser):
            return await self._browser(step)
        if isinstance(step, LoadClient):
            return await self._storage.get_client(self._server, step.issuer)
        await self._storage.set_client(self._server, step.issuer, step.client)
        logger.info("registered client %s with %s for %s", step.client.client_id, step.issuer, self._server)
        return None

    async def _browser(self, step: OpenBrowser) -> object:
        logger.info("%s needs a login at %s (%s)", self._server, step.issuer, step.reason.kind)
        try:
            with waiting_on_a_person(), telling(step.reason):
                return await self._authorize(step.url)
        except OAuthError:
            raise
        except Exception as exc:
            raise OAuthError(f"the authorize callback failed: {type(exc).__name__}: {exc}") from exc

    async def send(self, request: HttpRequest) -> HttpResponse:
        """Send one request; token requests get their client assertion and DPoP proof first."""
        if self._signer is not None:
            return await self._signer.send(request, self._send)
        if request.client_assertion_audience is not None:
            raise OAuthError(
                f"the token request to {without_credentials(request.url)} needs a private_key_jwt client "
                "assertion, and no private_key was configured"
            )
        return await self._send(request)

    async def _send(self, request: HttpRequest) -> HttpResponse:
        url = request.url
        for hop in range(_MAX_REDIRECTS + 1):
            shown = without_credentials(url)  # as messages quote it: never a user:password@
            if urlsplit(url).scheme.lower() not in ("http", "https"):
                raise OAuthError(
                    f"refusing to fetch {shown[:200]!r} for the {request.purpose}: not an http(s) URL"
                )
            outgoing = self._http.build_request(
                request.method, url, headers=dict(request.headers), content=request.body() or None
            )
            try:
                response = await self._http.send(outgoing, stream=True, follow_redirects=False)
            except httpx2.HTTPError as exc:
                advice = untrusted_certificate_advice(exc)
                raise OAuthError(
                    f"could not reach the {request.purpose} at {shown}: {type(exc).__name__}"
                    + (f" ({exc})" if str(exc) else "")
                    + (f": {advice}" if advice else "")
                ) from None
            try:
                target = self._same_origin_redirect(request, response, url)
                if target is not None and hop < _MAX_REDIRECTS:
                    url = target
                    continue
                body = await _read_bounded(response)
            except httpx2.HTTPError as exc:
                raise OAuthError(
                    f"the {request.purpose} at {shown} broke off its answer: {type(exc).__name__}"
                ) from None
            finally:
                await response.aclose()
            logger.debug("%s %s (%s): HTTP %s", request.method, shown, request.purpose, response.status_code)
            return HttpResponse(
                status=response.status_code,
                url=url,
                headers={k.lower(): v for k, v in response.headers.items()},
                body=body,
                www_authenticate=tuple(response.headers.get_list("www-authenticate")),
                sent_secrets=request.secrets(),
            )
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _same_origin_redirect(request: HttpRequest, response: httpx2.Response, url: str) -> str | None:
        if request.method != "GET" or not response.is_redirect:
            return None
        location = response.headers.get("location")
        if not location:
            return None
        target = urljoin(url, location)
        if not _urls.same_origin(target, url):
            return None
        try:
            return _urls.web_url(target, f"the redirect of the {request.purpose}")
        except OAuthError:
            return None


async def _read_bounded(response: httpx2.Response) -> bytes:
    """At most ``MAX_DOCUMENT_BYTES + 1`` bytes: one byte too many is enough to refuse the document."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_DOCUMENT_BYTES:
            break
    return b"".join(chunks)[: MAX_DOCUMENT_BYTES + 1]
