"""The ``draft`` command's summary counts the rows a qualifier switched off apart from the drafted
ones ("6 drafted now, 4 not required", not "10 drafted now"), as the app's "Drafting finished"
does. A HECVAT-shaped workbook (tests/unit/test_qualifiers.py) drafted into a real review store
by ``TableDrafter``, a stated fake drafter answering from a table (the test is about the counts)."""

from __future__ import annotations

import argparse

from engine.cli.draft import _say
from engine.questionnaire import read_questionnaire
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from tests.unit.test_qualifiers import hecvat_like
from tests.unit.test_sections_drafting import TableDrafter


def test_the_summary_counts_the_rows_switched_off_apart(tmp_path, capsys):
    questionnaire = read_questionnaire(hecvat_like(tmp_path / "h.xlsx"))
    store = ReviewStore(tmp_path / "review.sqlite")
    drafter = TableDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"})
    run = draft_questionnaire(questionnaire, drafter, store)
    assert (len(run.drafted), run.not_required) == (10, 4)  # HIPA-01/02, DCTR-01/03 switched off
    _say(run, argparse.Namespace(redo_answered=False, results=None), questionnaire)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "6 drafted now, 4 not required (a qualifier's answer switches them off), 0 kept from an earlier run "
        "(6 drafted, 4 not required); 0 already answered in the file (skipped; --redo-answered drafts them)"
    )
    again = draft_questionnaire(questionnaire, drafter, store)  # resumed: everything kept, nothing drafted now
    _say(again, argparse.Namespace(redo_answered=False, results=None), questionnaire)
    assert capsys.readouterr().out.startswith("0 drafted now, 10 kept from an earlier run (6 drafted, 4 not required)")
