"""The Review card of a choice of several ("tick all that apply", issue #55) on a real workspace:
the generated handbook indexed with the real MiniLM, a Word questionnaire whose question's boxes
are several, drafted by the workspace's background drafting. The LLM is a stated fake
(``SeveralQuoting``: ``QuotingGenerator``'s quote, and for a choice of several the options its
quote names) because the test is about the screen and the export, not about generation (the
real model's list is measured in docs/benchmarks.md, #55)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.drafting.generate.prompt import GeneratedAnswer
from engine.questionnaire import read_questionnaire
from engine.questionnaire.records import joined_choices
from engine.review.review import ReviewState
from tests import word_fixtures as wf
from tests.fixtures import QuotingGenerator
from tests.ui.conftest import add_handbook, button
from tests.ui.test_review import answer_box, stored

pytestmark = pytest.mark.timeout(300)

OPTIONS = ("Data at rest", "Data in transit", "Paper records")


class SeveralQuoting(QuotingGenerator):
    """The stated fake: its quote as ``QuotingGenerator`` picks it; for a choice of several, the
    options whose first word's stem the quote says ("rest", "transit")."""

    def __init__(self) -> None:
        super().__init__()
        self.asked_several: list[bool] = []

    def generate(self, question, passages, choices, *, several=False):
        got = super().generate(question, passages, choices)
        self.asked_several.append(several)
        if not several:
            return got
        said = " ".join(got.quotes).lower()
        picked = joined_choices(c for c in choices if c.split()[-1].lower() in said)
        return GeneratedAnswer(got.quotes, got.quotes[0], picked or None, False, 10, 5, 0.0)


def _questionnaire(path: Path) -> Path:
    """Layout: "Which customer data do you encrypt?", "Tick all that apply." on its own line, and a
    check box control before each of the three options."""
    doc = wf.new()
    doc.add_paragraph("Which customer data do you encrypt at rest or in transit?")
    doc.add_paragraph("Tick all that apply.")
    for option in OPTIONS:
        wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(option)))
    return wf.save(doc, path)


def test_a_choice_of_several_is_a_multiselect_and_the_export_ticks_what_the_reviewer_chose(
    open_screen, ui_workspace, tmp_path
):
    ws = ui_workspace
    fake = SeveralQuoting()
    ws.__dict__["generator"] = fake
    ws.__dict__.pop("drafter", None)
    add_handbook(ws, tmp_path)
    book = _questionnaire(tmp_path / "encryption.docx")
    project, _ = ws.add_questionnaire(book.name, book.read_bytes())
    pid = project.id
    ws.jobs.start(pid)
    status = ws.jobs.wait(pid, 120)
    assert status is not None and not status.running and status.error is None
    (item,) = ws.review(pid).items()
    assert item.question.several and fake.asked_several == [True]
    assert item.draft.choice == "Data at rest"  # the option the fake's quote names ("…encrypted at rest…")

    at = open_screen("questionnaire")  # the detection says the question takes several
    assert not at.exception
    assert any("choice (several)" in list(d.value.get("Kind", [])) for d in at.dataframe)

    at = open_screen("review")
    assert not at.exception
    assert not [s for s in at.selectbox if s.label == "Choice"]  # no single pick for it
    (box,) = [m for m in at.multiselect if m.label == "Choices (all that apply)"]
    assert box.value == ["Data at rest"] and list(box.options) == list(OPTIONS)
    box.set_value(["Paper records", "Data at rest"])
    answer_box(at).set_value("Customer data is encrypted at rest; paper records are kept in locked safes.")
    at = button(at, "Accept").click().run()
    assert not at.exception
    now = stored(ws, pid).item(item.key)
    assert now.state is ReviewState.ACCEPTED and now.choice == "Data at rest; Paper records"

    out = ws.review(pid).export_workbook(tmp_path / "answered.docx")
    back = read_questionnaire(out)
    assert back.questions[0].existing_choice == "Data at rest; Paper records"
