"""`parley mcp` and `parley agent`: a Parley server's games for MCP clients and chat models."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Annotated, Literal

import typer

if TYPE_CHECKING:
    from .llm import Endpoint

Transport = Literal["stdio", "http"]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def mcp_command(
    server: Annotated[str, typer.Option(help="the Parley server's address")] = (
        "http://127.0.0.1:8000"
    ),
    token: Annotated[
        str | None, typer.Option(envvar="PARLEY_TOKEN", help="an account's bearer token")
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="register a new agent with this name instead")
    ] = None,
    transport: Annotated[str, typer.Option(help="stdio, or http (streamable HTTP)")] = "stdio",
    host: Annotated[str, typer.Option(help="where the http transport listens")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="where the http transport listens")] = 8765,
    mcp_token: Annotated[
        str | None,
        typer.Option(
            envvar="PARLEY_MCP_TOKEN",
            help="http: the bearer token MCP clients must send (default: one made and "
            "printed at start; required beyond loopback)",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(help="http: another name clients may reach this server by (Host check)"),
    ] = None,
    schema: Annotated[
        bool, typer.Option("--openai-schema", help="print the tools as OpenAI functions")
    ] = False,
) -> None:
    """Serve Parley's player tools over MCP (stdio or streamable HTTP)."""
    from .client import ParleyClient
    from .tools import build_server, openai_tools

    if transport not in ("stdio", "http"):
        raise _fail(f"the transport is stdio or http, not {transport!r}")
    if transport == "http" and not schema:
        from .serve import TokenRefused, server_token

        try:
            guard, made = server_token(mcp_token, host)
        except TokenRefused as err:
            raise _fail(str(err)) from err
    client = ParleyClient(server, token)
    mcp = build_server(client)
    if schema:
        typer.echo(json.dumps(asyncio.run(openai_tools(mcp)), indent=2))
        return
    if name:
        registered = asyncio.run(ParleyClient(server).register_agent(name))
        if "token" not in registered:
            raise _fail(f"could not register {name!r}: {registered}")
        client.token = registered["token"]
        typer.echo(f"registered {name}; token {client.token}", err=True)
    if not client.token:
        raise _fail("give --token (or PARLEY_TOKEN), or --name to register an agent")
    if transport == "stdio":
        mcp.run("stdio")
    else:
        from .serve import serve_http

        if made:  # shown once: the user passes it to the MCP client
            typer.echo(f"MCP clients send 'Authorization: Bearer {guard}'", err=True)
        typer.echo(f"serving MCP at http://{host}:{port}/mcp", err=True)
        serve_http(mcp, host=host, port=port, token=guard, allow_hosts=allow_host or ())


def agent_command(
    game: Annotated[str, typer.Argument(help="the id of the game to play")],
    server: Annotated[str, typer.Option(help="the Parley server's address")] = (
        "http://127.0.0.1:8000"
    ),
    token: Annotated[
        str | None, typer.Option(envvar="PARLEY_TOKEN", help="an account's bearer token")
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="register an agent with this name and join the game")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="the chat endpoint (or OPENAI_BASE_URL)")
    ] = None,
    model: Annotated[str | None, typer.Option(help="the model (or OPENAI_MODEL)")] = None,
    api_key: Annotated[
        str | None, typer.Option(help="the endpoint's key (or OPENAI_API_KEY)")
    ] = None,
    decisions: Annotated[int, typer.Option(min=1, help="stop after this many")] = 100_000,
    profile: Annotated[
        str | None,
        typer.Option(
            help="a model profile (NAME.toml or a path, as parley bench reads them): endpoint, "
            "model, key variable, temperature, token limit; instead of the three above"
        ),
    ] = None,
) -> None:
    """Play a seat with any OpenAI-compatible chat model, through the agent gateway."""
    from .client import ParleyClient
    from .llm import Endpoint, LLMPlayer

    try:
        if profile is not None:
            if base_url or model:
                raise ValueError("give --profile or --base-url/--model, not both")
            endpoint = _profile_endpoint(profile)
        else:
            endpoint = Endpoint.from_env(base_url, model, api_key)
    except ValueError as err:
        raise _fail(str(err)) from err

    async def run() -> object:
        client = ParleyClient(server, token)
        if name:
            registered = await client.register_agent(name)
            if "token" not in registered:
                raise _fail(f"could not register {name!r}: {registered}")
            joined = await client.join(game)
            if isinstance(joined, dict) and joined.get("ok") is False:
                raise _fail(f"could not join {game}: {joined}")
        if not client.token:
            raise _fail("give --token (or PARLEY_TOKEN), or --name to register and join")
        try:
            return await LLMPlayer(client, endpoint).play(game, decisions)
        finally:
            await client.aclose()

    final = asyncio.run(run())
    typer.echo(json.dumps(final, indent=2))


def _profile_endpoint(name: str) -> Endpoint:
    """The endpoint a bench profile names (ValueError saying what is wrong with it)."""
    from pathlib import Path

    from parley.kernel import ParleyError

    from ..bench.profile import load_profile
    from .llm import Endpoint

    path = Path(name)
    try:
        found = (
            load_profile(path.name, path.parent) if name.endswith(".toml") else load_profile(name)
        )
    except ParleyError as err:
        raise ValueError(err.message) from None
    return Endpoint(
        found.base_url,
        found.model,
        found.api_key(),
        temperature=found.temperature,
        max_tokens=found.max_tokens,
    )
