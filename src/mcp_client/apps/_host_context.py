"""The ``hostContext`` a view gets in answer to ``ui/initialize``: theme, style variables, display mode,
container dimensions, locale, time zone and platform (MCP Apps 2026-01-26, ``McpUiHostContext``).

The style variables are every one the ext-apps schema standardises (``McpUiStyleVariableKey``, 76 of
them), each with a light and a dark value. All of them, because the schema's ``McpUiStyles`` is a record
over that closed set of keys: a view is told to fall back on its own value for a variable the host leaves
out, so a host that gives some colours and not others gets clashing ones (the spec's own warning), and
a key outside the set fails the view's validation of the whole ``ui/initialize`` answer.

The values are resolved for the theme (a plain colour, not ``light-dark(...)``): a view that never sets
``color-scheme`` still gets the right colours. A theme change is therefore sent with the new theme's
variables (``AppBridge.set_host_context`` does it).
"""

from __future__ import annotations

import locale as _locale
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

Theme = Literal["light", "dark"]
DisplayMode = Literal["inline", "fullscreen", "pip"]
Platform = Literal["web", "desktop", "mobile"]

_SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
_MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace'

# name: (light, dark). Colours follow a neutral grey scale with blue info, red danger, green success and
# amber warning; sizes, fonts, radii and shadows are the same in both themes except the shadows' depth.
STYLE_VARIABLES: Mapping[str, tuple[str, str]] = {
    # Background colours
    "--color-background-primary": ("#ffffff", "#171717"),
    "--color-background-secondary": ("#f5f5f5", "#212121"),
    "--color-background-tertiary": ("#e5e5e5", "#2e2e2e"),
    "--color-background-inverse": ("#171717", "#fafafa"),
    "--color-background-ghost": ("rgba(0, 0, 0, 0.04)", "rgba(255, 255, 255, 0.06)"),
    "--color-background-info": ("#eff6ff", "#172554"),
    "--color-background-danger": ("#fef2f2", "#450a0a"),
    "--color-background-success": ("#f0fdf4", "#052e16"),
    "--color-background-warning": ("#fffbeb", "#451a03"),
    "--color-background-disabled": ("#f5f5f5", "#262626"),
    # Text colours
    "--color-text-primary": ("#171717", "#fafafa"),
    "--color-text-secondary": ("#525252", "#d4d4d4"),
    "--color-text-tertiary": ("#737373", "#a3a3a3"),
    "--color-text-inverse": ("#fafafa", "#171717"),
    "--color-text-ghost": ("#a3a3a3", "#737373"),
    "--color-text-info": ("#1d4ed8", "#93c5fd"),
    "--color-text-danger": ("#b91c1c", "#fca5a5"),
    "--color-text-success": ("#15803d", "#86efac"),
    "--color-text-warning": ("#b45309", "#fcd34d"),
    "--color-text-disabled": ("#a3a3a3", "#525252"),
    # Border colours
    "--color-border-primary": ("#d4d4d4", "#404040"),
    "--color-border-secondary": ("#e5e5e5", "#333333"),
    "--color-border-tertiary": ("#f0f0f0", "#262626"),
    "--color-border-inverse": ("#404040", "#d4d4d4"),
    "--color-border-ghost": ("rgba(0, 0, 0, 0.08)", "rgba(255, 255, 255, 0.10)"),
    "--color-border-info": ("#93c5fd", "#1e40af"),
    "--color-border-danger": ("#fca5a5", "#991b1b"),
    "--color-border-success": ("#86efac", "#166534"),
    "--color-border-warning": ("#fcd34d", "#92400e"),
    "--color-border-disabled": ("#e5e5e5", "#333333"),
    # Focus ring colours
    "--color-ring-primary": ("#171717", "#fafafa"),
    "--color-ring-secondary": ("#737373", "#a3a3a3"),
    "--color-ring-inverse": ("#fafafa", "#171717"),
    "--color-ring-info": ("#3b82f6", "#60a5fa"),
    "--color-ring-danger": ("#ef4444", "#f87171"),
    "--color-ring-success": ("#22c55e", "#4ade80"),
    "--color-ring-warning": ("#f59e0b", "#fbbf24"),
    # Typography: families and weights
    "--font-sans": (_SANS, _SANS),
    "--font-mono": (_MONO, _MONO),
    "--font-weight-normal": ("400", "400"),
    "--font-weight-medium": ("500", "500"),
    "--font-weight-semibold": ("600", "600"),
    "--font-weight-bold": ("700", "700"),
    # Typography: text and heading sizes
    "--font-text-xs-size": ("12px", "12px"),
    "--font-text-sm-size": ("14px", "14px"),
    "--font-text-md-size": ("16px", "16px"),
    "--font-text-lg-size": ("18px", "18px"),
    "--font-heading-xs-size": ("16px", "16px"),
    "--font-heading-sm-size": ("18px", "18px"),
    "--font-heading-md-size": ("20px", "20px"),
    "--font-heading-lg-size": ("24px", "24px"),
    "--font-heading-xl-size": ("30px", "30px"),
    "--font-heading-2xl-size": ("36px", "36px"),
    "--font-heading-3xl-size": ("48px", "48px"),
    # Typography: line heights
    "--font-text-xs-line-height": ("16px", "16px"),
    "--font-text-sm-line-height": ("20px", "20px"),
    "--font-text-md-line-height": ("24px", "24px"),
    "--font-text-lg-line-height": ("28px", "28px"),
    "--font-heading-xs-line-height": ("24px", "24px"),
    "--font-heading-sm-line-height": ("28px", "28px"),
    "--font-heading-md-line-height": ("28px", "28px"),
    "--font-heading-lg-line-height": ("32px", "32px"),
    "--font-heading-xl-line-height": ("36px", "36px"),
    "--font-heading-2xl-line-height": ("40px", "40px"),
    "--font-heading-3xl-line-height": ("52px", "52px"),
    # Border radius and width
    "--border-radius-xs": ("2px", "2px"),
    "--border-radius-sm": ("4px", "4px"),
    "--border-radius-md": ("8px", "8px"),
    "--border-radius-lg": ("12px", "12px"),
    "--border-radius-xl": ("16px", "16px"),
    "--border-radius-full": ("9999px", "9999px"),
    "--border-width-regular": ("1px", "1px"),
    # Shadows
    "--shadow-hairline": ("0 0 0 1px rgba(0, 0, 0, 0.08)", "0 0 0 1px rgba(255, 255, 255, 0.10)"),
    "--shadow-sm": ("0 1px 2px rgba(0, 0, 0, 0.06)", "0 1px 2px rgba(0, 0, 0, 0.40)"),
    "--shadow-md": ("0 4px 8px rgba(0, 0, 0, 0.08)", "0 4px 8px rgba(0, 0, 0, 0.45)"),
    "--shadow-lg": ("0 12px 24px rgba(0, 0, 0, 0.12)", "0 12px 24px rgba(0, 0, 0, 0.50)"),
}
"""Every standard style variable (``McpUiStyleVariableKey``) with its ``(light, dark)`` value."""


