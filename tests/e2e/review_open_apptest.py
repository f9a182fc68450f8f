"""The Review screen's whole rerun on a large workspace, timed with Streamlit's AppTest beside the
engine and storage calls of ``python -m engine.bench.review_open`` (same arguments, same JSON,
plus ``apptest_first`` / ``apptest_again``): Streamlit's own cost included, the browser's pdf.js
drawing not (``python -m tests.e2e.review_open_timing`` times that in Chromium). It lives here,
not in the engine, because it drives the UI, which the engine never imports.

    python -m tests.e2e.review_open_apptest --store DIR --questionnaire FILE.xlsx [--kb PDF…]
        [--questions 30] [--profile OUT.prof]
"""

from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

import ui.resources
from engine.app.workspace import Workspace
from engine.bench import review_open
from engine.review import pdf_pages
from ui.resources import QUESTION

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"


def apptest_pass(ws: Workspace, keys: list[str], rounds: int = 2) -> tuple[list[list[float]], list[float]]:
    """``at.run()`` after choosing each question (as the list's callback does), per round, with the
    bench's fixed baseline timed beside each."""
    pdf_pages._excerpt.cache_clear()  # the first round opens each page as the engine passes first did
    kept = ui.resources.workspace
    ui.resources.workspace = lambda folder=None: ws  # this process's workspace, as the UI tests do
    try:
        return _rounds(ws, keys, rounds)
    finally:
        ui.resources.workspace = kept


def _rounds(ws: Workspace, keys: list[str], rounds: int) -> tuple[list[list[float]], list[float]]:
    at = AppTest.from_file(str(APP), default_timeout=300)
    at.run()
    at.switch_page("screens/review.py")
    at.run()
    if ws.warming is not None:  # the app's warm-up (ui/app.py) loads the embedder: not part of an opening
        ws.warming.wait(600)
    if at.exception:
        raise SystemExit(f"the Review screen failed: {at.exception}")
    out, base = [], []
    for _ in range(rounds):
        times = []
        for key in keys:
            base.append(review_open.baseline())
            at.session_state[QUESTION] = key
            t = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - t)
            if at.exception:
                raise SystemExit(f"the Review screen failed on {key}: {at.exception}")
        out.append(times)
    return out, base


def main(argv: list[str] | None = None) -> int:
    return review_open.main(argv, screen=apptest_pass, prog="python -m tests.e2e.review_open_apptest")


if __name__ == "__main__":
    raise SystemExit(main())
