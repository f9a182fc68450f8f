"""Which qualifiers ask about regulated data (engine/drafting/regulated.py), in HECVAT 3.x's,
HECVAT 4.x's and generic wording, and which names a statement about this product may not carry."""

from __future__ import annotations

from engine.drafting.regulated import denies, excluded_names, initials, regime_of


def test_regulated_qualifiers_are_known_by_their_words_and_others_are_not():
    asks = {
        "Does your product process protected health information (PHI) or any data covered by the Health "
        "Insurance Portability and Accountability Act?": "HIPAA",  # HECVAT 3.x QUAL-01
        "Does your solution process protected health information (PHI) or any data covered by the Health "
        "Insurance Portability and Accountability Act": "HIPAA",  # HECVAT 4.x REQU-05
        "Do you store health records? If No, skip to 5.": "HIPAA",
        "Is the vended product designed to process or store credit card information?": "PCI DSS",  # QUAL-05
        "Is the solution designed to process, store, or transmit credit card information?": "PCI DSS",  # REQU-06
        "Do you have a health and safety program?": None,
        "Does your company provide professional services pertaining to this product?": None,
        "Select your hosting option.": None,
    }
    for question, section in asks.items():
        regime = regime_of(question)
        assert (regime.section if regime else None) == section, question


def test_a_third_partys_initials_are_excluded_with_its_name():
    assert initials("Amazon Web Services") == "AWS" and initials("Google Cloud Platform") == "GCP"
    assert initials("Salesforce") == ""
    assert excluded_names(["Canvas Catalog"], ["Amazon Web Services", "Salesforce"]) == [
        "Canvas Catalog",
        "Amazon Web Services",
        "Salesforce",
        "AWS",
    ]


def test_a_denial_is_told_from_a_statement():
    assert denies("Instructure does not store, process, or transmit cardholder data.")
    assert denies("Card numbers are never stored; we don't keep them.")
    assert not denies("Parchment customers enter their credit card information on the website.")
    assert not denies("Canvas Catalog is compliant with PCI DSS as demonstrated by its SAQ D.")
