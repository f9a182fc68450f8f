"""Another product's past answer is never this product's (engine/drafting/cross_product.py), with the real
answer library (real all-MiniLM-L6-v2, SQLite), a real knowledge base (Qdrant local mode) and
generated past questionnaires (openpyxl): Parchment's and Canvas LMS's filled questionnaires, and
the product Impact, which has none.

* no text of another product's past answer (free text, vendor name, e-mail, link, phone) reaches
  any of Impact's drafts, nor the passages shown to the model;
* another product's choice is used only as a labelled choice ("Parchment's HECVAT: No") with its
  own confidence, flagged "from another product" in the draft, results.jsonl and the review store;
* the product's own past answer, then a company-wide one, come first.

The LLM is a stated fake (``QuotingGenerator``: it quotes the first passage and answers Yes):
these tests are about which past answers reach a draft and how they are labelled, not
generation. It is also the strictest adversary: any other-product passage shown to it would
be copied into the draft."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.config import EngineConfig
from engine.core.scopes import Scope
from engine.drafting.cross_product import CROSS_PRODUCT_PRECISION, choice_label, contact_tokens, questionnaire_kind
from engine.drafting.drafter import Drafter
from engine.drafting.explanation import NO_UNEXPLAINED
from engine.drafting.records import Draft
from engine.drafting.warnings import warnings_of
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.index.profile import row_ids
from engine.questionnaire import read_questionnaire
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, text_kb, write_questionnaire

ENCRYPT = "Is customer data encrypted at rest?"
CARD = "Does your product store, process or transmit payment card data?"
VENDOR = "What is the vendor's name and contact email address?"
TRAINING = "Do employees complete security awareness training every year?"
PARCHMENT_TEXT = {  # row → Parchment's comment: names, an e-mail, a link, a phone number
    4: "Parchment LLC encrypts with AES; ask erin.elliott@parchment.com or see https://status.parchment.com.",
    5: "Only our payment gateway, Chase paymentech, handles cards; call 480-719-1646.",
    6: "Parchment LLC, erin.elliott@parchment.com",
    7: "Parchment staff train yearly with KnowBe4.",
}
LEAKS = ("parchment", "erin", "chase", "480-719", "knowbe4", "status.", "@")
DOCS = {
    "policy.md": "# Security policy\n\n## Encryption\nCustomer data is encrypted at rest with AES-256 "
    "in every database.\n\n## Training\nEvery employee completes security awareness "
    "training when hired and every year after.\n"
}


class Recording(QuotingGenerator):
    """The stated fake LLM, keeping every question it was asked and every passage it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []
        self.asked: list[str] = []

    def generate(self, question, passages, choices):
        self.asked.append(question)
        self.seen += [p.label + " " + p.text for p in passages]
        return super().generate(question, passages, choices)


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    with text_kb(tmp_path, encoder, DOCS) as base:
        yield base


def past(tmp_path: Path, name: str, answered: dict[int, str], comments: dict[int, str]) -> Path:
    return write_questionnaire(
        tmp_path / name,
        answered=answered,
        comments=comments,
        questions=[("ENC-01", ENCRYPT), ("PCI-01", CARD), ("GNRL-01", VENDOR), ("TRN-01", TRAINING)],
    )


@pytest.fixture()
def library(tmp_path: Path, encoder):
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    lib.import_file(
        past(tmp_path, "Parchment HECVAT Full.xlsx", {4: "No", 5: "No", 7: "Yes"}, PARCHMENT_TEXT), product="Parchment"
    )
    lib.import_file(
        past(
            tmp_path,
            "Canvas LMS HECVAT Lite.xlsx",
            {4: "Yes", 7: "Yes"},
            {4: "Canvas LMS uses KMS keys; lms-security@instructure.com.", 7: "Canvas staff train."},
        ),
        product="Canvas LMS",
    )
    yield lib
    lib.close()


def target(tmp_path: Path):
    book = write_questionnaire(
        tmp_path / "impact.xlsx",
        questions=[("ENC-01", ENCRYPT), ("PCI-01", CARD), ("GNRL-01", VENDOR), ("TRN-01", TRAINING)],
    )
    return read_questionnaire(book)


