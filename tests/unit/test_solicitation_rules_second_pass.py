"""The #57 second pass's rules, on a PDF this test writes: each sentence is one the family of
solicitations writes (the shared Hawaii and Fairfax RFPs hold their like); the test checks which
are requirements, of which kind and how mandatory, by the shredder's own judgement on the page."""

from __future__ import annotations

import pytest

from engine.questionnaire.solicitation import Kind, shred
from tests.solicitation_fixtures import write_pdf

SOW = [
    "1. SCOPE OF WORK",
    "Services include, but are not limited to:",
    " ",  # a blank line between, as the page has it
    "1.  Analysis and Research",
    " ",
    "Conducting in detail industry analysis and market research.",
    "The price will never increase for any reason without prior approval.",
    "These certified copies will be sent to the County from the Contractor's insurance agent.",
    "If the solution is hosted outside the County's network the County requires 24/7 access to all records.",
    "The County may require up to six separate computing environments for the solution.",
    "All source code developed under a given task order must remain the sole property of the County.",
]
CONDITIONS = [
    "2. GENERAL CONDITIONS",
    "A decision denying withdrawal of a bid submitted by a bidder shall be final and conclusive.",
    "No protest shall lie for a claim that the selected bidder is not a responsible bidder.",
    "The bidder may not institute legal action until all statutory requirements have been met.",
    "The County cannot maintain as confidential any records obtainable under the law.",
    "If a Contractor (i) fails to deliver goods on time; or (ii) fails to make replacements, then the",
    "Purchasing Agent shall have the authority to purchase in the open market.",
    "The bidder must abide by and comply with the true intent of the specifications.",
]
INSTRUCTIONS = [
    "3. PROPOSAL INSTRUCTIONS",
    "HTDC will only evaluate one application per company.",
    "List any pending litigation. If none, so state.",
    "Fully loaded rates shall include overhead cost, administrative fees and travel.",
    "Senior Level professionals should have a minimum of five (5) years relevant work experience.",
    "No attempt shall be made by any offeror to contact members of the Selection Advisory Committee.",
]


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    pdf = write_pdf(tmp_path_factory.mktemp("second") / "rfp.pdf", [SOW, CONDITIONS, INSTRUCTIONS])
    return {r.quote: r for r in shred([pdf]).requirements}


def test_obligations_the_second_pass_finds(found: dict) -> None:
    task = found["Conducting in detail industry analysis and market research."]
    assert task.kind is Kind.WORK and task.mandatory  # the description under a work item's title
    assert found["The price will never increase for any reason without prior approval."].mandatory
    sent = "These certified copies will be sent to the County from the Contractor's insurance agent."
    assert found[sent].mandatory  # handed to the buyer: the contractor's act
    hosted = "If the solution is hosted outside the County's network the County requires 24/7 access to all records."
    assert found[hosted].mandatory
    assert (
        found["The County may require up to six separate computing environments for the solution."].mandatory is False
    )
    code = "All source code developed under a given task order must remain the sole property of the County."
    assert found[code].kind is Kind.TERMS  # data rights; its head is the code, not the order


def test_framework_remedies_and_the_buyers_cannot_are_left_out(found: dict) -> None:
    quotes = " ".join(found)
    for words in (
        "shall be final and conclusive",
        "No protest shall lie",
        "may not institute legal action",
        "cannot maintain",
    ):
        assert words not in quotes, words


def test_alternative_conditions_are_one_sentence(found: dict) -> None:
    assert not any(q.startswith("fails to") for q in found)  # "(i) fails … or (ii) fails …" is not split


def test_kinds_of_the_second_pass(found: dict) -> None:
    assert found["HTDC will only evaluate one application per company."].kind is Kind.SUBMISSION
    assert found["If none, so state."].kind is Kind.SUBMISSION
    rates = "Fully loaded rates shall include overhead cost, administrative fees and travel."
    assert found[rates].kind is Kind.SUBMISSION  # the price proposal's content
    senior = "Senior Level professionals should have a minimum of five (5) years relevant work experience."
    assert found[senior].kind is Kind.WORK and found[senior].mandatory is False  # staffing during performance
    contact = "No attempt shall be made by any offeror to contact members of the Selection Advisory Committee."
    assert found[contact].kind is Kind.SUBMISSION
    abide = "The bidder must abide by and comply with the true intent of the specifications."
    assert found[abide].kind is Kind.TERMS
