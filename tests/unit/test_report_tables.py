"""The reports' own rules (#51) on generated values: the freshness bands at their edges, a row's
section, what a draft rests on, gap topics on generated questions, duplicates of one product
merged (not another product's), an answer written in the library reused at once, the retired
products setting, and the XLSX and HTML writers (a text starting with ``=`` stays text; sheet
titles a workbook accepts; each figure linked to its rows; nothing loaded from elsewhere)."""

from __future__ import annotations

import io
import re
from datetime import date

import openpyxl
import pytest

from engine.app.settings import Settings, SettingsError
from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation, Draft
from engine.index.library import AnswerLibrary, LibraryPolicy, same_answer
from engine.questionnaire import Question
from engine.review.reports import Basis, Figure, Ref, Table, html_text, xlsx_bytes
from engine.review.reports.basis import basis_of
from engine.review.reports.library_health import Band, band_of
from engine.review.reports.rows import Gap, Outcome, ReportRow, section_of
from engine.review.reports.topics import gap_topics
from engine.review.review import ReviewItem, ReviewState
from storage.library_store import LibraryEntry, Origin


def test_freshness_bands_at_their_edges():
    today = date(2026, 6, 1)
    assert band_of("2026-07-02", today) is Band.FRESH  # 31 days ahead
    assert band_of("2026-07-01", today) is Band.NEEDS_REVIEW  # 30 days ahead
    assert band_of("2026-06-01", today) is Band.NEEDS_REVIEW  # due today
    assert band_of("2026-05-31", today) is Band.OUT_OF_DATE  # a day past
    assert band_of("2026-03-03", today) is Band.OUT_OF_DATE  # 90 days past
    assert band_of("2026-03-02", today) is Band.STALE  # 91 days past


def test_a_rows_section_is_its_ids_letters_else_its_sheet():
    assert section_of("DATA-01", "Questions") == "DATA"
    assert section_of("A&A-01.1", "CAIQ") == "A&A"
    assert section_of("hfih 3", "Sheet") == "HFIH"
    assert section_of(None, "Vendor Response") == "Vendor Response"
    assert section_of("12", "Vendor Response") == "Vendor Response"


def _question(text: str = "Is data encrypted at rest?", row: int = 5) -> Question:
    return Question("ENC-01", "Q", row, text, f"B{row}", f"C{row}", f"D{row}", ("Yes", "No"), None, None)


def _item(draft: Draft | None, state_decision=None) -> ReviewItem:
    return ReviewItem("Q!B5", _question(), draft, state_decision)


def _past(file: str, product: str | None = None) -> Citation:
    return Citation(
        file, SourceKind.LIBRARY, "Yes", AnchorLabel.VERIFIED, 95.0, 0.95, sheet="Q", row=5, product=product
    )


def _draft(**fields) -> Draft:
    base = dict(key="Q!B5", id="ENC-01", sheet="Q", row=5, question="Is data encrypted at rest?", answer="AES-256.")
    base |= dict(choice="Yes", status=DraftStatus.DRAFTED)
    return Draft(**(base | fields))


def _entry(i: int, file: str, product: str | None, question: str = "Is data encrypted at rest?") -> LibraryEntry:
    return LibraryEntry(
        i, question, "Yes", "AES-256.", None, file, "Q", 5, "ENC-01", "2026-01-01", Origin.IMPORT, product=product
    )


def test_what_a_draft_rests_on():
    entries = {("own.xlsx", "Q", 5): _entry(1, "own.xlsx", "Alpha"), ("co.xlsx", "Q", 5): _entry(2, "co.xlsx", None)}
    rests = lambda draft: basis_of(_item(draft), entries, "Alpha").basis  # noqa: E731
    assert rests(_draft(reused=True, citations=(_past("own.xlsx"),))) is Basis.OWN_PAST
    assert rests(_draft(reused=True, citations=(_past("co.xlsx"),))) is Basis.COMPANY_PAST
    assert rests(_draft(reused=True, from_product="Beta", citations=(_past("b.xlsx", "Beta"),))) is Basis.OTHER_PRODUCT
    assert rests(_draft(profile_fact="vendor_name", choice=None)) is Basis.PROFILE
    assert rests(_draft(status=DraftStatus.NO_CONTEXT, answer="", choice=None)) is Basis.NOTHING
    assert rests(_draft(stated="no document mentions card data", answer="", choice="No")) is Basis.DOCUMENT
    page = Citation("policy.pdf", SourceKind.PDF, "AES-256.", AnchorLabel.VERIFIED, 99.0, 0.8, page=4)
    assert rests(_draft(citations=(page,))) is Basis.DOCUMENT
    assert basis_of(_item(_draft(citations=(page,))), entries, "Alpha").source == "policy.pdf, page 4"
    worded = Citation("policy.pdf", SourceKind.PDF, "Keys rotate yearly.", AnchorLabel.VERIFIED, 99.0, 0.8, page=2)
    assert rests(_draft(answer="We encrypt everything.", citations=(worded,))) is Basis.MODEL
    # a reference answer (#50) names the document's section and quotes it: the document, never the model
    cited = "Described in Policy, p. 2: Keys rotate yearly."
    referred = _draft(answer=cited, choice=None, reference="Policy, p. 2", citations=(worded,))
    assert rests(referred) is Basis.DOCUMENT
    assert basis_of(_item(referred), entries, "Alpha").source == "policy.pdf, page 2"
    assert rests(None) is Basis.NOT_DRAFTED
    # the place now holds another product's entry (a questionnaire of that name answered since): still this one's
    moved = {("own.xlsx", "Q", 5): _entry(3, "own.xlsx", "Gamma")}
    assert basis_of(_item(_draft(reused=True, citations=(_past("own.xlsx"),))), moved, "Alpha").basis is Basis.OWN_PAST


