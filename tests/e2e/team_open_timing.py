"""Several people on one served app, measured (issue #39, item 8): opening a question on the
Review screen with four reviewers at once against one reviewer alone, while one drafting run
is in progress on the same server; a lost update refused; one model process for everyone.

    python -m tests.e2e.team_open_timing [--store DIR --questionnaire FILE.xlsx --kb PDF…]
        [--draft BLANK.xlsx] [--questions 5]

The workspace (default: the bundled sample's, in ``/tmp/rfp_team_open_sample``) is built once
and reused, as ``python -m tests.e2e.review_open_timing`` builds it (``engine.bench.review_open
--prepare-only``: drafts by its stated fake generator, so the rows open on a highlighted PDF
quote). Before it, a blank questionnaire (``--draft``, default the blank HECVAT of
``../shared/data/hecvat_blank``) is kept as an older project, and an unfinished drafting run of
it is recorded for the lead: the served app resumes it when it starts (``ws.jobs.resume()``, its
drafting thread, the same as the lead's Draft button) with the real SmolLM2-135M
(``smollm2-135m``) in the app's model worker, so drafting is **in progress** (real model,
retrieval, the store's writes) for the whole measurement; the figures say how many rows it
drafted meanwhile and whether it was still running at the end.

The app is served as a team serves it, ``python -m engine serve`` (on 127.0.0.1: the
accounts make everyone sign in either way), with the accounts ``lead`` and ``rev1`` … ``rev4``
(reviewers). Each reviewer is one thread with its own ``sync_playwright`` and its own headless
Chromium (one browser context each), signed in through the form. Timed openings are
``review_open_timing.open_timed``: a click in the list until the cited quote is outlined in a
new PDF viewer in the browser's view (``highlight_s``). First ``rev1`` alone opens N questions
(the other three signed in and idle): the baseline; then the four at once each open N (each
from its own place in the list, so four different rows are drawn at a time). p50 / p90 / max
of both and the ratio of the p50s.

Then ``rev1`` and ``rev2`` open the same row (the same version, a draft nobody decided) and
both click Accept, ``rev1`` first: exactly one decision is stored (``rev1``'s) and ``rev2``'s
page says that the row changed since it was opened. Throughout the four-at-once phase the
server's child processes are read (psutil) and the model workers among them
(``engine.drafting.generate.worker``) counted: at most one. Prints one JSON object."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import psutil

from storage.snapshots import REVIEW_DB
from tests.e2e.review_open_timing import SAMPLE, SAMPLE_BOOK, figures, open_timed, prepare
from tests.e2e.test_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, SCREENS, VIEWPORT, App
from tests.e2e.test_browser_accounts import PASSWORD, served, sign_in
from tests.e2e.test_browser_cases import load
from tests.e2e.test_browser_lost_update import changed_warning, on_row

REVIEWERS = ("rev1", "rev2", "rev3", "rev4")
LEAD = "lead"
DRAFT_MODEL = "smollm2-135m"
BLANK = ROOT.parent / "shared" / "data" / "hecvat_blank" / "HECVAT414.xlsx"
WORKER = "engine.drafting.generate.worker"
LIST = '[data-testid="stSidebar"] [data-testid="stRadio"]'


# ---- the workspace ------------------------------------------------------------------------------
def drafting_project(store: Path, blank: Path) -> int:
    """The blank questionnaire as a project older than the one the reviewers open (so the Review
    screen opens theirs), added once; its id."""
    from engine.app.workspace import Workspace

    ws = Workspace(store)
    try:
        held = next((p for p in ws.projects() if p.file_name == blank.name), None)
        if held is None:
            if ws.projects():
                raise SystemExit(
                    f"error: {store}: the workspace was built without {blank.name}; "
                    "fix: give a new --store (the drafting questionnaire must be its first project)"
                )
            held, _ = ws.add_questionnaire(blank.name, blank.read_bytes())
        return held.id
    finally:
        ws.review_store.close()


def team_workspace(store: Path, book: Path, kb: list[Path], blank: Path) -> tuple[list[str], int, int]:
    """The workspace built (or reused), its accounts, the model setting and an unfinished drafting
    run of the blank questionnaire; the IDs to click, the reviewers' project and the drafting one."""
    from engine.app.settings import GeneratorConfig, Settings
    from engine.app.workspace import Workspace
    from engine.core.accounts import Role
    from storage.accounts import Accounts

    store.mkdir(parents=True, exist_ok=True)
    drafting = drafting_project(store, blank)
    ids = prepare(store, book, kb, "http://127.0.0.1:9")  # its LLM setting is replaced just below
    replace_generator = replace(Settings.load(store), generator=GeneratorConfig(model=DRAFT_MODEL))
    replace_generator.save(store)
    accounts = Accounts(store)
    try:
        if accounts.get(LEAD) is None:
            accounts.add(LEAD, Role.LEAD, PASSWORD)
        for name in REVIEWERS:
            if accounts.get(name) is None:
                accounts.add(name, Role.REVIEWER, PASSWORD)
    finally:
        accounts.close()
    ws = Workspace(store)
    try:
        reviewed = next(p.id for p in ws.projects() if p.file_name == book.name)
        if not ws.review_store.runs(drafting, unfinished=True):
            ws.review_store.start_run(drafting, {"redo_answered": True}, by=LEAD)
    finally:
        ws.review_store.close()
    return ids, reviewed, drafting


