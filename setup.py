"""Builds the optional native core of the Diplomacy engine (one C file, no other tools).

Everything else is configured in pyproject.toml. Without a working C compiler, or with
PARLEY_NATIVE=0, the build skips the extension and Parley runs on its pure-Python engine.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTE = "parley: no C compiler found; the Diplomacy engine will run on pure Python"


class OptionalBuildExt(build_ext):
    """Build the native core when possible; otherwise say so once and carry on."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler failure means: skip
            self._skip(error)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    def _skip(self, error: Exception) -> None:
        print(f"{NOTE} ({type(error).__name__}: {error})", file=sys.stderr)


SOURCE = Path(__file__).resolve().parent / "src/parley/games/diplomacy/_core.c"


def _extensions() -> list[Extension]:
    if os.environ.get("PARLEY_NATIVE", "1") == "0":
        return []
    flags = [] if os.name == "nt" else ["-O2", "-std=gnu11"]
    # The module remembers which source it was built from, so that an edited _core.c
    # without a rebuild is noticed (native.py then runs the Python engine and says so).
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    return [
        Extension(
            "parley.games.diplomacy._core",
            ["src/parley/games/diplomacy/_core.c"],
            extra_compile_args=flags,
            define_macros=[("PARLEY_CORE_SOURCE", f'"{digest}"')],
            optional=True,
        )
    ]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
