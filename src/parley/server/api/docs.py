"""`/docs`: the interactive API page, its Swagger UI files served from here, never a CDN.

The files come from the `fastapi-swagger` package (Swagger UI's own distribution), so the
page works on a machine with no network, and loads nothing from another host.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"


def assets_folder() -> Path:
    """Where the installed Swagger UI files are (`swagger-ui-bundle.js`, `swagger-ui.css`)."""
    return Path(str(resources.files("fastapi_swagger") / "resources"))


def install(app: FastAPI) -> None:
    """Serve `/docs` and its assets; the app must be made with `docs_url=None`."""

    @app.get("/docs", include_in_schema=False)
    def docs_page(request: Request) -> HTMLResponse:
        # Behind a proxy that mounts the server under a prefix, every URL carries it.
        root = str(request.scope.get("root_path", "")).rstrip("/")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title}: API",
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS}/favicon-32x32.png",
            # No validator badge: it would fetch an image from the validator's host.
            swagger_ui_parameters={"validatorUrl": None},
        )

    app.mount(ASSETS, StaticFiles(directory=assets_folder()), name="docs-assets")
