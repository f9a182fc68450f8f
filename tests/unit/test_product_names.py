"""Another product's sentences in a company document are never an explanation for a different
product, unless they speak of the company as a whole (engine/drafting/product_names.py, issue #50
item 3): the sentences are the Instructure Security Overview's and the architecture papers'."""

from __future__ import annotations

from engine.drafting.product_names import bare_names, names_another_product

PRODUCTS = [
    "Canvas LMS",
    "Canvas Studio",
    "Canvas Catalog",
    "Canvas Credentials",
    "Mastery Connect",
    "Parchment",
    "Impact",
]
WAF = "Web Application Firewall: We utilise a Web Application Firewall (WAF) for all Canvas instances."
MFA = (
    "As an extra layer of password security, Canvas provides built-in multi-factor authentication (MFA) "
    "functionality which can be enabled with one of three options."
)


def others(product: str) -> list[str]:
    return [p for p in PRODUCTS if p != product]


def test_a_first_word_alone_names_the_product_whose_other_word_is_its_kind():
    bare = bare_names(PRODUCTS)
    assert bare["Canvas"] == "Canvas LMS"  # "Canvas" is the LMS, not Canvas Credentials
    assert bare["Mastery"] == "Mastery Connect"
    assert "Parchment" not in bare  # a one-word name is its full name already


def test_another_products_sentence_is_refused_for_every_product_but_its_own():
    for product in ("Canvas Credentials", "Parchment", "Mastery Connect"):
        assert names_another_product(WAF, others(product), product), product
        assert names_another_product(MFA, others(product), product), product
    assert not names_another_product(WAF, others("Canvas LMS"), "Canvas LMS")  # Canvas LMS's own
    assert names_another_product("Mastery Connect integrates with SIS platforms.", others("Parchment"), "Parchment")


def test_the_drafted_products_own_name_and_the_whole_company_are_not_another_product():
    own = "Canvas Credentials is hosted on Amazon Web Services in the us-east-1 region."
    assert not names_another_product(own, others("Canvas Credentials"), "Canvas Credentials")
    assert names_another_product(own, others("Parchment"), "Parchment")  # another product's, for Parchment
    whole = "All Instructure products, including Canvas and Mastery Connect, are hosted on Amazon Web Services."
    assert not names_another_product(whole, others("Parchment"), "Parchment")
    company = "Instructure's products support centralized identity management through SAML 2.0."
    assert not names_another_product(company, others("Parchment"), "Parchment")
    assert not names_another_product("Data is encrypted at rest with AES-256.", others("Parchment"), "Parchment")
