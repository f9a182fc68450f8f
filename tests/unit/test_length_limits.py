"""Length limits a question states, met by its draft (engine/questionnaire/length_limits.py,
engine/drafting/drafter.py ``within_limit``): cut at the last sentence that fits, the draft saying so."""

from __future__ import annotations

from engine.core.types import DraftStatus
from engine.drafting.drafter import within_limit
from engine.drafting.records import Draft
from engine.drafting.warnings import warnings_of
from engine.questionnaire import Question
from engine.questionnaire.length_limits import LengthLimit, cut_to_limit, stated_limit


def test_limits_are_read_in_the_ways_questionnaires_state_them():
    assert stated_limit("Describe your SDLC (max 250 words).") == LengthLimit(max_words=250)
    assert stated_limit("Answer in no more than 1,500 characters") == LengthLimit(max_chars=1500)
    assert stated_limit("(100 words maximum)") == LengthLimit(max_words=100)
    assert stated_limit("Beschrijf het doel, maximaal 200 woorden.") == LengthLimit(max_words=200)
    assert not stated_limit("Describe your backup process.")


def test_an_answer_is_cut_at_the_last_sentence_that_fits():
    text = "We patch monthly. We scan weekly with an external tool. Results go to the CISO."
    assert cut_to_limit(text, LengthLimit(max_words=12)) == "We patch monthly. We scan weekly with an external tool."
    assert cut_to_limit(text, LengthLimit(max_chars=20)) == "We patch monthly."
    assert cut_to_limit("One very long sentence without an end", LengthLimit(max_words=3)) == "One very long…"
    assert cut_to_limit(text, LengthLimit(max_words=100)) == text


def test_a_draft_longer_than_its_question_allows_is_cut_and_says_so():
    q = Question("Q1", "Document", 12, "Describe patching (max 5 words).", "A12", None, "C12", (), None, None)
    draft = Draft("Document!A12", "Q1", "Document", 12, q.text, "We patch monthly. We scan weekly too.", None,
                  DraftStatus.DRAFTED)  # fmt: skip
    cut = within_limit(q, draft)
    assert cut.answer == "We patch monthly." and cut.cut_to == "5 words"
    assert any("Cut to 5 words" in w.line for w in warnings_of(cut))
    assert Draft.from_stored(cut.key, cut.stored()).cut_to == "5 words"  # kept with the stored draft
    assert within_limit(q, Draft("k", "Q1", "Document", 12, q.text, "Yes.", None, DraftStatus.DRAFTED)).cut_to is None
