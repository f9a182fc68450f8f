"""The answer library with the real MiniLM encoder: importing generated filled questionnaires
(.xlsx, .csv and a PDF form) and the real Instructure ones, re-import, conflicts and retirement, reuse of a
near-identical past question, past answers as passages, the review recording approved answers,
and the ``library`` CLI."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pymupdf
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.config import EngineConfig
from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.drafter import Drafter
from engine.drafting.records import Draft
from engine.index.kb import KnowledgeBase
from engine.index.library import PASSAGE_SCORE, REUSE_SCORE, AnswerLibrary, LibraryImportError
from engine.questionnaire import QuestionnaireError, read_questionnaire
from engine.questionnaire.qualifiers import question_key
from storage.library_store import Origin
from storage.vector_store import release
from tests.fixtures import QuotingGenerator, RefusingGenerator, topic_pages, write_pdf, write_questionnaire
from tests.pdf_forms import CHECKBOX, TEXT, add_field, label, save

PAST = [
    ("ENC-01", "Is customer data encrypted at rest?"),
    ("BCK-02", "Are backups of the production databases encrypted?"),
    ("ACC-01", "Do employees use multi-factor authentication?"),
    ("VND-01", "Are third-party vendors reassessed every year?"),
]
ENC_ANSWER = "All customer data is encrypted at rest with AES-256 in every region."
BCK_ANSWER = "Nightly backups are encrypted with AES-256 and copied to a second region within the hour."


def past_book(path: Path, enc_choice: str = "yes", mfa_comment: str = "Single sign-on with MFA for everyone.") -> Path:
    """A filled questionnaire: three questions answered (ENC-01 spelled "yes"), VND-01 blank."""
    return write_questionnaire(
        path,
        answered={4: enc_choice, 5: "Yes", 6: "Yes"},
        questions=PAST,
        comments={4: ENC_ANSWER, 5: BCK_ANSWER, 6: mfa_comment},
    )


@pytest.fixture()
def library(tmp_path: Path, encoder) -> AnswerLibrary:
    lib = AnswerLibrary(tmp_path / "store", encoder)
    yield lib
    lib.close()


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    base = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    base.add([docs])
    yield base
    release(str(tmp_path / "kb" / "qdrant"))


def test_import_xlsx_and_csv_and_reimport_replaces(tmp_path, library):
    report = library.import_file(past_book(tmp_path / "past.xlsx"))
    assert (report.file, report.questions, report.entries, report.skipped, report.replaced) == ("past.xlsx", 4, 3, 1, 0)
    entries = library.entries()
    assert [(e.qid, e.row, e.choice) for e in entries] == [
        ("ENC-01", 4, "yes"),
        ("BCK-02", 5, "Yes"),
        ("ACC-01", 6, "Yes"),
    ]
    enc = entries[0]
    assert (enc.question, enc.answer, enc.file, enc.sheet) == (PAST[0][1], ENC_ANSWER, "past.xlsx", "Security")
    assert enc.origin is Origin.IMPORT and enc.imported == date.today().isoformat() and not enc.retired

    # the same file name again: its entries are replaced, not added to
    again = library.import_file(past_book(tmp_path / "past.xlsx", mfa_comment="Hardware keys for admins."))
    assert (again.entries, again.replaced) == (3, 3)
    assert len(library.entries()) == 3
    assert [e.answer for e in library.entries() if e.qid == "ACC-01"] == ["Hardware keys for admins."]

    # a CSV without dropdowns: a bare Yes/No answer is the choice, other text the answer
    csv = tmp_path / "answers.csv"
    csv.write_text(
        "ID,Question,Answer\nCSV-01,Do you run a bug bounty program?,No\n"
        "CSV-02,Who is your security officer?,Our CISO Jane Doe\nCSV-03,Is there a pen test each year?,\n",
        encoding="utf-8",
    )
    report = library.import_file(csv)
    assert (report.entries, report.skipped) == (2, 1)
    by_id = {e.qid: e for e in library.entries() if e.file == "answers.csv"}
    assert (by_id["CSV-01"].choice, by_id["CSV-01"].answer) == ("No", "")
    assert (by_id["CSV-02"].choice, by_id["CSV-02"].answer) == (None, "Our CISO Jane Doe")


def test_files_that_cannot_be_imported_say_why(tmp_path, library):
    blank = write_questionnaire(tmp_path / "blank.xlsx")
    with pytest.raises(LibraryImportError) as err:
        library.import_file(blank)
    assert err.value.file == "blank.xlsx" and "none of its 4 questions has an answer" in str(err.value)
    assert "filled questionnaire" in err.value.fix
    empty = tmp_path / "empty.xlsx"
    empty.write_bytes(b"")
    with pytest.raises(QuestionnaireError, match="empty.xlsx: is empty"):
        library.import_file(empty)
    with pytest.raises(QuestionnaireError, match="policy.pdf: is a flat PDF .* no questions were found"):
        library.import_file(write_pdf(tmp_path / "policy.pdf", ["text"]))  # a policy is no questionnaire
    with pytest.raises(QuestionnaireError, match="unsupported extension"):
        library.import_file(tmp_path / "answers.odt")
    assert library.entries() == []


def filled_form(path: Path) -> Path:
    """A PDF form filled in by a past vendor: two text fields named by their tooltips, a Yes box answered."""
    doc = pymupdf.open()
    page = doc.new_page()
    for y, (name, tip, value) in enumerate(
        [("ciso", "Name of your chief information security officer", "Jane Doe"),
         ("backups", "How long are backups of the production databases kept?", "Thirty-five days.")]
    ):  # fmt: skip
        add_field(page, TEXT, name, (300, 100 + 40 * y, 550, 116 + 40 * y), tooltip=tip, value=value)
    label(page, 50, 212, "Is customer data encrypted at rest?")
    add_field(
        page, CHECKBOX, "encrypted", (300, 200, 312, 212), tooltip="Is customer data encrypted at rest?", value=True
    )
    return save(doc, path)


def test_a_filled_pdf_form_is_imported_as_past_answers(tmp_path, library):
    report = library.import_file(filled_form(tmp_path / "past-form.pdf"))
    assert (report.file, report.questions, report.entries) == ("past-form.pdf", 3, 3)
    by_question = {e.question: (e.choice, e.answer) for e in library.entries()}
    assert by_question["Name of your chief information security officer"] == (None, "Jane Doe")
    assert by_question["How long are backups of the production databases kept?"] == (None, "Thirty-five days.")
    assert by_question["Is customer data encrypted at rest?"] == ("Yes", "")
    assert {e.sheet for e in library.entries()} == {"Form"}


def test_conflicts_retirement_and_matching(tmp_path, library):
    library.import_file(past_book(tmp_path / "a.xlsx"))
    # b.xlsx: ENC-01 answered No (a conflict); MFA answered Yes with other words (not a conflict);
    # the backup question answered No, reworded so that it stays a different question
    other = [PAST[0], ("BCK-09", "How long are backups of the production databases kept?"), PAST[2]]
    library.import_file(
        write_questionnaire(
            tmp_path / "b.xlsx",
            answered={4: "No", 5: "No", 6: "Yes"},
            questions=other,
            comments={6: "Every employee signs in with a hardware key."},
        )
    )
    (conflict,) = library.conflicts()
    assert conflict.question == PAST[0][1] and conflict.choices == {"yes": 1, "No": 1}
    assert sorted(e.file for e in conflict.entries) == ["a.xlsx", "b.xlsx"] and conflict.score >= REUSE_SCORE

    # matching: the exact question scores 1 on both parts; a related one stays below reuse
    best = library.match(PAST[0][1])[0]
    assert best.entry.qid == "ENC-01" and best.score == pytest.approx(1.0, abs=1e-4)
    assert best.dense == pytest.approx(1.0, abs=1e-4) and best.lexical == pytest.approx(1.0, abs=1e-4)
    related = library.match("Do you encrypt database backups?")[0]
    assert related.entry.qid == "BCK-02" and PASSAGE_SCORE <= related.score < REUSE_SCORE
    assert library.match("Do you encrypt database backups?", top_k=None, min_score=0.99) == []

    wrong = next(e for e in conflict.entries if e.file == "b.xlsx")
    library.retire(wrong.id)
    assert library.conflicts() == []
    assert all(h.entry.id != wrong.id for h in library.match(PAST[0][1], top_k=None))
    assert wrong.id not in {e.id for e in library.entries()}
    assert library.entry(wrong.id).retired and wrong.id in {e.id for e in library.entries(include_retired=True)}
    assert library.entry_at("b.xlsx", "Security", 4) == library.entry(wrong.id)  # a citation still finds it
    assert library.entry_at("b.xlsx", "Security", 99) is None and library.entry_at("c.xlsx", "Security", 4) is None
    # importing b.xlsx again keeps that answer retired
    library.import_file(
        write_questionnaire(
            tmp_path / "b.xlsx",
            answered={4: "No", 5: "No", 6: "Yes"},
            questions=other,
            comments={6: "Every employee signs in with a hardware key."},
        )
    )
    assert library.conflicts() == [] and len(library.entries()) == 5


def test_the_entries_are_read_again_when_the_library_changes_here_or_in_another_process(tmp_path, library):
    """The entries are kept between reads (a screen reads them several times a run) until the
    library changes: by this library, or by another process's (the CLI beside the app)."""
    library.import_file(past_book(tmp_path / "a.xlsx"))
    first, second, third = library.entries()
    other = AnswerLibrary(library.folder, library.encoder)  # another connection, as another process has
    other.retire(first.id, "Ana")
    assert [e.id for e in library.entries()] == [second.id, third.id]
    assert library.entries(include_retired=True)[0].retired
    library.retire(second.id, "Ben")
    assert [e.id for e in library.entries()] == [third.id]
    assert [e.id for e in other.entries()] == [third.id]
    other.close()