def drafted(store: Path, project_id: int) -> int:
    """Rows of the project with a draft (read beside the app: the store allows readers)."""
    from storage.review_store import ReviewStore

    rs = ReviewStore(store / REVIEW_DB)
    try:
        return len(rs.latest_drafts(project_id))
    finally:
        rs.close()


def drafting_running(store: Path, project_id: int) -> bool:
    from storage.review_store import ReviewStore

    rs = ReviewStore(store / REVIEW_DB)
    try:
        return bool(rs.runs(project_id, unfinished=True))
    finally:
        rs.close()


def to_decide(store: Path, project_id: int, ids: list[str]) -> tuple[str, str]:
    """A row of ``ids`` drafted with an answer and not decided yet (the workspace is reused
    between runs), from the middle of the list: its ID and its key in the review store."""
    from engine.app.workspace import Workspace
    from engine.review.review import ReviewState

    ws = Workspace(store)  # the review store only: its knowledge base is never opened here
    try:
        items = {i.question.id: i for i in ws.review(project_id).items() if i.question.id}
    finally:
        ws.review_store.close()
    middle = len(ids) // 2
    for qid in ids[middle:] + ids[:middle]:
        if items[qid].state is ReviewState.DRAFTED and items[qid].answer:
            return qid, items[qid].key
    raise SystemExit(f"error: {store}: every drafted row to click is decided; fix: give a new --store")


def decisions(store: Path, project_id: int, key: str) -> list:
    """The decisions stored on one row, oldest first."""
    from storage.review_store import Decision, ReviewStore

    rs = ReviewStore(store / REVIEW_DB)
    try:
        return [d for d in rs.history(project_id, key) if isinstance(d, Decision)]
    finally:
        rs.close()


# ---- the served app's processes -----------------------------------------------------------------
def server(port: int) -> psutil.Process:
    """The app's process: ``python -m engine serve`` became ``streamlit run … --server.port PORT``."""
    for proc in psutil.process_iter(["cmdline"]):
        line = proc.info["cmdline"] or []
        if (
            "streamlit" in " ".join(line)
            and "--server.port" in line
            and line[line.index("--server.port") + 1] == str(port)
        ):
            return proc
    raise SystemExit(f"error: no streamlit process serves port {port}; fix: see the app's log")


