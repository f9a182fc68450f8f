"""A solicitation's corrections kept with a project (issue #57): ``ReadOptions.kinds`` ("ID=kind")
beside ``exclude``, read back from JSON, applied by ``read_questionnaire``; a row keeps its key
whatever else is left out; a pair naming no kind refused in one line; the decisions to keep when
an amendment leaves a requirement unchanged. On the tests' generated RFP PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.solicitations import carried
from engine.questionnaire import QuestionnaireError, ReadOptions, read_questionnaire
from engine.questionnaire.solicitation import shred
from engine.questionnaire.solicitation.as_questionnaire import CHECKLIST, as_read
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf


@pytest.fixture()
def rfp(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "rfp.pdf", [PAGE_ONE, PAGE_TWO])


def test_kinds_are_kept_as_json_and_applied_when_read(rfp):
    options = ReadOptions(exclude=("2.2",), kinds=("2.1-2=submission", "1.1=work"))
    again = ReadOptions.from_json(options.to_json())
    assert again == options
    rows = {q.id: q for q in read_questionnaire(rfp, **again.to_json()).questions}
    assert "2.2" not in rows
    assert rows["2.1-2"].existing_answer == CHECKLIST.format(kind="submission")  # a checklist now: not drafted
    assert rows["1.1"].existing_answer is None  # work now: drafted


def test_a_row_keeps_its_key_whatever_else_is_left_out(rfp):
    result = shred([rfp])
    _, whole = as_read(rfp, result, ReadOptions())
    shredded, fewer = as_read(rfp, result, ReadOptions(exclude=("1.1a", "2.1")))
    key = {q.id: (q.sheet, q.row) for q in whole.questions}
    assert all(key[q.id] == (q.sheet, q.row) for q in fewer.questions)
    assert [r.id for r in shredded.requirements] == [q.id for q in fewer.questions]
    assert "1.1a" not in {r.id for r in shredded.requirements}


def test_a_kind_that_is_no_kind_is_refused_in_one_line(rfp):
    with pytest.raises(QuestionnaireError) as refused:
        read_questionnaire(rfp, kinds=("2.1=deliverable",))
    assert str(refused.value).count("\n") == 0
    assert "rfp.pdf" in str(refused.value) and "deliverable" in str(refused.value)
    assert "submission, evaluation, work, terms" in str(refused.value)


def test_only_decisions_on_unchanged_requirements_are_kept(tmp_path, rfp):
    amended = write_pdf(
        tmp_path / "rfp_amendment.pdf",
        [
            [line.replace("weekly", "twice a week") for line in PAGE_ONE],
            [*PAGE_TWO, "4.3 The Contractor shall post a bond."],
        ],
    )
    before, after = shred([rfp]), shred([amended])
    decided = {"2.1": "Document!A1004", "2.1-2": "Document!A1005", "4.1": "Document!A2006"}
    undecided = {r.id: f"new {r.id}" for r in after.requirements if r.id != "4.1"}  # 4.1 decided already
    result = carried(before, after, decided, undecided)
    assert [(k.old_id, k.new_id, k.key) for k in result.kept] == [("2.1-2", "2.1-2", "new 2.1-2")]
    assert result.amendment.counts() == {"added": 1, "changed": 1, "removed": 0, "unchanged": 10 - 1}
