"""The reviewer's edits of a solicitation's requirements (issue #57): a sentence added, a
requirement split in two, adjacent ones merged (engine/questionnaire/solicitation/edits.py), kept
as ``ReadOptions.added`` / ``splits`` / ``merges`` (options stored before they existed still
load), applied where the left-out and kind corrections are (``read_questionnaire``, hence
``inspect`` and ``draft``; ``shred --add / --split / --merge``), every quote still the page's own
words, every untouched requirement keeping its row. On the tests' generated RFP PDF
(tests/solicitation_fixtures.py), page texts read back with PyMuPDF."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from engine.questionnaire import QuestionnaireError, ReadOptions, read_questionnaire
from engine.questionnaire.solicitation import Kind, shred
from engine.questionnaire.solicitation.as_questionnaire import as_read
from engine.questionnaire.solicitation.edits import Edits, edited
from engine.questionnaire.solicitation.pages import collapse
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf

ROOT = Path(__file__).resolve().parents[2]
RESERVES = "The City reserves the right to reject any proposal."  # 1.2 on page 1: the shredder leaves it out
LOG = "2.3 The Contractor shall keep a daily log of the work, and the Contractor should photograph each site."


@pytest.fixture()
def rfp(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "rfp.pdf", [[*PAGE_ONE, LOG], PAGE_TWO])


def page_texts(path: Path) -> list[str]:
    """Each page's text as PyMuPDF extracts it, whitespace collapsed (what quotes are taken from)."""
    with pymupdf.open(path) as doc:
        return [collapse(page.get_text()) for page in doc]


def verbatim(path: Path, result) -> bool:
    pages = page_texts(path)
    return all(r.quote in pages[r.page - 1] for r in result.requirements)


def by_id(result) -> dict:
    return {r.id: r for r in result.requirements}


def test_a_sentence_added_is_found_on_its_page_whitespace_aside(rfp):
    result = shred([rfp])
    assert RESERVES not in {r.quote for r in result.requirements}
    pasted = "The City reserves  the right\nto reject any proposal. "
    added = edited([rfp], result, Edits(added=(pasted,)), strict=True)
    new = by_id(added)["A-001"]
    assert new.quote == RESERVES and new.page == 1 and new.file == "rfp.pdf"
    assert new.section == "REQUEST FOR PROPOSALS > INSTRUCTIONS TO OFFERORS"  # the heading where it is found
    assert new.kind is Kind.SUBMISSION and new.mandatory  # the rules' kind; no desirable cue
    ids = [r.id for r in added.requirements]
    assert ids[ids.index("A-001") - 1] == "1.1b" and ids[ids.index("A-001") + 1] == "2.1"  # in document order
    assert verbatim(rfp, added)
    # the same on every read: the second sentence added is A-002, the first keeps its ID
    again = edited([rfp], result, Edits(added=(pasted, "This contract shall be governed by the laws of")), strict=True)
    assert by_id(again)["A-001"].quote == RESERVES
    assert by_id(again)["A-002"].page == 2 and by_id(again)["A-002"].section == "TERMS AND CONDITIONS"


def test_a_sentence_not_in_the_file_or_already_listed_is_refused_in_one_line(rfp):
    result = shred([rfp])
    with pytest.raises(QuestionnaireError) as refused:
        edited([rfp], result, Edits(added=("The City shall paint the moon.",)), strict=True)
    message = str(refused.value)
    assert message.startswith("rfp.pdf: does not hold the sentence “The City shall paint the moon.”")
    assert "paste the words exactly as the solicitation prints them" in message and "\n" not in message
    with pytest.raises(QuestionnaireError, match="already lists .* as requirement 2.1"):
        edited([rfp], result, Edits(added=("The Contractor shall mow all parks weekly.",)), strict=True)
    # read again from the stored options, a sentence that does not fit is passed over
    assert edited([rfp], result, Edits(added=("The City shall paint the moon.",))) == result


def test_a_requirement_split_in_two_keeps_its_page_and_lead_in(rfp):
    result = shred([rfp])
    log = by_id(result)["2.3"]
    assert log.quote == LOG.removeprefix("2.3 ")  # one sentence, two obligations
    cut = edited([rfp], result, Edits(splits=("2.3=the Contractor should photograph",)), strict=True)
    first, second = by_id(cut)["2.3"], by_id(cut)["2.3/2"]
    assert first.quote == "The Contractor shall keep a daily log of the work, and"
    assert second.quote == "the Contractor should photograph each site."
    assert first.mandatory and not second.mandatory  # each part's own cue
    assert (first.page, first.section, first.paragraph) == (second.page, second.section, second.paragraph)
    ids = [r.id for r in cut.requirements]
    assert ids.index("2.3/2") == ids.index("2.3") + 1
    assert verbatim(rfp, cut)
    # a list item keeps its lead-in in both parts
    item = edited([rfp], result, Edits(splits=("1.1a=signed by",)), strict=True)
    assert by_id(item)["1.1a"].lead_in == by_id(item)["1.1a/2"].lead_in == "The proposal shall include the following:"


