"""Qualifiers on the vendor's own filled HECVATs and on the blank HECVAT 4.1.4 in ../shared/data
(skipped when absent): with the vendor's qualifier answers, the rows it left blank because of a
qualifier are recognised as not required, and no row it answered is switched off."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bench.gated import measure
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import QualifierSource, _from_formulas, _from_template, find_qualifiers

FULL = ["Canvas Credentials/Canvas Credentials HECVAT Full.xlsx", "Parchment/Parchment HECVAT Full - All Products.xlsx"]
LITE = [
    "Canvas Catalog",
    "Canvas Studio",
    "Elevate Standards Alignment",
    "Intelligent Insights",
    "LearnPlatform",
    "Mastery Connect",
]


@pytest.mark.parametrize("relative", FULL)
def test_hecvat_full_rows_left_blank_by_a_qualifier_are_not_required(shared_data: Path, relative):
    fig = measure(shared_data / "instructure" / relative)
    assert fig.qualifiers == 9 and fig.wrongly_off == 0  # QUAL-01…07, and CONS-06/08's "No need to answer …"
    assert fig.recognised / fig.blank_gated >= 0.95
    if relative.startswith("Canvas"):  # QUAL-01 No, QUAL-05 No, QUAL-07 "4) AWS", CONS-08 No: 29 + 12 + 10 + 1
        assert fig.recognised == fig.blank_gated == 52
    else:  # Parchment: QUAL-05 Yes (PCI answered); QUAL-07 "4) AWS" with "AWS and Colocation": every DCTR row on
        assert not any(i.startswith(("PCID", "DCTR")) for i in fig.off_ids)


@pytest.mark.parametrize("product", LITE)
def test_hecvat_lite_has_no_qualifiers_and_switches_nothing_off(shared_data: Path, product):
    fig = measure(shared_data / "instructure" / product / f"{product} HECVAT Lite.xlsx")
    assert fig.qualifiers == 0 and fig.wrongly_off == 0 and not fig.off_ids


def test_hecvat_414_requ_questions_govern_tabs_and_sections(shared_data: Path):
    q = read_questionnaire(shared_data / "hecvat_blank/HECVAT414.xlsx")
    quals = {x.section: x for x in find_qualifiers(q)}
    assert {x.id for x in quals.values()} == {f"REQU-0{i}" for i in range(1, 9)}
    assert all(x.source is QualifierSource.FORMULAS for x in quals.values())  # read from the workbook's formulas
    assert len(quals["HIPAA section"].governs) == 29 and len(quals["PCI-DSS section"].governs) == 12
    assert len(quals["IT Accessibility worksheet"].governs) == 18
    ai = quals["Artificial Intelligence (AI) worksheet"]  # the AI tab and the Privacy tab's AI rows
    assert len(ai.governs) == 39 and sum(i.startswith("DPAI-") for i in ai.governs_ids) == 8
    assert len(quals["Product and Infrastructure worksheets"].governs) == 92


def test_hecvat_414_formulas_and_the_declared_map_agree(shared_data: Path):
    """The map read from HECVAT 4.1.4's formulas at run time and the declared fallback govern
    the same rows for every REQU question."""
    q = read_questionnaire(shared_data / "hecvat_blank/HECVAT414.xlsx")
    read = {x.id: set(x.governs) for x in _from_formulas(q)}
    declared: dict[str, set[str]] = {}
    for x in _from_template(list(q.questions)):
        declared.setdefault(x.id, set()).update(x.governs)
    assert read == declared and len(read) == 8
