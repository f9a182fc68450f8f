"""The reports in the app (#51), on a real workspace: a generated handbook indexed with the real
MiniLM and the 4-question workbook drafted. The LLM is ``QuotingGenerator`` (a stated fake):
these tests are about the screens, not about generation.

* The Export screen shows the coverage (what the rows rest on, the gap topics) and offers the
  report as XLSX and HTML; *Write a library answer* on a gap topic opens the Knowledge base
  screen's entry form first, prefilled with the topic's question and the answer the reviewer
  wrote; *Save to the library* adds it, reused from then on (and, saying what the edit recorded
  in the library says, listed with it as duplicates to merge).
* The Knowledge base screen's Library health lists the entries with their freshness and reuse."""

from __future__ import annotations

import pytest

from tests.ui.conftest import add_handbook, add_questionnaire, button

pytestmark = pytest.mark.timeout(300)


def drafted(ws, tmp_path) -> int:
    add_handbook(ws, tmp_path)
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid)
    status = ws.jobs.wait(pid, 180)
    assert status is not None and not status.running and status.error is None
    return pid


def test_the_coverage_on_export_and_a_gap_topic_written_into_the_library(
    open_screen, downloads, ui_workspace, tmp_path
):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    review = ws.review(pid)
    enc, bck, inc, acc = review.items()
    review.edit(bck.key, "Backups are kept for 35 days, encrypted.", "Yes", expected=bck.version)
    review.reject(inc.key, "not our practice", expected=inc.version)

    at = open_screen("export")
    assert not at.exception
    assert "Coverage" in [h.value for h in at.subheader]
    assert [t.label for t in at.tabs][:5] == ["Gaps by topic", "By source", "By section", "Trends", "Rows"]
    report = ws.coverage_report(pid)
    assert {r.label for r in report.gaps()} == {bck.label, inc.label}
    assert any("2 rows are gaps" in c.value for c in at.caption)
    # made when pressed (the XLSX and HTML themselves: tests/integration/test_reports.py)
    assert {"Download report (XLSX)", "Download report (HTML)"} <= {b.label for b in at.download_button}

    rank, topic = next((n, t) for n, t in report.topics if any(r.key == bck.key for r in t.rows))
    at.button(key=f"coverage_topic_write_{rank}").click().run()
    assert not at.exception
    assert at.session_state["library_entry_question"] == topic.entry().question
    assert at.session_state["library_entry_answer"] == "Backups are kept for 35 days, encrypted."
    at.switch_page("screens/knowledge_base.py").run()  # where the button switches to
    assert not at.exception
    assert at.text_area(key="library_entry_answer").value == "Backups are kept for 35 days, encrypted."
    at.text_input(key="library_entry_choice").set_value("Yes")
    button(at, "Save to the library").click().run()
    assert not at.exception
    written = [e for e in ws.library.entries() if e.origin.value == "written"]
    assert [(e.question, e.choice, e.answer) for e in written] == [
        (topic.entry().question, "Yes", "Backups are kept for 35 days, encrypted.")
    ]
    assert any("Saved library answer" in s.value for s in at.success)
    assert written[0].id in [h.entry.id for h in ws.library.match(topic.entry().question)]  # reused from now on
    # the edit was recorded in the library too (a reviewer's answer): the health report offers to merge the two
    (twins,) = ws.library_report().duplicates
    assert twins.keep.id == written[0].id and [e.origin.value for e in twins.others] == ["review"]


def test_the_library_health_on_the_knowledge_base_screen(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    review = ws.review(pid)
    first = review.items()[0]
    review.accept(first.key, expected=first.version)  # into the library: one entry, fresh

    at = open_screen("knowledge_base")
    assert not at.exception
    assert "Library health" in [h.value for h in at.subheader]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Fresh"] == "1" and metrics["Stale"] == "0" and metrics["Never used"] == "1"
    assert [t.label for t in at.tabs][-6:] == [
        "Entries",
        "Owner's queue",
        "Reuse",
        "Disagreeing",
        "Duplicates",
        "Retired products",
    ]
    at.multiselect(key="library_health_retired").set_value([])
    assert not at.exception
