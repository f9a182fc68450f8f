"""``python -m engine review …``: the reviewer's decisions from the command line, on the review
store of a workspace (``--store``, the app's folder). ``show`` prints a questionnaire's rows
(or one row) with their version; ``decide`` accepts, edits, sends to an SME, rejects or drafts
again one row, passing back the version it was shown at (``--version``, required). The team's
commands (engine/review/team.py, history.py, queue.py): ``assign`` gives rows (``--rows``, a
``--section`` or ``--review-first``) to a person or group (``--to``, or ``--unassign``) with
``--due`` and ``--note``; ``mine`` lists what waits for a name across questionnaires with the
overdue count; ``comment`` adds one (``@name`` puts the row in that queue); ``history`` prints every
draft and decision with who, when and the text diff; ``restore`` makes an earlier version the
answer again (a new decision, at ``--version``, refused like ``decide`` when the row changed);
``approve`` signs off a row someone else accepted or edited (at ``--version``), and ``approval``
turns a questionnaire's approval step ``on`` or ``off`` (without either: how many are approved).
Every writing command records who did it: ``--by NAME``, else the settings' reviewer, else the
login name (engine/core/people.py).

No lost update (storage/review_store.py): a row that changed since that version (another
reviewer's decision, a new draft) is refused, exit 2, with one ``error:`` line naming the row,
who or what changed it and when, and its answer now; nothing is written. ``show`` reads only and
runs beside the app (so do ``mine`` and ``history``); ``decide``, ``assign``, ``comment``,
``restore``, ``approve`` and ``approval on|off`` write, so they hold the folder
(storage/folder_lock.py) and are refused while the app is open on it.

A questionnaire is named by its file (the same bytes as the project's), its project id or its
name (both listed by ``show`` when the name matches none); a row by its question ID (``ENC-01``)
or its key (``Sheet1!B5``)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from shlex import quote

from engine.app.workspace import Workspace
from engine.cli import packet
from engine.cli.common import DEFAULT_STORE, by_arg
from engine.cli.projects import find_project, find_row
from engine.cli.projects import questionnaire_args as _target
from engine.core.people import mentions, person_name
from engine.core.types import FileProblem
from engine.review import team
from engine.review.history import history, restore
from engine.review.queue import my_questions
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
    by_arg(decide)
    decide.set_defaults(func=cmd_decide)
    _register_team(sub)
    _register_approval(sub)
    packet.register(sub)


def reviewer(ws: Workspace, args: argparse.Namespace) -> str:
    """``--by NAME`` checked as a name (engine/core/people.py), else the workspace's reviewer."""
    return person_name(args.by, "--by") if getattr(args, "by", None) is not None else ws.reviewer


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
        by = f" by {item.decision.by}" if item.decision.by else ""
        print(f"decided: {item.decision.action.value} at {item.decision.created}{by}{note}")
    if item.holder:
        due = f", due {item.assignment.due}" if item.assignment.due else ""
        print(f"held by: {item.holder}{due} (assigned by {item.assignment.by} at {item.assignment.created})")
    if item.approval is not None:
        print(f"approved: by {item.approval.by} at {item.approval.created}")
    elif item.approval_required and item.state.approved:
        print(f"waiting for approval: python -m engine review approve {quote(args.project)} {quote(item.key)} "
              f"--version {item.version} --store {quote(args.store)}")  # fmt: skip
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
        "by": item.decision.by if item.decision is not None else None,
        "holder": item.holder,
        "approved_by": item.approval.by if item.approval is not None else None,
        "final": item.final,
    }


# ---- decide ------------------------------------------------------------------------------------
def cmd_decide(args: argparse.Namespace) -> int:
    expected = RowVersion.parse(args.version)  # a malformed one: one error line (ValueError), nothing opened
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id, by=reviewer(ws, args))  # approved answers go to the answer library, as in the app
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
    draft = ws.regenerate(review.project_id, item.key, expected, by=review.by)
    return f"drafted again ({draft.status.value})"


def refusal(project: Project, item: ReviewItem, exc: RowChanged, args: argparse.Namespace) -> str:
    """The one line of a refused decision: the row, who or what changed it and when, its answer now, the fix."""
    show = f"python -m engine review show {quote(args.project)} {quote(item.key)} --store {quote(args.store)}"
    return (
        f"{project.file_name}, {item.label} ({item.key}): the row changed since version {exc.expected}: {exc.by}; "
        f"now: {exc.now}; nothing was saved. Run `{show}` and decide again (on version {exc.current})"
    )


