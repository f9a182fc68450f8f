"""Sign-in, for a workspace served to a team (engine/app/accounts.py; SECURITY.md, "Serving the
app to a team"). Without accounts nothing is asked: one person on this machine, every screen.
With accounts, :func:`signed_in` shows the sign-in form in place of every screen until its
session signs in; the account is read again at every run (a removed account, a new password or
a changed role counts at the next click: the session keeps the account's credential it signed in
with), and a session idle for longer than ``RFP_SESSION_IDLE_HOURS`` (8 h) is signed out. The
engine does the checking (the password, the failures, the roles): this module only asks,
remembers who signed in this session, and tells the engine who is calling
(``engine.core.accounts.set_caller``), so its write entries refuse a role that may not.

It also keeps, for the server (ui/served.py), which sessions may upload files (:func:`may_upload`):
each run of a session records whether it is signed in (or the workspace has no accounts)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Sequence

import streamlit as st
from streamlit.navigation.page import StreamlitPage
from streamlit.runtime.scriptrunner import get_script_run_ctx

from engine.app.accounts import Accounts, SignInRefused, idle_timeout, local_only
from engine.core.accounts import NOBODY, Account, Caller, Permission, Role, acting_account, set_caller
from engine.core.people import same
from engine.core.types import StoreDamaged
from ui.components.messages import escape_md
from ui.resources import workspace_folder

SCREEN_NEEDS: dict[str, Permission] = {  # what a role needs to open each screen (engine/core/accounts.py)
    "screens/knowledge_base.py": Permission.KNOWLEDGE_BASE,
    "screens/questionnaire.py": Permission.QUESTIONNAIRE,
    "screens/review.py": Permission.DECIDE,
    "screens/my_questions.py": Permission.DECIDE,
    "screens/export.py": Permission.EXPORT,
    "screens/settings.py": Permission.SETTINGS,
}
SESSION = "signed_in"  # session_state: (account name, time.monotonic() of its last click, its credential)
ENDED = "sign_in_ended"  # session_state: why the last session ended, said above the form
# session id → who may upload files in that session (:func:`may_upload`): None when the workspace has
# no accounts, else (the accounts, the signed-in name, its credential, time.monotonic() of its last
# run). Written by each run of the session (:func:`signed_in`), read by the server (ui/served.py).
_uploads: dict[str | None, tuple[Accounts, str, str | None, float] | None] = {}


@st.cache_resource(show_spinner=False)
def _accounts(folder: str) -> Accounts:
    return Accounts(Path(folder))


def accounts() -> Accounts:
    """This process's view of the workspace's accounts (opened when a file is there)."""
    return _accounts(str(workspace_folder()))


def _held() -> Account | None:
    """The account this session signed in as, while it exists and the session is not idle for
    too long (nothing is changed: callbacks ask too, before the page runs)."""
    held = st.session_state.get(SESSION)
    if not held:
        return None
    name, last, credential = held
    if time.monotonic() - last > idle_timeout().total_seconds():
        return None
    account = accounts().get(name)
    return account if account is not None and account.credential == credential else None


def _caller() -> Caller:
    """Who calls the engine now: None outside a session's run (a background thread, a command),
    else the signed-in account, or NOBODY when the workspace has accounts and none signed in."""
    if get_script_run_ctx(suppress_warning=True) is None or not accounts().exist():
        return None
    return _held() or NOBODY


set_caller(_caller)


def signed_in(pages: Sequence[StreamlitPage] = ()) -> Account | None:
    """None when the workspace has no accounts; else the signed-in account (its last click is
    now), or the sign-in form in place of the page (``st.stop``). ``pages``: every screen, in a
    hidden navigation under the form, so the address asked for is the one opened after signing in
    when the role may open it (none of them runs)."""
    _uploads.pop(_session_id(), None)
    if not accounts().exist():  # a damaged accounts file raises StoreDamaged: the app serves no one
        st.session_state.pop(SESSION, None)
        address = st.get_option("server.address")
        if not local_only(address):  # started around `python -m engine serve`: serve no one
            st.error(
                f"This app listens on {escape_md(address or 'every address')}, beyond this machine, and its "
                f"workspace has no account, so it shows nothing. Add one (`python -m engine accounts add NAME "
                f"--role lead --store {str(workspace_folder()).replace('`', '')}`) and reload, or start it with `make run` "
                "(this machine only).",
                icon=":material/lock:",
            )
            st.stop()
        _uploads[_session_id()] = None
        return None
    held = st.session_state.get(SESSION)
    account = _held()
    if account is not None:
        st.session_state[SESSION] = (account.name, time.monotonic(), account.credential)
        _uploads[_session_id()] = (accounts(), account.name, account.credential, time.monotonic())
        with st.sidebar:
            st.caption(f"Signed in as **{escape_md(account.name)}** ({account.role.value})")
            st.button("Sign out", key="sign_out", on_click=_sign_out, icon=":material/logout:")
        return account
    if held:
        st.session_state.pop(SESSION, None)
        st.session_state[ENDED] = (
            f"Your session ended after {_hours(idle_timeout().total_seconds())} without a click, or its "
            "account was removed or given a new password: sign in again."
        )
    if pages:
        st.navigation(list(pages), position="hidden")
    _form()
    st.stop()


def _hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:g} hour{'s' if hours != 1 else ''}" if hours >= 1 else f"{round(seconds / 60)} minutes"


def _sign_out() -> None:
    st.session_state.pop(SESSION, None)
    st.session_state[ENDED] = "You signed out."


def _form() -> None:
    st.title("Sign in")
    st.caption("This app is served to a team: sign in with the name and password a lead gave you.")
    ended = st.session_state.pop(ENDED, None)
    if ended:
        st.info(ended, icon=":material/logout:")
    with st.form("sign_in", enter_to_submit=True):
        name = st.text_input("Name", key="sign_in_name", autocomplete="username")
        password = st.text_input("Password", type="password", key="sign_in_password", autocomplete="current-password")
        pressed = st.form_submit_button("Sign in", type="primary")
    if pressed:
        try:
            account = accounts().sign_in(name, password)
        except SignInRefused as exc:
            st.error(str(exc), icon=":material/lock:")
            return
        st.session_state[SESSION] = (account.name, time.monotonic(), account.credential)
        st.rerun()


def _session_id() -> str | None:
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else None


def may_upload(session_id: str) -> bool:
    """Whether the session ``session_id`` may upload a file now: its last run found it signed in
    (its account still there with the same credential, and not idle for too long), or found no
    accounts in the workspace. A session that never ran, or showed the sign-in form, may not."""
    if session_id not in _uploads:
        return False
    held = _uploads[session_id]
    if held is None:
        return True
    found, name, credential, last = held
    if time.monotonic() - last > idle_timeout().total_seconds():
        return False
    try:
        account = found.get(name)
    except StoreDamaged:
        return False
    return account is not None and account.credential == credential


EXPERT_NOTE = "As an expert you see and answer the rows assigned to you (My questions lists them)."


def may_open(screen: str) -> bool:
    """Whether this session may open ``screen`` (``screens/review.py``): always without accounts."""
    who = _caller()
    return who is None or (isinstance(who, Account) and who.may(SCREEN_NEEDS[screen]))


def screen_link(screen: str, label: str, icon: str | None = None) -> None:
    """``st.page_link`` to ``screen``, shown only when this session may open it (a screen left out
    of the navigation cannot be linked to)."""
    if may_open(screen):
        st.page_link(screen, label=label, icon=icon)


def rows_for_me(items: list) -> list:
    """The Review rows this session may see: all of them, or, for an expert, those assigned to
    them (``ReviewItem.holder``); the engine refuses an expert's decision on any other."""
    account = acting_account()
    if account is None or account.role is not Role.EXPERT:
        return items
    return [i for i in items if same(i.holder, account.name)]


def may(permission: Permission) -> bool:
    """Whether this session may do ``permission`` (always without accounts): what a screen shows."""
    who = _caller()
    return who is None or (isinstance(who, Account) and who.may(permission))


def is_expert() -> bool:
    """Whether this session is an expert's (who sees only the rows assigned to them)."""
    account = acting_account()
    return account is not None and account.role is Role.EXPERT


def role_note(account: Account | None) -> str | None:
    """What the role of ``account`` limits, said on its screens (None: nothing to say)."""
    return EXPERT_NOTE if account is not None and account.role is Role.EXPERT else None
