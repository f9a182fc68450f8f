"""A section a qualifier switches off is not drafted, shows as not required in Review, is left
blank on export, and follows the reviewer's changes to the qualifier.

The drafter here is a fake that answers from a fixed table: these tests are about which rows
are drafted and in which order, not about drafting itself (tests/integration/test_draft.py
drafts with the real pipeline)."""

from __future__ import annotations

import openpyxl

from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from engine.review.draft_run import draft_questionnaire
from engine.review.review import Review, ReviewState
from storage.review_store import ReviewStore
from tests.unit.test_qualifiers import hecvat_like


class TableDrafter:
    """Answers each question from ``table`` (ID → choice), recording what it was asked."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table, self.asked, self.qualifiers = table, [], []

    def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:  # rows, source: the profile's (unused here)
        self.asked.append(q.id)
        if qualifier:  # the run says which questions are qualifiers (a regulated one is answered apart)
            self.qualifiers.append(q.id)
        choice = self.table.get(q.id, "Yes" if q.choices else None)
        return Draft(question_key(q), q.id, q.sheet, q.row, q.text, f"Drafted for {q.id}.", choice, DraftStatus.DRAFTED)


def test_switched_off_sections_are_not_drafted_and_follow_the_qualifier(tmp_path):
    path = hecvat_like(tmp_path / "h.xlsx")
    questionnaire = read_questionnaire(path)
    store = ReviewStore(tmp_path / "review.sqlite")
    drafter = TableDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"})

    run = draft_questionnaire(questionnaire, drafter, store)
    assert drafter.asked[:3] == ["QUAL-01", "QUAL-05", "QUAL-07"]  # qualifiers first
    assert drafter.qualifiers == ["QUAL-01", "QUAL-05", "QUAL-07"]  # and said to be
    assert not {"HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"} & set(drafter.asked)
    assert {"PCID-01", "DCTR-15", "GNRL-01"} <= set(drafter.asked)
    assert run.counts == {"drafted": 6, "not_required": 4}

    project = store.project_for(path)
    review = Review(store, project.id, questionnaire)
    items = {i.question.id: i for i in review.items()}
    assert items["HIPA-01"].state is ReviewState.NOT_REQUIRED
    assert items["HIPA-01"].gate.reason == "not required (QUAL-01 = No)"
    assert items["PCID-01"].state is ReviewState.DRAFTED
    sections = {s.section: s for s in review.sections()}
    assert sections["HIPAA"].required is False and sections["HIPAA"].reason == "not required (QUAL-01 = No)"
    assert sections["PCI DSS"].required is True and sections["Datacenter (cloud)"].required is True

    out = review.export_workbook(tmp_path / "out.xlsx", include_unreviewed=True)
    ws = openpyxl.load_workbook(out)["Vendor Response"]
    cells = {ws.cell(r, 1).value: (ws.cell(r, 3).value, ws.cell(r, 4).value) for r in range(2, ws.max_row + 1)}
    assert cells["HIPA-01"] == (None, None) and cells["DCTR-03"] == (None, None)  # left blank, as the template expects
    assert cells["PCID-01"][0] == "Yes" and cells["QUAL-01"][0] == "No"

    # the reviewer says the product does process PHI: the HIPAA rows are required and drafted next run
    review.edit(items["QUAL-01"].key, "We host PHI for clinical programs.", "Yes")
    items = {i.question.id: i for i in review.items()}
    assert items["HIPA-01"].state is ReviewState.PENDING and items["HIPA-01"].gate.required
    drafter.asked.clear()
    draft_questionnaire(questionnaire, drafter, store)
    assert drafter.asked == ["HIPA-01", "HIPA-02"]
    items = {i.question.id: i for i in review.items()}
    assert items["HIPA-01"].state is ReviewState.DRAFTED and items["HIPA-01"].conflict is None

    # accepted HIPAA answer, then the qualifier back to No: the row is flagged as a contradiction
    review.accept(items["HIPA-01"].key)
    review.edit(items["QUAL-01"].key, "", "No")
    items = {i.question.id: i for i in review.items()}
    assert items["HIPA-02"].state is ReviewState.NOT_REQUIRED
    assert items["HIPA-01"].conflict and "QUAL-01 = No" in items["HIPA-01"].conflict
    store.close()


class OtherProductsDrafter(TableDrafter):
    """As ``TableDrafter``, but every choice is labelled as another product's past answer."""

    def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:  # rows, source: the profile's (unused here)
        d = super().draft(q)
        return Draft(d.key, d.id, d.sheet, d.row, d.question, d.answer, d.choice, d.status, from_product="Parchment")


