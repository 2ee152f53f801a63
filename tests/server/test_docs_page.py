"""`/docs` works offline: the page and its Swagger UI files come from the server itself."""

from __future__ import annotations

import re

import httpx

from .conftest import LiveServer


def test_docs_page_loads_nothing_from_another_host(live: LiveServer) -> None:
    page = httpx.get(f"{live.url}/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    html = page.text
    # No absolute or scheme-relative URL at all: nothing to fetch from a CDN.
    assert re.findall(r"(?:https?:)?//[\w.-]+", html) == []
    assert "validatorUrl" in html  # the validator badge (an image from its host) is off
    referenced = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    spec = re.search(r"url: ['\"]([^'\"]+)['\"]", html)
    assert spec is not None and spec.group(1) == "/openapi.json"
    wanted = {"swagger-ui-bundle.js": "javascript", "swagger-ui.css": "text/css"}
    for name, kind in wanted.items():
        url = next(u for u in referenced if u.endswith(name))
        assert url.startswith("/docs/assets/")
        asset = httpx.get(f"{live.url}{url}")
        assert asset.status_code == 200 and kind in asset.headers["content-type"]
        assert len(asset.content) > 50_000  # the real distribution, not a stub
    assert "SwaggerUIBundle" in httpx.get(f"{live.url}/docs/assets/swagger-ui-bundle.js").text
    icon = next(u for u in referenced if u.endswith(".png"))
    assert httpx.get(f"{live.url}{icon}").headers["content-type"] == "image/png"
    assert httpx.get(f"{live.url}/openapi.json").json()["info"]["title"] == "Parley"
    assert httpx.get(f"{live.url}/docs/assets/nothing.js").status_code == 404