def test_an_exact_past_question_reuses_its_answer_without_the_llm(tmp_path, kb, library):
    library.import_file(past_book(tmp_path / "past.xlsx"))
    q = read_questionnaire(write_questionnaire(tmp_path / "new.xlsx")).questions[0]  # ENC-01, at rest
    draft = Drafter(kb, RefusingGenerator(), library=library).draft(q)
    assert draft.status is DraftStatus.DRAFTED and draft.reused
    assert (draft.answer, draft.choice) == (ENC_ANSWER, "Yes")  # "yes" in the workbook's spelling
    (cite,) = draft.citations
    assert cite.kind is SourceKind.LIBRARY and cite.label is AnchorLabel.VERIFIED and cite.quote == ENC_ANSWER
    assert cite.location.label() == "past answer: past.xlsx, sheet Security, row 4, ID ENC-01"
    assert cite.score == pytest.approx(100.0, abs=0.1)
    assert draft.to_json()["reused"] is True


def test_reuse_carries_how_the_near_identical_past_answers_chose(tmp_path, kb, library):
    """Two past files answer ENC-01 Yes, one No: the majority is reused, and the draft says
    they disagree (the Review screen warns; results.jsonl keeps the counts)."""
    library.import_file(past_book(tmp_path / "a.xlsx"))
    library.import_file(past_book(tmp_path / "b.xlsx", enc_choice="Yes"))
    library.import_file(past_book(tmp_path / "c.xlsx", enc_choice="No"))
    enc, bck = read_questionnaire(write_questionnaire(tmp_path / "new.xlsx", questions=PAST)).questions[:2]
    drafter = Drafter(kb, RefusingGenerator(), library=library)
    draft = drafter.draft(enc)
    assert draft.reused and draft.choice == "Yes" and draft.disputed
    assert draft.past_choices == {"yes": 2, "No": 1}  # spelled as first seen, most common first
    assert draft.to_json()["past_choices"] == {"yes": 2, "No": 1}
    assert Draft.from_stored(draft.key, draft.stored()).past_choices == {"yes": 2, "No": 1}
    agreed = drafter.draft(bck)  # BCK-02 is Yes in all three
    assert agreed.reused and agreed.past_choices == {"Yes": 3} and not agreed.disputed


