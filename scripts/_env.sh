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
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
}
