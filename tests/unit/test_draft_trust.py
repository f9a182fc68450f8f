"""Every drafted answer says why it needs a reviewer's eye (``Draft.trust``), and one whose text
is the model's own wording without a choice — a narrative, a description — says so: no
confidence measures free text. A reused, profile, another product's or a documents' answer is
someone's own words and is not flagged for that."""

from __future__ import annotations

from dataclasses import replace

from engine.core.types import DraftStatus
from engine.drafting.records import Draft

NARRATIVE = Draft(
    "k", "DRPL-01", "Sheet", 5, "Describe your DRP.", "Our DRP is tested yearly.", None, DraftStatus.DRAFTED
)


def test_the_models_own_wording_without_a_choice_is_flagged():
    assert NARRATIVE.model_wording and NARRATIVE.trust == ("model's own wording",)
    assert NARRATIVE.to_json()["trust"] == ["model's own wording"]


def test_someone_elses_words_a_choice_or_no_text_are_not_the_models_wording():
    for other in (
        replace(NARRATIVE, reused=True),
        replace(NARRATIVE, profile_fact="product_description"),
        replace(NARRATIVE, from_product="Parchment"),
        replace(NARRATIVE, stated="documents mention card data"),
        replace(NARRATIVE, choice="Yes", confidence=0.95),
        replace(NARRATIVE, answer=""),
        replace(NARRATIVE, status=DraftStatus.NO_CONTEXT),
    ):
        assert not other.model_wording, other
        assert "model's own wording" not in other.trust
