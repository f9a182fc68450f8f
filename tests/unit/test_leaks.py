"""The check for other products' identifying strings in drafts (engine/bench/leaks.py), with a
real answer library (all-MiniLM-L6-v2, SQLite) built from generated past questionnaires
(openpyxl): Parchment's (its people, e-mail addresses, phone, links), Canvas Studio's (the
target's own) and a company-wide CAIQ; and documents of a product, a third party and the company.
No draft is made here: the drafts checked are written by the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.leaks import (
    Source,
    build,
    contact_key,
    document_sources,
    library_sources,
    main,
    questionnaire_sources,
    site,
)
from engine.core.scopes import COMPANY, FolderScopes, Scope
from engine.index.library import AnswerLibrary
from tests.fixtures import write_pdf, write_questionnaire

GENERAL = [
    ("GNRL-01", "Vendor Name"),
    ("GNRL-02", "Product Name"),
    ("GNRL-06", "Vendor Contact Name"),
    ("GNRL-08", "Vendor Contact Email"),
    ("GNRL-09", "Vendor Contact Phone Number"),
    ("GNRL-04", "Web Link to Product Privacy Notice"),
    ("ENC-01", "Is customer data encrypted at rest?"),
]
ROWS = {  # row (from 4) → each file's answer text
    "Parchment": [
        "Parchment LLC",
        "Parchment Receive, Unified Inbox",
        "Erin Elliott",
        "erin.elliott@parchment.com",
        "480-719-1646",
        "https://www.parchment.com/privacy-policy/",
        "Yes — see https://status.parchment.com; new clients write info@instructure.com",
    ],
    "Canvas Studio": [
        "Instructure",
        "Canvas Studio",
        "See GNRL-08",
        "studio-help@instructure.com",
        "1.800.203.6755",
        "https://inst.bid/privacy",
        "Yes — new clients write info@instructure.com",
    ],
    "Instructure": ["Instructure", "", "", "", "", "inst.bid/privacy", "Yes — AES-256 everywhere."],
}


def past(folder: Path, name: str, product: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_questionnaire(
        folder / name, questions=GENERAL, comments={4 + i: text for i, text in enumerate(ROWS[product]) if text}
    )


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "Parchment": past(tmp_path / "Parchment", "Parchment HECVAT Full.xlsx", "Parchment"),
        "Canvas Studio": past(tmp_path / "Canvas Studio", "Canvas Studio HECVAT Lite.xlsx", "Canvas Studio"),
        "Instructure": past(tmp_path / "Instructure", "Instructure CAIQ.xlsx", "Instructure"),
    }


@pytest.fixture()
def library(tmp_path: Path, encoder, files):
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    for product, f in files.items():
        lib.import_file(f, product=None if product == "Instructure" else product)
    yield lib
    lib.close()


DOCUMENTS = [  # what a knowledge base holds: a product's, a third party's and the company's documents
    Source(
        "Impact by Instructure helps schools see which tools work. Contact impact-team@impactlabs.org.",
        Scope(("Impact",)),
        "Impact Architecture.pdf",
    ),
    Source(
        "Reports are at https://aws.amazon.com/artifact/ and https://aws.amazon.com/compliance/.",
        Scope(third_party="Amazon Web Services"),
        "AWS SOC 3.pdf",
    ),
    Source(
        "Risks are rated by impact and likelihood. Our hosting: AWS, see https://aws.amazon.com/compliance/.",
        COMPANY,
        "Instructure Security Overview.pdf",
    ),
]


def test_another_products_people_contacts_and_names_are_found_and_the_companys_are_not(library):
    check = build("Canvas Studio", library_sources(library.entries()) + DOCUMENTS, "Instructure")
    leaked = (
        "Ask Erin Elliott (erin.elliott@parchment.com, 480 719 1646) or feedback@parchment.com; "
        "see parchment.com/privacy-policy. Parchment LLC and Unified Inbox agree; so does Impact by Instructure."
    )
    found = {x.text: x for x in check.find(leaked)}
    assert {
        "Erin Elliott",
        "erin.elliott@parchment.com",
        "480 719 1646",
        "feedback@parchment.com",
        "parchment.com/privacy-policy",
        "Parchment LLC",
        "Unified Inbox",
        "Impact",
    } <= set(found)
    assert found["feedback@parchment.com"].whose == ("Parchment",)  # parchment.com is only Parchment's site
    assert all(x.other_product for x in found.values())
    # the company's and the target's own: company-wide sources, the target's answers, or two products' answers
    clean = (
        "Write info@instructure.com or studio-help@instructure.com, call 1.800.203.6755, see "
        "https://inst.bid/privacy. Instructure hosts Canvas Studio on AWS (https://aws.amazon.com/compliance/); "
        "risks are rated by Impact and Likelihood, and the business impact is assessed."
    )
    assert check.leaks(clean) == []
    # a third party's link no own source cites: a foreign contact, not another product's
    (aws,) = check.find("Reports: https://aws.amazon.com/artifact/")
    assert aws.contact and not aws.other_product and aws.whose == ("third party: Amazon Web Services",)
    figures = check.figures([("A-1", leaked), ("A-2", clean), ("A-3", "See https://aws.amazon.com/artifact/")])
    assert figures["other_product_mentions"]["rows"] == 1 and figures["other_product_mentions"]["ids"] == ["A-1"]
    assert figures["other_product_mentions"]["by_kind"] == {"product": 1, "person": 1, "contact": 1}
    assert figures["foreign_contacts"]["ids"] == ["A-1", "A-3"]
    assert len(figures["other_product_mentions"]["examples"]) == 5
    assert all(e.startswith("A-1: ") for e in figures["other_product_mentions"]["examples"])


def test_for_parchment_its_own_strings_are_no_leak_and_canvas_studios_are(library):
    check = build("Parchment", library_sources(library.entries()) + DOCUMENTS, "Instructure")
    assert check.leaks("Erin Elliott, erin.elliott@parchment.com, Parchment LLC, https://status.parchment.com") == []
    assert check.leaks("Write studio-help@instructure.com about Canvas Studio.") == [
        "Canvas Studio",
        "studio-help@instructure.com",
    ]
    assert check.leaks("info@instructure.com, inst.bid/privacy") == []  # two products' answers give them


def test_a_company_wide_draft_has_no_product_of_its_own(library):
    check = build(None, library_sources(library.entries()), "Instructure")
    assert set(check.leaks("Canvas Studio and Parchment LLC")) == {"Canvas Studio", "Parchment LLC"}


def test_the_files_give_the_same_check_as_the_library(library, files, tmp_path):
    from_library = build("Canvas Studio", library_sources(library.entries()), "Instructure")
    from_files = build("Canvas Studio", questionnaire_sources(files.values(), FolderScopes()), "Instructure")
    assert (from_files.names, from_files.people, from_files.contacts, from_files.sites) == (
        from_library.names,
        from_library.people,
        from_library.contacts,
        from_library.sites,
    )
    (tmp_path / "Amazon Web Services").mkdir()
    write_pdf(tmp_path / "Amazon Web Services" / "AWS SOC 3.pdf", ["Reports at https://aws.amazon.com/artifact/."])
    (doc,) = document_sources([tmp_path / "Amazon Web Services" / "AWS SOC 3.pdf"], FolderScopes())
    assert doc.scope == Scope(third_party="Amazon Web Services") and "aws.amazon.com/artifact" in doc.text


def test_contacts_compare_loosely():
    assert contact_key("https://www.Parchment.com/privacy-policy/") == ("link", "parchment.com/privacy-policy")
    assert contact_key("480-719-1646 ext 1017") == contact_key("(480) 719 1646") == ("phone", "4807191646")
    assert contact_key("1.800.203.6755")[1] == "8002036755"
    assert contact_key("Erin.Elliott@parchment.com.") == ("e-mail", "erin.elliott@parchment.com")
    assert site("e-mail", "a@mail.parchment.com") == site("link", "status.parchment.com/x") == "parchment.com"


def test_the_command_checks_the_drafts_a_run_wrote(files, tmp_path, capsys):
    drafts = tmp_path / "drafts.jsonl"
    lines = [
        {
            "target": "Canvas Studio HECVAT Lite.xlsx",
            "product": "Canvas Studio",
            "id": "ENC-01",
            "choice": "Yes",
            "answer": "Encrypted; ask erin.elliott@parchment.com.",
            "from_product": "Parchment",
            "past_answers": ["Parchment's HECVAT: Yes"],
            "confidence": 0.918,
            "trust": ["from another product (Parchment)"],
        },
        {
            "target": "Canvas Studio HECVAT Lite.xlsx",
            "product": "Canvas Studio",
            "id": "GNRL-04",
            "choice": None,
            "answer": "https://inst.bid/privacy",
        },
    ]
    drafts.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert main([str(drafts), "--library", *map(str, files.values())]) == 0
    (result,) = json.loads(capsys.readouterr().out)["targets"]
    assert result["other_product_mentions"]["examples"] == ["ENC-01: erin.elliott@parchment.com"]
    assert result["foreign_contacts"]["ids"] == ["ENC-01"]
    assert result["from_other_product"] == {"rows": 1, "labelled": 1, "ids": ["ENC-01"]}
    drafts.write_text("not json\n", encoding="utf-8")
    assert main([str(drafts)]) == 2 and "--drafts" in capsys.readouterr().err


def test_the_report_section_names_the_rows_and_what_they_hold():
    from engine.bench.rows import leaks_html, rows_html

    check = build(
        "Canvas Studio", [Source("Erin Elliott <erin@parchment.com>", Scope(("Parchment",)), "p.xlsx")], "Instructure"
    )
    figures = {
        **check.figures([("GNRL-08", "Write <erin@parchment.com>"), ("GNRL-09", "Call us.")]),
        "from_other_product": {"rows": 2, "labelled": 2, "ids": ["A", "B"]},
    }
    page = leaks_html(figures)
    assert ">Other products' names, people and contacts<" in page and "GNRL-08: erin@parchment.com" in page
    assert "2 rows took their choice from another product" in page
    assert leaks_html({}) == "" and "Other products'" not in rows_html({"row_types": {}})


def test_a_providers_sentence_must_name_the_provider_and_no_text_leaves_the_questions_script():
    """The evaluation's two checks over every drafted row (engine/bench/leaks.py): a text resting
    on a third party's quote that does not name it (nor its initials) is counted, one that names
    it is not; a text with letters of a script its question does not use is counted."""
    from engine.bench.leaks import out_of_script, third_party_unnamed

    def row(answer: str, third_party: str | None = "Amazon Web Services", label: str = "verified") -> dict:
        cite = {"third_party": third_party, "label": label}
        return {
            "id": "X-1",
            "status": "drafted",
            "question": "Is data encrypted?",
            "answer": answer,
            "draft": {"answer": answer, "citations": [cite]},
        }

    rows = [
        row("Data is encrypted at rest."),  # the provider's practice as the company's
        row("Amazon Web Services, the third-party provider, states: data is encrypted at rest."),
        row("AWS encrypts the volumes."),
        row("Data is encrypted at rest.", third_party=None),
        row("Data is encrypted at rest.", label="unverified"),  # not highlighted: not resting on it
    ]
    assert third_party_unnamed(rows) == {"rows": 1, "ids": ["X-1"]}
    assert out_of_script([row("Yes, encrypted 的通知")])["rows"] == 1
    assert out_of_script(rows)["rows"] == 0
