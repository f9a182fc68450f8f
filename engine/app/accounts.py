"""The accounts of a workspace served to a team, as the app sees them: storage/accounts.py (the
service: hashing, sign-in, failures) re-exported here, so that ui/ reads it through engine.app and
never imports storage (.importlinter)."""

from storage.accounts import (
    IDLE_HOURS,
    LOCKOUT,
    MAX_FAILURES,
    MIN_PASSWORD,
    WRONG,
    Accounts,
    SignInRefused,
    idle_timeout,
    local_only,
)

__all__ = [
    "IDLE_HOURS",
    "LOCKOUT",
    "MAX_FAILURES",
    "MIN_PASSWORD",
    "WRONG",
    "Accounts",
    "SignInRefused",
    "idle_timeout",
    "local_only",
]