def test_a_split_that_does_not_fit_is_refused(rfp):
    result = shred([rfp])
    with pytest.raises(QuestionnaireError, match="has no requirement 9.9 to split"):
        edited([rfp], result, Edits(splits=("9.9=shall",)), strict=True)
    with pytest.raises(QuestionnaireError, match="cannot split 2.1 at “The Contractor shall mow”: it starts there"):
        edited([rfp], result, Edits(splits=("2.1=The Contractor shall mow",)), strict=True)
    with pytest.raises(QuestionnaireError, match="its words do not hold it"):
        edited([rfp], result, Edits(splits=("2.1=paint",)), strict=True)


def test_adjacent_requirements_merged_keep_the_first_id(rfp):
    result = shred([rfp])
    merged = edited([rfp], result, Edits(merges=("1.1a+1.1b",)), strict=True)
    one = by_id(merged)["1.1a"]
    assert "1.1b" not in by_id(merged)
    assert (
        one.quote
        == "A cover letter signed by an officer of the firm. b. A technical approach not to exceed ten (10) pages."
    )
    assert one.lead_in == "The proposal shall include the following:" and one.mandatory
    assert verbatim(rfp, merged)
    assert edited([rfp], result, Edits(merges=("1.1b+1.1a",)), strict=True) == merged  # document order, as given or not
    three = edited([rfp], result, Edits(merges=("2.1+2.1-2+2.2",)), strict=True)
    assert by_id(three)["2.1"].quote.endswith("where possible.") and by_id(three)["2.1"].mandatory
    for pair, why in (
        ("2.3+3.1", "they are on different pages (p.1 and p.2)"),
        ("1.1+2.1", "they are not next to each other"),
        ("1.1+7.7", "has no requirement 7.7 to merge"),
    ):
        with pytest.raises(QuestionnaireError, match=why.replace("(", r"\(").replace(")", r"\)")):
            edited([rfp], result, Edits(merges=(pair,)), strict=True)


def test_edits_are_kept_as_json_and_old_options_still_load(rfp):
    old = {"exclude": ["2.2"], "kinds": ["1.1=work"]}  # a project's options stored before the edits existed
    assert ReadOptions.from_json(old) == ReadOptions(exclude=("2.2",), kinds=("1.1=work",))
    options = ReadOptions(added=(RESERVES,), splits=("2.3=the Contractor should",), merges=("1.1a+1.1b",))
    assert ReadOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert "added" not in ReadOptions(exclude=("2.2",)).to_json()  # nothing stored for no edit
    rows = {q.id: q for q in read_questionnaire(rfp, **options.to_json()).questions}  # inspect and draft read so
    assert {"A-001", "2.3/2", "1.1a"} <= set(rows) and "1.1b" not in rows
    assert rows["1.1a"].text.endswith("b. A technical approach not to exceed ten (10) pages.")


def test_a_row_keeps_its_key_whatever_is_added_split_or_merged(rfp):
    result = shred([rfp])
    _, whole = as_read(rfp, result, ReadOptions())
    options = ReadOptions(added=(RESERVES,), splits=("2.3=the Contractor should",), merges=("3.1a+3.1b",))
    _, edited_rows = as_read(rfp, result, options)
    before = {q.id: q.row for q in whole.questions}
    after = {q.id: q.row for q in edited_rows.questions}
    assert all(after[rid] == row for rid, row in before.items() if rid in after)  # untouched rows keep their key
    assert set(before) - set(after) == {"3.1b"}
    new = {rid: row for rid, row in after.items() if rid not in before}
    assert set(new) == {"A-001", "2.3/2"} and all(row // 1000 == 1 for row in new.values())  # page 1, new rows
    assert len(set(after.values())) == len(after)


def test_the_shred_command_takes_the_edits(rfp):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "shred",
            str(rfp),
            "--add",
            RESERVES,
            "--split",
            "2.3=the Contractor should",
            "--merge",
            "1.1a+1.1b",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    found = {r["id"]: r for r in json.loads(run.stdout)["requirements"]}
    assert found["A-001"]["quote"] == RESERVES and found["2.3/2"]["mandatory"] is False
    assert "1.1b" not in found
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "shred", str(rfp), "--merge", "1.1+2.1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: rfp.pdf: cannot merge 1.1 + 2.1")
    assert bad.stderr.count("\n") == 1
