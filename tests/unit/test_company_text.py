"""What several products answered in the same words is the company's answer (issue #59,
engine/drafting/company_text.py), on the real rows of the shared HECVATs: the past answers are the
vendor's own texts from ``_extracted/*.jsonl``, each under its product, as the library holds them
(near-identical questions: the same question text in every file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.drafting.company_text import company_text, names_a_product, origin_line, speaks_of_the_company, units
from engine.index.library import LibraryHit
from storage.library_store import LibraryEntry, Origin

PRODUCTS = {
    "Canvas_Catalog": "Canvas Catalog",
    "Canvas_Credentials": "Canvas Credentials",
    "Canvas_Studio": "Canvas Studio",
    "Elevate_Standards_Alignment": "Elevate Standards Alignment",
    "Intelligent_Insights": "Intelligent Insights",
    "LearnPlatform": "LearnPlatform",
    "Mastery_Connect": "Mastery Connect",
    "Parchment": "Parchment",
}
# the company's other products, named by the documents' folders
ALL = [*PRODUCTS.values(), "Canvas LMS", "Impact"]
BACKGROUND = "Describe your organization’s business background and ownership structure"
ENVIRONMENT = "Use this area to share information about your environment"
THIRD_PARTIES = "Provide a brief description for why each of these third parties will have access"


def _near(shared: Path, opening: str, target: str) -> list[LibraryHit]:
    """The other products' past answers to the question that opens so (the target's left out)."""
    hits = []
    for path in sorted((shared / "instructure" / "_extracted").glob("*HECVAT*.jsonl")):
        product = next(p for key, p in PRODUCTS.items() if path.stem.startswith(key))
        if product == target:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["question"].startswith(opening) and row["answer"].strip():
                entry = LibraryEntry(
                    0, row["question"], None, row["answer"], None, path.name, "s", 1, row["id"], "2024-12-01",
                    Origin.IMPORT, product=product,
                )  # fmt: skip
                hits.append(LibraryHit(entry, 0.95, 0.95, 0.95))
    return hits


@pytest.fixture(scope="module")
def instructure(shared_data) -> Path:
    return shared_data


def test_the_business_background_seven_products_share_is_reused_for_parchment(instructure):
    found = company_text(_near(instructure, BACKGROUND, "Parchment"), ALL)
    assert found is not None
    assert len(found.products) == 7 and "Parchment" not in found.products
    assert found.text.startswith("Instructure, Inc. was founded in 2008")
    # the company's history names Canvas: the sentence stays
    assert "The outcome was Canvas, a ground-breaking LMS" in found.text
    # a link is one product's contact, not the company's: its sentence is left out, its paragraph break kept
    assert "inst.bid" not in found.text and "please visit" not in found.text
    assert "digital education strategy.\n\nInstructure is the parent company" in found.text
    assert "•  Instructure Hungary Kft" in found.text
    assert found.differing == ()
    assert origin_line(found.products).startswith("The same in 7 products' past answers: ")


def test_the_environment_text_keeps_the_company_and_leaves_each_products_features_out(instructure):
    """Canvas Credentials' Full left out: three Lites share the security programme's sentences;
    each names its own product where it speaks of its hosting and its compliance package, and
    Parchment's answer shares nothing."""
    found = company_text(_near(instructure, ENVIRONMENT, "Canvas Credentials"), ALL)
    assert found is not None
    assert set(found.products) == {"Elevate Standards Alignment", "Intelligent Insights", "LearnPlatform"}
    assert found.text.startswith("Instructure has a robust information security program")
    assert "Canvas" not in found.text and "Intelligent Insights" not in found.text and "LearnPlatform" not in found.text
    # AWS's certifications followed the sentence about the product's hosting: they go with it
    assert "Some of the many certifications include" not in found.text and "FedRAMP" not in found.text
    assert "\ufeff" not in found.text
    assert found.differing == ("Parchment",)


def test_two_products_in_different_words_make_no_company_text(instructure):
    """Why third parties have access: only the two Fulls answer it, in different words."""
    near = _near(instructure, THIRD_PARTIES, "Canvas Studio")
    assert {h.entry.product for h in near} == {"Canvas Credentials", "Parchment"}
    assert company_text(near, ALL) is None


def test_one_products_text_is_that_products(instructure):
    near = [h for h in _near(instructure, BACKGROUND, "Parchment") if h.entry.product == "Canvas Catalog"]
    assert company_text(near, ALL) is None


def test_a_product_named_for_its_features_is_not_the_company_speaking():
    assert names_a_product("Canvas provides built-in multi-factor authentication.", ALL)
    assert not speaks_of_the_company("Canvas provides built-in multi-factor authentication.")
    assert speaks_of_the_company("The outcome was Canvas, a ground-breaking LMS that officially launched in 2011.")
    assert speaks_of_the_company("All Instructure products, including Canvas, are hosted in AWS.")


def test_a_list_stays_with_its_lead_in():
    text = (
        "Our subsidiaries include:\n\n•  Instructure Global Limited (UK)\n•  Instructure Hungary Kft\n\nWe are private."
    )
    parts = [u.text for u in units(text)]
    assert parts[0].startswith("Our subsidiaries include:") and parts[0].endswith("Hungary Kft")
    assert parts[1] == "We are private."
