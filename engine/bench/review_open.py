"""What opening a question on the Review screen costs on a large workspace: the engine and
storage calls the screen makes when a question is opened (ui/screens/review.py and ui/review/,
with ui/components/pdf_pane.py), timed one by one. The whole screen rerun with Streamlit's AppTest
(Streamlit's own cost included; the browser's pdf.js drawing is not) is added by
``python -m tests.e2e.review_open_apptest`` with the same arguments: it drives the UI, which the
engine never imports (it passes ``screen`` to :func:`main`).

    .venv/bin/python -m engine.bench.review_open --store DIR --questionnaire FILE.xlsx [--kb PDF…]
        [--questions 30] [--profile OUT.prof]

The store is built once and reused: the ``--kb`` files it lacks are indexed (extractive
summaries, no model), the questionnaire is imported as a project, and its rows are given drafts
with citations when it has none. The drafts come from :class:`QuotingStandIn`, a stated fake
generator that quotes the sentence of the first retrieved passage sharing the most words with
the question: this measures opening a drafted question, not drafting (retrieval, anchoring and
the page finder are the real ones).

Per question the steps are the screen's: ``questionnaire`` (the cached read's file check),
``items`` (every row's draft, decision and section state: ``Review.items``), ``sections``
(the *Sections* summary), ``sidebar`` (projects, drafting status, row types), ``excerpt`` (the
cited page cut out of the PDF and cropped, with the quote's boxes: ``citation_excerpt``; what
the screen renders server-side), ``viewer`` (the excerpt base64-encoded for the viewer) and
``ask`` (the document list of *Ask this document*). Each question is opened once (``first``:
its page not cached yet) and again (``again``). The machine is shared, so a fixed pure-Python
``baseline`` is timed beside every opening and each p50 is also given as a ratio to it.
Prints one JSON object. The browser's share (the viewer's frame, pdf.js drawing the page) is
timed by ``python -m tests.e2e.review_open_timing`` in headless Chromium.
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import json
import pstats
import re
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable

from engine.app.workspace import Workspace
from engine.core.types import SourceKind
from engine.drafting.generate.prompt import GeneratedAnswer
from engine.review.draft_run import draft_questionnaire
from engine.review.pdf_pages import citation_excerpt
from engine.review.review import Review, ReviewItem

STEPS = ("questionnaire", "items", "sections", "sidebar", "excerpt", "viewer", "ask")


class QuotingStandIn:
    """A stated fake generator (this benchmark is about opening a drafted question, not drafting):
    quotes the sentence of the first passage sharing the most words with the question."""

    def generate(self, question, passages, choices):
        pieces = re.split(r" … |(?<=\.)\s+|\n", passages[0].text) if passages else [""]
        words = set(re.findall(r"\w+", question.lower()))
        quote = max(pieces, key=lambda p: (len(words & set(re.findall(r"\w+", p.lower()))), len(p)))
        choice = "Yes" if "Yes" in choices else None
        return GeneratedAnswer((quote,), "Yes. " + quote, choice, False, 10, 5, 0.0)


# ---- the workspace --------------------------------------------------------------------------------
def prepare(store: Path, questionnaire: Path, kb: list[Path]) -> tuple[Workspace, int]:
    """The workspace with the documents, the questionnaire as a project and its drafts (each
    made once; a second run reuses them)."""
    ws = Workspace(store)
    ws.__dict__["generator"] = QuotingStandIn()
    held = {d.name for d in ws.kb.documents()}
    missing = [p for p in kb if p.name not in held]
    if missing:
        print(f"indexing {len(missing)} documents into {store}…", file=sys.stderr)
        ws.kb.add(missing)
    project = next((p for p in ws.projects() if p.file_name == questionnaire.name), None)
    if project is None:
        project, _ = ws.add_questionnaire(questionnaire.name, questionnaire.read_bytes())
    if not ws.review_store.latest_drafts(project.id):
        print(f"drafting {questionnaire.name} with the stand-in generator…", file=sys.stderr)
        draft_questionnaire(
            ws.questionnaire(project.id), ws.drafter_for(project.id), ws.review_store, redo_answered=True
        )
    return ws, project.id


def chosen(items: list[ReviewItem], n: int) -> list[ReviewItem]:
    """``n`` questions citing a PDF page, spread evenly through the questionnaire."""
    cited = [i for i in items if any(c.kind is SourceKind.PDF and c.page for c in i.citations)]
    if not cited:
        raise SystemExit("no drafted question cites a PDF page: index PDFs with --kb and draft again")
    step = max(1, len(cited) // n)
    return cited[::step][:n]


# ---- one opening, step by step ------------------------------------------------------------------
def open_question(ws: Workspace, pid: int, questionnaire, key: str) -> dict[str, float]:
    """The engine and storage calls of one Review-screen run that opens ``key``, timed."""
    times: dict[str, float] = {}

    def timed(step: str, fn):
        t = time.perf_counter()
        out = fn()
        times[step] = times.get(step, 0.0) + time.perf_counter() - t
        return out

    timed("questionnaire", lambda: (ws.questionnaire_path(ws.review_store.project(pid)).stat(), ws.read_options(pid)))
    review = Review(ws.review_store, pid, questionnaire, ws.library)
    items = timed("items", review.items)
    timed("sections", lambda: review.sections(items))
    timed(
        "sidebar",
        lambda: (
            ws.projects(),
            ws.jobs.running(pid),
            ws.jobs.status(pid),
            Counter(i.row_type for i in items),
            ws.review_store.project(pid),
        ),
    )
    item = next(i for i in items if i.key == key)
    c = next(c for c in item.citations if c.kind is SourceKind.PDF and c.page)
    excerpt = timed("excerpt", lambda: citation_excerpt(ws.kb.source_path(c.file), c))
    timed(
        "viewer",
        lambda: json.dumps(
            {"binary": base64.b64encode(excerpt.pdf).decode(), "annotations": list(excerpt.annotations)}
        ),
    )
    timed("ask", ws.kb.documents)
    times["total"] = sum(times.values())
    return times


def baseline() -> float:
    """A fixed pure-Python workload (≈ 20 ms on a quiet core): the machine's speed right now."""
    t = time.perf_counter()
    sum(i * i for i in range(400_000))
    return time.perf_counter() - t


