"""A draft's risk (engine/drafting/risk.py), the one-line warnings a reviewer reads
(engine/drafting/warnings.py) and where its text came from (``Draft.text_source``), read off
the draft's own record — the same after a restart, since a stored draft is that record."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.cross_product import shared_explanation
from engine.drafting.records import Citation, Draft
from engine.drafting.risk import REVIEW_FIRST_RISK, risk_of, stratum, stratum_risk
from engine.index.library import LibraryHit
from storage.library_store import LibraryEntry, Origin

BASE = Draft("k", "DATA-01", "Sheet", 5, "Is data encrypted at rest?", "", "Yes", DraftStatus.DRAFTED)
AGREEING = replace(
    BASE,
    reused=True,
    from_product="Canvas Studio",
    past_choices={"Yes": 6},
    past_answers=tuple(f"{p}'s HECVAT: Yes" for p in ("A", "B", "C", "D", "E", "F")),
)
DISPUTED = replace(
    AGREEING,
    past_choices={"Yes": 5, "No": 2},
    past_answers=AGREEING.past_answers[:5] + ("G's HECVAT: No", "H's HECVAT: No"),
)
MODEL = replace(BASE, answer="All data is encrypted with AES-256.", choice_probability=0.99, support=0.6)


def _citation(kind: SourceKind, quote: str, third_party: str | None = None, product: str | None = None) -> Citation:
    return Citation("f", kind, quote, AnchorLabel.VERIFIED, 100.0, 1.0, third_party=third_party, product=product)


def test_the_strata_separate_agreement_disagreement_and_the_models_certainty():
    assert stratum(AGREEING) == "other:agree:4+:yes"
    one = replace(AGREEING, past_choices={"Yes": 1}, past_answers=("A's HECVAT: Yes",))
    assert stratum(one) == "other:agree:1:yes:silent"  # no text, no reason: nothing of the documents
    assert stratum(DISPUTED) == "other:disputed:weak"  # 5 of 7 is under three quarters
    assert stratum(replace(DISPUTED, past_choices={"Yes": 9, "No": 1})) == "other:disputed:strong"
    assert stratum(replace(AGREEING, from_product=None)) == "own:agree:4+:yes"
    assert stratum(MODEL) == "model:high:yes"
    assert stratum(replace(MODEL, choice_probability=0.6, choice="No")) == "model:low:no"
    assert stratum(replace(MODEL, choice=None)) == "model:text"
    assert stratum(replace(BASE, status=DraftStatus.NO_CONTEXT)) is None
    assert risk_of(replace(BASE, status=DraftStatus.NOT_REQUIRED)) is None


def test_risk_is_the_share_of_wrong_choices_smoothed_towards_the_parent_stratum():
    """Golden values, worked by hand (2 choices' worth of the parent, the root's parent one half):
    "other" holds 11 wrong of 128: (11 + 2 × 1/2) / 130 = 6/65; "other:disputed" 10 of 30:
    (10 + 2 × 6/65) / 32 = 331/1040; "other:disputed:weak" the same 10 of 30: (10 + 2 × 331/1040) / 32
    = 5531/16640; "other:agree" … "other:agree:4+:yes" each 1 of 98, from 6/65: 0.0118462, 0.0102369,
    then 0.0102047."""
    table = {"other:agree:4+:yes": (1, 98), "other:disputed:weak": (10, 30)}
    assert stratum_risk("other:disputed", table) == pytest.approx(331 / 1040, abs=1e-12)  # 0.3182692
    assert stratum_risk("other:disputed:weak", table) == pytest.approx(5531 / 16640, abs=1e-12)  # 0.3323918
    assert stratum_risk("other:agree:4+:yes", table) == pytest.approx(0.0102047385, abs=1e-9)  # seen often: ≈ 1/98
    assert stratum_risk("model:low:yes", table) == 0.5  # nothing of the model measured: not trusted
    assert risk_of(DISPUTED, table) == pytest.approx(5531 / 16640, abs=1e-12)  # other:disputed:weak
    assert risk_of(AGREEING, table) == pytest.approx(0.0102047385, abs=1e-9)  # other:agree:4+:yes


def test_review_first_is_the_risk_at_or_above_the_threshold():
    """With the shipped CALIBRATION, by hand: "other" 78 wrong of 787 → 79/789 = 0.1001267;
    "other:disputed" 26 of 161 → 0.1607378; "other:disputed:weak" 14 of 65 → 0.2137534, in Review
    first (threshold 0.05); "other:agree" 52 of 626 → 0.0831214, "other:agree:4+" 13 of 414 →
    0.0316496, "other:agree:4+:yes" 10 of 377 → 0.0265522, not."""
    assert REVIEW_FIRST_RISK == 0.05
    assert DISPUTED.risk == pytest.approx(0.2137533657, abs=1e-9) and DISPUTED.review_first
    assert AGREEING.risk == pytest.approx(0.0265522408, abs=1e-9) and not AGREEING.review_first
    assert not replace(DISPUTED, status=DraftStatus.NO_CONTEXT).review_first
    record = DISPUTED.to_json()
    assert record["risk"] == 0.2138 and record["review_first"] is True


def test_products_that_all_agree_are_one_quiet_line_with_the_list_behind_it():
    (w,) = AGREEING.warnings
    assert w.quiet and w.line == "Yes, as 6 other products answered"
    assert w.details == AGREEING.past_answers


def test_a_disagreement_is_one_line_with_its_tally():
    (w,) = DISPUTED.warnings
    assert not w.quiet and w.line == "Other products disagree: Yes ×5, No ×2" and w.icon == "call_split"
    assert "H's HECVAT: No" in w.details


def test_one_other_product_only_is_a_warning_not_information():
    (w,) = replace(AGREEING, past_choices={"Yes": 1}, past_answers=("Parchment's HECVAT: Yes",)).warnings
    assert not w.quiet and "one other product" in w.line


def test_the_models_text_a_third_partys_evidence_and_removed_contacts_each_get_a_line():
    third = replace(MODEL, citations=(_citation(SourceKind.PDF, "AWS encrypts.", third_party="Amazon Web Services"),))
    lines = [w.line for w in third.warnings]
    assert "Only a third party's document supports this (Amazon Web Services)" in lines
    assert "Written by the model" in lines
    removed = replace(MODEL, removed=("https://x.example", "help@x.example"))
    (link,) = [w for w in removed.warnings if w.icon == "link_off"]
    assert link.line.startswith("2 links or contacts") and link.details == removed.removed
    assert replace(MODEL, status=DraftStatus.NO_CONTEXT).warnings == ()


def test_text_source_says_where_the_words_came_from():
    assert replace(AGREEING, answer="Encrypted.", from_product=None).text_source == "own_past"
    assert MODEL.text_source == "model"
    assert replace(MODEL, answer="Acme", profile_fact="vendor_name").text_source == "profile"
    choice_cite = _citation(SourceKind.LIBRARY, "Yes", product="Canvas Studio")
    doc = replace(
        AGREEING, answer="Data is encrypted.", citations=(choice_cite, _citation(SourceKind.PDF, "Data is encrypted."))
    )
    assert doc.text_source == "own_document"
    aws = replace(
        doc,
        answer="Amazon Web Services, the third-party provider, states: Data is encrypted.",
        citations=(choice_cite, _citation(SourceKind.PDF, "Data is encrypted.", third_party="Amazon Web Services")),
    )
    assert aws.text_source == "third_party"
    # another product's choice explained by the model: its words hold none of its quotes
    assert replace(doc, answer="Every database is encrypted with AES-256.").text_source == "model"
    shared = replace(doc, citations=(choice_cite, _citation(SourceKind.LIBRARY, "Data is encrypted.", product="B")))
    assert shared.text_source == "shared_past"
    assert "The text comes from other products' past answers" in shared.warnings[-1].line
    assert replace(AGREEING, answer="").text_source is None


def _hit(product: str, choice: str, answer: str, score: float = 0.95) -> LibraryHit:
    entry = LibraryEntry(
        0,
        "Is data encrypted?",
        choice,
        answer,
        None,
        f"{product} HECVAT.xlsx",
        "S",
        1,
        "D-1",
        "2026-01-01",
        Origin.IMPORT,
        product=product,
    )
    return LibraryHit(entry, score, score, score)


def _encode(texts):
    """Bag-of-words unit vectors: texts with the same words are the same practice (a stand-in for
    the sentence encoder, which the drafter passes; this test is about the rule, not the model)."""
    words = sorted({w for t in texts for w in t.lower().split()})
    m = np.array([[t.lower().split().count(w) for w in words] for t in texts], dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_a_shared_explanation_needs_two_products_saying_the_same_without_names_or_contacts():
    same = "All customer data is encrypted at rest with AES-256."
    near = [
        _hit("Canvas Studio", "Yes", same),
        _hit("Mastery Connect", "Yes", same),
        _hit("Parchment", "No", "Parchment does not encrypt backups at rest today."),
    ]
    found = shared_explanation(near, "Yes", _encode, ["Parchment", "Canvas Studio", "Mastery Connect"])
    assert found is not None and found.hit.entry.answer == same
    assert set(found.products) == {"Canvas Studio", "Mastery Connect"}
    # one product's wording is that product's: never the company's
    assert shared_explanation(near[:1] + near[2:], "Yes", _encode, []) is None
    # a text naming a product, or holding a contact, is never used
    named = [
        _hit("A", "Yes", "Canvas Studio encrypts all customer data at rest."),
        _hit("B", "Yes", "Canvas Studio encrypts all customer data at rest."),
    ]
    assert shared_explanation(named, "Yes", _encode, ["Canvas Studio"]) is None
    mailed = [
        _hit("A", "Yes", "Write to security@example.com for the encryption policy."),
        _hit("B", "Yes", "Write to security@example.com for the encryption policy."),
    ]
    assert shared_explanation(mailed, "Yes", _encode, []) is None
    # texts that say different things are no shared practice
    apart = [_hit("A", "Yes", same), _hit("B", "Yes", "Backups are tested every quarter by the operations team.")]
    assert shared_explanation(apart, "Yes", _encode, []) is None


def test_a_third_partys_practice_is_never_shown_as_the_companys_own():
    """Real sentences of the leave-one-out drafts (AWS's CAIQ and SOC 3): a text a provider's
    quote supports must name the provider (its name, initials or first word), else it goes."""
    from engine.drafting.drafter import provider_named
    from engine.drafting.regulated import provider_names

    assert provider_names("Amazon Web Services") == ("Amazon Web Services", "AWS", "Amazon")
    assert provider_names("Google Cloud Platform") == ("Google Cloud Platform", "GCP", "Google")
    aws = _citation(SourceKind.PDF, "The access log is retained for 90 days", third_party="Amazon Web Services")
    # a narrative the model wrote from AWS's CAIQ: set aside, with the reason, never drafted
    narrative = replace(BASE, choice=None, answer="The access log is retained for 90 days.", citations=(aws,))
    set_aside = provider_named(narrative)
    assert set_aside.status is DraftStatus.NO_CONTEXT and not set_aside.answer
    assert "Amazon Web Services's documents as the company's own practice" in set_aside.error
    # a choice the model drafted keeps its choice and the quote it rests on, not the text
    chosen = provider_named(replace(narrative, choice="Yes"))
    assert (chosen.status, chosen.choice, chosen.answer, chosen.citations) == (DraftStatus.DRAFTED, "Yes", "", (aws,))
    # naming the provider keeps everything
    named = replace(narrative, answer="AWS, the hosting provider, retains the access log for 90 days.")
    assert provider_named(named) is named
    # a past answer's text is the responder's: it stays, the provider's quote beside it goes
    own = _citation(SourceKind.LIBRARY, "Logs are kept for one year.")
    past = replace(BASE, answer="Logs are kept for one year.", reused=True, citations=(own, aws))
    kept = provider_named(past)
    assert kept.answer == past.answer and kept.citations == (own,)
    # another product's choice on a row without a dropdown leads the text: the text goes, the choice stays
    theirs = _citation(SourceKind.LIBRARY, "Yes", product="Parchment")
    led = replace(
        BASE,
        choice=None,
        answer="Yes — The access log is retained for 90 days.",
        reused=True,
        from_product="Parchment",
        citations=(theirs, aws),
    )
    assert (provider_named(led).answer, provider_named(led).citations) == ("Yes", (theirs,))


def test_another_products_choice_whose_text_is_set_aside_for_a_provider_says_why():
    """PPPR-08 of the Canvas Credentials Full ("Is your company subject to institution's geographic
    region's laws and regulations?": "region" asks of the provider, so AWS's pages were shown): the
    model explained Parchment's Yes from AWS's SOC 3 without naming AWS, the text went, and the row
    ended with its choice and no ``no_text`` (issue #59, item 6). The reason is now the row's."""
    from engine.drafting.drafter import provider_named

    said = "AWS maintains a compliance program that addresses the laws and regulations of the regions it operates in."
    quote = "Amazon maintains a compliance program that addresses the laws of the regions it operates in"
    aws = _citation(SourceKind.PDF, quote, third_party="Amazon Web Services")
    theirs = _citation(SourceKind.LIBRARY, "Yes", product="Parchment")
    row = replace(
        AGREEING,
        question="Is your company subject to institution's geographic region's laws and regulations?",
        answer=said.replace("AWS", "The company"),
        citations=(theirs, aws),
    )
    dropped = provider_named(row)
    assert (dropped.choice, dropped.answer, dropped.citations) == ("Yes", "", (theirs,))
    assert (
        dropped.no_text
        == "the text was set aside: it restates Amazon Web Services's documents as the company's own practice"
    )
    assert dropped.to_json()["no_text"] == dropped.no_text
    # the model's own choice keeps its quote and says why it has no text, too
    chosen = provider_named(replace(row, reused=False, from_product=None))
    assert chosen.answer == "" and chosen.no_text.startswith("the text was set aside: it restates")


def test_a_providers_sentence_answers_only_a_question_about_the_provider():
    """AWS's SOC 3 sentence, copied word for word by the model under HECVAT THRD-03 (the
    company's contracts with its third parties): it names Amazon, but answers with Amazon's
    practice a question about the company's own, so it is set aside; under a hosting question the
    same kind of sentence stays."""
    from engine.drafting.drafter import provider_named

    said = (
        "Vendors and third parties with restricted access, that engage in business with Amazon, are subject to "
        "confidentiality commitments as part of their agreements with Amazon."
    )
    aws = _citation(SourceKind.PDF, said, third_party="Amazon Web Services")
    contracts = replace(
        BASE,
        question="What legal agreements (i.e., contracts) do you have in place with these third parties that "
        "address liability in the event of a data breach?",
        answer=said,
        choice=None,
        citations=(aws,),
    )
    assert contracts.text_source == "third_party"
    set_aside = provider_named(contracts)
    assert set_aside.status is DraftStatus.NO_CONTEXT
    assert "answers with Amazon Web Services's practice a question about the company's own" in set_aside.error
    hosting = replace(contracts, question="Describe the physical security of the data centers hosting the service.")
    assert provider_named(hosting) is hosting


def test_a_disputed_row_never_has_risk_0_with_or_without_a_dropdown():
    """#50: "Other products disagree: No ×6, Yes ×2" had risk 0.0 — the choice led the text of a
    row without a dropdown ("No — …"), so the row fell in the text stratum. A dispute is a dispute:
    its risk is its disputed stratum's smoothed rate, for every kind of dispute."""
    text_led = replace(
        DISPUTED, choice=None, answer="No — Access is reviewed quarterly.", past_choices={"No": 6, "Yes": 2}
    )
    assert stratum(text_led) == "other:disputed:strong"  # 6 of 8 is three quarters
    for d in (
        DISPUTED,
        text_led,
        replace(text_led, from_product=None),  # this product's own past answers disagreeing
        replace(DISPUTED, choice="No"),
        replace(DISPUTED, past_choices={"Yes": 1, "No": 1}),
    ):
        name = stratum(d)
        assert ":disputed:" in name, d
        assert d.risk == stratum_risk(name) > 0.0, (name, d.risk)
        assert d.to_json()["risk"] > 0.0


def test_a_text_saying_the_opposite_of_the_models_choice_goes_to_review_first():
    odd = replace(MODEL, answer="We do not encrypt data at rest.", at_odds=True)
    sure = {"model:high:yes": (0, 1000)}  # a stratum the model is never wrong in
    assert risk_of(MODEL, sure) < REVIEW_FIRST_RISK <= risk_of(odd, sure)
    assert odd.review_first
    assert "The text seems to say the opposite of Yes: check which is right" in [w.line for w in odd.warnings]
    assert Draft.from_stored(odd.key, odd.stored()).at_odds


def test_a_reused_undisputed_row_has_no_warning_in_doubt_even_past_its_review_by_date():
    """#50: the review-by date of the library answer reused is one line above the Review list
    (ui/review/notes.py), not a warning on every card that reuses one."""
    own = replace(AGREEING, from_product=None, reused_due="2025-03-01")
    assert not [w for w in own.warnings if not w.quiet], own.warnings
    assert not [w for w in AGREEING.warnings if not w.quiet]


def test_a_documents_sentence_says_where_it_is_from_never_written_by_the_model():
    quote = "Backups are encrypted with AES-256 and kept for 35 days."
    cited = Citation(
        "Instructure Security Overview.pdf", SourceKind.PDF, quote, AnchorLabel.VERIFIED, 100.0, 1.0, page=15
    )
    narrative = replace(BASE, choice=None, answer=quote, citations=(cited,))
    assert narrative.text_source == "own_document" and not narrative.model_wording
    lines = [w.line for w in narrative.warnings]
    assert "From Instructure Security Overview, p. 15" in lines and "Written by the model" not in lines
    reference = replace(narrative, answer="Described in Instructure Security Overview, p. 15: " + quote)
    reference = replace(reference, reference="Instructure Security Overview, p. 15")
    assert reference.text_source == "reference" and reference.text_origin == "From Instructure Security Overview, p. 15"
    assert Draft.from_stored(reference.key, reference.stored()).reference == reference.reference
