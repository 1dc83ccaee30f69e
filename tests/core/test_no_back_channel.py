"""Which server errors become ``NoBackChannelError``: the words that say it, in the era where it fits.

The real server's error is tested end to end in ``test_elicitation_flows.py``; here, the edges of the
match on the error as a server could word it (no server says these on demand).
"""

from __future__ import annotations

import pickle

import pytest

from mcp_client import MCPError, NoBackChannelError, ServerError
from mcp_client._session.back_channel import no_back_channel

OFFICIAL = (
    "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated "
    "requests."
)
URL = "http://127.0.0.1:8000/mcp"


@pytest.mark.parametrize(
    ("message", "method"),
    [
        (OFFICIAL, "elicitation/create"),
        ("no back channel to send elicitation/create on", "elicitation/create"),
        ("Cannot send 'sampling/createMessage': no Backchannel", "sampling/createMessage"),
        ("NO BACK-CHANNEL FOR ROOTS/LIST", None),  # a method we do not know by that spelling: not named
        ("this transport has no back-channel", None),
    ],
)
def test_the_words_are_matched_not_the_sentence(message: str, method: str | None) -> None:
    error = no_back_channel(ServerError(-32600, message), modern=True, server=URL, server_name="bistro")
    assert isinstance(error, NoBackChannelError)
    assert error.method == method
    assert str(error).startswith(f"the server 'bistro' ({URL}) tried to ")
    assert 'Client(..., mode="legacy")' in str(error)
    assert error.message == message  # the server's words, as sent
    lost = "the question never reached the user" if method in (None, "elicitation/create") else "it never"
    assert f"has none, so {lost}" in str(error)


@pytest.mark.parametrize(
    ("error", "modern"),
    [
        (ServerError(-32600, OFFICIAL), False),  # legacy: a json_response server; no other era to offer
        (ServerError(-32603, OFFICIAL), True),  # another code: not this refusal
        (ServerError(-32600, "Invalid request: missing id"), True),  # -32600 for another reason
        (MCPError(-32600, OFFICIAL), True),  # not from the server (a callback's own refusal)
    ],
)
def test_anything_else_stays_as_it_was(error: MCPError, modern: bool) -> None:
    assert no_back_channel(error, modern=modern, server=URL, server_name="bistro") is error


def test_the_server_name_is_plain_text_and_the_error_crosses_processes() -> None:
    error = no_back_channel(
        ServerError(-32600, OFFICIAL, {"x": 1}), modern=True, server=URL, server_name="bis\x1b[31mtro\u202e"
    )
    assert isinstance(error, NoBackChannelError)
    assert error.server_name == "bis[31mtro"
    assert "\x1b" not in str(error) and "\u202e" not in str(error)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is NoBackChannelError
    assert (str(copy), copy.code, copy.message, copy.data, copy.server, copy.method) == (
        str(error),
        -32600,
        OFFICIAL,
        {"x": 1},
        URL,
        "elicitation/create",
    )


def test_without_a_name_the_error_names_the_url() -> None:
    error = no_back_channel(ServerError(-32600, OFFICIAL), modern=True, server=URL, server_name=None)
    assert str(error).startswith(f"{URL} tried to ask the user a question (elicitation/create)")


def test_the_message_word_for_word_with_the_servers_error_as_its_cause() -> None:
    sent = ServerError(-32600, OFFICIAL)
    error = no_back_channel(sent, modern=True, server=URL, server_name="bistro")
    assert str(error) == (
        f"the server 'bistro' ({URL}) tried to ask the user a question (elicitation/create) over the "
        "legacy back-channel (the way ctx.elicit asks); a 2026-07-28 connection has none, so the question "
        'never reached the user and the call failed. Connect to this server with Client(..., mode="legacy") '
        '(in a config file or a ClientGroup: "mode": "legacy" for this server)'
    )
    # The traceback goes on with the server's own words, and names the public class.
    assert error.__cause__ is sent
    assert str(sent) == f"{OFFICIAL} (JSON-RPC error -32600)"
    assert f"{type(error).__module__}.{type(error).__qualname__}" == "mcp_client.NoBackChannelError"


@pytest.mark.parametrize(
    ("message", "tried", "lost"),
    [
        (OFFICIAL, "ask the user a question (elicitation/create)", "the question never reached the user"),
        (
            "this transport has no back-channel",
            "ask the user a question",
            "the question never reached the user",
        ),
        (
            "Cannot send 'sampling/createMessage': no back-channel",
            "ask this client's model (sampling/createMessage)",
            "it never reached us",
        ),
        (
            "Cannot send 'roots/list': no back-channel",
            "ask for this client's roots (roots/list)",
            "it never reached us",
        ),
        # A request we have no words for is named as sent.
        (
            "Cannot send 'elicitation/poll': no back-channel",
            "send this client a request (elicitation/poll)",
            "it never reached us",
        ),
    ],
)
def test_the_message_says_what_the_server_tried_to_ask(message: str, tried: str, lost: str) -> None:
    error = no_back_channel(ServerError(-32600, message), modern=True, server=URL, server_name=None)
    assert str(error).startswith(
        f"{URL} tried to {tried} over the legacy back-channel (the way ctx.elicit asks); "
    )
    assert f"has none, so {lost} and the call failed." in str(error)


def test_a_long_server_name_is_cut_at_100_characters() -> None:
    """Cut after the control characters are gone, and the cut shows (an ellipsis)."""
    name = "b" * 98 + "\x07" + "cd" + "e" * 50
    error = no_back_channel(ServerError(-32600, OFFICIAL), modern=True, server=URL, server_name=name)
    assert isinstance(error, NoBackChannelError)
    assert error.server_name == "b" * 98 + "c…"
    assert str(error).startswith(f"the server '{'b' * 98}c…' ({URL}) tried to ")


# scripts/mutants on back_channel.py and _errors.py with this file: the survivors left behave the same.
# * ``_BACK_CHANNEL_ASKS.get(method or "XXXX")``: neither ``""`` nor ``"XXXX"`` is a key.
# * ``_say_public`` (``__module__ = "mcp_client"``, asserted above): it runs when ``_errors`` is
#   imported, before mutmut switches a mutant on, so none of its mutants can be seen by a test.
