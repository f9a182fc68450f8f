"""How long a fresh app process takes to show its first page and to draft its first question,
the models' loading included (issue 15: the first question of a process in 20 s or less).

The bundled sample is indexed into a new workspace and its questionnaire added (not timed); then
the clock starts with ``streamlit run ui/app.py`` and stops when the Review screen lists the
questions in headless Chromium (first page), and when *Regenerate* on the first question has
stored its draft (first draft: the reviewer clicks as soon as the page is there). Also printed:
the seconds the drafter itself spent on that question (``drafter_s``) and the load times the
Settings screen shows for the background warm-up (``warm_up_s``). The drafting model is the
workspace's default (Settings) unless ``--model`` names another.

    python -m tests.e2e.start_timing [--runs 2] [--model NAME_OR_GGUF] [--app-root DIR]

``--app-root`` runs the app of another checkout (e.g. an older commit, for comparison) with the
same workspace steps. Prints one JSON line per run."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.e2e.test_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, VIEWPORT, App, streamlit_app

SAMPLE = ROOT / "assets" / "sample"


def prepare(folder: Path, model: str | None) -> None:
    """A workspace with the sample indexed as `make run` indexes it (extractive summaries: the
    model's would take minutes before the clock starts) and its questionnaire added (another
    process: the models it loads are not the app's)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "kb",
            "add",
            str(SAMPLE / "kb"),
            "--store",
            str(folder),
            "--summaries",
            "extractive",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    from engine.app.settings import GeneratorConfig, Settings
    from engine.app.workspace import Workspace

    ws = Workspace(folder, Settings(generator=GeneratorConfig(model=model)))
    ws.settings.save(folder)
    book = SAMPLE / "questionnaire" / "Sample_Security_Questionnaire.xlsx"
    ws.add_questionnaire(book.name, book.read_bytes())
    ws.review_store.close()


def drafted(folder: Path) -> list[float]:
    """The seconds each stored draft took in the drafter (retrieval and generation, without
    what was loaded before it started)."""
    from storage.review_store import ReviewStore

    store = ReviewStore(folder / "review.sqlite")
    try:
        return [d.data.get("seconds", 0.0) for p in store.projects() for d in store.latest_drafts(p.id).values()]
    finally:
        store.close()


def loaded(app: App) -> dict[str, float]:
    """The load times the Settings screen shows for the warm-up (none in an app without it)."""
    app.go("Settings")
    app.settle()
    found = re.findall(r"The (embedder|language model) .+? is loaded \(([\d.]+) s\)", app.page.inner_text("body"))
    return {name: float(seconds) for name, seconds in found}


def one_run(root: Path, model: str | None) -> dict:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "workspace"
        prepare(folder, model)
        result: dict = {"app": str(root)}
        started = time.monotonic()
        with streamlit_app(folder, Path(tmp) / "streamlit.log", root) as url, sync_playwright() as pw:
            result["server_s"] = round(time.monotonic() - started, 2)
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=VIEWPORT).new_page()
            app = App(page, url)
            try:
                page.goto(url, wait_until="domcontentloaded")
                app.button("Regenerate").wait_for(state="visible", timeout=120_000)  # the first question's card
                result["first_page_s"] = round(time.monotonic() - started, 2)
                app.settle()
                app.button("Regenerate").click()
                deadline = time.monotonic() + 900
                while not (seconds := drafted(folder)):
                    if time.monotonic() > deadline:
                        log = (Path(tmp) / "streamlit.log").read_text(errors="replace")[-3000:]
                        raise AssertionError(f"no draft after 900 s; the app's log ends:\n{log}")
                    time.sleep(0.1)
                result["first_draft_s"] = round(time.monotonic() - started, 2)
                result["drafter_s"] = round(seconds[0], 2)
                app.settle(timeout=300)
                result["warm_up_s"] = loaded(app)
            finally:
                browser.close()
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--model", default=None, help="a registered model name or a GGUF path (default: the default model)"
    )
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout whose ui/app.py runs")
    args = parser.parse_args(argv)
    for _ in range(args.runs):
        print(json.dumps(one_run(args.app_root.resolve(), args.model)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
