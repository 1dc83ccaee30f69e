"""Conformance client: drives our public API the way the MCP conformance harness expects.

The harness (`@modelcontextprotocol/conformance`, run by `scripts/conformance.py`) starts one scenario
server, then runs this file with the server URL as the last argument and these environment variables:

    MCP_CONFORMANCE_SCENARIO          which scenario the server plays
    MCP_CONFORMANCE_CONTEXT           optional JSON data for it (`toolCalls` for http-custom-headers)
    MCP_CONFORMANCE_PROTOCOL_VERSION  the wire under test (set by 0.2.x only; 0.1.16 sets nothing)

It must exit 0 within the harness timeout. It uses nothing but `mcp_client`'s public API, so every
check the harness makes is a check on the SDK: the era is chosen by `Client(mode=...)`, schema defaults
are filled by the SDK (the callback accepts with empty content), `x-mcp-header` tools are filtered by
`list_tools()`, and headers, envelopes and retries are the SDK's own.

Auth scenarios (`auth/...`) connect with `auth=OAuth(...)` from `mcp_client.auth`: discovery, scope
choice, registration, PKCE, `iss` checks, refresh and retries are the SDK's. The only thing this file
adds is the "browser": an `authorize` callback that fetches the authorization URL without following
redirects and hands the `Location` back (the harness's authorization endpoint approves at once). It
offers a Client ID Metadata Document URL (used only where the server advertises support) and the
pre-registered credentials the harness passes in `MCP_CONFORMANCE_CONTEXT`. A scenario that expects
the client to refuse (`iss-wrong-issuer`, `resource-mismatch`...) ends with an `OAuthError`: exit 1.

Skills scenarios (`sep-2640-client-...`) connect with `skills=True`, list the skills, and (except
no-prefetch) load each with `load_skill(entry, read_files=True)`: the SDK's digest, size and
frontmatter checks refuse the harness's tampered SKILL.md before any supporting file is read.

Mode per wire: a handshake version (2025-11-25) runs `mode="legacy"`, the stateful lifecycle the
harness asks for there; 2026-07-28 runs `mode="auto"`, so the SDK's own negotiation meets the
scenario servers (request-metadata answers the first request with -32022 and expects a retry at a
supported version); no version at all (harness 0.1.16, handshake-only servers) runs `mode="auto"`,
which has to find the handshake era by itself. `MCP_CLIENT_CONFORMANCE_MODE` overrides the choice.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx2

from mcp_client import Client, ClientRequestContext, OAuthError, SkillVerificationError
from mcp_client.auth import ClientCredentials, IdJagAssertion, JWTBearer, OAuth
from mcp_client.types import CallToolResult, ElicitRequestParams, ElicitResult, Implementation, Tool

_HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
_DEADLINE_S = 25.0  # under the harness's 30 s, so a hang is reported as our failure, with a traceback
_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
_REDIRECT_URI = "http://127.0.0.1:8976/callback"  # never listened on: the fake browser returns the Location

Scenario = Callable[[Client, dict[str, Any]], Awaitable[None]]
_SCENARIOS: dict[str, Scenario] = {}


def _scenario(*names: str) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        for name in names:
            _SCENARIOS[name] = fn
        return fn

    return register


def _log(*parts: object) -> None:
    print("[conformance-client]", *parts, file=sys.stderr, flush=True)


def _text(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def _expect(result: CallToolResult, text: str) -> None:
    got = _text(result)
    if result.is_error or got != text:
        raise AssertionError(f"expected {text!r}, got {got!r} (is_error={result.is_error})")


async def accept_with_defaults(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    """Accept every question with empty content: filling the schema's defaults is the SDK's job."""
    _log("elicitation", type(params).__name__, params.message)
    return ElicitResult(action="accept", content={})


def _sample_arguments(tool: Tool) -> dict[str, Any]:
    """A value of the declared type for every required property, so any listed tool can be called."""
    samples: dict[str, Any] = {"string": "x", "integer": 1, "number": 1, "boolean": True}
    samples.update({"object": {}, "array": [], "null": None})
    properties: dict[str, Any] = tool.input_schema.get("properties") or {}
    arguments: dict[str, Any] = {}
    for name in tool.input_schema.get("required") or []:
        kind = (properties.get(name) or {}).get("type", "string")
        arguments[name] = samples.get(kind if isinstance(kind, str) else "string", "x")
    return arguments


# ----------------------------------------------------------------------------------------- scenarios


@_scenario("initialize", "request-metadata", "json-schema-ref-no-deref")
async def _list_tools(client: Client, context: dict[str, Any]) -> None:
    tools = await client.list_tools()
    _log("tools:", [tool.name for tool in tools.tools])


@_scenario("tools_call")
async def _tools_call(client: Client, context: dict[str, Any]) -> None:
    await client.list_tools()
    _expect(await client.call_tool("add_numbers", {"a": 5, "b": 3}), "The sum of 5 and 3 is 8")


@_scenario("sse-retry")
async def _sse_retry(client: Client, context: dict[str, Any]) -> None:
    await client.list_tools()
    _expect(await client.call_tool("test_reconnection", {}), "Reconnection test completed successfully")


@_scenario("elicitation-sep1034-client-defaults")
async def _elicitation_defaults(client: Client, context: dict[str, Any]) -> None:
    await client.list_tools()
    result = await client.call_tool("test_client_elicitation_defaults", {})
    _log("result:", _text(result))
    if not _text(result).startswith("Elicitation completed:"):
        raise AssertionError(f"elicitation did not complete: {_text(result)!r}")


@_scenario("sep-2322-client-request-state")
async def _request_state(client: Client, context: dict[str, Any]) -> None:
    await client.list_tools()
    _expect(await client.call_tool("test_mrtr_echo_state", {}), "echo-state-ok")
    _expect(await client.call_tool("test_mrtr_unrelated", {}), "unrelated-ok")
    _expect(await client.call_tool("test_mrtr_no_state", {}), "no-state-ok")
    _expect(await client.call_tool("test_mrtr_no_result_type", {}), "no-result-type-test-ok")


@_scenario("http-standard-headers")
async def _standard_headers(client: Client, context: dict[str, Any]) -> None:
    for tool in (await client.list_tools()).tools:
        await client.call_tool(tool.name, _sample_arguments(tool))
    for resource in (await client.list_resources()).resources:
        await client.read_resource(resource.uri)
    for prompt in (await client.list_prompts()).prompts:
        await client.get_prompt(prompt.name)


@_scenario("http-custom-headers")
async def _custom_headers(client: Client, context: dict[str, Any]) -> None:
    await client.list_tools()
    for call in context.get("toolCalls", []):
        await client.call_tool(call["name"], call.get("arguments") or {})


@_scenario("http-invalid-tool-headers")
async def _invalid_tool_headers(client: Client, context: dict[str, Any]) -> None:
    tools = (await client.list_tools()).tools
    _log("tools kept:", [tool.name for tool in tools])
    for tool in tools:
        await client.call_tool(tool.name, _sample_arguments(tool))


@_scenario("json-schema-2020-12-preservation")
async def _schema_preservation(client: Client, context: dict[str, Any]) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    focal = tools["json_schema_2020_12_tool"]
    await client.call_tool("json_schema_echo", {"schema": focal.input_schema})


@_scenario("sep-2640-client-no-prefetch")
async def _skills_listed(client: Client, context: dict[str, Any]) -> None:
    """List the skills and stop: listing must read none of their files (the SDK reads on load only)."""
    _log("skills:", [entry.uri for entry in await client.list_skills()])


@_scenario(
    "sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"
)
async def _skills_loaded(client: Client, context: dict[str, Any]) -> None:
    """Load every listed skill with all its files; the SDK refuses a tampered SKILL.md before the rest."""
    for entry in await client.list_skills():
        try:
            skill = await client.load_skill(entry, read_files=True)
        except SkillVerificationError as exc:
            _log("refused:", exc)
        else:
            _log("loaded:", skill.uri, sorted(skill.files))


@_scenario("auth")
async def _auth(client: Client, context: dict[str, Any]) -> None:
    """Every auth scenario: list the tools and call the harness's `test-tool` (step-up needs the call)."""
    tools = (await client.list_tools()).tools
    _log("tools:", [tool.name for tool in tools])
    for tool in tools:
        if tool.name == "test-tool":
            _log("call:", _text(await client.call_tool(tool.name, {})))