def _row(n: int, question: str, project: int, gaps=(Gap.NO_SOURCE,), answer: str = "", outcome=Outcome.UNDECIDED):
    basis = Basis.NOTHING if Gap.NO_SOURCE in gaps else Basis.OTHER_PRODUCT
    return ReportRow(
        project, f"Q{project}", f"k{n}", f"R-{n}", "R", question, basis, "", ReviewState.DRAFTED, outcome, None, None,
        None, answer, None, tuple(gaps),
    )  # fmt: skip


def test_gap_topics_group_like_questions_across_questionnaires_ranked_by_size():
    rows = [
        _row(1, "Is customer data encrypted at rest with AES-256?", 1),
        _row(2, "Describe how customer data is encrypted at rest.", 2),
        _row(
            3,
            "Are encryption keys for data at rest rotated?",
            1,
            (Gap.REWRITTEN,),
            "Keys rotate yearly.",
            Outcome.EDITED,
        ),
        _row(4, "How often are backups tested by restoring them?", 1),
        _row(5, "Describe your backup restore testing.", 2, (Gap.ASSIGNED,)),
        _row(6, "Vendor accessibility contact phone number", 2),
        _row(7, "Is data encrypted in transit?", 1, ()),  # not a gap: in no topic
        _row(8, "Is it?", 2),  # only stop words: a topic of its own
    ]
    topics = gap_topics(rows)
    grouped = [r.key for t in topics for r in t.rows]
    assert sorted(grouped) == ["k1", "k2", "k3", "k4", "k5", "k6", "k8"]
    first = topics[0]
    assert {r.key for r in first.rows} == {"k1", "k2", "k3"} and "encrypt" in first.name.lower()
    assert first.questionnaires == ["Q1", "Q2"] and first.reasons()[Gap.NO_SOURCE] == 2
    assert first.entry().answer == "Keys rotate yearly." and first.entry().sources == ("Q1 R-3",)
    assert {r.key for r in topics[1].rows} == {"k4", "k5"} and "backup" in topics[1].name.lower()
    assert [len(t.rows) for t in topics] == sorted((len(t.rows) for t in topics), reverse=True)
    assert gap_topics([_row(7, "Is data encrypted in transit?", 1, ())]) == []


def test_same_answer_and_duplicates_of_one_product_merge_to_the_newest(tmp_path, encoder):
    a = _entry(1, "a.xlsx", "Alpha")
    assert same_answer(a, _entry(2, "b.xlsx", "Beta"))
    assert not same_answer(
        a, LibraryEntry(3, a.question, "No", "AES-256.", None, "c", "Q", 5, None, "x", Origin.IMPORT)
    )
    csv = "ID,Question,Answer,Additional Information\nENC-01,{q},Yes,Data is encrypted at rest with AES-256.\n"
    library = AnswerLibrary(tmp_path / "lib", encoder)
    try:
        for name, product, question in (
            ("alpha-2024.csv", "Alpha", "Is customer data encrypted at rest?"),
            ("alpha-2025.csv", "Alpha", "Is all customer data encrypted at rest?"),
            ("beta.csv", "Beta", "Is the customer data encrypted at rest?"),  # other bytes: not a re-import
        ):
            (tmp_path / name).write_text(csv.format(q=question), encoding="utf-8")
            library.import_file(tmp_path / name, product=product)
        (dup,) = library.duplicates()
        assert {e.product for e in dup.entries} == {"Alpha"} and len(dup.entries) == 2
        assert dup.keep.id == max(e.id for e in dup.entries) and [e.id for e in dup.others] == [
            min(e.id for e in dup.entries)
        ]
        written = library.write("Do you rotate encryption keys?", "Yes", "Yearly, by the KMS.", "Alpha", by="Lee")
        assert written.origin is Origin.WRITTEN and written.row == written.id and written.owner == "Lee"
        hit = library.match("Are encryption keys rotated?", product="Alpha")[0]
        assert hit.entry.id == written.id
        assert library.by_place()[(written.file, written.sheet, written.row)].id == written.id
        with pytest.raises(ValueError, match="the answer is empty"):
            library.write("Do you rotate keys?", "", "  ", None, by="Lee")
    finally:
        library.close()