def test_related_past_answers_are_passages_and_cited(tmp_path, kb, library):
    """QuotingGenerator is a stated fake LLM: it quotes the longest sentence of the first passage."""
    library.import_file(past_book(tmp_path / "past.xlsx"))
    book = write_questionnaire(
        tmp_path / "new.xlsx", questions=[("ENC-09", "Do you encrypt database backups?"), *PAST[2:]]
    )
    q = read_questionnaire(book).questions[0]
    drafter = Drafter(kb, QuotingGenerator(), library=library)
    passages = drafter.passages(q.text, [], library.match(q.text, min_score=PASSAGE_SCORE))
    assert [p.label for p in passages] == ["[1] past answer: past.xlsx, sheet Security, row 5, ID BCK-02"]
    draft = drafter.draft(q)
    assert draft.status is DraftStatus.DRAFTED and not draft.reused and draft.choice == "Yes"
    (cite,) = draft.citations
    assert cite.kind is SourceKind.LIBRARY and cite.label is AnchorLabel.VERIFIED
    assert cite.location.label() == "past answer: past.xlsx, sheet Security, row 5, ID BCK-02"
    shown = f"Yes — {BCK_ANSWER}"
    assert shown[cite.start : cite.end] == BCK_ANSWER or shown[cite.start : cite.end] == shown