def model_processes(app: psutil.Process) -> list[int]:
    """The model workers under the app (``python -c "from engine.drafting.generate.worker import serve; …"``)."""
    found = []
    for child in app.children(recursive=True):
        try:
            if WORKER in " ".join(child.cmdline()):
                found.append(child.pid)
        except psutil.NoSuchProcess:
            pass
    return found


# ---- one reviewer: a thread of its own, with its own Playwright and Chromium ----------------------
class Reviewer:
    """One person's browser. Playwright's sync objects belong to the thread that made them, so
    every step of this reviewer runs in its one-thread pool (:meth:`do`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self.app: App | None = None

    def do(self, fn, *args) -> Future:
        return self.pool.submit(fn, self, *args)

    def start(self, url: str, first: str) -> None:
        """Launch, sign in, and open ``first`` (untimed), so the first timed click opens a new row."""
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        self.app = App(self.browser.new_context(viewport=VIEWPORT).new_page(), url)
        load(self.app)
        sign_in(self.app, self.name)
        self.app.expect_text(f"Signed in as {self.name} (reviewer)")
        self.app.page.wait_for_selector(LIST, timeout=300_000)
        self.app.settle(timeout=300)
        open_timed(self.app, first)

    def openings(self, ids: list[str]) -> list[dict]:
        return [{"reviewer": self.name, **open_timed(self.app, qid)} for qid in ids]

    def open_row(self, qid: str) -> None:
        """Open ``qid`` (untimed) and wait until its card shows it."""
        page = self.app.page
        page.locator(f"{LIST} label").filter(has_text=qid).first.click()
        self.app.settle()
        on_row(self.app, qid)

    def accept(self, said: str | None = None) -> bool:
        """Click Accept; whether the toast ``said`` showed (watched from the click: it lasts 4 s)."""
        self.app.button("Accept").click()
        shown = False
        if said is not None:
            try:
                self.app.expect_text(said)
                shown = True
            except Exception:  # noqa: BLE001 - reported as not shown; the store is what is checked
                pass
        self.app.settle()
        return shown

    def shot(self, path: Path) -> None:
        self.app.page.screenshot(path=str(path))

    def refused_text(self) -> str:
        warning = changed_warning(self.app)
        warning.wait_for(timeout=60_000)
        return warning.inner_text()

    def stop(self) -> None:
        try:
            self.browser.close()
        finally:
            self.pw.stop()


def wait_all(futures: list[Future]) -> list:
    return [f.result() for f in futures]


def lost_update(store: Path, pid: int, first: Reviewer, second: Reviewer, qid: str, key: str) -> dict:
    """Both open ``qid`` (the same version), ``first`` accepts, then ``second`` accepts what its
    screen still shows: one decision stored, ``first``'s; ``second`` told the row changed."""
    wait_all([first.do(Reviewer.open_row, qid), second.do(Reviewer.open_row, qid)])
    shown = first.do(Reviewer.accept, f"{qid} accepted").result()
    deadline = time.monotonic() + 60
    while not decisions(store, pid, key) and time.monotonic() < deadline:
        time.sleep(0.5)
    second.do(Reviewer.accept).result()
    SCREENS.mkdir(exist_ok=True)
    try:
        refused = second.do(Reviewer.refused_text).result()
    except Exception as exc:  # noqa: BLE001 - the figures are still printed, the check says not ok
        refused = f"no refusal shown: {type(exc).__name__}"
    for r in (first, second):
        r.do(Reviewer.shot, SCREENS / f"team_conflict_{r.name}.png").result()
    stored = decisions(store, pid, key)
    ok = len(stored) == 1 and stored[0].by == first.name and "changed since you opened it" in refused
    return {
        "row": qid,
        "decisions_stored": [{"by": d.by, "action": str(d.action.value)} for d in stored],
        "first_was_shown_accepted": shown,
        "second_was_shown": refused.strip()[:300],
        "ok": ok,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, default=Path("/tmp/rfp_team_open_sample"))
    ap.add_argument("--questionnaire", type=Path, default=SAMPLE_BOOK)
    ap.add_argument("--kb", type=Path, nargs="*", default=None, help="default: the sample's documents")
    ap.add_argument("--draft", type=Path, default=BLANK, help="the blank questionnaire drafted meanwhile")
    ap.add_argument("--questions", type=int, default=5, help="openings per reviewer")
    args = ap.parse_args(argv)
    if not args.draft.is_file():
        print(f"error: {args.draft}: no such questionnaire; fix: pass --draft BLANK.xlsx", file=sys.stderr)
        return 2
    kb = args.kb if args.kb is not None else sorted((SAMPLE / "kb").iterdir())
    ids, pid, drafting = team_workspace(args.store, args.questionnaire, kb, args.draft)
    if len(ids) < 3:
        print(f"error: {args.store}: {len(ids)} rows open on a PDF quote; fix: a workspace with more", file=sys.stderr)
        return 2
    n, step = args.questions, max(1, len(ids) // len(REVIEWERS))
    seqs = [[ids[(i * step + k) % len(ids)] for k in range(n)] for i in range(len(REVIEWERS))]
    conflict = to_decide(args.store, pid, ids)
    load_before = os.getloadavg()
    reviewers = [Reviewer(name) for name in REVIEWERS]
    result: dict = {"store": str(args.store), "questionnaire": args.questionnaire.name, "clickable_rows": len(ids)}
    with ExitStack() as stack:
        port = stack.enter_context(served(args.store, args.store / "serve.log"))
        url = f"http://127.0.0.1:{port}"
        app = server(port)
        for r in reviewers:
            stack.callback(r.pool.shutdown)
        try:
            wait_all([r.do(Reviewer.start, url, ids[(i * step - 1) % len(ids)]) for i, r in enumerate(reviewers)])
            started, deadline = drafted(args.store, drafting), time.monotonic() + 300
            while drafted(args.store, drafting) <= started and time.monotonic() < deadline:
                time.sleep(1)  # the model loaded and drafting: the first new draft
            drafts_before = drafted(args.store, drafting)
            alone = reviewers[0].do(Reviewer.openings, seqs[0]).result()
            together_f = [r.do(Reviewer.openings, seqs[i]) for i, r in enumerate(reviewers)]
            workers: list[list[int]] = []
            while not all(f.done() for f in together_f):
                workers.append(model_processes(app))
                time.sleep(0.5)
            together = [run for runs in wait_all(together_f) for run in runs]
            drafts_after, running = drafted(args.store, drafting), drafting_running(args.store, drafting)
            result["lost_update"] = lost_update(args.store, pid, reviewers[0], reviewers[1], *conflict)
        finally:
            for r in reviewers:
                if r.app is not None:
                    r.do(Reviewer.stop).result()
    a, t = figures(alone), figures(together)
    result.update(
        {
            "questions_per_reviewer": n,
            "alone": a,
            "four_at_once": t,
            "four_over_alone_p50": round(t["highlight_p50_s"] / a["highlight_p50_s"], 2)
            if a["highlight_p50_s"] and t["highlight_p50_s"]
            else None,
            "model_processes": {
                "max": max(map(len, workers), default=0),
                "pids": sorted({p for w in workers for p in w}),
            },
            "drafting": {
                "questionnaire": args.draft.name,
                "model": DRAFT_MODEL,
                "rows_drafted_before": drafts_before,
                "rows_drafted_after": drafts_after,
                "still_running_at_end": running,
            },
            "load_average": {
                "before": [round(x, 2) for x in load_before],
                "after": [round(x, 2) for x in os.getloadavg()],
            },
            "cpus": os.cpu_count(),
        }
    )
    print(json.dumps(result, indent=2))
    return 0 if result["lost_update"]["ok"] and result["model_processes"]["max"] <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