async def fetch_redirect(authorization_url: str) -> str:
    """The conformance "browser": open the authorization URL and return where it redirects to."""
    async with httpx2.AsyncClient(follow_redirects=False, timeout=10) as browser:
        response = await browser.get(authorization_url)
    location = response.headers.get("location")
    if response.status_code not in (301, 302, 303, 307, 308) or not location:
        raise AssertionError(f"the authorization endpoint answered {response.status_code}, not a redirect")
    return location


def _oauth(context: dict[str, Any]) -> OAuth | ClientCredentials | JWTBearer:
    """The auth object each scenario needs; the `[extension]` ones run at the harness's `extension` wire."""
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if scenario == "auth/client-credentials-jwt":
        # private_key_jwt client authentication (RFC 7523 2.2) with the harness's run-scoped key.
        return ClientCredentials(
            context["client_id"],
            private_key=context["private_key_pem"],
            signing_algorithm=context.get("signing_algorithm"),
        )
    if scenario.startswith("auth/client-credentials"):
        return ClientCredentials(context["client_id"], context["client_secret"])
    if scenario == "auth/enterprise-managed-authorization":
        # SEP-990: ID token -> ID-JAG at the IdP (RFC 8693), then the JWT-bearer grant at the AS.
        id_jag = IdJagAssertion(
            context["idp_token_endpoint"], context["idp_id_token"], client_id=context["idp_client_id"]
        )
        return JWTBearer(id_jag, client_id=context["client_id"], client_secret=context["client_secret"])
    if scenario == "auth/wif-jwt-bearer":
        # Workload identity: the platform's JWT as the assertion, a public client (auth method none).
        return JWTBearer(context["valid_jwt"], client_id=context["client_id"])
    return OAuth(
        "mcp-client-conformance",
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
        client_metadata_url=_CLIENT_METADATA_URL,
        redirect_uri=_REDIRECT_URI,
        authorize=fetch_redirect,
        dpop=scenario in ("auth/dpop", "auth/dpop-nonce"),
    )


