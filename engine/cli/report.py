"""``python -m engine report …``: the reports of a workspace (``--store``, the app's folder; #51,
engine/review/reports/, docs/reports.md). ``coverage QUESTIONNAIRE`` prints what the
questionnaire's answers rest on, its gaps by topic (ranked across every questionnaire of the
workspace) and the trends; ``library`` the answer library's health: freshness, reuse, disagreeing
answers, duplicates, retired products, and with ``--owner`` that owner's queue (the other filters
list the entries they select). ``--out FILE.xlsx`` or ``FILE.html`` writes the whole report (every
table, each figure linked to its rows); ``--json`` prints the tables. Both read only, beside the
app: the library report embeds with an encoder of its own, never opening the knowledge base."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from engine.app.workspace import Workspace
from engine.cli import common
from engine.cli.projects import find_project, questionnaire_args
from engine.core.files import write_atomic
from engine.core.types import FileProblem
from engine.review.reports import Band, CoverageReport, LibraryReport, Outcome, Table, html_text, xlsx_bytes
from engine.review.reports.library_health import WINDOWS

OUT_SUFFIXES = (".xlsx", ".html")


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="report_command", required=True)
    cov = sub.add_parser(
        "coverage", help="what a questionnaire's answers rest on, its gaps by topic, the trends across questionnaires"
    )
    questionnaire_args(cov)
    _out_args(cov)
    cov.set_defaults(func=cmd_coverage)
    lib = sub.add_parser(
        "library", help="the answer library's health: freshness, reuse, disagreeing answers, duplicates, owners"
    )
    common.store_arg(lib)
    _out_args(lib)
    lib.add_argument("--owner", metavar="NAME", help="list NAME's queue: their entries to review")
    lib.add_argument(
        "--band", nargs="+", choices=[b.value for b in Band], help="list the entries of these freshness bands"
    )
    lib.add_argument("--never-used", action="store_true", help="list the entries no draft has cited")
    lib.add_argument(
        "--conflicting", action="store_true", help="list the entries whose near-identical questions disagree"
    )
    lib.add_argument("--duplicate", action="store_true", help="list the entries that say what another entry says")
    lib.add_argument("--retired-product", action="store_true", help="list the entries of retired products")
    lib.set_defaults(func=cmd_library)


def _out_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="FILE", help="write the whole report: FILE.xlsx (a sheet per table) or FILE.html")
    p.add_argument("--json", action="store_true", help="print every table as JSON")


def _made() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_report(out: str, title: str, tables: list[Table]) -> Path:
    """``tables`` written to ``out`` as XLSX or HTML, by its suffix; a FileProblem naming the
    file and the fix for any other suffix (nothing written)."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in OUT_SUFFIXES:
        raise FileProblem(
            path, f"a report cannot be written as {suffix or 'a file without extension'}", "Name it .xlsx or .html"
        )
    made = _made()
    data = xlsx_bytes(title, made, tables) if suffix == ".xlsx" else html_text(title, made, tables).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)
    return path


def _finish(args: argparse.Namespace, title: str, tables: list[Table]) -> int:
    if args.out and Path(args.out).suffix.lower() not in OUT_SUFFIXES:
        write_report(args.out, title, tables)  # the one-line refusal, before anything is printed
    if args.json:
        print(json.dumps({"title": title, "tables": [t.to_json() for t in tables]}, ensure_ascii=False))
    if args.out:
        print(f"wrote {write_report(args.out, title, tables)}", file=sys.stderr if args.json else sys.stdout)
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    project = find_project(ws, args.project)
    report = ws.coverage_report(project.id)
    if not args.json:
        _print_coverage(report, ws)
    for why in report.skipped:
        print(f"left out (cannot be read): {why}", file=sys.stderr)
    return _finish(args, f"Coverage of {project.name}", report.tables())


