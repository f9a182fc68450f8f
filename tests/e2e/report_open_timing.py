"""How long the two reports (#51) take to open in the app, in a real browser, on a workspace of
the shared company (tests/report_workspace.py; built into ``--store`` first when the folder holds
none): ``streamlit run ui/app.py`` on it, headless Chromium, and per round a click on *Export*
(the questionnaire's coverage report) then on *Knowledge base* (the library's health), each timed
from the click until the report is on the page (``shown_s``: the coverage's "Gaps by topic" tab,
the health's "Owner's queue" tab) and until Streamlit has finished the run (``settled_s``). The
first round reads the other questionnaire and builds the library's index; the app's warm-up (the
embedder) is waited for before it. Beside them, the engine's own calls in this process
(``Workspace.coverage_report`` with the questionnaires read once, ``library_report``) and writing
both reports as XLSX and HTML. The workspace's LLM setting is the stated fake server of
tests/e2e/test_browser.py, so the app loads no model. Prints one JSON object.

    python -m tests.e2e.report_open_timing --store DIR [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from pathlib import Path

from engine.app.settings import GeneratorConfig, Settings
from engine.app.workspace import Workspace
from engine.review.reports import html_text, xlsx_bytes
from storage.vector_store import release
from tests.e2e.test_browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, App, quoting_llm_server, streamlit_app
from tests.report_workspace import build

MARKS = {"Export": ("tab", "Gaps by topic"), "Knowledge base": ("tab", "Owner's queue")}


def _open(app: App, title: str) -> dict:
    started = time.perf_counter()
    app.page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title, exact=True).click()
    role, name = MARKS[title]
    app.page.get_by_role(role, name=name).first.wait_for(timeout=600_000)
    shown = time.perf_counter() - started
    app.settle(600)
    return {"shown_s": round(shown, 3), "settled_s": round(time.perf_counter() - started - 0.3, 3)}


def in_browser(folder: Path, rounds: int) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict[str, list[dict]] = {"Export": [], "Knowledge base": []}
    with streamlit_app(folder, folder.parent / "report_open_timing.log") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=VIEWPORT).new_page()
        app = App(page, url)
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_selector('[data-testid="stApp"]', timeout=120_000)
        app.settle(600)
        page.wait_for_timeout(20_000)  # the app's warm-up loads the embedder in the background
        for _ in range(rounds):
            for title in out:
                out[title].append(_open(app, title))
        browser.close()
    return {
        f"{title.lower().replace(' ', '_')}_{part}": {
            "first": runs[0][part],
            "again_p50": statistics.median(r[part] for r in runs[1:]) if len(runs) > 1 else None,
            "again_max": max((r[part] for r in runs[1:]), default=None),
        }
        for title, runs in out.items()
        for part in ("shown_s", "settled_s")
    }


def engine_calls(folder: Path, rounds: int) -> dict:
    ws = Workspace(folder, Settings.load(folder))
    try:
        pid = ws.projects()[0].id
        read = {p.id: ws.questionnaire(p.id) for p in ws.projects()}.__getitem__  # read once, as the app caches them
        out: dict[str, list[float]] = {k: [] for k in ("coverage_report", "library_report", "xlsx", "html")}
        ws.library_report()  # the library's index built and the embedder loaded once, as the app's warm-up does
        for _ in range(rounds):
            t = time.perf_counter()
            coverage = ws.coverage_report(pid, read)
            out["coverage_report"].append(time.perf_counter() - t)
            t = time.perf_counter()
            library = ws.library_report()
            out["library_report"].append(time.perf_counter() - t)
            tables = coverage.tables() + library.tables()
            t = time.perf_counter()
            xlsx_bytes("timing", "now", tables)
            out["xlsx"].append(time.perf_counter() - t)
            t = time.perf_counter()
            html_text("timing", "now", tables)
            out["html"].append(time.perf_counter() - t)
        sizes = {p.name: len(ws.review_store.latest_drafts(p.id)) for p in ws.projects()}
        return {"engine_" + k + "_s": round(statistics.median(v), 3) for k, v in out.items()} | {
            "rows": sizes,
            "library_entries": len(ws.library.entries()),
        }
    finally:
        ws.review_store.close()
        ws.library.close()
        release(str(folder / "qdrant"))  # the app opens the knowledge base next


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.report_open_timing", description=__doc__)
    parser.add_argument("--store", required=True, help="the workspace folder (built there when it holds none)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    folder = Path(args.store).resolve()
    if not (folder / "review.sqlite").is_file():
        build(folder)
    figures = engine_calls(folder, args.rounds)
    with quoting_llm_server() as llm_url:
        settings = Settings.load(folder)
        replace(settings, generator=GeneratorConfig(llm_url=llm_url)).save(folder)
        try:
            figures |= in_browser(folder, args.rounds)
        finally:
            settings.save(folder)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
