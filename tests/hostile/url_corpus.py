"""Deceptive links a hostile server may ask a person to open, with the verdict each must get.

Only what tests/ui_adapters/test_url_safety.py does not already cover: more schemes and spellings of
them, userinfo, fragment and query tricks, look-alike and mapped host names, loopback and metadata
addresses in unusual notations, hidden characters of every Unicode category, and length.
``REFUSED`` entries carry a fragment of the refusal; ``WARNED`` entries the host a browser would
really open and the exact warning codes.
"""

from __future__ import annotations

REFUSED: list[tuple[str, str]] = [
    # schemes, however they are spelled
    ("JAVASCRIPT:alert(1)", "'javascript:'"),
    ("javascript://pay.example.com/%0Aalert(1)", "'javascript:'"),
    (" javascript:alert(1)", "U+0020"),
    ("jav\tascript:alert(1)", "U+0009"),
    ("DATA:,hello", "'data:'"),
    ("file://attacker.example/share/payload", "'file:'"),
    ("FILE:///C:/Windows/System32/calc.exe", "'file:'"),
    ("blob:https://pay.example.com/0b6a", "'blob:'"),
    ("view-source:https://pay.example.com/", "'view-source:'"),
    ("intent://scan/#Intent;scheme=zxing;end", "'intent:'"),
    ("ws://evil.example/socket", "'ws:'"),
    ("about:blank", "'about:'"),
    # host names that cannot be read one way only
    ("https://bank.com%40evil.example/", "characters no real site name has"),
    ("https://%2e%2e/", "characters no real site name has"),
    ("https://./", "characters no real site name has"),
    ("https://paypal.com\u2024evil.example/", "international domain name"),
    ("https://pay.example.com:65536/", "port"),
    # hidden characters anywhere in the link, one per Unicode category that hides
    ("https://pay.example.com/\u2028next-line", "U+2028"),
    ("https://pay.example.com/soft\u00adhyphen", "U+00AD"),
    ("https://pay.example.com/\u061carabic-mark", "U+061C"),
    ("https://pay.example.com/\U000e0041tag", "U+E0041"),
    ("https://pay.example.com/\ue000private", "U+E000"),
    ("https://pay.example.com/\u2066isolate\u2069", "U+2066"),
    ("https://pay.example.com/\x85next-line-c1", "U+0085"),
    ("https://pay.example.com/bell\x07", "U+0007"),
    ("https://pay.example.com/\x1b]8;;https://evil.example\x1b\\x", "U+001B"),
    ("https://pay.example.com\r\n\r\nHTTP/1.1 200 OK", "U+000D"),
    # length
    ("https://" + "a" * 5000 + ".com/", "characters long"),
    ("https://pay.example.com/?q=" + "%41" * 2000, "characters long"),
]

WARNED: list[tuple[str, str, set[str]]] = [
    ("https://bank.com:443@evil.example/", "evil.example", {"userinfo"}),
    ("http://bank.example@127.0.0.1:8080/secret", "127.0.0.1", {"userinfo"}),
    ("https://аррӏе.com/", "xn--80ak6aa92e.com", {"punycode"}),  # all-Cyrillic "apple"
    ("https://pаypal.com/", "xn--pypal-4ve.com", {"punycode"}),  # one Cyrillic letter
    # an international name in a later label warns like one in the first
    ("https://login.xn--pple-43d.com/", "login.xn--pple-43d.com", {"punycode"}),
    ("https://login.аpple.com/", "login.xn--pple-43d.com", {"punycode"}),
    ("https://0x7f.1/", "127.0.0.1", {"ip-notation"}),
    ("http://127.1/", "127.0.0.1", {"ip-notation"}),
    ("http://0177.0.0.1/", "127.0.0.1", {"ip-notation"}),
    ("https://017700000001/", "127.0.0.1", {"ip-notation"}),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254", {"ip-address", "not-https"}),
    ("http://0/", "0.0.0.0", {"ip-address", "ip-notation", "not-https"}),
    ("https://1.1.1.1/", "1.1.1.1", {"ip-address"}),
    ("https://ex%61mple.com/", "example.com", {"encoded-host"}),
]

# Honest-looking links whose host is still what the person must check (no warning, but the Site line
# shows the real host, which is not the name at the start of the link).
HOST_IS_NOT_THE_FIRST_NAME: list[tuple[str, str]] = [
    ("https://evil.example#@bank.com", "evil.example"),
    ("https://evil.example?@bank.com", "evil.example"),
    ("https://bank.com.evil.example/login", "bank.com.evil.example"),
    ("https://pay.example.com\u3002evil.example/", "pay.example.com.evil.example"),
]
