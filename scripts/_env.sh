# Shared by scripts/start and scripts/test: find Python 3.11+ and make .venv with Parley in it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

find_python() {
    for candidate in python3.13 python3.12 python3.11 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Parley needs Python 3.11 or newer; none was found on PATH." >&2
    return 1
}

ensure_venv() {
    local extras="$1"
    if [ ! -x .venv/bin/python ]; then
        "$(find_python)" -m venv .venv
        .venv/bin/python -m pip install --quiet --upgrade pip
    fi
    # The install builds the native Diplomacy core when a C compiler is present.
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
    if ! PARLEY_DIPLOMACY_ENGINE=auto .venv/bin/python -c \
        'import sys; from parley.games.diplomacy import native; sys.exit(not native.available())' \
        2>/dev/null; then
        echo "Parley: the native Diplomacy core is not built (no C compiler?);" \
            "Diplomacy runs on the pure-Python engine." >&2
    fi
}
