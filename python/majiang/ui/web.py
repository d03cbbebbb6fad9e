"""``majiang play --web``: textual-serve's server, with a page that loads nothing from
outside the machine.

textual-serve's page template links a web font from an outside host, although the game is
served on 127.0.0.1 only. :class:`LocalServer` serves the same template with every
stylesheet or script taken from another host left out, and the font it wanted (Roboto
Mono, which textual-serve ships in its own static files) declared from the local copy;
everything else is textual-serve's as installed.
"""

from __future__ import annotations

import re
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server

__all__ = ["LocalServer", "LocalTemplates", "external_references"]

# A <link ...> or <script ...></script> whose href or src names another host.
_EXTERNAL_TAG = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>"
    r"|<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script>",
    re.I | re.S,
)
_LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf");
      }
    </style>
  </head>"""

# What the page would load from: href= and src= attributes, CSS url() and @import.
_REFERENCE = re.compile(
    r"""\b(?:href|src)\s*=\s*["']?([^"'\s>]+)|url\(\s*["']?([^"')\s]+)|@import\s+["']([^"']+)""",
    re.I,
)


def external_references(html: str, host: str = "127.0.0.1") -> list[str]:
    """The addresses in `html` (attributes ``href``/``src``, CSS ``url()`` and
    ``@import``) that name a host other than `host`: what a browser would fetch from
    outside the machine."""
    out = []
    for m in _REFERENCE.finditer(html):
        ref = next(g for g in m.groups() if g)
        found = re.match(r"(?:[a-z][a-z0-9+.-]*:)?//([^/:?#]+)", ref, re.I)
        if found and found.group(1) != host:
            out.append(ref)
    return out


class LocalTemplates(jinja2.FileSystemLoader):
    """textual-serve's templates with every stylesheet and script from another host
    removed and the page's font declared from textual-serve's own static files."""

    def get_source(self, environment: jinja2.Environment, template: str) -> Any:
        source, filename, uptodate = super().get_source(environment, template)
        source = _EXTERNAL_TAG.sub("", source)
        if "</head>" in source and "@font-face" not in source:
            source = source.replace("</head>", _LOCAL_FONT, 1)
        return source, filename, uptodate


class LocalServer(Server):
    """textual-serve's :class:`~textual_serve.server.Server` serving the page through
    :class:`LocalTemplates`."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        aiohttp_jinja2.setup(app, loader=LocalTemplates(self.templates_path))
        return app
