"""How long opening a question on the Review screen takes in a real browser on a large workspace
(issue #24: ≤ 1 s with the 40 Instructure PDFs and a 255-row HECVAT), beside the bundled sample
in the same run: ``streamlit run ui/app.py`` on each workspace, each in its own headless
Chromium, the clicks alternating between the two so that a busy machine slows both alike.

    python -m tests.e2e.review_open_timing --store DIR --questionnaire FILE.xlsx --kb PDF… \\
        [--sample-store DIR] [--questions 10]

Each workspace is built once by ``python -m engine.bench.review_open --prepare-only`` (drafts by
its stated fake generator: this is about opening a drafted question, not drafting) and reused;
its LLM setting is pointed at the stated fake server of tests/e2e/test_browser.py, so the app's
warm-up loads no model. A timed opening is a click on a question of the list's first page that
opens on a highlighted PDF quote, until the outlined quote is drawn in a new viewer in the
browser's view (``highlight_s``), and until Streamlit has finished the run (``settled_s``);
consecutive questions show different pages, so each opening draws a new viewer. Prints one JSON
object: p50 / p90 / max per workspace and the ratio of the large one's p50 to the sample's."""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from tests.e2e.test_browser import (
    ANNOTATION,
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    VIEWPORT,
    App,
    quoting_llm_server,
    streamlit_app,
)

SAMPLE = ROOT / "assets" / "sample"
SAMPLE_BOOK = SAMPLE / "questionnaire" / "Sample_Security_Questionnaire.xlsx"
PAGE_SIZE = 40  # the Review list's page (ui/screens/review.py)


def prepare(store: Path, book: Path, kb: list[Path], llm_url: str) -> list[str]:
    """Build the workspace (another process: it holds the Qdrant folder while it runs), point its
    LLM at the fake server; the IDs to click, in order."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.bench.review_open",
            "--store",
            str(store),
            "--questionnaire",
            str(book),
            "--prepare-only",
            "--kb",
            *map(str, kb),
        ],
        cwd=ROOT,
        check=True,
        env={**os.environ, "RFP_SUMMARIES": "extractive"},
    )
    from engine.app.settings import GeneratorConfig, Settings

    replace(Settings.load(store), generator=GeneratorConfig(llm_url=llm_url)).save(store)
    return clickable(store)


def clickable(store: Path) -> list[str]:
    """IDs on the list's first page whose question opens on a highlighted PDF quote, no two in a
    row showing the same page and boxes."""
    from engine.app.workspace import Workspace
    from engine.core.types import SourceKind
    from engine.drafting.anchoring import AnchorLabel
    from engine.review.pdf_pages import highlightable

    ws = Workspace(store)  # the review store only: its knowledge base (Qdrant) is never opened here
    try:
        out, last = [], None
        for item in ws.review(ws.projects()[-1].id).items()[:PAGE_SIZE]:
            first = next((c for c in item.citations if c.label is not AnchorLabel.UNVERIFIED), None)
            if item.question.id and first is not None and first.kind is SourceKind.PDF and highlightable(first):
                shown = (first.file, tuple(map(tuple, first.rects)))
                if shown != last:
                    out.append(item.question.id)
                    last = shown
        return out
    finally:
        ws.review_store.close()


def pdf_frames(page) -> set:
    return {f for f in page.frames if "pdf_viewer" in (f.url or "") or "pdf_viewer" in (f.name or "")}


def new_highlight(page, old: set, clicked: float, timeout: float = 30) -> dict:
    """Poll until a PDF viewer that was not there before the click shows an outlined line on a
    drawn page, inside the browser's view; the seconds from the click until the new viewer's
    frame appeared (``frame_s``), until it drew a page (``canvas_s``) and the outline (``highlight_s``)."""
    seen: dict = {}
    deadline = clicked + timeout
    while time.monotonic() < deadline:
        for frame in pdf_frames(page) - old:
            seen.setdefault("frame_s", round(time.monotonic() - clicked, 3))
            try:
                if frame.locator("canvas").count():
                    seen.setdefault("canvas_s", round(time.monotonic() - clicked, 3))
                boxes = frame.locator(ANNOTATION)
                if boxes.count() and frame.locator("canvas").count():
                    box = boxes.first.bounding_box()
                    if box and box["width"] > 0 and 0 <= box["y"] < VIEWPORT["height"]:
                        seen["highlight_s"] = round(time.monotonic() - clicked, 3)
                        return seen
            except Exception:  # the frame is being replaced by a rerun
                pass
        page.wait_for_timeout(20)
    return {**seen, "highlight_s": None}


def open_timed(app: App, qid: str) -> dict:
    """Click ``qid`` in the list; seconds until its quote is outlined on screen (and the steps
    before, :func:`new_highlight`), and until the run has ended."""
    page = app.page
    old = pdf_frames(page)
    label = (
        page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label')
        .filter(has_text=re.compile(rf"\b{re.escape(qid)}\b"))
        .first
    )
    clicked = time.monotonic()
    label.click()
    seen = new_highlight(page, old, clicked)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=120_000)
    return {"id": qid, **seen, "settled_s": round(time.monotonic() - clicked, 3)}


def figures(runs: list[dict]) -> dict:
    shown = sorted(r["highlight_s"] for r in runs if r["highlight_s"] is not None)
    settled = sorted(r["settled_s"] for r in runs)
    at = lambda xs, q: xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else None  # noqa: E731
    return {
        "opened": len(runs),
        "highlighted": len(shown),
        "highlight_p50_s": statistics.median(shown) if shown else None,
        "highlight_p90_s": at(shown, 0.9),
        "highlight_max_s": shown[-1] if shown else None,
        "settled_p50_s": statistics.median(settled),
        **{
            f"{step}_p50_s": statistics.median(xs)
            for step in ("frame", "canvas")
            if (xs := [r[f"{step}_s"] for r in runs if r.get(f"{step}_s") is not None])
        },
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--questionnaire", type=Path, required=True)
    ap.add_argument("--kb", type=Path, nargs="*", default=[])
    ap.add_argument("--sample-store", type=Path, default=Path("/tmp/rfp_review_open_sample"))
    ap.add_argument("--questions", type=int, default=10)
    args = ap.parse_args(argv)

    with ExitStack() as stack:
        llm_url = stack.enter_context(quoting_llm_server())
        spaces = {
            "sample": (args.sample_store, SAMPLE_BOOK, sorted((SAMPLE / "kb").iterdir())),
            "large": (args.store, args.questionnaire, args.kb),
        }
        ids = {name: prepare(store, book, kb, llm_url)[: args.questions] for name, (store, book, kb) in spaces.items()}
        pw = stack.enter_context(sync_playwright())
        apps = {}
        for name, (store, _, _) in spaces.items():
            url = stack.enter_context(streamlit_app(store, store / "streamlit.log"))
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
            app = App(browser.new_context(viewport=VIEWPORT).new_page(), url)
            app.page.goto(url, wait_until="domcontentloaded")
            app.page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stRadio"]', timeout=300_000)
            app.settle(timeout=300)
            apps[name] = app
        runs: dict[str, list[dict]] = {name: [] for name in apps}
        for i in range(max(len(v) for v in ids.values())):
            for name, app in apps.items():  # alternating: a busy moment slows both
                if ids[name]:
                    runs[name].append(open_timed(app, ids[name][i % len(ids[name])]))
    result = {name: figures(r) for name, r in runs.items()}
    small, large = result["sample"]["highlight_p50_s"], result["large"]["highlight_p50_s"]
    result["large_over_sample_p50"] = round(large / small, 2) if small and large else None
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
