"""Accounts: unique usernames, optional passwords (scrypt), bearer tokens stored hashed."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
import threading
import time

from . import store
from .clock import Clock
from .errors import BadRequest, Unauthorized
from .store import Store
from .vocab import UserRecord

USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$")
# scrypt: ~16 MiB and a few tens of milliseconds per guess.
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1


def check_username(name: str) -> str:
    if not USERNAME.fullmatch(name):
        raise BadRequest(
            "a username is 2–32 characters: letters, digits, '_', '.', '-', "
            "starting with a letter or digit",
            field="username",
        )
    return name


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(
        password.encode(), salt=salt, n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P, dklen=32
    )
    b64 = base64.urlsafe_b64encode
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def verify_password(password: str, encoded: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = encoded.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.urlsafe_b64decode(digest)
        got = hashlib.scrypt(
            password.encode(),
            salt=base64.urlsafe_b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


@functools.cache
def _decoy() -> str:
    """A hash no password matches the way it is used (its account does not exist)."""
    return hash_password(secrets.token_urlsafe(24))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Sign-up, log-in and token checks.

    Checked tokens are remembered for `cache_seconds`: a token revoked through another
    server process stops working here within that time (at once through this one).
    """

    def __init__(self, db: Store, clock: Clock, cache_seconds: float = 10.0) -> None:
        self.db = db
        self.clock = clock
        self.cache_seconds = cache_seconds
        self._known: dict[str, tuple[UserRecord, float]] = {}
        self._lock = threading.Lock()

    def register(self, username: str, password: str | None) -> tuple[UserRecord, str]:
        check_username(username)
        hashed = hash_password(password) if password else None
        token = secrets.token_urlsafe(32)
        now = self.clock.now()
        with self.db.write() as s:
            user = store.insert_user(s, username, hashed, now)
            store.insert_token(s, token_hash(token), user.id, now)
        return user, token

    def login(self, username: str, password: str) -> tuple[UserRecord, str]:
        with self.db.read() as s:
            found = store.user_with_password(s, username)
        # Every attempt costs one scrypt, so the time taken does not tell whether the name
        # exists or has a password.
        encoded = found[1] if found is not None and found[1] is not None else _decoy()
        if not verify_password(password, encoded) or found is None or found[1] is None:
            # One answer for every failure, so it does not tell which names exist.
            raise Unauthorized("wrong username or password (accounts without one keep their token)")
        token = secrets.token_urlsafe(32)
        with self.db.write() as s:
            store.insert_token(s, token_hash(token), found[0].id, self.clock.now())
        return found[0], token

    def logout(self, token: str) -> None:
        hashed = token_hash(token)
        with self._lock:
            self._known.pop(hashed, None)
        with self.db.write() as s:
            store.delete_token(s, hashed)

    def cached_user(self, token: str | None) -> UserRecord | None:
        """The token's user if it was checked recently (no database access)."""
        if not token or len(token) > 200:
            return None
        hashed = token_hash(token)
        with self._lock:
            known = self._known.get(hashed)
        if known is not None and time.monotonic() < known[1]:
            return known[0]
        return None

    def user_for(self, token: str | None) -> UserRecord:
        if not token or len(token) > 200:
            raise Unauthorized("this needs a bearer token: sign up at POST /api/users")
        cached = self.cached_user(token)
        if cached is not None:
            return cached
        hashed = token_hash(token)
        with self.db.read() as s:
            user = store.user_by_token(s, hashed)
        if user is None:
            raise Unauthorized("the token is not valid (revoked or never issued)")
        with self._lock:
            if len(self._known) > 50_000:
                self._known.clear()
            self._known[hashed] = (user, time.monotonic() + self.cache_seconds)
        return user
