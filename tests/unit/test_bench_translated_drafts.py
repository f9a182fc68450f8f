"""``bench translated --drafts`` writes each draft as soon as it is made (engine/bench/translated.py):
a run stopped early (a deadline, a crash) keeps every row it drafted. The real German XLSX and
truth of the shared translated set (skipped when absent); the drafter is a stated stand-in
(``Recording``) because this test is about the bench's bookkeeping, not about drafting."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.bench.translated import _draft_language, chosen, load_truth
from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.questionnaire.qualifiers import question_key


class Recording:
    """A stand-in drafter: drafts every row "Ja" with no text, and records how many lines the
    drafts file held when each row was drafted."""

    class _Counter:
        calls = 0

    def __init__(self, sink: io.StringIO) -> None:
        self.sink, self.lines_before = sink, []
        self.translations = self._Counter()

    def for_language(self, languages):
        return self

    def draft(self, q, rows, source):
        self.lines_before.append(len(self.sink.getvalue().splitlines()))
        return Draft.of(q, question_key(q), "", "Ja", DraftStatus.DRAFTED)


@pytest.fixture
def translated(shared_data) -> Path:
    folder = shared_data / "translated"
    if not (folder / "truth.jsonl").is_file():
        pytest.skip(f"{folder} is absent: the translated HECVAT set is not in the shared data")
    return folder


def test_each_draft_is_written_before_the_next_is_made(translated):
    rows = chosen(load_truth(translated), 3, 2)
    sink = io.StringIO()
    drafter = Recording(sink)
    run, questions = _draft_language(drafter, translated / "hecvat_canvas_credentials_de.xlsx", rows, "de", sink)
    assert len(questions) == len(rows) == 5
    assert drafter.lines_before == [0, 1, 2, 3, 4]  # the file grows draft by draft
    written = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [w["id"] for w in written] == [q.id for q in questions]
    assert {w["lang"] for w in written} == {"de"} and all(w["choice"] == "Ja" for w in written)
    truth = {r.id: r.answer for r in rows}
    assert all(w["truth"] == truth[w["id"]] for w in written)
    assert len(run.drafts) == 5


def test_ids_pick_the_rows_a_change_touches(translated):
    truth = load_truth(translated)
    assert [r.id for r in chosen(truth, None, 10, ("ITAC-03", "DOCU-11", "APPL-06"))] == [
        "DOCU-11",
        "ITAC-03",
        "APPL-06",
    ]
    assert [r.id for r in chosen(truth, 3, 0, ("ITAC-03",))] == []  # only among the rows chosen
    with pytest.raises(ValueError, match="--ids ITAC-99: no such row"):
        chosen(truth, None, 10, ("ITAC-99",))