# ------------------------------------------------------------------------------------------------ main


def _mode() -> str:
    override = os.environ.get("MCP_CLIENT_CONFORMANCE_MODE")
    if override:
        return override
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION")
    if version in _HANDSHAKE_VERSIONS:
        return "legacy"
    return "auto"


async def _run(url: str, scenario_name: str, context: dict[str, Any]) -> None:
    is_auth = scenario_name.startswith("auth/")
    scenario = _SCENARIOS["auth"] if is_auth else _SCENARIOS.get(scenario_name, _list_tools)
    mode = _mode()
    _log(f"scenario={scenario_name} mode={mode} url={url}")
    with anyio.fail_after(_DEADLINE_S):
        async with Client(
            url,
            mode=mode,
            elicitation_callback=accept_with_defaults,
            client_info=Implementation(name="mcp-client-conformance", version="0.1.0"),
            auth=_oauth(context) if is_auth else None,
            skills=scenario_name.startswith("sep-2640-"),
        ) as client:
            _log("connected: protocol", client.protocol_version)
            await scenario(client, context)
    _log("done")


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: client.py <server-url>  (MCP_CONFORMANCE_SCENARIO names the scenario)", file=sys.stderr)
        return 2
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    try:
        anyio.run(_run, sys.argv[-1], os.environ.get("MCP_CONFORMANCE_SCENARIO", ""), context)
    except OAuthError as exc:
        _log(f"OAuthError: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
