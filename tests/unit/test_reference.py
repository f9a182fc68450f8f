"""A reference where the question asks for one (engine/drafting/reference.py, issue #50 item 2):
what is asked for, which section of a document is on it (its heading's words all the topic's),
how far the section runs, and what the answer says — on pages as PyMuPDF extracts them (a heading
on a line of its own, the date and page number at the page's edges), in the shape of Instructure's
Business Continuity & Disaster Recovery paper."""

from __future__ import annotations

from engine.core.types import Unit
from engine.drafting.reference import (
    find_section,
    opening_sentences,
    practice_first,
    reference_answer,
    reference_topic,
)

ASKS = {
    "Describe or provide a reference to your Disaster Recovery Plan (DRP).": "your Disaster Recovery Plan (DRP)",
    "Describe or provide a reference to how your disaster recovery plan is tested. (i.e., scope of DR tests, "
    "end-to-end testing, etc.)": "how your disaster recovery plan is tested",
    "Include documentation describing the systems' abilities to comply with the PCI DSS.": (
        "the systems' abilities to comply with the PCI DSS"
    ),
    "Please provide a copy of your incident response plan.": "your incident response plan",
    "Attach your most recent penetration test summary.": "your most recent penetration test summary",
}
ASKS_NOTHING = [
    "Do you have documentation to support the accessibility features of your product?",  # a Yes/No
    "Can the institution review your DRP and supporting documentation?",
    "Describe the architecture employed by the system to verify and authorize credit card transactions.",
]


def test_what_a_question_asks_a_reference_of():
    for question, topic in ASKS.items():
        assert reference_topic(question) == topic, question
    for question in ASKS_NOTHING:
        assert reference_topic(question) is None, question


def page(number: int, *lines: str) -> Unit:
    return Unit("\n".join(["November 2024", str(number), *lines]), page=number)


PAPER = [
    page(1, "Table of Contents", "Introduction 3", "Disaster Recovery 4"),
    page(
        2, "Introduction", "Business Continuity", "Instructure maintains a business continuity plan for every product."
    ),
    page(
        3,
        "Disaster Recovery",
        "In the SaaS space, some terms are used in a sense of their own.",
        "Instructure maintains a documented Disaster Recovery plan for all of its products.",
    ),
    page(4, "Disaster Recovery Procedures", "The Incident Commander declares a disaster and activates the plan."),
    page(5, "Load Balancers", "Load balancers spread traffic over several availability zones."),
    page(
        6,
        "Disaster Recovery Plan Testing",
        "We conduct annual table-top exercises which simulate the loss of a primary database.",
    ),
    page(7, "Conclusion", "Instructure takes recovery seriously."),
]


def test_the_section_on_the_topic_and_how_far_it_runs():
    dr = find_section("your Disaster Recovery Plan (DRP)", [("BCDR.pdf", PAPER)])
    # "Disaster Recovery" (every word in the topic), not "Disaster Recovery Plan Testing" ("Testing" is not)
    assert (dr.heading, dr.page, dr.last_page, dr.pages) == ("Disaster Recovery", 3, 4, "pp. 3–4")
    assert dr.label == "BCDR, pp. 3–4"  # the document's title is its file name
    tested = find_section("how your disaster recovery plan is tested", [("BCDR.pdf", PAPER)])
    assert (tested.heading, tested.pages) == ("Disaster Recovery Plan Testing", "p. 6")  # the most words
    # one word ("Recovery") names no section; a topic no heading is on has none
    assert find_section("your recovery", [("BCDR.pdf", PAPER)]) is None
    assert find_section("your logging and monitoring", [("BCDR.pdf", PAPER)]) is None


def test_the_answer_names_the_section_and_quotes_its_first_sentences():
    dr = find_section("your Disaster Recovery Plan (DRP)", [("BCDR.pdf", PAPER)])
    found = opening_sentences(dr, PAPER)
    assert found[0] == (3, "In the SaaS space, some terms are used in a sense of their own.")
    assert (4, "The Incident Commander declares a disaster and activates the plan.") in found
    assert all(3 <= p <= 4 for p, _ in found)  # never past the section
    said = [s for _, s in found[1:2]]
    assert reference_answer(dr, said) == (
        "Described in BCDR, pp. 3–4: Instructure maintains a documented Disaster Recovery plan for all of its products."
    )


def test_the_summary_says_what_the_company_does_before_an_exposition_of_terms():
    dr = find_section("your Disaster Recovery Plan (DRP)", [("BCDR.pdf", PAPER)])
    found = practice_first(opening_sentences(dr, PAPER), ["Impact", "Instructure"])
    assert found == [(3, "Instructure maintains a documented Disaster Recovery plan for all of its products.")]
    assert all("SaaS space" not in s for _, s in found)  # an exposition, while the section states a practice