def style_variables(theme: Theme = "light") -> dict[str, str]:
    """The standard style variables' values for ``theme`` (``"light"`` or ``"dark"``), every one of them."""
    if theme not in ("light", "dark"):
        raise ValueError(f"theme must be 'light' or 'dark', not {theme!r}")
    index = 0 if theme == "light" else 1
    return {name: values[index] for name, values in STYLE_VARIABLES.items()}


def default_locale() -> str:
    """The user's locale as a BCP 47 tag (``en-US``), from the process's locale; ``en-US`` if unknown."""
    try:
        name = _locale.getlocale()[0]
    except ValueError:  # an unparsable LANG
        name = None
    if not name or name in ("C", "POSIX"):
        return "en-US"
    return name.split(".")[0].replace("_", "-")


def default_time_zone() -> str:
    """The user's IANA time zone (``Europe/Paris``): ``TZ``, else where ``/etc/localtime`` points, else
    ``UTC``."""
    configured = os.environ.get("TZ", "").lstrip(":")
    if "/" in configured or configured == "UTC":
        return configured
    try:
        target = Path("/etc/localtime").resolve(strict=True)
    except OSError:
        target = None
    if target is not None and "zoneinfo" in target.parts:
        parts = target.parts[target.parts.index("zoneinfo") + 1 :]
        if parts and parts[0] in ("posix", "right"):
            parts = parts[1:]
        if parts:
            return "/".join(parts)
    return "UTC"


def default_host_context(
    *,
    theme: Theme = "light",
    display_mode: DisplayMode = "inline",
    container_dimensions: Mapping[str, int | float] | None = None,
    locale: str | None = None,
    time_zone: str | None = None,
    platform: Platform = "web",
) -> dict[str, Any]:
    """A complete ``hostContext``: the theme and its style variables, the display mode (and the only one
    offered, ``inline``), the container (flexible by default, at most 800 px high: the view sizes itself and
    reports it with ``ui/notifications/size-changed``), locale, time zone and platform (``web``: a view is
    rendered in a browser)."""
    return {
        "theme": theme,
        "styles": {"variables": style_variables(theme)},
        "displayMode": display_mode,
        "availableDisplayModes": [display_mode],
        "containerDimensions": dict(container_dimensions or {"maxHeight": 800}),
        "locale": locale or default_locale(),
        "timeZone": time_zone or default_time_zone(),
        "platform": platform,
    }


_CHOICES: Mapping[str, tuple[str, ...]] = {
    "theme": ("light", "dark"),
    "displayMode": ("inline", "fullscreen", "pip"),
    "platform": ("web", "desktop", "mobile"),
}


def check_host_context(context: Mapping[str, Any]) -> None:
    """Refuse (``ValueError``) a ``hostContext`` field the view's SDK would reject, and with it the whole
    ``ui/initialize`` answer: a theme, display mode or platform outside the spec's choices, a style
    variable that is not a standard one, or one whose value is not a string."""
    for key, choices in _CHOICES.items():
        if key in context and context[key] not in choices:
            raise ValueError(f"hostContext {key} must be one of {', '.join(choices)}, not {context[key]!r}")
    styles = context.get("styles")
    if styles is None:
        return
    if not isinstance(styles, Mapping):
        raise ValueError(f"hostContext styles is a mapping ({{'variables': {{...}}}}), not {styles!r}")
    variables: object = styles.get("variables", {})  # pyright: ignore[reportUnknownMemberType]
    if not isinstance(variables, Mapping):
        raise ValueError("hostContext styles.variables maps standard style variable names to CSS values")
    for name, value in variables.items():  # pyright: ignore[reportUnknownVariableType]
        if name not in STYLE_VARIABLES:
            raise ValueError(
                f"{name!r} is no standard style variable (views refuse the whole context for it); "
                "mcp_client.apps.STYLE_VARIABLES lists them"
            )
        if not isinstance(value, str):
            raise ValueError(f"the style variable {name} is a CSS value (a string), not {value!r}")