def test_accepted_and_edited_answers_are_recorded_and_then_reused(tmp_path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    ws = Workspace(tmp_path / "ws", Settings())
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, EngineConfig(), encoder)
    ws.__dict__["generator"] = QuotingGenerator()  # a stated fake LLM: this test is about the review flow
    try:
        ws.kb.add([docs])
        book = write_questionnaire(tmp_path / "Customer questionnaire.xlsx")
        project, questionnaire = ws.add_questionnaire(book.name, book.read_bytes())
        q = questionnaire.questions[0]
        key = question_key(q)
        first = ws.regenerate(project.id, key)
        assert not first.reused and ws.library.entries() == []
        review = ws.review(project.id)
        review.accept(key)
        (entry,) = ws.library.entries()
        assert (entry.question, entry.choice, entry.answer) == (q.text, first.choice, first.answer)
        assert (entry.file, entry.sheet, entry.row, entry.qid) == (
            "Customer questionnaire.xlsx",
            "Security",
            4,
            "ENC-01",
        )
        assert entry.origin is Origin.REVIEW and entry.imported == date.today().isoformat()
        review.edit(key, "Encrypted with AES-256; keys in an HSM.", "Yes")
        (entry,) = ws.library.entries()  # the same question updates its entry
        assert entry.answer == "Encrypted with AES-256; keys in an HSM."
        again = ws.regenerate(project.id, key)
        assert again.reused and again.answer == entry.answer and again.choice == "Yes"
        assert ws.generator.calls == 1
    finally:
        release(str(ws.folder / "qdrant"))


