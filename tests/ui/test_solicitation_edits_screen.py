"""Adding, splitting and merging a solicitation's requirements on the Questionnaire screen
(AppTest, issue #57) on a real workspace (real MiniLM, Qdrant local mode, review store): the
tests' RFP uploaded (a generated two-page PDF, tests/solicitation_fixtures.py); the reviewer
pastes a sentence the shredder left out, splits one requirement and merges two list items, and
applies; the requirements on screen, the counts and the project's stored options follow, a fresh
screen reads them back, and the rows untouched keep their keys. A sentence that is not in the
file is refused in one line naming the file, the problem and the fix, and nothing is kept.

No drafting runs here: the tests are about the mapping."""

from __future__ import annotations

from engine.app.workspace import ReadOptions
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf
from tests.ui.conftest import button, texts

RESERVES = "The City reserves the right to reject any proposal."  # 1.2: the shredder leaves it out


def option(widget, prefix: str) -> str:
    (match,) = [o for o in widget.options if o.startswith(prefix)]
    return match


def listed(at) -> list[str]:
    """The requirements' IDs in the table on screen."""
    return list(at.dataframe[1].value["ID"])


def test_a_sentence_added_a_requirement_split_and_two_merged(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    rfp = write_pdf(tmp_path / "parks_rfp.pdf", [PAGE_ONE, PAGE_TWO])
    project, _ = ws.add_questionnaire(rfp.name, rfp.read_bytes())
    pid = project.id
    keys = {q.id: (q.sheet, q.row) for q in ws.questionnaire(pid).questions}

    at = open_screen("questionnaire")
    assert not at.exception
    assert listed(at) == ["1.1", "1.1a", "1.1b", "2.1", "2.1-2", "2.2", "3.1", "3.1a", "3.1b", "4.1"]
    at.text_area(key=f"solicitation_add_{pid}_0").input(" The City reserves the right\nto reject any proposal.")
    split = at.selectbox(key=f"solicitation_split_{pid}_0")
    assert split.label == "Split this requirement"
    split.select(option(split, "1.1 ·"))
    at.text_input(key=f"solicitation_split_at_{pid}_0").input("via email")
    merge = at.multiselect(key=f"solicitation_merge_{pid}_0")
    merge.select(option(merge, "3.1a ·")).select(option(merge, "3.1b ·"))
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception
    assert (
        "Read again with the corrections: 11 requirements, a sentence added as a requirement, 1.1 split in two, "
        "3.1a + 3.1b merged." in texts(at.success)
    )
    assert listed(at) == ["1.1", "1.1/2", "1.1a", "1.1b", "A-001", "2.1", "2.1-2", "2.2", "3.1", "3.1a", "4.1"]
    table = at.dataframe[1].value
    rows = dict(zip(table["ID"], table["Requirement"]))
    assert rows["1.1"] == "Submission: Proposals must be submitted"
    assert rows["1.1/2"] == "via email to bids@springfield.example."
    assert rows["A-001"] == RESERVES
    assert rows["3.1a"].endswith("Technical approach (40 points) b. Price (60 points)")
    assert "Kept with this solicitation: 0 left out, 0 kinds changed, 1 added, 1 split, 1 merged." in texts(at.caption)
    options = ws.read_options(pid)
    assert options.added == (RESERVES,) and options.splits == ("1.1=via email",) and options.merges == ("3.1a+3.1b",)
    after = {q.id: (q.sheet, q.row) for q in ws.questionnaire(pid).questions}  # drafting and Review read these
    assert all(after[rid] == key for rid, key in keys.items() if rid in after)  # untouched rows keep their keys
    assert {"A-001", "1.1/2"} <= set(after) and "3.1b" not in after

    again = open_screen("questionnaire")  # kept with the project
    assert "A-001" in listed(again) and "3.1b" not in listed(again)


def test_a_sentence_not_in_the_solicitation_is_refused_and_nothing_kept(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    rfp = write_pdf(tmp_path / "parks_rfp.pdf", [PAGE_ONE, PAGE_TWO])
    project, _ = ws.add_questionnaire(rfp.name, rfp.read_bytes())
    pid = project.id

    at = open_screen("questionnaire")
    at.text_area(key=f"solicitation_add_{pid}_0").input("The Contractor shall paint the moon.")
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception
    (error,) = [e.value for e in at.error if "not applied" in e.value]
    assert "parks\\_rfp.pdf" in error and "Does not hold the sentence" in error
    assert "Paste the words exactly as the solicitation prints them" in error
    assert ws.read_options(pid) == ReadOptions()
    assert len(listed(at)) == 10
