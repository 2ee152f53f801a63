"""Keeping a name: attach a password to it, or make a one-time recovery code for it.

A name signed up without a password has one key, the token in the browser that first used
it. From that browser the player can give the name a password (then log in anywhere), or
make a recovery code to write down: `POST /api/sessions/recover` with it signs in from
another browser once (the code is then spent; make a new one there).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select, update

from . import store
from .auth import Accounts, _decoy, hash_password, token_hash, verify_password
from .clock import Clock
from .db.models import User
from .errors import Forbidden, Unauthorized
from .store import Store
from .vocab import UserRecord

_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


def _code_hash(code: str) -> str:
    # Codes carry 100 random bits: a fast hash is enough (no dictionary to guess from).
    normal = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(f"parley-recovery:{normal}".encode()).hexdigest()


def new_code() -> str:
    chars = [secrets.choice(_ALPHABET) for _ in range(20)]
    return "-".join("".join(chars[i : i + 4]) for i in range(0, 20, 4))


class Reclaim:
    def __init__(self, db: Store, clock: Clock, accounts: Accounts) -> None:
        self.db = db
        self.clock = clock
        self.accounts = accounts

    def set_password(self, user: UserRecord, password: str, current: str | None) -> UserRecord:
        """Give the name a password, or change it (the current one is then needed)."""
        with self.db.read() as s:
            found = store.user_with_password(s, user.username)
        if found is None:
            raise Unauthorized("the account is gone")
        if found[1] is not None and (current is None or not verify_password(current, found[1])):
            raise Forbidden("to change a password, send the current one as 'current_password'")
        hashed = hash_password(password)
        with self.db.write() as s:
            s.execute(update(User).where(User.id == user.id).values(password_hash=hashed))
        self.accounts.forget_user(user.id)
        return UserRecord(user.id, user.username, True, user.created_at)

    def make_code(self, user: UserRecord) -> str:
        """A new recovery code for the name (any earlier one stops working)."""
        code = new_code()
        with self.db.write() as s:
            s.execute(update(User).where(User.id == user.id).values(recovery_hash=_code_hash(code)))
        return code

    def recover(self, username: str, code: str) -> tuple[UserRecord, str]:
        """Sign in with a recovery code; the code is spent."""
        with self.db.read() as s:
            row = s.execute(
                select(User.id, User.recovery_hash).where(User.username_key == username.lower())
            ).first()
        wanted = row[1] if row is not None and row[1] is not None else _decoy()
        if row is None or row[1] is None or not hmac.compare_digest(_code_hash(code), wanted):
            raise Unauthorized("wrong username or recovery code")
        token = secrets.token_urlsafe(32)
        with self.db.write() as s:
            spent = s.execute(
                update(User)
                .where(User.id == row[0], User.recovery_hash == row[1])
                .values(recovery_hash=None)
            )
            if spent.rowcount != 1:  # type: ignore[attr-defined]
                raise Unauthorized("wrong username or recovery code")  # used meanwhile
            store.insert_token(s, token_hash(token), row[0], self.clock.now())
            found = store.user_with_password(s, username)
        assert found is not None
        return found[0], token
