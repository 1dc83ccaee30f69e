"""Read a URL the way a browser will, and say what could mislead the person asked to open it.

No I/O here: ``UrlAdapter`` shows the verdict, and tests feed a corpus of deceptive links straight in.
The host is found with the WHATWG URL rules that browsers follow (a backslash counts as a slash, the
last ``@`` ends the user info, ``3232235777`` and ``0xC0A80101`` are IPv4 addresses, percent-escapes and
full-width dots in a host are decoded), not with ``urllib.parse``, which disagrees with browsers on
exactly the links an attacker would write. Whatever cannot be read unambiguously is refused.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

import idna

__all__ = ["MAX_URL_LENGTH", "UrlInspection", "UrlWarning", "WarningCode", "inspect_url", "visible_url"]

MAX_URL_LENGTH = 4096
"""Links longer than this are refused: no sign-in or payment page needs one, and it cannot be read."""

WarningCode = Literal["userinfo", "punycode", "ip-address", "ip-notation", "encoded-host", "not-https"]

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_AUTHORITY_END = re.compile(r"[/\\?#]")
_HOST_CHARS = re.compile(r"[a-z0-9._\-]+")
_HEX = re.compile(r"[0-9a-fA-F]*")
# Characters a terminal does not show as themselves: controls, bidi and zero-width marks, separators,
# private-use and unassigned code points. Any of these in a link means it may not say what it does.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


@dataclass(frozen=True, slots=True)
class UrlWarning:
    """One reason to look twice at a link; ``message`` is a sentence for the person being asked."""

    code: WarningCode
    message: str


@dataclass(frozen=True, slots=True)
class UrlInspection:
    """What a browser would do with a link, and what about it could mislead.

    ``host`` is the ASCII host the browser contacts (punycode for international names, dotted
    decimal for IPv4, ``[...]`` for IPv6); ``unicode_host`` is how an international name looks, else
    ``None``. When ``refusal`` is set the link must not be opened, and only ``url`` and ``scheme`` are
    meaningful.
    """

    url: str
    scheme: str = ""
    host: str = ""
    unicode_host: str | None = None
    port: int | None = None
    is_loopback: bool = False
    warnings: tuple[UrlWarning, ...] = ()
    refusal: str | None = None

    @property
    def refused(self) -> bool:
        """True when the link must not be opened."""
        return self.refusal is not None

    @property
    def warning_codes(self) -> frozenset[WarningCode]:
        """The codes of ``warnings``, for tests and for UIs that pick their own wording."""
        return frozenset(w.code for w in self.warnings)


class _Refused(Exception):
    """Internal: the link cannot be opened; the message says why."""


def inspect_url(url: str, *, max_length: int = MAX_URL_LENGTH) -> UrlInspection:
    """Judge ``url`` before anyone is asked to open it.

    Refused (``refusal`` set): longer than ``max_length``; any control, bidi, zero-width, blank or
    whitespace character; a backslash; a scheme other than ``http``/``https`` (``javascript:``,
    ``data:``, ``file:`` ...); no host, a malformed host, port or IP address. Warned: user info before
    an ``@``, an international (or ``xn--``) host name, a raw IP address, an IP address written in an
    unusual form, a percent-encoded host, and plain ``http`` to anything but this machine.
    """
    scheme = ""
    try:
        scheme = _scheme_of(url, max_length)
        return _inspect_web_url(url, scheme)
    except _Refused as refusal:
        return UrlInspection(url=url, scheme=scheme, refusal=str(refusal))


def visible_url(url: str, *, max_length: int = 300) -> str:
    """``url`` made safe to print and honest to read: every hidden character written as ``⟨U+XXXX⟩``.

    For showing a refused link: the person sees where the newline, bidi override or zero-width space
    was, instead of having it act on the terminal or silently vanish. Cut to ``max_length`` with "…".
    """
    shown: list[str] = []
    length = 0
    for char in url:
        piece = f"⟨U+{ord(char):04X}⟩" if _is_hidden(char) else char
        if length + len(piece) > max_length:
            shown.append("…")
            break
        shown.append(piece)
        length += len(piece)
    return "".join(shown)


def _scheme_of(url: str, max_length: int) -> str:
    if len(url) > max_length:
        raise _Refused(
            f"The link is {len(url)} characters long (the limit is {max_length}); "
            "no genuine page needs a link that long."
        )
    hidden = _first_hidden_char(url)
    if hidden is not None:
        raise _Refused(
            f"The link contains a space, or an invisible or control character ({_describe_char(hidden)}), "
            "so it could look like one address and open another."
        )
    if "\\" in url:
        raise _Refused(
            "The link contains a backslash, which browsers read as '/': it may not go where it seems to."
        )
    match = _SCHEME.match(url)
    if match is None:
        raise _Refused("This is not a web link: it does not start with http:// or https://.")
    scheme = match.group()[:-1].lower()
    if scheme not in ("http", "https"):
        raise _Refused(f"Links of type '{scheme}:' are never opened; only http:// and https:// links are.")
    return scheme


def _inspect_web_url(url: str, scheme: str) -> UrlInspection:
    # Browsers skip any run of slashes and backslashes after "http:", then read the authority up to the
    # next slash, backslash, "?" or "#" (WHATWG "special authority ignore slashes" state).
    rest = url[len(scheme) + 1 :].lstrip("/\\")
    end = _AUTHORITY_END.search(rest)
    authority = rest if end is None else rest[: end.start()]
    userinfo, at, hostport = authority.rpartition("@")
    warnings: list[UrlWarning] = []

    if hostport.startswith("["):
        host, is_loopback, port_text = _ipv6_host(hostport)
        unicode_host = None
        if not is_loopback:
            warnings.append(
                UrlWarning(
                    "ip-address",
                    f"The link goes to a bare IP address ({host}), not to a named site, so you "
                    "cannot tell whose site it is.",
                )
            )
    else:
        raw_host, colon, port_text_or_empty = hostport.partition(":")
        port_text = port_text_or_empty if colon else None
        host, unicode_host, is_loopback = _named_or_ipv4_host(raw_host, warnings)
    port = _port(port_text)

    if at:
        shown = userinfo if len(userinfo) <= 60 else userinfo[:57] + "..."
        warnings.insert(
            0,
            UrlWarning(
                "userinfo",
                f"The link has '{shown}@' in front of the real address. Browsers ignore that part: "
                f"this link opens {host}, not {shown}.",
            ),
        )
    if scheme == "http" and not is_loopback:
        warnings.append(
            UrlWarning(
                "not-https",
                "The link is not encrypted (http://, not https://): others on the network can read "
                "or change what you send.",
            )
        )
    return UrlInspection(
        url=url,
        scheme=scheme,
        host=host,
        unicode_host=unicode_host,
        port=port,
        is_loopback=is_loopback,
        warnings=tuple(warnings),
    )


def _ipv6_host(hostport: str) -> tuple[str, bool, str | None]:
    close = hostport.find("]")
    if close == -1:
        raise _Refused("The link's address is malformed (an IPv6 address without its closing ']').")
    after = hostport[close + 1 :]
    if after and not after.startswith(":"):
        raise _Refused("The link's address is malformed (text after the IPv6 address).")
    literal = hostport[1:close]
    if "%" in literal:  # a zone id (fe80::1%25eth0): local-link only, and browsers refuse it
        raise _Refused("The link's address names a network interface (an IPv6 zone id); browsers refuse it.")
    try:
        address = ipaddress.IPv6Address(literal)
    except ValueError:
        raise _Refused("The link's address is not a valid IPv6 address.") from None
    mapped = address.ipv4_mapped
    is_loopback = address.is_loopback or (mapped is not None and mapped.is_loopback)
    return f"[{address.compressed}]", is_loopback, (after[1:] if after else None)


def _named_or_ipv4_host(raw_host: str, warnings: list[UrlWarning]) -> tuple[str, str | None, bool]:
    """The ASCII host, its Unicode form if it is an international name, and whether it is this machine."""
    host = raw_host
    if "%" in host:
        try:
            host = unquote(host, errors="strict")
        except UnicodeDecodeError:
            raise _Refused("The link's host name has percent-escapes that are not valid text.") from None
        hidden = _first_hidden_char(host)
        if hidden is not None:
            raise _Refused(
                f"The link's host name hides a control character ({_describe_char(hidden)}) "
                "behind percent-escapes."
            )
    if not host:
        raise _Refused("The link has no host name.")

    ascii_host = _to_ascii(host)
    if raw_host != host:
        warnings.append(
            UrlWarning(
                "encoded-host",
                f"The host name is disguised with percent-escapes ('{raw_host}'); "
                f"the browser will open {ascii_host}.",
            )
        )
    ipv4 = _parse_ipv4(ascii_host)
    if ipv4 is not None:
        dotted = str(ipv4)
        if ascii_host.rstrip(".") != dotted:
            warnings.append(
                UrlWarning(
                    "ip-notation",
                    f"The address '{raw_host}' is an IP address written in an unusual form to hide it; "
                    f"the browser will open {dotted}.",
                )
            )
        if not ipv4.is_loopback:
            warnings.append(
                UrlWarning(
                    "ip-address",
                    f"The link goes to a bare IP address ({dotted}), not to a named site, so you "
                    "cannot tell whose site it is.",
                )
            )
        return dotted, None, ipv4.is_loopback

    unicode_host = _to_unicode(ascii_host)
    if unicode_host != ascii_host or "xn--" in ascii_host:
        warnings.append(
            UrlWarning(
                "punycode",
                f"The site name uses international characters: it looks like '{unicode_host}' but the "
                f"real address is {ascii_host}. Look-alike letters can imitate a well-known site.",
            )
        )
    else:
        unicode_host = None
    bare = ascii_host.rstrip(".")
    is_loopback = bare == "localhost" or bare.endswith(".localhost")
    return ascii_host, unicode_host, is_loopback


def _to_ascii(host: str) -> str:
    """The host as a browser sends it: lower case, international labels in punycode (UTS #46)."""
    if host.isascii():
        ascii_host = host.lower()
    else:
        try:
            ascii_host = idna.encode(host, uts46=True).decode("ascii")
        except (idna.IDNAError, UnicodeError, ValueError):
            raise _Refused("The link's host name is not a valid international domain name.") from None
    if not _HOST_CHARS.fullmatch(ascii_host) or ".." in ascii_host or ascii_host.startswith("."):
        raise _Refused("The link's host name contains characters no real site name has.")
    return ascii_host


def _to_unicode(ascii_host: str) -> str:
    if "xn--" not in ascii_host:
        return ascii_host
    trailing_dot = ascii_host.endswith(".")
    try:
        shown = idna.decode(ascii_host.rstrip("."))
    except (idna.IDNAError, UnicodeError, ValueError):
        raise _Refused("The link's host name has an invalid 'xn--' (punycode) part.") from None
    return shown + ("." if trailing_dot else "")


def _parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """WHATWG IPv4 parsing: ``None`` if the host is a name; refusal if it looks numeric but is invalid.

    Browsers read a host whose last label is a number as IPv4, with 1 to 4 parts, each decimal, octal
    (leading ``0``) or hex (``0x``): ``3232235777``, ``0xC0.0xA8.1.1``, ``0300.0250.1.1`` and ``192.168.257``
    all reach a real address.
    """
    labels = host.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()
    if not _is_ipv4_number(labels[-1]):
        return None
    if len(labels) > 4:
        raise _Refused("The link's address looks like an IP address but is not a valid one.")
    numbers = [_ipv4_number(label) for label in labels]
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise _Refused("The link's address looks like an IP address but is out of range.")
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value += number * 256 ** (3 - index)
    return ipaddress.IPv4Address(value)


def _is_ipv4_number(label: str) -> bool:
    if label.isdigit() and label.isascii():
        return True
    return label[:2] in ("0x", "0X") and _HEX.fullmatch(label[2:]) is not None


def _ipv4_number(label: str) -> int:
    try:
        if label[:2] in ("0x", "0X"):
            return int(label[2:] or "0", 16)
        if len(label) > 1 and label.startswith("0"):
            return int(label[1:], 8)
        return int(label, 10)
    except ValueError:
        raise _Refused("The link's address looks like an IP address but is not a valid one.") from None


def _port(port_text: str | None) -> int | None:
    if not port_text:
        return None
    if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
        raise _Refused("The link's port number is not valid.")
    return int(port_text)


def _first_hidden_char(text: str) -> str | None:
    return next((char for char in text if _is_hidden(char)), None)


def _is_hidden(char: str) -> bool:
    return unicodedata.category(char) in _HIDDEN_CATEGORIES or char in _BLANK_LETTERS


def _describe_char(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}".rstrip()
