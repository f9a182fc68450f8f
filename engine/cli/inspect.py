"""``python -m engine inspect QUESTIONNAIRE [--json]``: show what the reader detected."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from engine.core.limits import Limits, add_limit_args
from engine.core.types import FileProblem
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.questionnaire.corrections import (
    ColumnRole,
    QuestionCorrection,
    QuestionKind,
    TableCorrection,
    merged,
    merged_questions,
    parse_columns,
)
from engine.questionnaire.language import detect, language_of
from engine.questionnaire.mapping import kind_counts, mapping

FIRST = 5  # questions shown per sheet


def register(p: argparse.ArgumentParser) -> None:
    """The arguments of ``inspect`` on its parser."""
    add_questionnaire_args(p)
    p.add_argument("--json", action="store_true", help="print every detected question as JSON")
    add_limit_args(p)
    p.set_defaults(func=cmd_inspect)


def add_questionnaire_args(p: argparse.ArgumentParser) -> None:
    """The questionnaire argument and the overrides for layouts auto-detection misses."""
    p.add_argument("questionnaire", help=".xlsx, .xlsm, .csv, .docx, .docm or .pdf file")
    p.add_argument("--sheet", help="read only this sheet (hidden sheets too)")
    p.add_argument("--header-row", type=int, help="1-based row of the column labels; questions are below it")
    p.add_argument("--question-col", help="column letter of the question text")
    p.add_argument("--answer-col", help="column letter of the answer (dropdown or free text)")
    p.add_argument("--comment-col", help="column letter of the explanation / comment")
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="KEY|ID",
        help="leave out a detected question (its key, e.g. Document!A12 or Form!A2003, or its ID); repeatable",
    )
    p.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PARAGRAPH",
        help="a Word questionnaire: add paragraph number N (as inspect shows it, A12 → 12) as a question; repeatable",
    )
    p.add_argument(
        "--like",
        action="append",
        default=[],
        metavar="KEY",
        help="a Word questionnaire: add the paragraphs like this question (same style and list, or same table "
        "column) as questions; repeatable",
    )
    p.add_argument(
        "--column",
        action="append",
        default=[],
        type=_column,
        metavar="TABLE:COL=ROLE",
        help="a Word questionnaire: give a table's column a role, every row of the table following (tables and "
        f'columns count from 0, as --json\'s "tables" shows them; roles: {", ".join(r.value for r in ColumnRole)}); '
        "7:2-5=option makes columns 2 to 5 the options of one choice; repeatable",
    )
    p.add_argument(
        "--question-text",
        action="append",
        default=[],
        type=_question("text"),
        metavar="KEY=TEXT",
        help="a document questionnaire: this question's text instead of the one read; repeatable",
    )
    p.add_argument(
        "--question-kind",
        action="append",
        default=[],
        type=_question("kind"),
        metavar="KEY=KIND",
        help=f"a document questionnaire: this question's kind ({', '.join(k.value for k in QuestionKind)}); repeatable",
    )
    p.add_argument(
        "--answer-column",
        action="append",
        default=[],
        type=_question("column"),
        metavar="KEY=COL",
        help="a Word questionnaire: this question's answer goes in column COL of its table row; repeatable",
    )


def _column(text: str) -> list[TableCorrection]:
    try:
        return parse_columns(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _question(field: str):
    """The parser of ``KEY=VALUE`` for one field of a question's correction."""

    def parse(text: str) -> QuestionCorrection:
        key, sep, value = text.partition("=")
        if not sep or "!" not in key:
            raise argparse.ArgumentTypeError(f"'{text}' is not KEY=VALUE (e.g. Document!A12=...)")
        try:
            if field == "kind":
                return QuestionCorrection(key.strip(), kind=QuestionKind(value.strip().lower()))
            if field == "column":
                return QuestionCorrection(key.strip(), column=int(value))
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{value}' is not a {field} of a question") from None
        return QuestionCorrection(key.strip(), text=value)

    return parse


def read_from_args(args: argparse.Namespace) -> Questionnaire:
    return read_questionnaire(
        args.questionnaire,
        sheet=args.sheet,
        header_row=args.header_row,
        question_col=args.question_col,
        answer_col=args.answer_col,
        comment_col=args.comment_col,
        exclude=args.exclude,
        include=args.include,
        like=args.like,
        tables=merged((), [c for group in args.column for c in group]),
        questions=merged_questions((), args.question_text + args.question_kind + args.answer_column),
        limits=Limits.from_args(args),
    )


def cmd_inspect(args: argparse.Namespace) -> int:
    try:
        q = read_from_args(args)
    except FileProblem as exc:  # QuestionnaireError, LimitError: the file, the problem and the fix
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(to_json(q), indent=1, ensure_ascii=False) if args.json else summary(q))
    return 0