def test_no_other_products_text_reaches_a_draft_and_its_choices_are_labelled(kb, library, tmp_path):
    model = Recording()
    review = ReviewStore(tmp_path / "review.sqlite")
    questionnaire = target(tmp_path)
    results = tmp_path / "results.jsonl"
    run = draft_questionnaire(
        questionnaire, Drafter(kb, model, library=library, product="Impact"), review, results=results
    )
    drafts = {d.id: d for d in run.drafted}
    # nothing of Parchment's or Canvas LMS's text in any draft, nor in what the model was shown
    for d in drafts.values():
        assert not any(leak in d.answer.lower() for leak in LEAKS), d
        assert "kms" not in d.answer.lower()
        assert all(
            c.file == "policy.md" or c.quote == c.quote.strip() and c.quote in ("Yes", "No") for c in d.citations
        ), d.citations
    assert not any(leak in text.lower() for text in model.seen for leak in ("parchment", "erin", "chase", "kms"))
    enc, card, vendor, training = (drafts[i] for i in ("ENC-01", "PCI-01", "GNRL-01", "TRN-01"))
    # encryption: Parchment No / Canvas LMS Yes disagree → the newest most common, labelled, disputed
    assert enc.from_product in ("Parchment", "Canvas LMS") and enc.reused and enc.disputed
    assert sorted(enc.past_answers) == ["Canvas LMS's HECVAT: Yes", "Parchment's HECVAT: No"]
    # card data: only Parchment's No; no sentence of the documents explains it, and the model is not
    # asked to explain a No → the choice alone
    assert (card.choice, card.from_product, card.answer) == ("No", "Parchment", "")
    assert card.past_answers == ("Parchment's HECVAT: No",) and card.citations[0].product == "Parchment"
    assert card.confidence == pytest.approx(CROSS_PRODUCT_PRECISION["agree"]) and not card.low_confidence
    assert "from another product (Parchment)" in card.trust
    # the vendor's name (free text, no choice): never Parchment's; drafted from the documents
    assert vendor.from_product is None and not vendor.reused
    # training: both products say Yes; the explanation is the company policy's sentence, word for word, no model call
    assert training.choice == "Yes"
    assert sorted(training.past_answers) == ["Canvas LMS's HECVAT: Yes", "Parchment's HECVAT: Yes"]
    assert training.answer == "Every employee completes security awareness training when hired and every year after."
    assert training.citations[1].file == "policy.md" and training.citations[1].label.value == "verified"
    # a choice explained by a documents' sentence took no model call, nor one no sentence could
    # support (encryption's No: the only sentence contradicts it); card data's No has a sentence
    # near enough to quote but not to explain, and a No is never the model's to explain (#59: its
    # texts say the question back or the opposite, as this fake's "Yes. …" would)
    assert model.asked == [VENDOR]
    assert card.no_text == NO_UNEXPLAINED
    assert training.trust == ("from another product (" + training.from_product + ")",)
    # results.jsonl and the review store carry the labels and the trust state
    lines = {line["id"]: line for line in map(json.loads, results.read_text().splitlines())}
    assert lines["PCI-01"]["from_product"] == "Parchment" and lines["PCI-01"]["past_answers"] == [
        "Parchment's HECVAT: No"
    ]
    assert "from another product (Parchment)" in lines["PCI-01"]["trust"]
    stored = review.latest_drafts(review.project_for(questionnaire.path).id)
    again = Draft.from_stored(card.key, stored[card.key])
    assert (again.from_product, again.past_answers, again.trust) == (card.from_product, card.past_answers, card.trust)
    review.close()


def test_own_then_company_wide_past_answers_come_before_another_products(kb, library, tmp_path, encoder):
    q = next(x for x in target(tmp_path).questions if x.id == "ENC-01")
    company = write_questionnaire(
        tmp_path / "Instructure CAIQ.xlsx",
        answered={4: "Yes"},
        comments={4: "Instructure encrypts customer data at rest."},
        questions=[("ENC-01", ENCRYPT)],
    )
    library.import_file(company)  # company-wide
    d = Drafter(kb, QuotingGenerator(), library=library, product="Impact").draft(q)
    assert (d.reused, d.from_product, d.answer) == (True, None, "Instructure encrypts customer data at rest.")
    assert d.past_answers == ("the company-wide CAIQ: Yes",) and not d.trust
    own = write_questionnaire(
        tmp_path / "Impact HECVAT.xlsx",
        answered={4: "No"},
        comments={4: "Impact keeps no data."},
        questions=[("ENC-01", ENCRYPT)],
    )
    library.import_file(own, product="Impact")
    d = Drafter(kb, QuotingGenerator(), library=library, product="Impact").draft(q)
    assert (d.choice, d.answer, d.from_product) == ("No", "Impact keeps no data.", None)
    # the product's own past answer is reused as it is; Parchment's never, even for Canvas LMS
    lms = Drafter(kb, QuotingGenerator(), library=library, product="Canvas LMS").draft(q)
    assert lms.answer.startswith("Canvas LMS uses KMS") and lms.from_product is None


