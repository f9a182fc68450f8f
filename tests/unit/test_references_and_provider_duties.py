"""Issue #59, items 2 and 4, on the real rows and PDFs of ../shared/data/instructure:

* a Yes/No row whose guidance asks for a reference to a documented plan (the HECVAT's QUAL-03 and
  QUAL-04: "Do you have a well-documented Business Continuity Plan (BCP) that is tested
  annually?") has the plan as its topic (engine/drafting/reference.py ``documented_topic``), and the
  company's BC/DR paper has the section on it;
* a provider's sentence about what its customers must do ("Customers are responsible for
  establishing documented policies … with third-party entities", GCP's SOC 3, under "Will
  institutional data be shared with or hosted by any third parties?") is no explanation
  (engine/drafting/explanation_rules.py ``customers_duty``): it is the company's duty, not the
  provider's practice."""

from __future__ import annotations

import json
import re

import pytest

from engine.core.types import Unit
from engine.drafting.explanation_rules import customers_duty
from engine.drafting.reference import documented_topic, find_section, names_topic, opening_sentences


def _rows(shared, name: str) -> dict[str, dict]:
    path = shared / "instructure" / "_extracted" / name
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def _pages(path) -> list[Unit]:
    fitz = pytest.importorskip("fitz")
    with fitz.open(path) as pdf:
        return [Unit(p.get_text(), page=i) for i, p in enumerate(pdf, 1)]


def test_the_documented_plans_of_the_qualifiers_are_their_references_topics(shared_data):
    rows = _rows(shared_data, "Canvas_Credentials_HECVAT_Full.jsonl")
    # the guidance asks for a reference; the drafter reads the question
    assert rows["QUAL-03"]["guidance"].startswith("Provide a reference to your BCP")
    assert documented_topic(rows["QUAL-03"]["question"]) == "Business Continuity Plan (BCP)"
    assert documented_topic(rows["QUAL-04"]["question"]) == "Disaster Recovery Plan (DRP)"
    paper = shared_data / "instructure" / "Instructure" / "Instructure Business Continuity & Disaster Recovery.pdf"
    units = _pages(paper)
    for qid in ("QUAL-03", "QUAL-04"):
        section = find_section(documented_topic(rows[qid]["question"]) or "", [(paper.name, units)])
        assert section is not None, qid
        assert section.title == "Instructure Business Continuity & Disaster Recovery"


def test_questions_about_no_documented_plan_have_no_topic(shared_data):
    rows = _rows(shared_data, "Canvas_Credentials_HECVAT_Full.jsonl")
    assert documented_topic(rows["BCPL-01"]["question"]) is None  # an owner of the plan, not the plan
    assert documented_topic("Is customer data encrypted at rest?") is None


def test_a_providers_customers_duties_are_never_its_practice(shared_data):
    soc3 = shared_data / "instructure" / "Google Cloud Platform" / "GCP SOC 3.pdf"
    text = " ".join(" ".join(u.text for u in _pages(soc3)).split())
    sentences = re.split(r"(?<=[.])\s+(?=[A-Z])", text)
    duties = [s for s in sentences if customers_duty(s)]
    assert any(s.startswith("Customers are responsible for establishing") for s in duties)
    # what Google does stays a candidate
    said = [s for s in sentences if s.startswith("Google ") and not customers_duty(s)]
    assert said
    assert not customers_duty("Customer data is encrypted at rest.")
    assert not customers_duty("Customers can choose the region where their data is stored.")
    assert customers_duty("User entities should ensure that access is reviewed.")


def test_a_references_sentences_name_the_plan_asked_about(shared_data):
    """QUAL-03 drafted for Canvas Credentials and Parchment (2026-12-02, read by hand): the Business
    Continuity section's second sentence is the incident response plan ("… (read: angry panda)."),
    another plan; the reference keeps the sentences naming the one asked about (``names_topic``)."""
    rows = _rows(shared_data, "Canvas_Credentials_HECVAT_Full.jsonl")
    topic = documented_topic(rows["QUAL-03"]["question"]) or ""
    paper = shared_data / "instructure" / "Instructure" / "Instructure Business Continuity & Disaster Recovery.pdf"
    units = _pages(paper)
    section = find_section(topic, [(paper.name, units)])
    assert section is not None
    said = [" ".join(s.split()) for _, s in opening_sentences(section, units)]
    plan = next(s for s in said if s.startswith("To help strengthen our Business Continuity Plan"))
    other = next(s for s in said if "incident response plan" in s)
    assert names_topic(plan, topic)
    assert not names_topic(other, topic)
    # the disaster recovery plan's own sentences name it (QUAL-04, DRPL-09's second sentence)
    assert names_topic("The primary assumption of our disaster recovery plan is …", "Disaster Recovery Plan (DRP)")
    assert names_topic(
        "We conduct annual table-top exercises … the aftermath of a natural or human-made disaster.",
        "how your disaster recovery plan is tested",
    )
    assert names_topic("Anything at all.", "your policies")  # a topic of kind words only: no bar