def to_json(q: Questionnaire) -> dict:
    """Everything detected, as plain JSON types: the same keys for every format (a Word
    questionnaire's and a flat PDF's one sheet is the pseudo-sheet "Document", a PDF form's "Form");
    each question with its ``location``, ``kind`` and ``answer_place``
    (engine/questionnaire/mapping.py), and the counts by kind."""
    rows = {m.key: m for m in mapping(q)}
    sheets = []
    for s in q.sheets:
        layout = asdict(s)
        layout["questions"] = [
            {**asdict(x), **rows[f"{x.sheet}!{x.question_cell}"].to_json(), "language": _language(x.text)}
            for x in s.questions
        ]
        sheets.append(layout)
    return {
        "path": str(q.path),
        "language": language_of(q).to_json(),  # issue #58: the questions' most common language
        "questions": len(q.questions),
        "answered": sum(x.answered for x in q.questions),
        "kinds": kind_counts(list(rows.values())),
        "sheets": sheets,
        "tables": [t.to_json() for t in q.tables],
        "notes": list(q.notes),
    }


def _language(text: str) -> str | None:
    """A question's own detected language code (None: too short to tell)."""
    found = detect(text).language
    return found.value if found else None


def language_line(q: Questionnaire) -> str:
    """ "language: German (de), 60 of 60 questions" — and how many are in another language; the
    language assumed (the company's) when no question is long enough to tell."""
    found = language_of(q)
    told = sum(found.counts.values())
    name = f"language: {found.language.label} ({found.language.value})"
    if not told:  # every question too short to tell (column labels: "CMVP #", "Module Name")
        return f"{name}, assumed: none of its {len(q.questions)} questions is long enough to tell"
    line = f"{name}, {found.counts.get(found.language.value, 0)} of {told} questions"
    others = ", ".join(f"{n} {code}" for code, n in found.counts.items() if code != found.language.value)
    return line + (f" (also {others})" if others else "")


def summary(q: Questionnaire, first: int = FIRST) -> str:
    """A readable report: per sheet the count, the columns, the choice values, the first questions
    (a document's: the questions with their kind and answer place)."""
    answered = sum(x.answered for x in q.questions)
    if q.places:
        return _document_summary(q, first, answered)
    lines = [f"{q.path.name}: {len(q.questions)} questions in {len(q.sheets)} sheet(s), {answered} already answered"]
    lines.append(language_line(q))
    for s in q.sheets:
        with_choice = sum(1 for x in s.questions if x.choice_cell)
        lines += [
            "",
            f"sheet '{s.sheet}': {len(s.questions)} questions ({with_choice} with a dropdown)",
            f"  header row {s.header_row or '-'}; columns: id {s.id_col or '-'}, question {s.question_col}, "
            f"answer {s.answer_col}, comment {s.comment_col or '-'}",
            f"  choices: {' / '.join(s.choices) if s.choices else '(free text)'}",
        ]
        other = sorted({x.choices for x in s.questions if x.choices and x.choices != s.choices})
        lines += [f"  also: {' / '.join(c)}" for c in other[:5]]
        for x in s.questions[:first]:
            cells = ", ".join(
                f"{label} {ref}" for label, ref in (("choice", x.choice_cell), ("text", x.text_cell)) if ref
            )
            text = " ".join(x.text.split())
            text = text if len(text) <= 90 else text[:87] + "..."
            lines.append(f"  {x.question_cell:>6} {x.id or '':<10} {text}  [{cells}]")
        if len(s.questions) > first:
            lines.append(f"  … {len(s.questions) - first} more")
    lines += [""] + [f"note: {n}" for n in q.notes] if q.notes else []
    return "\n".join(lines)


def _table_line(t) -> str:
    """A table's columns and roles; its option columns, two or more, shown as one choice's ("choice (several)")."""
    several = sum(c.role is ColumnRole.OPTIONS for c in t.columns) >= 2

    def role(c) -> str:
        if c.role is ColumnRole.OPTIONS and several:
            return "choice (several)"
        return c.role.value if c.role else "—"

    cols = "; ".join(f"{c.column} {c.header[:24] or '—'} = {role(c)}" for c in t.columns)
    return f"  table {t.table} ({len(t.keys)} questions) {t.title[:40]!r}: {cols}"


def _document_summary(q: Questionnaire, first: int, answered: int) -> str:
    rows = mapping(q)
    kinds = ", ".join(f"{n} {kind}" for kind, n in kind_counts(rows).items())
    lines = [f"{q.path.name}: {len(rows)} questions ({kinds}), {answered} already answered", language_line(q), ""]
    pdf = q.path.suffix.lower() == ".pdf"  # its questions' keys count by page: the page is shown beside them
    for m in rows[: max(first, 20)]:
        text = " ".join(m.text.split())
        text = text if len(text) <= 80 else text[:77] + "..."
        where = f" {m.location:<8}" if pdf else ""
        lines.append(f"  {m.key.split('!')[1]:>7}{where} {m.id or '':<14} {m.kind:<8} {text}  [{m.place[:70]}]")
    if len(rows) > max(first, 20):
        lines.append(f"  … {len(rows) - max(first, 20)} more (--json lists them all)")
    if q.tables:
        lines += [
            "",
            f"{len(q.tables)} tables read by columns (correct a column's role with --column TABLE:COL=ROLE; "
            "'choice (several)': the option columns of one choice per row, role 'option'):",
        ]
        lines += [_table_line(t) for t in q.tables[: max(first, 20)]]
    lines += [""] + [f"note: {n}" for n in q.notes] if q.notes else []
    return "\n".join(lines)
