"""Serving the app to a team, in a real browser and on real sockets (issue #39, item 1): the app
is started the way a team starts it, ``python -m engine serve`` (which becomes ``streamlit run
ui/app.py``), on a fresh workspace.

* Without accounts it listens on 127.0.0.1 only: ``ss -ltn`` shows the port bound to the
  loopback address and nothing else, and a connection to this machine's other address is
  refused; ``serve --address 0.0.0.0`` exits with its one line and never listens.
* With two accounts (ana: lead, bo: expert), a questionnaire whose second row is assigned to bo,
  and ``--address 0.0.0.0``: two browser contexts
  (two people). Every page asks to sign in first; a wrong password says only that the name or the
  password is wrong. The expert's navigation holds Review and My questions only, the Review list
  holds only bo's row (the lead's all four), and opening the
  Settings, Knowledge base or Export address (a page load: a new session, signed in again there)
  shows none of them; the lead's holds every screen and opens Settings by its address. Signing
  out brings the form back.

The workspace's LLM setting is the stated fake server of tests/e2e/test_browser.py, so no model
drafts or loads here (the embedder does, in the background). Screenshots go to
``tests/e2e/screens/`` as ``accounts_{lead,expert}_NN_<step>.png``.
"""

from __future__ import annotations

import re
import socket
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.app.settings import GeneratorConfig, Settings
from engine.core.accounts import Role
from storage.accounts import Accounts
from tests.adversarial.served_app import serve_command, serving
from tests.e2e.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_CHROMIUM,
    SCREENS,
    VIEWPORT,
    free_port,
    quoting_llm_server,
)
from tests.e2e.test_browser_cases import CaseApp, assert_no_traceback, load, prepared_workspace
from tests.fixtures import write_questionnaire

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"
NAV = '[data-testid="stSidebarNav"]'

pytestmark = [
    pytest.mark.timeout(420),
    NEEDS_CHROMIUM,
]


@contextmanager
def served(workspace: Path, log: Path, *address: str):
    """``python -m engine serve`` on a free port (``address``: e.g. ``--address 0.0.0.0``); its
    port once /_stcore/health answers on 127.0.0.1."""
    with serving(workspace, log, *address) as (port, _):
        yield port


