"""The answer library's pure rules: loose choice comparison, which near-identical past answer is
reused, how the past choices are counted, how a past answer is named, and the ``reused`` flag
and past choices surviving the review store."""

from __future__ import annotations

from engine.core.location import Location
from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation, Draft
from engine.index.library import (
    LibraryHit,
    allowed_choice,
    choice_key,
    count_choices,
    near_hits,
    reused_hit,
)
from storage.library_store import LibraryEntry, Origin


def entry(i: int, choice: str | None, origin: Origin = Origin.IMPORT, imported: str = "2024-01-01") -> LibraryEntry:
    return LibraryEntry(
        i,
        "Is customer data encrypted at rest?",
        choice,
        f"answer {i}",
        None,
        f"f{i}.xlsx",
        "Security",
        4,
        "ENC-01",
        imported,
        origin,
    )


def test_choices_compare_loosely_and_take_the_workbooks_spelling():
    assert choice_key("1) Yes") == choice_key(" yes ") == "yes"
    assert choice_key("N/A") == choice_key("NA") == "na"
    assert allowed_choice("YES", ("Yes", "No")) == "Yes"
    assert allowed_choice("2) No", ("yes", "no")) == "no"
    assert allowed_choice("Both", ("Yes", "No")) is None
    assert allowed_choice(None, ("Yes", "No")) is None and allowed_choice("Yes", ()) is None


def test_reuse_prefers_the_most_common_choice_then_the_newest():
    near = [
        LibraryHit(entry(1, "No"), 1.0, 1.0, 1.0),
        LibraryHit(entry(2, "Yes"), 0.95, 0.95, 0.95),
        LibraryHit(entry(3, "yes"), 0.93, 0.93, 0.93),
    ]
    assert reused_hit(near).entry.id in (2, 3)  # Yes ×2 beats No ×1, whatever the scores
    # a tie of choices: a reviewer's answer beats an import, then the later date
    tie = [
        LibraryHit(entry(1, "No", Origin.REVIEW, "2023-05-01"), 0.91, 0.9, 0.9),
        LibraryHit(entry(2, "Yes", Origin.IMPORT, "2024-06-01"), 1.0, 1.0, 1.0),
    ]
    assert reused_hit(tie).entry.id == 1
    dated = [
        LibraryHit(entry(1, "No", imported="2023-05-01"), 1.0, 1.0, 1.0),
        LibraryHit(entry(2, "Yes", imported="2024-06-01"), 0.92, 0.9, 0.9),
    ]
    assert reused_hit(dated).entry.id == 2
    # a past answer with a choice beats one without; below the threshold nothing is reused
    assert reused_hit([LibraryHit(entry(1, None), 1.0, 1, 1), LibraryHit(entry(2, "Yes"), 0.9, 0.9, 0.9)]).entry.id == 2
    assert reused_hit([LibraryHit(entry(1, "Yes"), 0.89, 0.9, 0.88)]) is None


def test_past_choices_are_counted_loosely_most_common_first():
    entries = [entry(1, "No"), entry(2, "Yes"), entry(3, "1) yes"), entry(4, None), entry(5, "")]
    assert count_choices(entries) == {"Yes": 2, "No": 1}  # spelled as first seen; no choice, no vote
    assert count_choices([]) == {}
    hits = [LibraryHit(e, s, s, s) for e, s in zip(entries, (1.0, 0.95, 0.9, 0.89, 0.5))]
    assert [h.entry.id for h in near_hits(hits)] == [1, 2, 3]


def test_a_past_answer_citation_reads_past_answer_file_sheet_row_id():
    assert (
        Location.past_answer("past.xlsx", "Security", 4, "ENC-01").label()
        == "past answer: past.xlsx, sheet Security, row 4, ID ENC-01"
    )
    assert Location.past_answer("past.csv", "past", 7, None).label() == "past answer: past.csv, sheet past, row 7"
    c = Citation(
        "past.xlsx",
        SourceKind.LIBRARY,
        "AES-256",
        AnchorLabel.VERIFIED,
        100.0,
        1.0,
        sheet="Security",
        row=4,
        section="ENC-01",
    )
    assert c.location.label() == "past answer: past.xlsx, sheet Security, row 4, ID ENC-01"
    assert Citation.from_json(c.to_json()) == c


def test_the_reused_flag_is_persisted_and_defaults_to_false():
    d = Draft("Security!B4", "ENC-01", "Security", 4, "Q?", "A.", "Yes", DraftStatus.DRAFTED, reused=True)
    assert d.to_json()["reused"] is True
    assert Draft.from_stored(d.key, d.stored()) == d
    older = d.stored()
    older.data.pop("reused")  # a draft stored before the library existed
    older.data.pop("past_choices")
    assert Draft.from_stored(d.key, older).reused is False
    assert Draft.from_stored(d.key, older).past_choices == {} and not d.disputed
    split = Draft(
        d.key,
        "ENC-01",
        "Security",
        4,
        "Q?",
        "A.",
        "Yes",
        DraftStatus.DRAFTED,
        reused=True,
        past_choices={"Yes": 2, "No": 1},
    )
    assert split.disputed and Draft.from_stored(split.key, split.stored()) == split