def test_library_cli_round_trip(tmp_path, encoder, monkeypatch, capsys):
    import engine.cli.common as common
    import engine.cli.main as cli

    monkeypatch.setattr(common, "encoder", lambda args: encoder)  # the session's MiniLM, not a second load
    store = str(tmp_path / "store")
    a = past_book(tmp_path / "a.xlsx")
    b = write_questionnaire(tmp_path / "b.xlsx", answered={4: "No"}, questions=PAST[:3])
    blank = write_questionnaire(tmp_path / "blank.xlsx")

    assert cli.main(["library", "list", "--store", store]) == 0
    assert "no answer library" in capsys.readouterr().out
    assert cli.main(["library", "import", str(a), str(b), str(blank), "--store", store]) == 0
    out, err = capsys.readouterr()
    assert "imported: a.xlsx (3 entries of 4 questions, 1 unanswered skipped)" in out
    assert "imported: b.xlsx (1 entry of 3 questions, 2 unanswered skipped)" in out and "4 entries in" in out
    assert "error: blank.xlsx: none of its 4 questions has an answer" in err
    assert cli.main(["library", "import", str(blank), "--store", store]) == 1
    capsys.readouterr()

    assert cli.main(["library", "list", "--store", store, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(e["file"], e["qid"]) for e in listed] == [
        ("a.xlsx", "ENC-01"),
        ("a.xlsx", "BCK-02"),
        ("a.xlsx", "ACC-01"),
        ("b.xlsx", "ENC-01"),
    ]
    assert cli.main(["library", "check", "--store", store, "--json"]) == 0
    (conflict,) = json.loads(capsys.readouterr().out)
    assert conflict["choices"] == {"yes": 1, "No": 1}
    assert cli.main(["library", "check", "--store", store]) == 0
    assert "1 conflict among 4 entries" in capsys.readouterr().out

    wrong = listed[-1]["id"]
    assert cli.main(["library", "retire", str(wrong), "--store", store]) == 0
    assert f"retired #{wrong}" in capsys.readouterr().out
    assert cli.main(["library", "check", "--store", store]) == 0
    assert "0 conflicts among 3 entries" in capsys.readouterr().out
    assert cli.main(["library", "list", "--store", store, "--all"]) == 0
    assert "(retired)" in capsys.readouterr().out
    assert cli.main(["library", "retire", "999", "--store", store]) == 2
    assert "no library entry 999" in capsys.readouterr().err


def test_retire_product_cli_names_a_product_no_longer_sold_and_records_who_and_when(
    tmp_path, encoder, monkeypatch, capsys
):
    """``library retire-product`` sets the workspace's retired products (what the Knowledge base
    screen's Library health saves, and ``report library --retired-product`` reads) and records each
    change in ``library history`` with who and when; a name the library does not know, or an undo
    of a product not retired, is one line naming the choices, and nothing changes."""
    import engine.cli.common as common
    import engine.cli.main as cli

    monkeypatch.setattr(common, "encoder", lambda args: encoder)  # the session's MiniLM, not a second load
    folder = tmp_path / "store"
    store = ["--store", str(folder)]
    a = past_book(tmp_path / "a.xlsx")
    b = write_questionnaire(tmp_path / "b.xlsx", answered={4: "No"}, questions=PAST[:3])
    assert cli.main(["library", "import", str(a), "--product", "Canvas Catalog", *store]) == 0
    assert cli.main(["library", "import", str(b), "--product", "Impact", *store]) == 0
    capsys.readouterr()

    assert cli.main(["library", "retire-product", "canvas  catalog", *store, "--by", "Lee Lead"]) == 0
    out = capsys.readouterr().out
    assert "Canvas Catalog is retired (by Lee Lead): 3 entries still in use" in out
    assert "report library --retired-product" in out
    assert Settings.load(folder).library.retired_products == ("Canvas Catalog",)
    assert cli.main(["report", "library", "--retired-product", *store]) == 0
    out = capsys.readouterr().out
    assert "retired product Canvas Catalog: 3 entries" in out and "selected (retired product): 3 entries" in out

    for bad, why in (
        (["Blackboard"], "'Blackboard' is not a product of the answer library (Canvas Catalog, Impact)"),
        (["Impact", "--undo"], "'Impact' is not a retired product (Canvas Catalog)"),
    ):
        assert cli.main(["library", "retire-product", *bad, *store]) == 2
        assert why in capsys.readouterr().err
    assert Settings.load(folder).library.retired_products == ("Canvas Catalog",)  # unchanged

    assert cli.main(["library", "retire-product", "Canvas Catalog", "--undo", *store, "--by", "Ana Lead"]) == 0
    assert "Canvas Catalog is sold again (by Ana Lead)" in capsys.readouterr().out
    assert Settings.load(folder).library.retired_products == ()
    assert cli.main(["library", "history", *store, "--json"]) == 0
    wide = [c for c in json.loads(capsys.readouterr().out) if c["entry"] == 0]
    assert [(c["action"], c["detail"], c["by"]) for c in wide] == [
        ("retire-product", "Canvas Catalog", "Lee Lead"),
        ("restore-product", "Canvas Catalog", "Ana Lead"),
    ]
    assert all(date.fromisoformat(c["at"][:10]) == date.today() for c in wide)
    assert cli.main(["library", "history", *store]) == 0
    assert "library retire-product by Lee Lead: Canvas Catalog" in capsys.readouterr().out


# ---- the real filled questionnaires (../shared/data) ------------------------------------------------


def _answered_rows(jsonl: Path) -> int:
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sum(
        1 for r in rows if r["question"] and ((r.get("answer") or "").strip() or (r.get("comment") or "").strip())
    )


def test_real_filled_questionnaires_import(shared_data, tmp_path, encoder):
    from tests.integration.test_questionnaire_real import FILLED

    base = shared_data / "instructure"
    if not (base / "_extracted").is_dir():
        pytest.skip(f"{base}/_extracted is absent: no truth files for the filled questionnaires")
    library = AnswerLibrary(tmp_path / "store", encoder)
    for stem, (relative, _, _) in sorted(FILLED.items()):
        report = library.import_file(base / relative)
        assert report.entries == _answered_rows(base / "_extracted" / f"{stem}.jsonl"), stem
    assert len(library.entries()) == 1250
    # a HECVAT Lite question is asked, word for word, by the other Lite and Full questionnaires
    hits = library.match(
        "Do you have a dedicated Information Security staff or office?", top_k=None, min_score=REUSE_SCORE
    )
    assert len({h.entry.file for h in hits}) >= 6
    flagged = {e.qid for c in library.conflicts() for e in c.entries}
    assert "ITAC-04" in flagged  # the accessibility roadmap: No for most products, Yes for one
