"""``python -m engine shred FILE… [--json] [--matrix OUT.xlsx] [--outline OUT.docx]``: a
solicitation package (the RFP/RFQ, its SOW/PWS/SOO, attachments; PDF or Word) shredded into its
requirements and key facts (docs/solicitations.md); the compliance matrix and the response
outline written where asked. The reviewer's corrections apply first: sentences added, requirements
split and merged (``--add`` / ``--split`` / ``--merge``: engine/questionnaire/solicitation/edits.py),
then left out and kinds changed (``--exclude`` / ``--kind``)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from engine.core.limits import Limits, add_limit_args
from engine.core.types import FileProblem, Progress
from engine.questionnaire.solicitation import Kind, Shredded, shred
from engine.questionnaire.solicitation.amendment import Amendment, compare
from engine.questionnaire.solicitation.edits import Edits, edited
from engine.questionnaire.solicitation.facts import time_zone
from engine.questionnaire.solicitation.shred import StopShredding, corrected
from engine.review.compliance_matrix import entries_from_results, write_compliance_matrix, write_response_outline

SHOWN = 400  # characters of a requirement's quote on screen (--json gives them whole)


def register(p: argparse.ArgumentParser) -> None:
    """The arguments of ``shred`` on its parser."""
    p.add_argument("files", nargs="+", metavar="FILE", help="the solicitation's files: .pdf, .docx or .docm")
    p.add_argument("--json", action="store_true", help="print the key facts and every requirement as JSON")
    p.add_argument("--matrix", metavar="OUT.xlsx", help="write the compliance matrix (XLSX)")
    p.add_argument("--outline", metavar="OUT.docx", help="write the response outline (DOCX)")
    p.add_argument(
        "--exclude", action="append", default=[], metavar="ID", help="leave a requirement out (its ID); repeatable"
    )
    p.add_argument(
        "--kind",
        action="append",
        default=[],
        metavar="ID=KIND",
        help="change a requirement's kind (submission, evaluation, work, terms); repeatable",
    )
    p.add_argument(
        "--add",
        action="append",
        default=[],
        metavar="TEXT",
        help="add a sentence as a requirement: found verbatim (whitespace aside) on a page, its ID A-001 …; repeatable",
    )
    p.add_argument(
        "--split",
        action="append",
        default=[],
        metavar="ID=FRAGMENT",
        help="split a requirement in two where FRAGMENT (the words the second part starts with) starts; the second "
        "part is ID/2; repeatable",
    )
    p.add_argument(
        "--merge",
        action="append",
        default=[],
        metavar="ID+ID",
        help="merge requirements next to each other on one page into one (the first's ID); repeatable",
    )
    p.add_argument(
        "--results",
        metavar="FILE.jsonl",
        help="a draft run's results (draft --results): their compliance choices, responses and citations fill the "
        "matrix and the outline",
    )
    p.add_argument(
        "--previous",
        nargs="+",
        metavar="FILE",
        help="the version this one amends: list the requirements added, changed and removed, by quote",
    )
    add_limit_args(p)
    p.set_defaults(func=cmd_shred)


def to_json(result: Shredded) -> dict:
    """The shredded package as JSON: the alert, key facts (each quoted with file and page, or
    "not stated"), the counts, and every requirement."""
    return {
        "files": list(result.files),
        "pages": result.pages,
        "looks_like_solicitation": result.looks_like_solicitation,
        "stopped": result.stopped or None,
        "alert": result.alert.line if result.alert else None,
        "key_facts": {
            f.fact.value: {"value": f.value, "file": f.file, "page": f.page} | _zone(f) for f in result.facts
        },
        "counts": result.counts(),
        "requirements": [
            asdict(r) | {"kind": r.kind.value, "also_in": list(r.also_in), "drafted": r.drafted}
            for r in result.requirements
        ],
    }


def _zone(fact) -> dict:
    zone = time_zone(fact) if fact.fact.value in ("response_due", "questions_deadline") else ""
    return {"time_zone": zone} if zone else {}


def summary(result: Shredded) -> str:
    """The key facts card, the counts, then the requirements one a line."""
    lines = []
    if result.stopped:
        lines.append(f"!! {result.stopped}")
    if result.alert is not None:
        lines.append(f"!! {result.alert.line}")
    lines.append(f"{', '.join(result.files)}: {result.pages} pages")
    if not result.looks_like_solicitation:
        lines.append("note: this reads more like a questionnaire than a solicitation; `inspect` shows its questions")
    lines.append("Key facts")
    for f in result.facts:
        where = f"  (p.{f.page}{' ' + f.file if len(result.files) > 1 else ''})" if f.stated else ""
        lines.append(f"  {f.fact.label}: {f.value}{where}")
    counts = result.counts()
    kinds = Counter(r.kind.value for r in result.requirements)
    lines.append(
        f"Requirements: {counts['total']} ({counts['mandatory']} mandatory); "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    )
    for r in result.requirements:
        quote = r.text if len(r.text) <= SHOWN else r.text[:SHOWN] + "…"
        flag = "M" if r.mandatory else "d"
        linked = f"  [also in {', '.join(r.also_in)}]" if r.also_in else ""
        lines.append(f"  {r.id:<14} p.{r.page:<3} {r.kind.value:<10} {flag} {quote}{linked}")
    return "\n".join(lines)


def _brief(req) -> dict:
    return {"id": req.id, "file": req.file, "page": req.page, "text": req.text}


def amendment_json(amendment: Amendment) -> dict:
    return {
        "counts": amendment.counts(),
        "added": [_brief(r) for r in amendment.added],
        "changed": [{"before": _brief(a), "after": _brief(b)} for a, b in amendment.changed],
        "removed": [_brief(r) for r in amendment.removed],
    }


def amendment_summary(amendment: Amendment) -> str:
    c = amendment.counts()
    lines = [
        f"Against the previous version: {c['added']} added, {c['changed']} changed, {c['removed']} removed, "
        f"{c['unchanged']} unchanged"
    ]
    lines += [f"  + {r.id:<14} p.{r.page:<3} {r.text[:SHOWN]}" for r in amendment.added]
    for before, after in amendment.changed:
        lines.append(f"  ~ {after.id:<14} p.{after.page:<3} {after.text[:SHOWN]}")
        lines.append(f"    (was {before.id} p.{before.page}: {before.text[:SHOWN]})")
    lines += [f"  - {r.id:<14} p.{r.page:<3} {r.text[:SHOWN]}" for r in amendment.removed]
    return "\n".join(lines)


def cmd_shred(args: argparse.Namespace) -> int:
    try:
        limits = Limits.from_args(args)
        with _ctrl_c_stops() as asked:
            result = shred(args.files, limits=limits, progress=_progress(asked))
        result = edited(args.files, result, Edits(tuple(args.add), tuple(args.split), tuple(args.merge)), limits, True)
        result = corrected(result, args.exclude, _kinds(args.kind))
        amendment = None
        if args.previous:
            amendment = compare(shred(args.previous, limits=limits).requirements, result.requirements)
        written = []
        entries = entries_from_results(result, _results(args.results)) if args.results else None
        if args.matrix:
            written.append(str(write_compliance_matrix(result, args.matrix, entries)))
        if args.outline:
            written.append(str(write_response_outline(result, args.outline, entries)))
    except FileProblem as exc:  # the file, the problem and the fix, in one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out = to_json(result) | ({"amendment": amendment_json(amendment)} if amendment else {})
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        print(summary(result) + (f"\n{amendment_summary(amendment)}" if amendment else ""))
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    if result.stopped:
        print(result.stopped, file=sys.stderr)
        return 130  # stopped: what is printed and written holds the pages read
    return 0


def _kinds(pairs: list[str]) -> dict[str, Kind]:
    """``--kind ID=KIND`` pairs, or a ValueError that names the flag and the choices."""
    out = {}
    for pair in pairs:
        rid, _, kind = pair.partition("=")
        try:
            out[rid.strip()] = Kind(kind.strip().lower())
        except ValueError:
            choices = ", ".join(k.value for k in Kind)
            raise ValueError(f"--kind {pair}: give ID=KIND with KIND one of {choices}") from None
    return out


def _results(path: str) -> list[dict]:
    """The rows of a draft run's results file (JSON lines), or a one-line error naming it."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileProblem(
            Path(path).name, f"is not a draft run's results file ({exc})", "give draft's --results file"
        ) from None