def _print_coverage(report: CoverageReport, ws: Workspace) -> None:
    rows = report.rows
    whose = report.project.product or "company-wide"
    print(f"coverage of {report.project.name} ({whose}): {len(rows)} rows")
    for basis, found in report.by_source().items():
        if found:
            print(f"  {basis.label}: {len(found)} ({100 * len(found) / len(rows):.1f} %)")
    gaps = report.gaps()
    reasons = {}
    for r in gaps:
        for g in r.gaps:
            reasons[g.label] = reasons.get(g.label, 0) + 1
    said = ", ".join(f"{name} {n}" for name, n in reasons.items())
    print(f"gaps: {len(gaps)} rows" + (f" ({said})" if said else ""))
    if report.topics:
        print(f"gap topics, ranked by their gap rows in every questionnaire of {ws.folder}:")
    for rank, topic in report.topics:
        here, every = len(topic.of(report.project.id)), len(topic.rows)
        print(f"  #{rank} {topic.name}: {here} here, {every} in {len(topic.questionnaires)} questionnaire(s)")
        print(f"     a library answer for: {_short(topic.entry().question, 100)}")
    print("trends (drafted / accepted unchanged / edited / rejected / needs SME, reviewer hours):")
    for t in report.trends:
        figures = [len(t.drafted)] + [len(t.decided(o)) for o in _OUTCOMES]
        hours = f"{t.hours} h" if t.hours is not None else "unknown"
        print(f"  {t.project.name}: {' / '.join(map(str, figures))}, {hours}")
    for a in report.acceptance:
        if a.rows:
            print(f"  accepted unchanged, {a.basis.label}: {a.rate:.1%} of {len(a.rows)} decided")


def cmd_library(args: argparse.Namespace) -> int:
    ws = Workspace(args.store)
    library = common.library(args)  # with an encoder of its own: the app may hold the knowledge base
    if library is None:
        raise FileNotFoundError(
            f"{args.store} has no answer library; import past filled questionnaires with "
            f"`python -m engine library import FILE --store {args.store}`"
        )
    report = ws.library_report(library=library)
    if not args.json:
        _print_library(report, args)
    return _finish(args, "Answer library health", report.tables())


def _print_library(report: LibraryReport, args: argparse.Namespace) -> None:
    entries = report.entries
    bands = ", ".join(f"{b.label} {len(report.select(bands=[b]))}" for b in Band)
    print(f"answer library: {len(entries)} entries ({bands})")
    used = ", ".join(f"{d} days {sum(bool(h.used(d, report.today)) for h in entries)}" for d in WINDOWS)
    print(
        f"used in the last {used}; ever {sum(bool(h.uses) for h in entries)}; never {len(report.select(never_used=True))}"
    )
    print(f"disagreeing near-identical questions: {len(report.conflicts)} groups (`library check`)")
    for n, c in enumerate(report.conflicts, 1):
        tally = ", ".join(f"{choice} ×{k}" for choice, k in c.choices.items())
        print(f"  {n}. {_short(c.question, 90)} ({tally}; similarity {c.score:.2f})")
        for e in c.entries:
            print(f"     #{e.id:<5} {e.choice or '':<8} {e.product or 'company-wide'}, dated {e.dated} ({e.file})")
    print(f"duplicates to merge: {len(report.duplicates)} groups")
    for n, d in enumerate(report.duplicates, 1):
        others = ", ".join(f"#{e.id}" for e in d.others)
        print(f"  {n}. {_short(d.keep.question, 90)}: keep #{d.keep.id}, retire {others}")
    for product in report.retired_products:
        print(f"retired product {product}: {sum(h.entry.product == product for h in entries)} entries")
    selected = _selected(report, args)
    if selected is not None:
        what, found = selected
        print(f"{what}: {len(found)} entries")
        for h in found:
            e = h.entry
            flags = "; ".join([h.band.label, *h.flags])
            print(f"  #{e.id:<5} review by {e.review_by} ({flags}), used {len(h.uses)}×: {_short(e.question, 80)}")


def _selected(report: LibraryReport, args: argparse.Namespace):
    """(what, entries) the filters select; None when no filter was given."""
    if args.owner:
        return f"queue of {args.owner}", report.queue(args.owner)
    filters = dict(
        bands=[Band(b) for b in args.band or ()],
        never_used=args.never_used,
        conflicting=args.conflicting,
        duplicate=args.duplicate,
        retired_product=args.retired_product,
    )
    if not any(filters.values()):
        return None
    named = [k.replace("_", " ") for k, v in filters.items() if v]
    return "selected (" + ", ".join(named) + ")", report.select(**filters)


def _short(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


_OUTCOMES = (Outcome.ACCEPTED, Outcome.EDITED, Outcome.REJECTED, Outcome.NEEDS_SME)