def test_a_qualifier_answered_from_another_products_past_answer_switches_nothing_off(tmp_path):
    """Another product's QUAL-01 = No is a labelled draft for review, not a reason to blank this
    product's HIPAA section; once the reviewer accepts it, the section follows it."""
    path = hecvat_like(tmp_path / "h.xlsx")
    questionnaire = read_questionnaire(path)
    store = ReviewStore(tmp_path / "review.sqlite")
    drafter = OtherProductsDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"})
    run = draft_questionnaire(questionnaire, drafter, store)
    assert {"HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"} <= set(drafter.asked)
    assert "not_required" not in run.counts

    project = store.project_for(path)
    review = Review(store, project.id, questionnaire)
    items = {i.question.id: i for i in review.items()}
    assert items["HIPA-01"].state is ReviewState.DRAFTED
    review.accept(items["QUAL-01"].key)
    items = {i.question.id: i for i in Review(store, project.id, questionnaire).items()}
    assert items["HIPA-01"].state is ReviewState.NOT_REQUIRED
    assert items["HIPA-01"].gate.reason == "not required (QUAL-01 = No)"


class AgreeingProductsDrafter(TableDrafter):
    """As ``TableDrafter``, but every choice is another product's past answer, given alike by
    ``products`` products (``past_answers`` as the pipeline labels them)."""

    def __init__(self, table: dict[str, str], products: int) -> None:
        super().__init__(table)
        self.products = products

    def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:  # rows, source: the profile's (unused here)
        d = super().draft(q)
        voters = tuple(f"Product {n}'s HECVAT: {d.choice}" for n in range(self.products))
        return Draft(
            d.key,
            d.id,
            d.sheet,
            d.row,
            d.question,
            d.answer,
            d.choice,
            d.status,
            from_product="Product 0",
            past_answers=voters,
        )


def test_a_qualifier_that_three_other_products_answer_alike_switches_its_section_off(tmp_path):
    """ "Does your product process PHI?" answered No by three other products and by none Yes is the
    company's answer (cross_product.QUALIFIER_QUORUM); two products are not enough."""
    table = {"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"}
    for products, hipaa_drafted in ((3, False), (2, True)):
        path = hecvat_like(tmp_path / f"h{products}.xlsx")
        store = ReviewStore(tmp_path / f"review{products}.sqlite")
        drafter = AgreeingProductsDrafter(table, products)
        draft_questionnaire(read_questionnaire(path), drafter, store)
        assert ("HIPA-01" in drafter.asked) is hipaa_drafted, products
        store.close()