class Explaining(Recording):
    """The stated fake LLM, in its own words: it quotes as ``QuotingGenerator`` does and explains
    with a sentence of its own, taking the only option it is given."""

    def generate(self, question, passages, choices):
        quoted = super().generate(question, passages, choices)
        only = choices[0] if len(choices) == 1 else None
        return replace(quoted, answer="Every employee is screened before hire.", choice=only)


def test_with_no_sentence_of_its_own_the_model_explains_another_products_choice_as_its_wording(tmp_path, encoder):
    """Only Parchment answered; the documents' sentence speaks to the question as a quote must
    (cosine 0.42) but not as an explanation must (0.45): the model explains the choice, the choice
    fixed (it is asked with that one option), and the draft says the text is the model's (issue
    #37: the last source)."""
    checks = "Do you perform background checks on all employees?"
    questions = [("HRS-01", checks)]
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    lib.import_file(
        write_questionnaire(
            tmp_path / "Parchment HECVAT Full.xlsx",
            answered={4: "Yes"},
            comments={4: "Parchment LLC screens staff with Sterling."},
            questions=questions,
        ),
        product="Parchment",
    )
    book = read_questionnaire(write_questionnaire(tmp_path / "impact.xlsx", questions=questions))
    q = next(x for x in book.questions if x.id == "HRS-01")
    model = Explaining()
    docs = {
        "hr.md": "# People\n\n## Screening\nEvery new hire is screened by human resources before starting work.\n",
        # a provider's practice: never shown to the model explaining a question about the company's own
        "aws.md": "# AWS\n\nAmazon performs background checks on all employees with data center access.\n",
    }
    scopes = {"aws.md": Scope(third_party="Amazon Web Services")}
    with text_kb(tmp_path, encoder, docs, scopes) as base:
        try:
            d = Drafter(base, model, library=lib, product="Impact").draft(q)
        finally:
            lib.close()
    assert (d.choice, d.from_product, d.answer) == ("Yes", "Parchment", "Every employee is screened before hire.")
    assert model.asked == [checks] and model.seen and not any("aws" in text.lower() for text in model.seen)
    assert not any("parchment" in text.lower() for text in model.seen)
    assert d.citations[0].product == "Parchment" and d.citations[1].file == "hr.md"
    assert d.text_source == "model" and "Written by the model" in [w.line for w in warnings_of(d)]


def test_a_text_without_a_choice_is_written_from_the_companys_documents_never_a_providers(tmp_path, encoder):
    """A narrative (no choices) about the company's own practice: the model is shown the company's
    passages only, since a text resting on a provider's would be set aside after the call
    (``provider_named``); with no passage of the company's own it is not asked at all. A question
    about what the provider does (its data centres) still sees the provider's passages."""
    logging_q = "Describe how you log administrator and user security events."
    centres_q = "Describe the fire suppression in the data centers where institution data will reside."
    book = read_questionnaire(
        write_questionnaire(tmp_path / "impact.xlsx", questions=[("AAAI-18", logging_q), ("DCTR-12", centres_q)])
    )
    narrative = {q.id: replace(q, choices=()) for q in book.questions}
    aws = {
        "aws.md": "# AWS\n\nAWS logs administrator and user security events in CloudTrail. "
        "AWS data centers have automatic fire suppression.\n"
    }
    scopes = {"aws.md": Scope(third_party="Amazon Web Services")}
    own = {"logs.md": "# Logging\n\nThe company logs administrator and user security events in its SIEM.\n"}
    model = Recording()
    with text_kb(tmp_path / "both", encoder, {**own, **aws}, scopes) as base:
        drafter = Drafter(base, model, product="Impact")
        d = drafter.draft(narrative["AAAI-18"])
        assert model.asked == [logging_q] and model.seen and not any("aws" in t.lower() for t in model.seen)
        assert d.answer and d.citations and all(c.file == "logs.md" for c in d.citations)
        drafter.draft(narrative["DCTR-12"])
        assert any("aws" in t.lower() for t in model.seen)
    model = Recording()
    with text_kb(tmp_path / "provider_only", encoder, aws, scopes) as base:
        d = Drafter(base, model, product="Impact").draft(narrative["AAAI-18"])
    assert model.asked == [] and d.status.value == "no_context" and not d.answer
    assert d.error and d.error.startswith("only Amazon Web Services's documents speak to this")