PROGRESS_EVERY = 25  # pages between two progress lines on a terminal (100 in a log)


def _progress(asked: list[bool]) -> Progress:
    """The pages read on stderr (on a terminal one line rewritten every 25 pages, in a log a line
    every 100 pages of a long file), so a 1,000-page package shows it moves; a Ctrl-C ``asked``
    stops the shred at the next page, keeping what was found."""
    terminal = sys.stderr.isatty()

    def tick(name: str, page: int, pages: int) -> None:
        if asked:
            raise StopShredding
        if terminal and (page % PROGRESS_EVERY == 0 or page == pages) and pages > PROGRESS_EVERY:
            end = "\n" if page == pages else ""
            print(f"\r{name}: page {page} of {pages}", end=end, file=sys.stderr, flush=True)
        elif not terminal and page % (4 * PROGRESS_EVERY) == 0:
            print(f"{name}: page {page} of {pages}", file=sys.stderr, flush=True)

    return tick


@contextmanager
def _ctrl_c_stops() -> Iterator[list[bool]]:
    """A first Ctrl-C asks the shred to stop at the next page (its work so far printed and
    written); a second one interrupts at once. Only in the main thread (signals live there)."""
    asked: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield asked
        return

    def on_interrupt(signum: int, frame: object) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)
