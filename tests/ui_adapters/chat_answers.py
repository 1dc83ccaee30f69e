"""What people type in a chat, per field kind, and what ``ChatForm`` must make of it.

Each table maps a typed reply to the value sent, or to ``REASK`` (the same question again, with a
reason). Hand-written rows hold the phrasings people really use; the generated rows after them widen
each table to at least 200 replies with values whose expected reading is plain arithmetic or calendar
fact, never a copy of the reader's rules. The conversation's clock is ``NOW`` (Saturday 5 December
2026, 10:00 at UTC+1), so "tomorrow" is 2026-12-06.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

REASK = object()
ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 12, 5, 10, 0, tzinfo=ZONE)

Row = tuple[str, Any]


def _cases(word: str) -> list[str]:
    return [
        word,
        word.upper(),
        word.capitalize(),
        f"{word}!",
        f" {word} ",
        f"{word}.",
        f"{word}?",
        f"{word.upper()}!",
    ]


# ------------------------------------------------------------------------------------------- yes / no
_YES_WORDS = [
    "yes",
    "y",
    "yeah",
    "yep",
    "yup",
    "sure",
    "ok",
    "okay",
    "true",
    "of course",
    "absolutely",
    "go ahead",
    "yes please",
    "correct",
]
_NO_WORDS = [
    "no",
    "n",
    "nope",
    "nah",
    "false",
    "no thanks",
    "no thank you",
    "not really",
    "negative",
    "do not",
    "off",
]
_NOT_YES_NO = [
    "maybe",
    "perhaps",
    "2",
    "yes no",
    "idk",
    "later",
    "hmm",
    "si",
    "ja",
    "nein",
    "yess",
    "noo",
    "dunno",
    "whatever",
    "possibly",
    "y n",
    "yes?no",
    "true false",
    "-",
    "???",
]
BOOLEAN: list[Row] = [
    *[(text, True) for word in _YES_WORDS for text in _cases(word)],
    *[(text, False) for word in _NO_WORDS for text in _cases(word)],
    *[(text, REASK) for text in _NOT_YES_NO],
]

# -------------------------------------------------------------------------------------------- numbers
INTEGER: list[Row] = [
    ("42", 42),
    ("1,200", 1200),
    ("1 200", 1200),
    ("1_200", 1200),
    ("1'200", 1200),
    ("12 people", 12),
    ("€12", 12),
    ("-5", -5),
    ("+7", 7),
    ("−4", -4),
    ("42.0", 42),
    ("1,234,567", 1234567),
    ("12kg", 12),
    ("  8  ", 8),
    ("about 30", 30),
    ("3.5", REASK),
    ("1,2", REASK),
    ("1.234", REASK),
    ("abc", REASK),
    ("2 or 3", REASK),
    ("twelve", REASK),
    ("1,20,0", REASK),
    ("10-12", REASK),
    ("12 and 14", REASK),
]
for n in [
    0,
    1,
    7,
    19,
    64,
    100,
    365,
    999,
    1000,
    1001,
    4096,
    12345,
    99999,
    100000,
    654321,
    1000000,
    2500000,
    31415926,
    271828182,
    1234567890,
]:
    INTEGER += [
        (str(n), n),
        (f"{n:,}", n),
        (f"{n:_}", n),
        (f"{n} items", n),
        (f"-{n:,}", -n),
        (f"{n:,} people", n),
        (f"#{n}", n),
        (f"{n}.5", REASK),
        (f"{n} or {n + 1}", REASK),
    ]
INTEGER += [("1234 567", REASK), ("12 34", REASK), ("1,2345", REASK), ("1 2", REASK), ("1 000 000", 1000000)]

NUMBER: list[Row] = [
    ("12.5", 12.5),
    ("12,5", 12.5),
    ("1,200.75", 1200.75),
    ("$3.20", 3.2),
    ("20%", 20),
    (".5", 0.5),
    ("-0.25", -0.25),
    ("7", 7),
    ("1e3", REASK),
    ("1.2.3", REASK),
    ("pi", REASK),
    ("3 or 4", REASK),
    ("1,234.5 kg", 1234.5),
    ("0,75", 0.75),
    ("100 000", 100000),
    ("9.99 €", 9.99),
]
for whole in [0, 3, 12, 99, 250, 1024, 4096, 65535, 123456, 7654321]:
    for cents in [5, 25, 50, 75, 99]:
        x = whole + cents / 100
        NUMBER += [(f"{x:.2f}", x), (f"{x:,.2f}", x), (f"-{x:.2f}", -x), (f"{x:.2f}m", x)]

# -------------------------------------------------------------------------------------------- choices
SIZES = [("sm", "Small"), ("md", "Medium"), ("lg", "Large"), ("xl", "Extra large")]
SINGLE_CHOICE: list[Row] = [
    ("sm", "sm"),
    ("Small", "sm"),
    ("small", "sm"),
    ("1", "sm"),
    ("the second", "md"),
    ("second one", "md"),
    ("last", "xl"),
    ("#3", "lg"),
    ("option 2", "md"),
    ("med", "md"),
    ("l", "lg"),
    ("e", "xl"),
    ("x", "xl"),
    ("m", "md"),
    ("Extra", "xl"),
    ("the first one", "sm"),
    ("number 4", "xl"),
    ("third", "lg"),
    ("5", REASK),
    ("0", REASK),
    ("huge", REASK),
    ("fifth", REASK),
    ("small and large", REASK),
    ("", REASK),
    ("tiny", REASK),
    ("xxl", REASK),
]
for index, (value, label) in enumerate(SIZES, start=1):
    SINGLE_CHOICE += [
        (text, value)
        for text in (
            *_cases(label.lower()),
            value,
            value.upper(),
            str(index),
            f"#{index}",
            f"option {index}",
            f"number {index}",
        )
    ]
    SINGLE_CHOICE += [(f"{label} please", REASK), (f"not {label}", REASK), (f"{label}{label}", REASK)]
for prefix_length in range(2, 5):
    SINGLE_CHOICE += [(label[:prefix_length], value) for value, label in SIZES]
SINGLE_CHOICE += [(str(n), REASK) for n in range(5, 90)]
SINGLE_CHOICE += [
    (word, REASK)
    for word in (
        "big",
        "mini",
        "jumbo",
        "regular",
        "normal",
        "petite",
        "massive",
        "giant",
        "wee",
        "grande",
        "venti",
        "tall",
        "short",
    )
]

TOPPINGS = [("salt", "Salt"), ("pepper", "Pepper"), ("sv", "Salt & vinegar"), ("chili", "Chili")]
MULTI_CHOICE: list[Row] = [
    ("salt, pepper", ["salt", "pepper"]),
    ("salt and pepper", ["salt", "pepper"]),
    ("Salt & vinegar", ["sv"]),
    ("1, 2", ["salt", "pepper"]),
    ("none", []),
    ("all", [v for v, _ in TOPPINGS]),
    ("pepper, pepper", ["pepper"]),
    ("sugar", REASK),
    ("sal", REASK),
    ("chili; salt", ["chili", "salt"]),
    ("salt & vinegar, chili", ["sv", "chili"]),
    ("pepper + chili", ["pepper", "chili"]),
    ("4", ["chili"]),
    ("nothing", []),
    ("everything", [v for v, _ in TOPPINGS]),
    ("salt, sugar", REASK),
    ("9", REASK),
]
_names = [(value, label) for value, label in TOPPINGS]
for first in range(4):
    for second in range(4):
        a, b = _names[first], _names[second]
        expected = [a[0]] if a == b else [a[0], b[0]]
        MULTI_CHOICE += [
            (f"{a[1]}, {b[1]}", expected),
            (f"{first + 1}, {second + 1}", expected),
            (f"{a[1].lower()} / {b[1].lower()}", expected),
            (f"{first + 1}; {second + 1}", expected),
        ]
        if "&" not in a[1] + b[1] and a != b:
            MULTI_CHOICE += [(f"{a[1]} and {b[1]}", expected), (f"{a[1]} & {b[1]}", expected)]
for value, label in TOPPINGS:
    MULTI_CHOICE += [(text, [value]) for text in _cases(label.lower())]
    MULTI_CHOICE += [(f"{label}, ketchup", REASK), (f"{label}{label}", REASK)]
MULTI_CHOICE += [(f"{n}, 1", REASK) for n in range(5, 60)]
MULTI_CHOICE += [(f"1, {n}", REASK) for n in range(5, 20)]

# ----------------------------------------------------------------------------------------------- dates
DATE: list[Row] = [
    ("2026-12-24", "2026-12-24"),
    ("24 Dec", "2026-12-24"),
    ("Dec 24", "2026-12-24"),
    ("December 24, 2026", "2026-12-24"),
    ("tomorrow", "2026-12-06"),
    ("today", "2026-12-05"),
    ("next friday", "2026-12-11"),
    ("friday", "2026-12-11"),
    ("in 3 days", "2026-12-08"),
    ("24/12/2026", "2026-12-24"),
    ("5 Jan", "2027-01-05"),
    ("in 2 weeks", "2026-12-19"),
    ("garbage", REASK),
    ("2", REASK),
    ("2026-13-01", REASK),
    ("the day after", REASK),
    ("12", REASK),
    ("not sure", REASK),
    ("soon", REASK),
    ("yes", REASK),
]
_day = date(2027, 1, 1)
while len(DATE) < 220:
    iso = _day.isoformat()
    DATE += [
        (iso, iso),
        (f"{_day.day} {_day:%B} {_day.year}", iso),
        (f"{_day:%b} {_day.day} {_day.year}", iso),
    ]
    _day += timedelta(days=9)

DATE_TIME: list[Row] = [
    ("2026-12-24T19:30:00Z", "2026-12-24T19:30:00Z"),
    ("2026-12-24 19:30", "2026-12-24T19:30:00+01:00"),
    ("tomorrow 7pm", "2026-12-06T19:00:00+01:00"),
    ("next friday at 18:30", "2026-12-11T18:30:00+01:00"),
    ("24 Dec 2026 8:15am", "2026-12-24T08:15:00+01:00"),
    ("2026-12-24T19:30:00+05:00", "2026-12-24T19:30:00+05:00"),
    ("tomorrow 7pm UTC", "2026-12-06T19:00:00Z"),  # a zone typed in words is the person's, kept
    ("24 Dec 2026 19:30 +0200", "2026-12-24T19:30:00+02:00"),
    ("whenever", REASK),
    ("7", REASK),
    ("later today-ish", REASK),
]
_moment = datetime(2027, 2, 1, 8, 0, tzinfo=UTC)
while len(DATE_TIME) < 210:
    local = _moment.astimezone(ZONE)
    zulu = _moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    DATE_TIME += [
        (zulu, zulu),
        (local.strftime("%Y-%m-%d %H:%M"), local.isoformat(timespec="seconds")),
        (local.strftime("%d %B %Y %H:%M"), local.isoformat(timespec="seconds")),
    ]
    _moment += timedelta(days=3, hours=5, minutes=35)

# ------------------------------------------------------------------------------------------------ text
TEXT: list[Row] = [
    ("Ada Lovelace", "Ada Lovelace"),
    ("  padded  ", "padded"),
    ("x", REASK),
    ("a" * 41, REASK),
    ("Ünïcödé ✓", "Ünïcödé ✓"),
    ("two  spaces", "two  spaces"),
]
for n in range(2, 41):
    TEXT += [
        ("b" * n, "b" * n),
        (f"note {n}", f"note {n}"),
        (f" {n:03d} ", f"{n:03d}"),
        (f"line {n}!", f"line {n}!"),
        (f"#{n}", f"#{n}"),
    ]

EMAIL: list[Row] = [
    ("ada@example.com", "ada@example.com"),
    (" ada@example.com ", "ada@example.com"),
    ("not an email", REASK),
    ("ada@", REASK),
    ("@example.com", REASK),
    ("ada example.com", REASK),
]
for n in range(65):
    EMAIL += [
        (f"user{n}@example.org", f"user{n}@example.org"),
        (f"user{n}.example.org", REASK),
        (f"first.last+{n}@mail.example.com", f"first.last+{n}@mail.example.com"),
    ]

URI: list[Row] = [("https://example.com", "https://example.com"), ("not a link", REASK), ("example", REASK)]
for n in range(66):
    URI += [
        (f"https://example.com/page/{n}", f"https://example.com/page/{n}"),
        (f"mailto:user{n}@example.com", f"mailto:user{n}@example.com"),
        (f"page {n}", REASK),
    ]
