"""Accounts and roles, for an app served to a team (SECURITY.md, "Serving the app to a team").

Without accounts the app serves one person on this machine and every screen is theirs. With
accounts (``python -m engine accounts add``), everyone signs in and works under a role:

- **lead**: everything (settings, knowledge base, answer library, questionnaires, review, export);
- **reviewer**: questionnaires and Review (decides and assigns any row);
- **expert**: Review and My questions, deciding only the rows assigned to them (:func:`require_row`).

:func:`require` is the check at the engine's entries the app calls (settings, knowledge-base and
library writes, questionnaire uploads, decisions, export). Who is calling is told by the app
(:func:`set_caller`: the signed-in account of the Streamlit session being run); a command line,
a test, or a background thread started by an allowed action (a drafting run) has no caller and
is not limited (whoever runs ``python -m engine`` can read the workspace's files anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable

from engine.core.people import same


class Permission(str, Enum):
    """What a role may do; each screen and each write entry names the one it needs."""

    SETTINGS = "change the settings"
    KNOWLEDGE_BASE = "change the knowledge base"
    LIBRARY = "change the answer library"
    QUESTIONNAIRE = "add or draft a questionnaire"
    EXPORT = "export answers"
    DECIDE = "decide on a row"
    ASSIGN = "assign rows"


class Role(str, Enum):
    LEAD = "lead"
    REVIEWER = "reviewer"
    EXPERT = "expert"

    @property
    def permissions(self) -> frozenset[Permission]:
        return _GRANTS[self]

    def may(self, permission: Permission) -> bool:
        return permission in _GRANTS[self]


_GRANTS: dict[Role, frozenset[Permission]] = {
    Role.LEAD: frozenset(Permission),
    Role.REVIEWER: frozenset({Permission.QUESTIONNAIRE, Permission.DECIDE, Permission.ASSIGN}),
    Role.EXPERT: frozenset({Permission.DECIDE}),  # on the rows assigned to them (engine/review)
}


@dataclass(frozen=True)
class Account:
    """A person who signs in: the name their work is recorded under, and their role. The times
    are ISO 8601 UTC (``last_sign_in`` None: never signed in). ``credential`` changes with every
    new password (``accounts add`` and ``accounts passwd`` draw a new one): a session remembers the
    one it signed in with and ends when it is no longer the account's (None: an account made
    before credentials were kept, until its next password)."""

    name: str
    role: Role
    created: str
    password_changed: str
    last_sign_in: str | None = None
    credential: str | None = None

    def may(self, permission: Permission) -> bool:
        return self.role.may(permission)


class NotAllowed(PermissionError):
    """An action the signed-in account's role does not allow (or no one signed in while the
    workspace has accounts); nothing was done."""

    def __init__(self, account: Account | None, permission: Permission, held_by: str | None = None) -> None:
        self.account, self.permission = account, permission
        if account is not None and held_by is not None:
            super().__init__(
                f"{account.name} ({account.role.value}) may decide only the rows assigned to them, and this one is "
                f"assigned to {held_by}; nothing was done. Ask a lead or a reviewer to assign it to you"
            )
        elif account is None:
            super().__init__(f"sign in to {permission.value}; nothing was done")
        else:
            leads = "ask a lead to do it, or to change your role (`python -m engine accounts add NAME --role …`)"
            super().__init__(
                f"{account.name} ({account.role.value}) may not {permission.value}; nothing was done. {leads}"
            )


class _Nobody:
    """The caller of a session that has not signed in while the workspace has accounts."""

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = _Nobody()
Caller = Account | _Nobody | None  # None: not a session (the CLI, a test, a background thread)
_caller: Callable[[], Caller] = lambda: None  # noqa: E731


def set_caller(lookup: Callable[[], Caller]) -> None:
    """How the engine learns who is calling: the app installs a lookup of the signed-in account
    of the session being run (None outside a session: a background thread)."""
    global _caller
    _caller = lookup


def caller() -> Caller:
    return _caller()


def acting_account() -> Account | None:
    """The signed-in account calling now, if any (a name for the work done in this call)."""
    found = _caller()
    return found if isinstance(found, Account) else None


def require_row(holder: Callable[[], str | None]) -> None:
    """Raise :class:`NotAllowed` when an expert's session decides on a row not assigned to them
    (``holder``: who holds the row, asked only for an expert)."""
    account = acting_account()
    if account is not None and account.role is Role.EXPERT:
        held = holder()
        if not same(held, account.name):
            raise NotAllowed(account, Permission.DECIDE, held or "nobody")


def require(permission: Permission) -> None:
    """Raise :class:`NotAllowed` when a session is calling without the right role (or without
    having signed in while the workspace has accounts); calls from outside a session pass."""
    found = _caller()
    if found is None:
        return
    if isinstance(found, _Nobody):
        raise NotAllowed(None, permission)
    if not found.may(permission):
        raise NotAllowed(found, permission)
