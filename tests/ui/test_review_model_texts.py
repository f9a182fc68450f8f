"""*Read the model's texts* on the Review screen (#59): a model's narrative whose quotes are verified
word for word is listed apart, not in Review first; one without a verified quote stays in Review
first. The drafts are the app's own (the stated fake LLM of the UI tests, which quotes the
handbook), stored again with the model's wording, so their lists are known apart."""

from __future__ import annotations

from dataclasses import replace

from engine.drafting.anchoring import AnchorLabel
from tests.ui.test_review import button, drafted_again, drafted_project, listed, open_question

MODEL_TEXTS = "review_model_texts"  # ui/screens/review.py (a page script: not imported)


def test_the_models_narrative_with_verified_quotes_is_read_apart_not_in_review_first(
    open_screen, ui_workspace, tmp_path
):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=3)  # ACC-01 stays not drafted
    enc, bck, inc, _ = ws.review(pid).items()
    assert any(c.label is AnchorLabel.VERIFIED for c in enc.draft.citations)
    narrative = dict(choice=None, confidence=None)  # the model's wording, not the quote's words
    drafted_again(ws, pid, enc.key, answer="Customer data is encrypted at rest and in transit.", **narrative)
    unverified = tuple(replace(c, label=AnchorLabel.UNVERIFIED) for c in bck.draft.citations)
    drafted_again(ws, pid, bck.key, answer="Backups are kept for a month.", citations=unverified, **narrative)
    enc, bck, inc, _ = ws.review(pid).items()
    assert enc.draft.text_source == "model" and enc.reads_model_text and not enc.review_first
    assert bck.review_first and not bck.reads_model_text  # no verified quote: Review first, as before
    assert not inc.reads_model_text  # the fake's quoted sentence: the documents' words, not the model's

    at = open_screen("review")
    assert not at.exception
    toggle = at.sidebar.toggle(key=MODEL_TEXTS)
    assert toggle.label == "Read the model's texts (1)" and "someone must read" in toggle.help
    at = toggle.set_value(True).run()
    assert listed(at) == ["ENC-01"]
    at = open_question(at, enc.key)
    at = button(at, "Accept").click().run()  # read and decided: the list is empty, the filter goes
    assert not at.exception
    assert not [t for t in at.sidebar.toggle if t.key == MODEL_TEXTS]
    assert listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
