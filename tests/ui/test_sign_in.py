"""The sign-in gate and the role-limited navigation (AppTest of the whole app, ui/app.py and
ui/components/sign_in.py) on a real workspace whose accounts are real (accounts.sqlite, Argon2id
hashes): with accounts, no screen renders before the sign-in; a wrong password and an unknown
name get the same words; an expert's navigation holds the Review screen only, and a switch to
Settings, the knowledge base or Export shows none of them; a reviewer gets Questionnaire and
Review; a lead every screen; signing out, a removed account and an idle session bring the form
back. The LLM is the stated fake of tests/ui/conftest.py (nothing here drafts)."""

from __future__ import annotations

import time

import pytest

from engine.app.accounts import WRONG, Accounts
from engine.core.accounts import Role
from tests.ui.conftest import APP, button, texts

PASSWORD = "correct horse battery staple"
SCREENS = {
    "knowledge_base": "Knowledge base",
    "questionnaire": "Questionnaire",
    "export": "Export",
    "settings": "Settings",
}


@pytest.fixture()
def team(ui_workspace):
    """The workspace with three accounts (ana: lead, rui: reviewer, bo: expert)."""
    accounts = Accounts(ui_workspace.folder)
    for name, role in (("ana", Role.LEAD), ("rui", Role.REVIEWER), ("bo", Role.EXPERT)):
        accounts.add(name, role, PASSWORD)
    yield accounts
    accounts.close()


def started():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    return at.run()


def sign_in(at, name: str, password: str = PASSWORD):
    at.text_input(key="sign_in_name").input(name)
    at.text_input(key="sign_in_password").input(password)
    at.button[0].click()  # the form's submit button
    return at.run()


def titles(at) -> list[str]:
    return [t.value for t in at.title]


def opened(at, screen: str) -> list[str]:
    """The titles shown after switching to ``screen``."""
    at.switch_page(f"screens/{screen}.py")
    return titles(at.run())


def not_in_navigation(at, screen: str) -> bool:
    """Whether ``screen`` is left out of the navigation this run registered (AppTest cannot
    switch to it; a browser asking for its URL gets the default page: tests/e2e)."""
    try:
        at.switch_page(f"screens/{screen}.py")
    except ValueError as exc:
        return "Could not find a navigation page" in str(exc)
    return False


def test_without_accounts_nothing_is_asked(ui_workspace):
    at = started()
    assert not at.exception
    assert "Sign in" not in titles(at) and not any(i.key == "sign_in_name" for i in at.text_input)
    assert opened(at, "settings") == ["Settings"]


def test_with_accounts_every_page_asks_to_sign_in_first_and_says_nothing_of_which_was_wrong(team):
    at = started()
    assert titles(at) == ["Sign in"]
    for screen in SCREENS:  # no screen renders behind the form, whatever the address
        assert opened(at, screen) == ["Sign in"]
    sign_in(at, "ana", "not the password at all")
    wrong_password = texts(at.error)
    sign_in(at, "nobody", PASSWORD)
    unknown_name = texts(at.error)
    assert wrong_password == unknown_name == WRONG
    assert titles(at) == ["Sign in"]


def test_an_expert_reaches_only_the_review_screen(team):
    at = sign_in(started(), "bo")
    assert not at.exception
    assert "Signed in as **bo** (expert)" in texts(at.caption)
    assert "As an expert you see and answer the rows assigned to you" in texts(at.caption)
    assert not at.exception
    for screen in SCREENS:
        assert not_in_navigation(at, screen), screen


def test_a_reviewer_gets_questionnaire_and_review_and_a_lead_every_screen(team):
    at = sign_in(started(), "rui")
    assert opened(at, "questionnaire") == ["Questionnaire"]
    for screen in ("knowledge_base", "export", "settings"):
        assert not_in_navigation(at, screen), screen
    lead = sign_in(started(), "ana")
    for screen, title in SCREENS.items():
        assert title in opened(lead, screen), screen
        assert not lead.exception


def test_sign_out_a_removed_account_and_an_idle_session_bring_the_form_back(team, monkeypatch):
    at = sign_in(started(), "ana")
    button(at, "Sign out").click()
    at.run()
    assert titles(at) == ["Sign in"] and "You signed out." in texts(at.info)

    sign_in(at, "bo")
    team.remove("bo")  # `accounts remove` while the session is open: out at the next click
    at.run()
    assert titles(at) == ["Sign in"] and "sign in again" in texts(at.info)

    sign_in(at, "rui")
    assert titles(at) != ["Sign in"]
    monkeypatch.setenv("RFP_SESSION_IDLE_HOURS", "0.0001")  # 0.36 s
    time.sleep(0.5)
    at.run()
    assert titles(at) == ["Sign in"] and "without a click" in texts(at.info)


def test_an_app_listening_beyond_this_machine_without_accounts_shows_nothing(ui_workspace):
    """Started around ``python -m engine serve`` (``streamlit run … --server.address 0.0.0.0``)
    with no account: every screen is the one line, nothing else renders."""
    from streamlit import config

    before = config.get_option("server.address")
    config.set_option("server.address", "0.0.0.0")
    try:
        at = started()
        assert titles(at) == [] and not at.exception
        shown = texts(at.error)
        assert "beyond this machine, and its workspace has no account, so it shows nothing" in shown
        assert f"--store {ui_workspace.folder}`" in shown  # the command to run, as it is
        assert [b.label for b in at.button] == [] and len(at.text_input) == 0
    finally:
        config.set_option("server.address", before)
