"""``python -m engine inspect QUESTIONNAIRE [--json]``: show what the reader detected."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from engine.core.limits import Limits, add_limit_args
from engine.core.types import FileProblem
from engine.questionnaire import Questionnaire, read_questionnaire

FIRST = 5  # questions shown per sheet


def register(p: argparse.ArgumentParser) -> None:
    """The arguments of ``inspect`` on its parser."""
    add_questionnaire_args(p)
    p.add_argument("--json", action="store_true", help="print every detected question as JSON")
    add_limit_args(p)
    p.set_defaults(func=cmd_inspect)


def add_questionnaire_args(p: argparse.ArgumentParser) -> None:
    """The questionnaire argument and the overrides for layouts auto-detection misses."""
    p.add_argument("questionnaire", help=".xlsx, .xlsm or .csv file")
    p.add_argument("--sheet", help="read only this sheet (hidden sheets too)")
    p.add_argument("--header-row", type=int, help="1-based row of the column labels; questions are below it")
    p.add_argument("--question-col", help="column letter of the question text")
    p.add_argument("--answer-col", help="column letter of the answer (dropdown or free text)")
    p.add_argument("--comment-col", help="column letter of the explanation / comment")


def read_from_args(args: argparse.Namespace) -> Questionnaire:
    return read_questionnaire(
        args.questionnaire,
        sheet=args.sheet,
        header_row=args.header_row,
        question_col=args.question_col,
        answer_col=args.answer_col,
        comment_col=args.comment_col,
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
    """Everything detected, as plain JSON types."""
    return {
        "path": str(q.path),
        "questions": len(q.questions),
        "answered": sum(x.answered for x in q.questions),
        "sheets": [asdict(s) for s in q.sheets],
        "notes": list(q.notes),
    }


def summary(q: Questionnaire, first: int = FIRST) -> str:
    """A readable report: per sheet the count, the columns, the choice values, the first questions."""
    answered = sum(x.answered for x in q.questions)
    lines = [f"{q.path.name}: {len(q.questions)} questions in {len(q.sheets)} sheet(s), {answered} already answered"]
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