def _register_team(sub) -> None:
    assign = sub.add_parser("assign", help="give rows (by ID, a section, or Review first) to a person or a group")
    _target(assign)
    which = assign.add_mutually_exclusive_group(required=True)
    which.add_argument("--rows", metavar="ID,ID", help="the rows: question IDs or keys, comma-separated")
    which.add_argument("--section", metavar="S", help="every row of a section a qualifier governs, or of a sheet")
    which.add_argument("--review-first", action="store_true", help="every row in Review first now")
    who = assign.add_mutually_exclusive_group(required=True)
    who.add_argument("--to", metavar="NAME", help="the person or group who answers them")
    who.add_argument("--unassign", action="store_true", help="take them back from whoever holds them")
    assign.add_argument("--due", metavar="YYYY-MM-DD", help="when the answers are due")
    assign.add_argument("--note", help="what the person should know")
    by_arg(assign)
    assign.set_defaults(func=cmd_assign)
    mine = sub.add_parser("mine", help="the rows waiting for you across every questionnaire, with the overdue count")
    mine.add_argument("--as", dest="by", metavar="NAME", help="whose queue (default: the settings' reviewer)")
    mine.add_argument(
        "--group", action="append", default=[], metavar="G", help="also the rows given to this group (repeatable)"
    )
    mine.add_argument("--store", default=str(DEFAULT_STORE), help="the workspace folder (the app's; default: ./store)")
    mine.add_argument("--json", action="store_true", help="one JSON object per row")
    mine.set_defaults(func=cmd_mine)
    comment = sub.add_parser("comment", help="comment on a row (@name puts it in that person's queue)")
    _target(comment)
    comment.add_argument("row", metavar="ROW", help="its question ID (ENC-01) or key (Sheet1!B5)")
    comment.add_argument("text", metavar="TEXT", help="the comment")
    by_arg(comment)
    comment.set_defaults(func=cmd_comment)
    history = sub.add_parser("history", help="every draft and decision of a row: who, when, what changed")
    _target(history)
    history.add_argument("row", metavar="ROW", help="its question ID (ENC-01) or key (Sheet1!B5)")
    history.add_argument("--json", action="store_true", help="one JSON object per version")
    history.set_defaults(func=cmd_history)
    restore = sub.add_parser("restore", help="make an earlier version of a row its answer (a new decision)")
    _target(restore)
    restore.add_argument("row", metavar="ROW", help="its question ID (ENC-01) or key (Sheet1!B5)")
    restore.add_argument("--from", dest="ref", required=True, metavar="REF", help="the version, as `history` names it")
    restore.add_argument("--version", required=True, metavar="V", help="the row's version now, as `show` printed it")
    by_arg(restore)
    restore.set_defaults(func=cmd_restore)


def cmd_assign(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id, by=reviewer(ws, args))
    rows = [r.strip() for r in (args.rows or "").split(",") if r.strip()]
    try:
        chosen = team.targets(review, review.items(), rows=rows, section=args.section, review_first=args.review_first)
        made = team.assign(review, chosen, None if args.unassign else args.to, args.due, args.note)
    except ValueError as exc:
        raise FileProblem(project.file_name, str(exc), "nothing was assigned") from None
    labels = ", ".join(i.label for i in chosen)
    to = f"assigned to {made[0].to}" if made[0].to else "unassigned"
    due = f", due {made[0].due}" if made[0].due else ""
    print(f"{len(made)} row{'s' if len(made) != 1 else ''} of {project.file_name} {to}{due} by {made[0].by}: {labels}")
    return 0