def test_the_evaluation_gates_rows_as_drafting_does(tmp_path):
    """engine/bench/rows.py drafts a filled questionnaire as if blank through the same gate: the
    file's own qualifier answers are never read, another product's lone choice switches nothing off."""
    from engine.bench.rows import draft_rows

    path = hecvat_like(tmp_path / "h.xlsx")
    questionnaire = read_questionnaire(path)
    ids = {q.id for q in questionnaire.questions}
    out, _ = draft_rows(TableDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"}), questionnaire, ids)
    off = {d.id for d in out.values() if d.status is DraftStatus.NOT_REQUIRED}
    assert off == {"HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"}
    out, _ = draft_rows(OtherProductsDrafter({"QUAL-01": "No"}), questionnaire, ids)
    assert not any(d.status is DraftStatus.NOT_REQUIRED for d in out.values())
    # a reviewer who answers each qualifier as it is drafted, with the file's own answer: the sections follow it
    filled = {"QUAL-01": ("No", "No PHI."), "QUAL-05": ("Yes", ""), "QUAL-07": ("4) AWS", "")}
    questionnaire = read_questionnaire(hecvat_like(tmp_path / "filled.xlsx", filled))
    drafter = OtherProductsDrafter({"QUAL-01": "Yes"})
    out, _ = draft_rows(drafter, questionnaire, ids, qualifiers_reviewed=True)
    off = {d.id for d in out.values() if d.status is DraftStatus.NOT_REQUIRED}
    assert off == {"HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"} and not off & set(drafter.asked)
    assert out[next(k for k, d in out.items() if d.id == "QUAL-01")].choice == "Yes"  # the draft itself is kept


class UnsureDrafter(TableDrafter):
    """As ``TableDrafter``, with every draft under the calibrated confidence threshold."""

    def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:  # rows, source: the profile's (unused here)
        d = super().draft(q)
        return Draft(d.key, d.id, d.sheet, d.row, d.question, d.answer, d.choice, d.status, confidence=0.5)


def test_a_low_confidence_qualifier_switches_nothing_off(tmp_path):
    """Canvas Credentials' CONS-06 = No, drafted by the model at confidence 0.50 from Google's
    evidence alone, switched CONS-07 off although the vendor answers it: an unsure qualifier
    leaves its rows on for the reviewer."""
    path = hecvat_like(tmp_path / "h.xlsx")
    drafter = UnsureDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"})
    store = ReviewStore(tmp_path / "review.sqlite")
    run = draft_questionnaire(read_questionnaire(path), drafter, store)
    assert "HIPA-01" in drafter.asked and "not_required" not in run.counts
    store.close()


class ReviewerMidRun(OtherProductsDrafter):
    """As ``OtherProductsDrafter`` (its qualifiers switch nothing off by themselves), with a
    reviewer who, while the run drafts GNRL-01, edits QUAL-01 to No in the review store, as the
    app's Review screen does while a drafting job runs in the background."""

    def __init__(self, table: dict[str, str], review: Review) -> None:
        super().__init__(table)
        self.review = review

    def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:  # rows, source: the profile's (unused here)
        if q.id == "GNRL-01":
            qual = next(i for i in self.review.items() if i.question.id == "QUAL-01")
            self.review.edit(qual.key, "We do not process PHI.", "No")
        return super().draft(q)


def test_governed_rows_are_drafted_last_and_follow_a_qualifier_reviewed_during_the_run(tmp_path):
    """Answering the qualifiers first saves the model's time on the sections they switch off: the
    governed rows come after every other row, and the run reads the reviewer's decisions again
    before each of them."""
    path = hecvat_like(tmp_path / "h.xlsx")
    questionnaire = read_questionnaire(path)
    store = ReviewStore(tmp_path / "review.sqlite")
    project = store.project_for(path)
    drafter = ReviewerMidRun(
        {"QUAL-01": "Yes", "QUAL-05": "Yes", "QUAL-07": "4) AWS"}, Review(store, project.id, questionnaire)
    )

    run = draft_questionnaire(questionnaire, drafter, store)
    assert drafter.asked == ["QUAL-01", "QUAL-05", "QUAL-07", "GNRL-01", "PCID-01", "DCTR-01", "DCTR-03", "DCTR-15"]
    assert run.counts == {"drafted": 8, "not_required": 2}  # HIPA-01, HIPA-02: the reviewer's QUAL-01 = No
    items = {i.question.id: i for i in Review(store, project.id, questionnaire).items()}
    assert items["HIPA-01"].state is ReviewState.NOT_REQUIRED
    assert items["HIPA-01"].gate.reason == "not required (QUAL-01 = No)"
    assert items["QUAL-01"].state is ReviewState.EDITED
    # PCID-01 (QUAL-05 = Yes) is drafted as before
    assert items["PCID-01"].state is ReviewState.DRAFTED
    store.close()
