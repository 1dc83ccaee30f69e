"""The URL judge on its own: which host a browser would really open, and what should worry the user.

Pure function, no terminal: a corpus of honest and deceptive links and the verdict each must get.
"""

from __future__ import annotations

import pytest

from ui_adapters._url_safety import MAX_URL_LENGTH, inspect_url, visible_url


@pytest.mark.parametrize(
    ("url", "host", "codes"),
    [
        ("https://pay.example.com/deposit?booking=B42", "pay.example.com", set()),
        ("HTTPS://PAY.Example.COM/x", "pay.example.com", set()),
        ("https://pay.example.com:8443/x", "pay.example.com", set()),
        ("https://pay.example.com./x", "pay.example.com.", set()),
        ("https:pay.example.com/x", "pay.example.com", set()),  # browsers accept the missing slashes
        ("https:///pay.example.com/x", "pay.example.com", set()),  # ...and extra ones
        ("https://evil.example/@pay.example.com", "evil.example", set()),  # "@" in the path is harmless
        # userinfo: the part before "@" is not the site
        ("https://bank.com@evil.example/", "evil.example", {"userinfo"}),
        ("https://user:pass@evil.example/", "evil.example", {"userinfo"}),
        ("https://bank.com%2f@evil.example/", "evil.example", {"userinfo"}),
        ("https://a@b@evil.example/", "evil.example", {"userinfo"}),
        # international names
        ("https://xn--pple-43d.com/", "xn--pple-43d.com", {"punycode"}),
        ("https://аpple.com/", "xn--pple-43d.com", {"punycode"}),
        ("https://ｐａｙ.example.com/", "pay.example.com", set()),  # full-width letters map to ASCII
        ("https://pay。example.com/", "pay.example.com", set()),  # ideographic full stop is a dot
        # raw IPs, in every notation a browser accepts
        ("https://203.0.113.7/", "203.0.113.7", {"ip-address"}),
        ("http://3232235777/", "192.168.1.1", {"ip-address", "ip-notation", "not-https"}),
        ("https://0xC0A80101/", "192.168.1.1", {"ip-address", "ip-notation"}),
        ("https://0300.0250.1.1/", "192.168.1.1", {"ip-address", "ip-notation"}),
        ("https://0xc0.0xa8.1.1/", "192.168.1.1", {"ip-address", "ip-notation"}),
        ("https://192.168.257/", "192.168.1.1", {"ip-address", "ip-notation"}),
        ("https://[2001:db8::1]/", "[2001:db8::1]", {"ip-address"}),
        # percent-encoded host
        ("https://%65vil.example/", "evil.example", {"encoded-host"}),
        # plain http
        ("http://pay.example.com/", "pay.example.com", {"not-https"}),
        # loopback: http is fine for development, and loopback IPs are not "someone else's" server
        ("http://127.0.0.1:8765/cb", "127.0.0.1", set()),
        ("http://localhost:3000/", "localhost", set()),
        ("http://app.localhost/", "app.localhost", set()),
        ("http://[::1]:8080/", "[::1]", set()),
        ("http://2130706433/", "127.0.0.1", {"ip-notation"}),
    ],
)
def test_host_and_warnings(url: str, host: str, codes: set[str]) -> None:
    verdict = inspect_url(url)
    assert verdict.refusal is None
    assert verdict.host == host
    assert verdict.warning_codes == codes


def test_international_name_keeps_its_look_for_display() -> None:
    verdict = inspect_url("https://xn--pple-43d.com/")
    assert verdict.unicode_host == "аpple.com"
    assert verdict.warnings[0].message.startswith("The site name uses international characters")


def test_userinfo_warning_names_both_hosts() -> None:
    (warning,) = inspect_url("https://bank.com@evil.example/").warnings
    assert "this link opens evil.example, not bank.com" in warning.message


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("javascript:alert(1)", "'javascript:'"),
        ("data:text/html,<script>alert(1)</script>", "'data:'"),
        ("file:///etc/passwd", "'file:'"),
        ("ftp://example.com/", "'ftp:'"),
        ("mailto:a@example.com", "'mailto:'"),
        ("//evil.example/", "not a web link"),
        ("evil.example", "not a web link"),
        ("", "not a web link"),
        ("https://", "no host name"),
        ("https://?q=1", "no host name"),
        ("https://user@/", "no host name"),
        ("https://pay.example.com\n.evil.example/", "U+000A"),
        ("https://pay.example.com\r/", "U+000D"),
        ("https://pay.example.com/\x1b[2J", "U+001B"),
        ("https://pay.example.com/\x9b2J", "U+009B"),
        ("https://evil.example/\u202emoc.elpmaxe", "U+202E"),
        ("https://evil.example/\u2066x\u2069", "U+2066"),
        ("https://pay.example.com\u200b.evil.example/", "U+200B"),
        ("https://pay.example.com\ufeff/", "U+FEFF"),
        ("https://pay.example.com\u3164.evil.example/", "U+3164"),
        ("https://pay example.com/", "U+0020"),
        ("https://evil.example\\@pay.example.com/", "backslash"),
        ("https://evil.example\\pay.example.com", "backslash"),
        ("https://pay.example.com:99999/", "port"),
        ("https://pay.example.com:80a/", "port"),
        ("https://[::1/", "IPv6"),
        ("https://[not-an-ip]/", "IPv6"),
        ("https://1.2.3.4.5/", "IP address"),
        ("https://256.1.1.1/", "IP address"),
        ("https://1.2.0x1g.3/", "IP address"),
        ("https://exa<mple.com/", "characters"),
        ("https://a..b.com/", "characters"),
        ("https://%0a.evil.example/", "control character"),
        ("https://%ff.example/", "percent-escapes"),
        ("https://xn--zz.com/", "punycode"),
        ("https://☃.net/", "international domain name"),
        ("https://pay.example.com/" + "a" * MAX_URL_LENGTH, "characters long"),
    ],
)
def test_refused(url: str, reason: str) -> None:
    verdict = inspect_url(url)
    assert verdict.refused
    assert verdict.refusal is not None and reason in verdict.refusal
    assert verdict.warnings == ()


def test_length_limit_is_a_parameter() -> None:
    url = "https://pay.example.com/" + "a" * 100
    assert inspect_url(url).refusal is None
    assert inspect_url(url, max_length=50).refused


def test_visible_url_spells_out_hidden_characters_and_cuts() -> None:
    assert visible_url("https://a.example\r\nSite: b") == "https://a.example⟨U+000D⟩⟨U+000A⟩Site:⟨U+0020⟩b"
    assert visible_url("https://e.example/\u202ex\x1b[1A") == "https://e.example/⟨U+202E⟩x⟨U+001B⟩[1A"
    cut = visible_url("https://a.example/" + "x" * 1000, max_length=40)
    assert len(cut) == 41 and cut.endswith("…")