def test_retired_products_are_a_library_setting_checked_and_saved(tmp_path):
    settings = Settings().changed(retired_products=["Canvas  Catalog", "Canvas Catalog", "Impact"])
    assert settings.library.retired_products == ("Canvas Catalog", "Impact")
    settings.save(tmp_path)
    assert Settings.load(tmp_path).library.retired_products == ("Canvas Catalog", "Impact")
    with pytest.raises(SettingsError, match="not a list of product names"):
        Settings().changed(retired_products="Impact")
    assert LibraryPolicy().retired_products == ()


def _tables() -> list[Table]:
    rows = (Ref("ENC-01", '=HYPERLINK("http://x")', "Q1", 1, "k1"), Ref("#4", "<b>bold</b>", "a.xlsx", entry_id=4))
    figure = Figure("rows of =ENC", rows)
    return [
        Table("By source: [a]/b*?", "how", ("Rests on", "Rows"), (("=1+1", figure), ("none", Figure("empty", ())))),
        Table("By source: [a]/b*? again", "how", ("Text",), (("<script>alert(1)</script>",),)),
    ]


def test_the_xlsx_keeps_texts_as_texts_and_links_each_figure_to_its_rows():
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes("Report", "2026-06-01", _tables())))
    first, second = book.sheetnames[1:3]
    assert book.sheetnames[0] == "About" and book.sheetnames[-1] == "Figure rows"
    assert len(first) <= 31 and not re.search(r"[\[\]:*?/\\]", first + second) and first != second
    sheet = book[first]
    assert sheet["A2"].value == "=1+1" and sheet["A2"].data_type == "s"  # text, never a formula
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:B3"
    assert sheet["B2"].value == 2 and sheet["B2"].hyperlink.location == "'Figure rows'!A2"
    assert sheet["B3"].value == 0 and sheet["B3"].hyperlink is None
    lines = list(book["Figure rows"].iter_rows(min_row=2, values_only=True))
    assert lines == [
        ("rows of =ENC", "ENC-01", '=HYPERLINK("http://x")', "Q1"),
        ("rows of =ENC", "#4", "<b>bold</b>", "a.xlsx"),
    ]
    assert book["Figure rows"]["C2"].data_type == "s"


def test_the_html_is_escaped_self_contained_and_links_each_figure():
    page = html_text("Report <1>", "2026-06-01", _tables())
    assert "<script>" not in page and "&lt;script&gt;" in page and "Report &lt;1&gt;" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert '<a href="#f1">2</a>' in page and 'id="f1"' in page and "&lt;b&gt;bold&lt;/b&gt;" in page


def test_the_choice_and_the_text_rest_on_their_own_sources():
    """Issue #59, item 7: a choice another product gave with a text the model wrote rests on that
    product's past answer, its text on the model; a narrative several products answered alike rests
    on the company's shared text, named with the products."""
    from engine.review.reports.basis import text_basis_of

    entries = {("own.xlsx", "Q", 5): _entry(1, "own.xlsx", "Alpha")}
    worded = Citation("policy.pdf", SourceKind.PDF, "Keys rotate yearly.", AnchorLabel.VERIFIED, 99.0, 0.8, page=2)
    crossed = _draft(
        reused=True, from_product="Beta", answer="We encrypt everything.", citations=(_past("b.xlsx", "Beta"), worded)
    )
    assert basis_of(_item(crossed), entries, "Alpha").basis is Basis.OTHER_PRODUCT
    text = text_basis_of(_item(crossed), entries, "Alpha")
    assert text.basis is Basis.MODEL and text.source == "the model's wording (from policy.pdf, page 2)"
    company = _draft(
        reused=True, from_product="Beta", choice=None, answer="Instructure, Inc. was founded in 2008.",
        citations=(_past("b.xlsx", "Beta"), _past("g.xlsx", "Gamma")),
    )  # fmt: skip
    said = text_basis_of(_item(company), entries, "Alpha")
    assert said.basis is Basis.COMPANY_PAST and said.source == "the same in Beta, Gamma"
    bare = _draft(reused=True, from_product="Beta", answer="", citations=(_past("b.xlsx", "Beta"),))
    assert text_basis_of(_item(bare), entries, "Alpha").basis is Basis.NOTHING


def test_the_coverage_report_opens_with_its_summaries_and_ends_with_its_rows():
    from engine.review.reports.coverage import CoverageReport
    from storage.review_store import Project

    project = Project(1, "Q.xlsx", "q.xlsx", "0" * 64, "2026-01-01", "Alpha")
    report = CoverageReport(project, (), (), (), ())
    names = [t.name for t in report.tables()]
    assert names[0] == "By source" and names[1] == "Texts by source" and names[-1] == "Rows"
    rows = next(t for t in report.tables() if t.name == "Rows")
    assert rows.columns[3:7] == ("Rests on", "Source", "Text rests on", "Text source")