def test_a_choice_leading_a_text_is_said_once():
    """Without a dropdown the choice leads the text ("Yes — …"): the model's opening answer word goes,
    a sentence that opens with the same word as a word of its own ("No unplanned …") keeps it."""
    from engine.drafting.drafter import _without_opening

    assert _without_opening("Yes, we screen every hire.", "Yes") == "We screen every hire."
    assert _without_opening("No — none of them.", "No") == "None of them."
    assert _without_opening("No unplanned disruption in 12 months.", "No") == "No unplanned disruption in 12 months."
    assert _without_opening("No.", "No") == "" and _without_opening("Yesterday's rules", "Yes") == "Yesterday's rules"


def test_a_bare_yes_or_no_does_not_lead_the_text_of_a_question_asking_for_a_description():
    """Parchment's Full has no dropdown at VULN-05 ("Describe or provide a reference to how you
    monitor …"), which Canvas Credentials' dropdown answered Yes: the draft read "Yes — The code
    review includes …". A numbered option still leads, and a bare Yes stays when no text is left."""
    from engine.drafting.drafter import _led_by

    describe = "Describe or provide a reference to how you monitor for web application vulnerabilities."
    review = "The code review includes security auditing based on OWASP."
    assert _led_by("Yes", review, describe) == review
    assert _led_by("Yes", review, "Do you review code for security flaws?") == f"Yes — {review}"
    assert (
        _led_by("4) AWS", "Hosted in us-east-1.", "Which hosting option do you use?") == "4) AWS — Hosted in us-east-1."
    )
    assert _led_by("Yes", "", describe) == "Yes"


def test_a_company_wide_questionnaire_takes_no_products_text(kb, library, tmp_path):
    d = Drafter(kb, QuotingGenerator(), library=library).draft(
        next(x for x in target(tmp_path).questions if x.id == "PCI-01")
    )
    assert (d.choice, d.answer, d.from_product) == ("No", "", "Parchment")


def test_labels_and_contact_tokens():
    assert questionnaire_kind("Parchment HECVAT Full - All Products.xlsx") == "HECVAT"
    assert questionnaire_kind("Canvas LMS K-12CVAT-Lite.xlsx") == "K-12CVAT"
    assert questionnaire_kind("answers.csv") == "questionnaire"
    from storage.library_store import LibraryEntry, Origin

    e = LibraryEntry(
        1, "Q?", "No", "", None, "Parchment HECVAT.xlsx", "S", 4, None, "2024-01-01", Origin.IMPORT, product="Parchment"
    )
    assert choice_label(e) == "Parchment's HECVAT: No"
    assert contact_tokens(PARCHMENT_TEXT[4]) == ["erin.elliott@parchment.com", "https://status.parchment.com"]
    assert contact_tokens(PARCHMENT_TEXT[5]) == ["480-719-1646"]
    assert contact_tokens("See inst.bid/privacy.") == ["inst.bid/privacy"]


