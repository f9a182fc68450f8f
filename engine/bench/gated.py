"""The gated-rows measure on filled questionnaires, without the model: with the vendor's own
qualifier answers (the truth), which rows do the qualifiers switch off, against which rows the
vendor left blank.

Per file: ``blank_gated`` rows the vendor left blank (or answered only "N/A") that a qualifier
governs in the template; ``recognised`` of them switched off; ``wrongly_off`` rows switched off
although the vendor answered them; ``blank_other`` blank rows no qualifier governs (follow-ups
such as "If No, no need to answer CONS-09", counted apart). Run:

    .venv/bin/python -m engine.bench.gated [FILLED.xlsx ...]

(default: every filled HECVAT under ``$RFP_SHARED_DATA/instructure``, /work/shared/data by default).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import answer_of, find_qualifiers, gates, is_na, question_key
from engine.questionnaire.records import Questionnaire


@dataclass(frozen=True)
class GatedFigures:
    file: str
    rows: int
    qualifiers: int
    blank_gated: int  # blank in the truth and governed by a qualifier
    recognised: int  # of those, switched off by the truth's qualifier answers
    wrongly_off: int  # switched off although the truth answers them
    blank_other: int  # blank in the truth, governed by no qualifier
    off_ids: tuple[str, ...]
    wrong_ids: tuple[str, ...]

    @property
    def recall(self) -> float | None:
        return self.recognised / self.blank_gated if self.blank_gated else None


def measure(path: Path) -> GatedFigures:
    questionnaire = read_questionnaire(path)
    questions = questionnaire.questions
    quals = find_qualifiers(questionnaire)
    comments = qualifier_comments(questionnaire, {k for qual in quals for k in [qual.key]})
    truth = {
        question_key(q): answer_of(q, q.existing_choice, q.existing_answer, comments.get(question_key(q)))
        for q in questions
    }
    state = gates(quals, truth, {question_key(q): q.choices for q in questions})
    governed = {k for qual in quals for k in qual.governs}
    blank_gated = recognised = wrongly = other = 0
    off_ids, wrong_ids = [], []
    for q in questions:
        key = question_key(q)
        given = [v for v in (q.existing_choice, q.existing_answer) if v and v.strip() and not is_na(v)]
        off = key in state and not state[key].required
        if off:
            off_ids.append(q.id or key)
        if not given:
            if key in governed:
                blank_gated += 1
                recognised += off
            else:
                other += 1
        elif off:
            wrongly += 1
            wrong_ids.append(q.id or key)
    return GatedFigures(
        path.name,
        len(questions),
        len({q.key for q in quals}),
        blank_gated,
        recognised,
        wrongly,
        other,
        tuple(off_ids),
        tuple(wrong_ids),
    )


def qualifier_comments(questionnaire: Questionnaire, keys: set[str]) -> dict[str, str]:
    """The comment-column text of the questions ``keys`` that have no dropdown (their text cell is
    the answer cell, so the reader does not keep the explanation beside it)."""
    import openpyxl

    wanted = [
        (s, q)
        for s in questionnaire.sheets
        for q in s.questions
        if question_key(q) in keys and not q.choice_cell and s.comment_col
    ]
    if not wanted or questionnaire.path.suffix.lower() == ".csv":
        return {}
    wb = openpyxl.load_workbook(questionnaire.path, read_only=True, data_only=True)
    try:
        out = {}
        for s, q in wanted:
            value = wb[s.sheet][f"{s.comment_col}{q.row}"].value
            if value is not None and str(value).strip():
                out[question_key(q)] = str(value).strip()
        return out
    finally:
        wb.close()


def default_files() -> list[Path]:
    root = Path(os.environ.get("RFP_SHARED_DATA", "/work/shared/data")) / "instructure"
    return sorted(p for p in root.glob("*/*HECVAT*.xlsx"))


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or default_files()
    if not files:
        print("no filled questionnaires given or found (pass the .xlsx files)", file=sys.stderr)
        return 2
    total = [0, 0, 0]
    for f in files:
        fig = measure(f)
        total[0] += fig.blank_gated
        total[1] += fig.recognised
        total[2] += fig.wrongly_off
        rec = "n/a (none)" if fig.recall is None else f"{fig.recall:.1%}"
        print(
            f"{fig.file}: rows {fig.rows}, qualifiers {fig.qualifiers}, blank & governed {fig.blank_gated}, "
            f"recognised {fig.recognised} ({rec}), wrongly off {fig.wrongly_off} {list(fig.wrong_ids)}, "
            f"other blank {fig.blank_other}"
        )
    rec = f"{total[1] / total[0]:.1%}" if total[0] else "n/a"
    print(json.dumps({"blank_gated": total[0], "recognised": total[1], "recall": rec, "wrongly_off": total[2]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = ["GatedFigures", "measure", "qualifier_comments"]
