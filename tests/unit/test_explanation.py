"""The explanation taken word for word from the documents (engine/drafting/explanation.py), with
the real all-MiniLM-L6-v2: a statement, not a question, a control's requirement or a table of
contents; the company's own sentence before a third party's; nothing under the threshold."""

from __future__ import annotations

from engine.core.types import Chunk, Hit, SourceKind
from engine.drafting.explanation import EXPLANATION_MIN, best_sentence, is_statement, sentences_of, shown

QUESTION = "Do you encrypt customer data at rest?"


def hit(doc: str, text: str, score: float = 1.0) -> Hit:
    return Hit(Chunk(doc, "h" + doc, 0, SourceKind.TEXT, text, 0, len(text)), score)


def test_only_statements_are_candidates():
    assert is_statement("Customer data is encrypted at rest with AES-256.")
    assert not is_statement("Is customer data encrypted at rest with AES-256?")  # a questionnaire's question
    assert not is_statement("CEK-03 Provide cryptographic protection to data at-rest and in-transit.")
    assert not is_statement("Encryption at rest ........................ 12")  # a table of contents
    assert not is_statement("Encryption at rest")  # a heading
    assert shown("• Data is\n encrypted   at rest with AES-256.") == "Data is encrypted at rest with AES-256."


def test_the_companys_own_sentence_comes_before_a_third_partys(encoder):
    q = encoder.encode_query(QUESTION)
    own = hit("policy.md", "# Encryption\nCustomer data is encrypted at rest with AES-256.\n\nOffices close at 6 pm.")
    aws = hit("aws-soc3.pdf", "AWS encrypts customer data at rest with AES-256 in every region.")
    third = {"aws-soc3.pdf": "Amazon Web Services"}.get
    # the order is the subject here, not the relevance test's bar (0.72 and 0.62 with the question): the plain bar
    got = best_sentence(q, [aws, own], encoder, third, minimum=EXPLANATION_MIN)
    assert got is not None and got.hit is own
    assert got.text == "Customer data is encrypted at rest with AES-256."  # the heading line is not part of it
    assert got.quote in own.chunk.text and got.support >= EXPLANATION_MIN
    # no own sentence speaks to it: the third party's, which the draft then flags
    alone = best_sentence(
        q, [aws, hit("policy.md", "Offices close at 6 pm on Fridays.")], encoder, third, minimum=EXPLANATION_MIN
    )
    assert alone is not None and alone.hit is aws
    # by the relevance test, AWS's sentence (0.62) is under the bar a documents' sentence needs without past answers
    assert best_sentence(q, [aws], encoder, third) is None


def test_nothing_that_does_not_speak_to_the_question(encoder):
    q = encoder.encode_query("Does your product store, process or transmit payment card data?")
    # 0.42 with MiniLM: about customer data, not card data
    policy = hit("policy.md", "Customer data is encrypted at rest with AES-256 in every database.")
    assert best_sentence(q, [policy], encoder, lambda doc: None) is None
    assert best_sentence(q, [], encoder, lambda doc: None) is None


def test_a_sentence_naming_another_product_is_never_taken(encoder):
    q = encoder.encode_query("Are you compliant with the Payment Card Industry Data Security Standard (PCI DSS)?")
    overview = hit(
        "overview.pdf",
        "Certifications November 2024 6 • Level 1 service provider under the Payment Card Industry (PCI) "
        "Data Security Standard (DSS) (for Canvas Catalog)\n\nPayment card data is handled under PCI DSS by our processor.",
    )
    got = best_sentence(q, [overview], encoder, lambda doc: None, other_products={"Canvas Catalog", "Parchment"})
    assert got is not None and "Canvas Catalog" not in got.text
    assert got.text == "Payment card data is handled under PCI DSS by our processor."
    # the list item is a sentence of its own (the page footer left before it), but without a verb it is a
    # label, never an explanation (#50), even with no other product named
    footer = overview.chunk.text.split("\n\n")[0]
    assert sentences_of(footer)[-1].startswith("Level 1 service provider")
    assert best_sentence(q, [hit("overview.pdf", footer)], encoder, lambda doc: None) is None


def test_a_pdfs_page_number_and_heading_lines_are_not_part_of_the_sentence():
    """PyMuPDF's text of a page's top: the page number, the chapter and the section heading, each
    on its own line, run into the first sentence; a sentence wrapped after a few words keeps them."""
    page_top = "4 \nArchitecture \nHosting \nCanvas Credentials is hosted by Amazon Web Services (AWS) in two regions."
    assert sentences_of(page_top) == ["Canvas Credentials is hosted by Amazon Web Services (AWS) in two regions."]
    assert sentences_of("Canvas Credentials is \nhosted by AWS in two regions.") == [
        "Canvas Credentials is \nhosted by AWS in two regions."
    ]
    assert sentences_of("The AWS \nCloud holds the backups in two regions.") == [
        "The AWS \nCloud holds the backups in two regions."
    ]