def test_eval_cross_product_scores_other_products_choices_leave_one_out(tmp_path, capsys):
    from engine.cli.main import main

    files = []
    for product, choices in (("Alpha", ("Yes", "No")), ("Beta", ("Yes", "Yes")), ("Gamma", ("Yes", "No"))):
        (tmp_path / product).mkdir()
        files.append(
            str(
                write_questionnaire(
                    tmp_path / product / f"{product} HECVAT.xlsx",
                    answered={4: choices[0], 5: choices[1]},
                    comments={4: product},
                    questions=[("ENC-01", ENCRYPT), ("TRN-01", TRAINING)],
                )
            )
        )
    assert main(["eval", "cross-product", *files, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    by = {t["product"]: t for t in result["targets"]}
    # Alpha: ENC Yes (Beta, Gamma: Yes, Yes → right); TRN No (Beta Yes, Gamma No disagree → the newest: Gamma No → right)
    assert (by["Alpha"]["choices"], by["Alpha"]["agree"], by["Alpha"]["disagree"]) == (2, 1, 1)
    # Beta: TRN Yes, but Alpha and Gamma both say No → wrong, and they agreed
    assert by["Beta"]["precision"] == 50.0 and by["Beta"]["precision_agree"] == 50.0
    assert result["overall"]["choices"] == 6


def test_a_whole_shared_hecvat_drafted_with_the_other_questionnaires_holds_nothing_of_another_product(
    shared_data, encoder, tmp_path
):
    """Canvas Credentials' HECVAT Full (255 rows, ../shared/data/instructure) drafted for Canvas
    Credentials with every other filled questionnaire in the library (Parchment's HECVAT Full among
    them), no documents: no row holds Parchment's name, people, e-mails, phones or links, nor
    (the evaluation's check, engine/bench/leaks.py) any other product's; every
    choice taken from another product says so; the GNRL rows come from the profile."""
    from engine.bench.leaks import build, library_sources
    from engine.core.scopes import FolderScopes

    base = shared_data / "instructure"
    target = base / "Canvas Credentials" / "Canvas Credentials HECVAT Full.xlsx"
    folders = FolderScopes()
    library = AnswerLibrary(tmp_path / "lib", encoder)
    others = [f for f in sorted(base.glob("*/*.xlsx")) if f != target and "SOA" not in f.name]
    for f in others:
        library.import_file(f, product=folders.product_of(f))
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    try:
        drafter = Drafter(kb, QuotingGenerator(), library=library, product="Canvas Credentials")
        questionnaire = read_questionnaire(target)
        rows = row_ids(questionnaire.questions)  # as the pipeline drafts: a pointer to a row is re-pointed
        drafts = [drafter.draft(q, rows) for q in questionnaire.questions]
        # the evaluation's check over every row (engine/bench/leaks.py), with the library as its sources
        check = build("Canvas Credentials", library_sources(library.entries()), folders.company)
        assert check.people and check.names  # Parchment's contacts and every other product's name are looked for
        figures = check.figures((d.id or d.key, " ".join(x for x in (d.choice, d.answer) if x)) for d in drafts)
        assert figures["other_product_mentions"]["rows"] == 0, figures
        assert figures["foreign_contacts"]["rows"] == 0, figures
    finally:
        library.close()
        release(str(tmp_path / "kb" / "qdrant"))
    parchment = ("parchment", "erin", "elliott", "weaver", "480-719", "salt lake", "loveland", "chase")
    # as whole words: "erin" is in "engineering", which the company's shared practice may say
    leaks = [
        (d.id, d.answer) for d in drafts if any(re.search(rf"\b{re.escape(w)}\b", d.answer.lower()) for w in parchment)
    ]
    assert not leaks, leaks
    # a choice taken from another product is labelled so; a narrative two or more products wrote in the same
    # sentences (no choice) is the company's text, with its origin (#59: tests/integration/test_company_narratives.py)
    crossed = [d for d in drafts if d.from_product and d.choice]
    assert crossed and all(
        d.past_answers and d.confidence is not None and any(t.startswith("from another product") for t in d.trust)
        for d in crossed
    )
    general = {d.id: d for d in drafts if d.profile_fact}
    assert general["GNRL-01"].answer == "Instructure" and general["GNRL-02"].answer == "Canvas Credentials"
    assert general["GNRL-04"].answer.endswith("inst.bid/privacy")
    assert {d.id for d in drafts if d.profile_fact} >= {f"GNRL-{n:02d}" for n in (1, 2, 4, 5, 6, 7, 8, 9, 14, 15)}


def test_a_dropdown_option_typed_as_text_is_another_products_choice_never_its_text(kb, tmp_path, encoder):
    """A sheet without dropdowns (here CSV, as Canvas Credentials' HECVAT holds QUAL-07) where the
    vendor typed "4) AWS": the library keeps it as a choice; a target without a dropdown gets it
    labelled as another product's, leading its text, with nothing of that product's comment."""
    hosting = "Select your hosting option."
    (tmp_path / "parchment.csv").write_text(
        "ID,Question,Answer,Additional Information\n"
        f'QUAL-07,{hosting},4) AWS,"Parchment LLC hosts in us-east-1, see https://status.parchment.com"\n',
        encoding="utf-8",
    )
    (tmp_path / "impact.csv").write_text(f"ID,Question,Answer\nQUAL-07,{hosting},\n", encoding="utf-8")
    lib = AnswerLibrary(tmp_path / "lib2", encoder)
    try:
        lib.import_file(tmp_path / "parchment.csv", product="Parchment")
        (entry,) = lib.entries()
        assert (entry.choice, entry.qid) == ("4) AWS", "QUAL-07")
        (q,) = read_questionnaire(tmp_path / "impact.csv").questions
        assert not q.choices
        draft = Drafter(kb, QuotingGenerator(), library=lib, product="Impact").draft(q)
    finally:
        lib.close()
    assert draft.answer.startswith("4) AWS") and draft.choice is None
    assert draft.from_product == "Parchment" and draft.past_answers == ("Parchment's questionnaire: 4) AWS",)
    assert "from another product (Parchment)" in draft.trust
    assert "parchment" not in draft.answer.lower() and "us-east-1" not in draft.answer