def cmd_mine(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    name = reviewer(ws, args)
    found = my_questions(ws.review_store, name, groups=[person_name(g, "--group") for g in args.group])
    if args.json:
        for item in found.items:
            print(json.dumps(asdict(item), ensure_ascii=False))
        return 0
    overdue = f", {found.overdue} overdue" if found.overdue else ""
    whose = ", ".join([name, *args.group])
    print(f"{len(found.items)} question{'s' if len(found.items) != 1 else ''} for {whose}{overdue}")
    for i in found.items:
        when = f"due {i.due}{' (overdue)' if i.overdue else ''}" if i.due else "no due date"
        said = f"{i.why} by {i.by}" + (f": {_flat(i.note)}" if i.note else "")
        print(f"{i.project_id}: {i.questionnaire}\t{i.label}\t{when}\t{said}\t{_flat(i.question)}")
    return 0


def cmd_comment(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id, by=reviewer(ws, args))
    item = find_row(review.items(), args.row, project)
    try:
        made = team.comment(review, item.key, args.text)
    except ValueError as exc:
        raise FileProblem(project.file_name, str(exc), "nothing was saved") from None
    named = mentions(made.text)
    to = f"; in the queue of {', '.join(named)}" if named else ""
    print(f"{item.label} ({item.key}): comment by {made.by} at {made.created} saved{to}")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = Review(ws.review_store, project.id, ws.questionnaire(project.id))  # reading: no answer library
    item = find_row(review.items(), args.row, project)
    steps = history(review, item.key)
    if args.json:
        for h in steps:
            print(json.dumps(asdict(h) | {"ref": h.ref}, ensure_ascii=False))
        return 0
    print(f"{item.label} ({item.key}) of {project.file_name}: {len(steps)} versions, now version {item.version}")
    for h in steps:
        note = f" (note: {_flat(h.note)})" if h.note else ""
        print(f"{h.ref}\t{h.when}\t{h.by}\t{h.what}{note}")
        if h.choice_changed:
            print(f"    choice: {h.choice_before or '—'} → {h.choice or '—'}")
        for line in h.diff:
            print(f"    {line}")
    for c in team.comments(review, item.key):
        print(f"comment\t{c.created}\t{c.by}\t{_flat(c.text)}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    expected = RowVersion.parse(args.version)
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id, by=reviewer(ws, args))
    item = find_row(review.items(), args.row, project)
    try:
        restore(review, item.key, args.ref, expected=expected)
    except RowChanged as exc:
        print(f"error: {refusal(project, item, exc, args)}", file=sys.stderr)
        return 2
    except ValueError as exc:
        raise FileProblem(project.file_name, str(exc), "nothing was saved") from None
    print(
        f"{item.label} ({item.key}): {args.ref} restored; version now {ws.review_store.version(project.id, item.key)}"
    )
    return 0


# ---- approval (optional, per questionnaire) ----------------------------------------------------
def _register_approval(sub) -> None:
    approve = sub.add_parser("approve", help="approve a row another reviewer accepted or edited, at the version shown")
    _target(approve)
    approve.add_argument("row", metavar="ROW", help="its question ID (ENC-01) or key (Sheet1!B5)")
    approve.add_argument("--version", required=True, metavar="V", help="the row's version as `review show` printed it")
    by_arg(approve)
    approve.set_defaults(func=cmd_approve)
    approval = sub.add_parser(
        "approval", help="whether accepted answers count as final only once a second person approves them"
    )
    _target(approval)
    approval.add_argument(
        "state", nargs="?", choices=("on", "off"), help="turn it on or off (none: say how many are approved)"
    )
    approval.set_defaults(func=cmd_approval)


def cmd_approve(args: argparse.Namespace) -> int:
    expected = RowVersion.parse(args.version)
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = ws.review(project.id, by=reviewer(ws, args))
    item = find_row(review.items(), args.row, project)
    try:
        made = review.approve(item.key, expected=expected)
    except RowChanged as exc:
        print(f"error: {refusal(project, item, exc, args)}", file=sys.stderr)
        return 2
    except ValueError as exc:
        raise FileProblem(project.file_name, str(exc), "nothing was saved") from None
    decided = item.decision.by if item.decision is not None and item.decision.by else "an unknown reviewer"
    print(f"{item.label} ({item.key}) approved by {made.by} (the {item.state.label.lower()} answer of {decided})")
    return 0


def cmd_approval(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    review = Review(ws.review_store, project.id, ws.questionnaire(project.id))
    if args.state is not None:
        review.require_approval(args.state == "on")
    items = review.items()
    accepted = [i for i in items if i.state.approved]
    approved = sum(i.approval is not None for i in accepted)
    said = "on: an accepted answer is final once a second person approves it" if review.approval_required else "off"
    print(f"{project.file_name}: approval {said}; {approved} of {len(accepted)} accepted answers approved")
    return 0


def _flat(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