def engine_pass(ws: Workspace, pid: int, questionnaire, keys: list[str]) -> tuple[list[dict], list[float]]:
    runs, base = [], []
    for key in keys:
        base.append(baseline())
        runs.append(open_question(ws, pid, questionnaire, key))
    return runs, base


# ---- profiling: this thread and the ones AppTest runs the script in ------------------------------
def profiled() -> list[cProfile.Profile]:
    """Profile this thread from now on, and every thread started from now on (each its own)."""
    profiles = [cProfile.Profile()]

    def start(*_):  # the first event of a new thread: its own profile replaces this hook
        profile = cProfile.Profile()
        profiles.append(profile)
        profile.enable()

    threading.setprofile(start)
    profiles[0].enable()
    return profiles


def dump(profiles: list[cProfile.Profile], out: Path) -> None:
    threading.setprofile(None)
    for profile in profiles:
        profile.disable()
    stats = pstats.Stats(profiles[0])
    for profile in profiles[1:]:
        try:
            stats.add(profile)
        except (TypeError, ValueError):  # a thread that recorded nothing
            pass
    stats.dump_stats(str(out))


# ---- figures ----------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def figures(values: list[float], base_p50: float) -> dict:
    return {
        "p50_s": round(statistics.median(values), 4),
        "p90_s": round(pct(values, 0.9), 4),
        "max_s": round(max(values), 4),
        "p50_over_baseline": round(statistics.median(values) / base_p50, 2),
    }


def summary(runs: list[dict], base_p50: float) -> dict:
    out = figures([r["total"] for r in runs], base_p50)
    out["steps_p50_s"] = {s: round(statistics.median(r.get(s, 0.0) for r in runs), 4) for s in STEPS}
    return out


# the whole screen timed per round, with the baseline beside each opening (tests/e2e/review_open_apptest.py)
Screen = Callable[[Workspace, list[str]], tuple[list[list[float]], list[float]]]


def main(
    argv: list[str] | None = None, screen: Screen | None = None, prog: str = "python -m engine.bench.review_open"
) -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True, help="the workspace folder (built once, then reused)")
    ap.add_argument("--questionnaire", type=Path, required=True)
    ap.add_argument("--kb", type=Path, nargs="*", default=[], help="documents the store should hold")
    ap.add_argument("--questions", type=int, default=30)
    ap.add_argument("--profile", type=Path, help="write a cProfile of the timed openings here")
    ap.add_argument("--prepare-only", action="store_true", help="build the workspace, time nothing")
    args = ap.parse_args(argv)

    ws, pid = prepare(args.store, args.questionnaire, args.kb)
    if args.prepare_only:
        return 0
    questionnaire = ws.questionnaire(pid)  # the screen reads it once (ui/components/cached_questionnaire.py)
    items = Review(ws.review_store, pid, questionnaire).items()
    keys = [i.key for i in chosen(items, args.questions)]
    profiles = profiled() if args.profile else None
    first, base1 = engine_pass(ws, pid, questionnaire, keys)
    again, base2 = engine_pass(ws, pid, questionnaire, keys)
    rounds, base3 = screen(ws, keys) if screen is not None else ([], [])
    if profiles is not None:
        dump(profiles, args.profile)
    base_p50 = statistics.median(base1 + base2 + base3)
    cited = sum(1 for i in items if i.citations)
    result = {
        "store": str(args.store),
        "questionnaire": args.questionnaire.name,
        "rows": len(items),
        "rows_with_citations": cited,
        "documents": len(ws.kb.documents()),
        "questions_opened": len(keys),
        "baseline_p50_s": round(base_p50, 4),
        "engine_first": summary(first, base_p50),
        "engine_again": summary(again, base_p50),
    }
    if rounds:
        result["apptest_first"] = figures(rounds[0], base_p50)
        result["apptest_again"] = figures([t for r in rounds[1:] for t in r], base_p50)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
