"""Our reading of a link's host agrees with ada-url, the WHATWG URL parser browsers' rules are tested by.

``inspect_url`` (``ui_adapters._url_safety``) finds the host a browser would contact by its own reading
of the WHATWG rules; ada-url (the parser Node.js uses) is an independent implementation of the same
standard. On every link we do not refuse, ada must parse it too and find the same host (and port):
on the deceptive corpus, and on random links built from the pieces attackers use (user info with
``@`` and ``:``, percent-escapes, numeric and hexadecimal IPv4 forms, full-width and ideographic
dots, look-alike letters, backslashes, ``?`` and ``#`` before an ``@``). A link ada cannot parse we must
refuse. We refuse more than ada does (hidden characters, unusual schemes); that is not checked here.
"""

from __future__ import annotations

import re

import ada_url
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.url_corpus import HOST_IS_NOT_THE_FIRST_NAME, REFUSED, WARNED
from ui_adapters._url_safety import inspect_url

_PLAIN_HOST = re.compile(r"([a-z0-9]+(-[a-z0-9]+)*\.)*[a-z0-9]+(-[a-z0-9]+)*\.?|\[[0-9a-f:.]+\]")
FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CORPUS = [
    *(url for url, _ in REFUSED),
    *(url for url, _, _ in WARNED),
    *(url for url, _ in HOST_IS_NOT_THE_FIRST_NAME),
    "https://pay.example.com/deposit?booking=B42",
    "HTTPS://PAY.Example.COM:8443/x",
    "https://pay.example.com./x",
    "https:pay.example.com/x",
    "https:///pay.example.com/x",
    "https://evil.example/@pay.example.com",
    "https://bank.com%2f@evil.example/",
    "https://a@b@evil.example/",
    "https://ｐａｙ.example.com/",
    "https://pay。example.com/",
    "http://3232235777/",
    "https://0xC0A80101/",
    "https://0300.0250.1.1/",
    "https://0xc0.0xa8.1.1/",
    "https://192.168.257/",
    "https://[2001:db8::1]/",
    "http://[::1]:8080/",
    "https://%65vil.example/",
    "https://evil.example\\@pay.example.com/",
    "https://1.2.3.4.5/",
    "https://256.1.1.1/",
    "https://xn--zz.com/",
    "https://☃.net/",
    "https://pay.example.com:443/",
    "http://pay.example.com:80/",
    "https://pay.example.com:0/",
]


def _agree(url: str, *, refusals_explained: bool = False) -> None:
    ours = inspect_url(url)
    if not ada_url.check_url(url):
        assert ours.refused, f"ada cannot parse {url!r}, we read host {ours.host!r}"
        return
    theirs = ada_url.URL(url)
    if ours.refused:
        # We refuse more than a browser would (hidden characters, backslashes, schemes, lengths, odd
        # percent-escapes). Random http(s) links have none of the first: one whose host a browser
        # reads as a plain name or address must not be refused.
        plain = (
            refusals_explained
            and _PLAIN_HOST.fullmatch(theirs.hostname)
            and "\\" not in url
            and "%" not in url
        )
        assert not plain, f"we refuse {url!r} ({ours.refusal}), a browser opens {theirs.hostname!r}"
        return
    default = 443 if ours.scheme == "https" else 80  # ada leaves a scheme's default port out
    our_port = ours.port if ours.port is not None else default
    their_port = int(theirs.port) if theirs.port else default
    assert (ours.host, our_port) == (theirs.hostname, their_port), url


@pytest.mark.parametrize("url", CORPUS)
def test_every_corpus_link_reads_as_ada_reads_it(url: str) -> None:
    _agree(url)


def _mostly(common: list[str], rare: list[str]) -> st.SearchStrategy[str]:
    """Usually a plain piece, sometimes a tricky one: most links then parse, and get compared."""
    return st.one_of(st.sampled_from(common), st.sampled_from(common), st.sampled_from(rare))


_LABEL = _mostly(
    ["pay", "bank", "evil", "example", "com", "a", "0", "1", "127", "255", "login"],
    [
        "0x7f",
        "0xC0",
        "017",
        "4294967295",
        "%2e",
        "%41",
        "%65vil",
        "xn--pple-43d",
        "аpple",
        "ｐａｙ",
        "ß",
        "é",
        "A",
        "PAY",
        "a-b",
        "1e",
        "0x",
        "08",
        "256",
    ],
)
_DOT = _mostly(["."], ["。", "．", "｡", "%2e"])


@st.composite
def hosts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["[::1]", "[2001:db8::1]", "[::ffff:127.0.0.1]", "[0:0::1]", "[::]"]))
    host = draw(_LABEL)
    for _ in range(draw(st.integers(0, 3))):
        host += draw(_DOT) + draw(_LABEL)
    return host + ("." if draw(st.integers(0, 9)) == 0 else "")


@st.composite
def links(draw: st.DrawFn) -> str:
    scheme = draw(_mostly(["https", "http"], ["HTTPS", "hTtP"]))
    slashes = draw(_mostly(["//"], ["/", "", "///"]))
    userinfo = ""
    if draw(st.integers(0, 2)) == 0:
        pieces = _mostly(["bank.com", "user", "pass", ":"], ["%40", "@", "%2f", "pay.example.com:443"])
        userinfo = draw(st.lists(pieces, max_size=4).map("".join)) + "@"
    port = draw(_mostly([""], [":443", ":80", ":8080", ":0", ":65535", ":65536", ":", ":08"]))
    tail = _mostly(
        ["/", "x", "/login", "?q=1"], ["?", "#", "@", "bank.com", "%2f", ":", "#@bank.com", "?@bank.com"]
    )
    return f"{scheme}:{slashes}{userinfo}{draw(hosts())}{port}{draw(st.lists(tail, max_size=4).map(''.join))}"


@FUZZ
@given(links())
def test_random_links_read_as_ada_reads_them(url: str) -> None:
    _agree(url, refusals_explained=True)