def listening(port: int) -> list[str]:
    """The local addresses a TCP socket listens on at ``port`` (``ss -ltn``)."""
    out = subprocess.run(["ss", "-Hltn"], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        local = line.split()[3]
        host, _, at = local.rpartition(":")
        if at == str(port):
            found.append(host)
    return found


def other_address() -> str | None:
    """An address of this machine that is not a loopback one (None when it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            found = s.getsockname()[0]
        except OSError:
            return None
    return None if found.startswith("127.") else found


def workspace_for_team(folder: Path, llm_url: str) -> None:
    Settings(generator=GeneratorConfig(llm_url=llm_url)).save(folder)


def test_without_accounts_the_server_listens_on_this_machine_only(tmp_path):
    folder = tmp_path / "ws"
    with quoting_llm_server() as llm_url:
        folder.mkdir()
        workspace_for_team(folder, llm_url)
        refused = subprocess.run(
            serve_command(folder, free_port(), "--address", "0.0.0.0"),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert refused.returncode == 2
        assert refused.stderr.startswith(f"error: {folder}: there is no account in this folder"), refused.stderr
        with served(folder, tmp_path / "local.log") as port:
            assert listening(port) == ["127.0.0.1"]
            other = other_address()
            if other is not None:
                with pytest.raises(OSError):
                    socket.create_connection((other, port), timeout=3).close()


def nav_links(app: CaseApp) -> list[str]:
    return [t.strip().split("\n")[-1] for t in app.page.locator(f"{NAV} a").all_inner_texts()]  # not the icon


def sign_in(app: CaseApp, name: str, password: str = PASSWORD) -> None:
    page = app.page
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in").click()
    app.settle()


def signed_in(app: CaseApp, who: str) -> None:
    """Wait for the "Signed in as ``who``" line, then for the script to finish the screen under it."""
    app.expect_text(f"Signed in as {who}")
    app.settle()


def heading(app: CaseApp, text: str) -> int:
    return app.page.get_by_role("heading", level=1, name=text, exact=True).count()


def open_address(app: CaseApp, path: str) -> None:
    app.page.goto(f"{app.url}/{path}", wait_until="domcontentloaded")
    app.page.wait_for_selector('[data-testid="stApp"]', timeout=120_000)
    app.settle()


def test_an_expert_cannot_open_settings_the_knowledge_base_or_export(tmp_path):
    from playwright.sync_api import sync_playwright

    folder = tmp_path / "ws"
    folder.mkdir()
    accounts = Accounts(folder)
    accounts.add("ana", Role.LEAD, PASSWORD)
    accounts.add("bo", Role.EXPERT, PASSWORD)
    accounts.close()
    SCREENS.mkdir(exist_ok=True)
    with quoting_llm_server() as llm_url:
        held = questionnaire_with_one_row_for_bo(folder, llm_url, tmp_path)
        with served(folder, tmp_path / "team.log", "--address", "0.0.0.0") as port, sync_playwright() as pw:
            team_in_the_browser(pw, port, held)


def questionnaire_with_one_row_for_bo(folder: Path, llm_url: str, tmp_path: Path) -> str:
    """The 4-question workbook drafted by the stated fake drafter (tests/e2e/test_browser_cases.py),
    its second row assigned to bo through the engine; that row's ID."""
    from engine.app.workspace import Workspace
    from engine.review import team

    pid, _ = prepared_workspace(folder, llm_url, write_questionnaire(tmp_path / "vendor.xlsx"), {})
    ws = Workspace(folder, Settings.load(folder))
    try:
        review = ws.review(pid)
        row = review.items()[1]
        team.assign(review, [row], "bo")
        return row.question.id
    finally:
        ws.review_store.close()


def listed(app: CaseApp) -> list[str]:
    """The question IDs in the Review list, once it is drawn and the script has finished (the
    "Signed in as" line shows before the list does: on a loaded machine the list was read empty)."""
    rows = app.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label')
    rows.filter(has_text=re.compile(r"[A-Z]{3,4}-\d\d")).first.wait_for(state="visible", timeout=120_000)
    app.settle()
    labels = rows.all_inner_texts()
    return [m.group(0) for t in labels if (m := re.search(r"[A-Z]{3,4}-\d\d", t))]


def team_in_the_browser(pw, port: int, held: str) -> None:
    """The lead and the expert, each in a browser context of their own, on the app at ``port``."""
    assert listening(port) in (["0.0.0.0"], ["*"])  # served to the team, as asked
    browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    url = f"http://127.0.0.1:{port}"
    lead, expert = (
        CaseApp(browser.new_context(viewport=VIEWPORT).new_page(), url, f"accounts_{who}") for who in ("lead", "expert")
    )
    try:
        for app in (expert, lead):
            load(app)
            assert heading(app, "Sign in") == 1 and nav_links(app) == []
        for path in ("settings", "knowledge_base", "export"):  # nothing renders behind the form
            open_address(expert, path)
            assert heading(expert, "Sign in") == 1 and heading(expert, "Settings") == 0, path
        expert.shot("form")

        sign_in(expert, "bo", "a wrong password!!")
        expert.expect_text("The name or the password is wrong.")
        sign_in(expert, "nobody")
        expert.expect_text("The name or the password is wrong.")
        sign_in(expert, "bo")
        signed_in(expert, "bo (expert)")
        assert nav_links(expert) == ["Review", "My questions"]
        assert listed(expert) == [held]  # only the row assigned to bo
        expert.shot("expert_navigation")
        for path, title in (("settings", "Settings"), ("knowledge_base", "Knowledge base"), ("export", "Export")):
            open_address(expert, path)  # a page load is a new session: it signs in again, on that address
            sign_in(expert, "bo")
            signed_in(expert, "bo (expert)")  # shown the Review screen instead
            assert heading(expert, title) == 0, path
            assert nav_links(expert) == ["Review", "My questions"]
            assert_no_traceback(expert)
        expert.shot("expert_settings_address")

        open_address(lead, "settings")
        sign_in(lead, "ana")
        signed_in(lead, "ana (lead)")
        assert heading(lead, "Settings") == 1
        lead.go("Review")
        assert len(listed(lead)) == 4 and held in listed(lead)
        assert nav_links(lead) == ["Knowledge base", "Questionnaire", "Review", "My questions", "Export", "Settings"]
        assert_no_traceback(lead)
        lead.shot("lead_settings")
        lead.button("Sign out").click()
        lead.settle()
        assert heading(lead, "Sign in") == 1 and nav_links(lead) == []
        lead.expect_text("You signed out.")
    finally:
        for app in (lead, expert):
            try:
                app.shot("last")
            except Exception:
                pass
        browser.close()
