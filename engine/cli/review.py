"""``python -m engine review …``: the reviewer's decisions from the command line, on the review
store of a workspace (``--store``, the app's folder). ``show`` prints a questionnaire's rows
(or one row) with their version; ``decide`` accepts, edits, sends to an SME, rejects or drafts
again one row, passing back the version it was shown at (``--version``, required).

No lost update (storage/review_store.py): a row that changed since that version (another
reviewer's decision, a new draft) is refused, exit 2, with one ``error:`` line naming the row,
who or what changed it and when, and its answer now; nothing is written. ``show`` reads only and
runs beside the app; ``decide`` writes, so it holds the folder (storage/folder_lock.py) and is
refused while the app is open on it.

A questionnaire is named by its file (the same bytes as the project's), its project id or its
name (both listed by ``show`` when the name matches none); a row by its question ID (``ENC-01``)
or its key (``Sheet1!B5``)."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from shlex import quote

from engine.app.workspace import Workspace
from engine.cli.common import DEFAULT_STORE
from engine.core.types import FileProblem
from engine.review.review import Review, ReviewItem, RowChanged, RowVersion
from storage.review_store import Project

ACTIONS = ("accept", "edit", "needs-sme", "reject", "regenerate")


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="review_command", required=True)
    show = sub.add_parser("show", help="print a questionnaire's rows (or one row) with their version")
    _target(show)
    show.add_argument("row", nargs="?", metavar="ROW", help="one row: its question ID (ENC-01) or key (Sheet1!B5)")
    show.add_argument("--json", action="store_true", help="one JSON object per row")
    show.set_defaults(func=cmd_show)
    decide = sub.add_parser(
        "decide", help="accept, edit, send to an SME, reject or draft again one row, at the version shown"
    )
    _target(decide)
    decide.add_argument("row", metavar="ROW", help="its question ID (ENC-01) or key (Sheet1!B5)")
    decide.add_argument("action", choices=ACTIONS)
    decide.add_argument(
        "--version",
        required=True,
        metavar="V",
        help="the row's version as `review show` printed it: refused when the row changed since",
    )
    decide.add_argument("--answer", help="the answer text (edit; accept: instead of the draft's)")
    decide.add_argument("--choice", help="the dropdown value (edit, accept)")
    decide.add_argument("--note", help="why (needs-sme, reject)")
    decide.set_defaults(func=cmd_decide)


def _target(p: argparse.ArgumentParser) -> None:
    p.add_argument("project", metavar="QUESTIONNAIRE", help="the questionnaire file, or its project id or name")
    p.add_argument("--store", default=str(DEFAULT_STORE), help="the workspace folder (the app's; default: ./store)")


# ---- show --------------------------------------------------------------------------------------
def cmd_show(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = Review(ws.review_store, project.id, ws.questionnaire(project.id))  # reading: no answer library
    items = review.items()
    if args.row:
        items = [find_row(items, args.row, project)]
    if args.json:
        for item in items:
            print(json.dumps(_as_json(item), ensure_ascii=False))
        return 0
    if not args.row:
        print(f"project {project.id}: {project.name} ({project.file_name}), {len(items)} questions")
        for item in items:
            print(f"{item.label}\t{item.key}\tversion {item.version}\t{item.state.value}\t{_answer_line(item)}")
        return 0
    item = items[0]
    print(f"{item.label} ({item.key}) of {project.file_name}, version {item.version}: {item.state.label}")
    print(f"question: {item.question.text}")
    if item.choice:
        print(f"choice: {item.choice}")
    print(f"answer: {item.answer}")
    if item.decision is not None:
        note = f" (note: {item.decision.note})" if item.decision.note else ""
        print(f"decided: {item.decision.action.value} at {item.decision.created}{note}")
    print(
        f"decide on it: python -m engine review decide {quote(args.project)} {quote(item.key)} "
        f"{{{','.join(ACTIONS)}}} --version {item.version} --store {quote(args.store)}"
    )
    return 0


def _answer_line(item: ReviewItem) -> str:
    flat = " ".join(item.answer.split())
    flat = flat if len(flat) <= 80 else flat[:79] + "…"
    return " · ".join(x for x in (f'"{item.choice}"' if item.choice else "", flat) if x)


def _as_json(item: ReviewItem) -> dict:
    return {
        "id": item.question.id,
        "key": item.key,
        "version": str(item.version),
        "state": item.state.value,
        "choice": item.choice,
        "answer": item.answer,
        "decided": item.decision.created if item.decision is not None else None,
    }


# ---- decide ------------------------------------------------------------------------------------
def cmd_decide(args: argparse.Namespace) -> int:
    expected = RowVersion.parse(args.version)  # a malformed one: one error line (ValueError), nothing opened
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id)  # approved answers go to the answer library, as in the app
    item = find_row(review.items(), args.row, project)
    try:
        done = _decide(ws, review, item, args, expected)
    except RowChanged as exc:
        print(f"error: {refusal(project, item, exc, args)}", file=sys.stderr)
        return 2
    print(f"{item.label} ({item.key}) {done}; version now {ws.review_store.version(project.id, item.key)}")
    if args.action in ("accept", "edit") and review.library_problem is not None:
        print(f"warning: saved in the review store only: {review.library_problem}", file=sys.stderr)
    return 0


def _decide(ws: Workspace, review: Review, item: ReviewItem, args: argparse.Namespace, expected: RowVersion) -> str:
    """The action, at ``expected``; what was done, in words."""
    if args.action == "accept":
        review.accept(item.key, args.answer, args.choice, expected=expected)
        return "accepted"
    if args.action == "edit":
        if args.answer is None and args.choice is None:
            raise ValueError("edit needs the new text (--answer) or choice (--choice); nothing was saved")
        answer = item.answer if args.answer is None else args.answer
        review.edit(item.key, answer, item.choice if args.choice is None else args.choice, expected=expected)
        return "edit saved"
    if args.action == "needs-sme":
        review.needs_sme(item.key, args.note, expected=expected)
        return "sent to an SME"
    if args.action == "reject":
        review.reject(item.key, args.note, expected=expected)
        return "rejected"
    draft = ws.regenerate(review.project_id, item.key, expected)
    return f"drafted again ({draft.status.value})"


def refusal(project: Project, item: ReviewItem, exc: RowChanged, args: argparse.Namespace) -> str:
    """The one line of a refused decision: the row, who or what changed it and when, its answer now, the fix."""
    show = f"python -m engine review show {quote(args.project)} {quote(item.key)} --store {quote(args.store)}"
    return (
        f"{project.file_name}, {item.label} ({item.key}): the row changed since version {exc.expected}: {exc.by}; "
        f"now: {exc.now}; nothing was saved. Run `{show}` and decide again (on version {exc.current})"
    )


# ---- finding the questionnaire and the row -------------------------------------------------------
def find_project(ws: Workspace, named: str) -> Project:
    """The project of a questionnaire file (the same bytes), of an id, or of a name or file name."""
    projects = ws.projects()
    path = Path(named)
    if path.is_file():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        found = [p for p in projects if p.file_sha256 == digest]
    elif named.isdigit():
        found = [p for p in projects if p.id == int(named)]
    else:
        found = [p for p in projects if named in (p.name, p.file_name)]
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{p.id}: {p.name} ({p.file_name})" for p in projects) or "none yet"
    if found:
        raise FileProblem(named, f"{len(found)} questionnaires match it", f"Name one by its id ({listed})")
    raise FileProblem(
        named,
        f"no questionnaire of the review store {ws.review_store.path} is this one",
        f"Name one of them by id or name ({listed}); a new questionnaire is drafted with "
        "`python -m engine draft` or uploaded in the app first",
    )


def find_row(items: list[ReviewItem], named: str, project: Project) -> ReviewItem:
    """The row named by its key, question ID or label (``Sheet1 row 5``)."""
    found = [i for i in items if i.key == named] or [i for i in items if named in (i.question.id, i.label)]
    if len(found) == 1:
        return found[0]
    if found:
        keys = ", ".join(i.key for i in found)
        raise FileProblem(project.file_name, f"{len(found)} rows are {named}", f"Name one by its key ({keys})")
    raise FileProblem(
        project.file_name,
        f"no row {named}",
        f"Name a row by its question ID or key as `python -m engine review show {project.id}` lists them",
    )
