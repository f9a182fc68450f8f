"""A qualifier about regulated data — "Does your product process protected health information
(PHI)…?", "Is the vended product designed to process or store credit card information?" —
answered from what the company's and the product's own documents state, without the model.

Why not the model, nor another product's past answer: such a qualifier switches a whole section
off (HIPAA, PCI DSS), and neither source can say whether *this* product handles the data.

* The model, given the retrieved passages, answers Yes: Google's CAIQ describes Google's HIPAA
  and card-data controls, an AWS report AWS's, and "Yes, the vended product is designed to
  process or store credit card information" was drafted for Canvas Credentials from Google's
  CAIQ (its truth: No). From the documents alone the model almost never answers No.
* Another product's answer is that product's: Parchment takes card payments, Canvas Credentials
  does not (``engine/drafting/cross_product.py`` lets a single other product's qualifier choice
  switch nothing off for that reason).

A product that handles regulated data says so in its own documents (a questionnaire drafted for
no product, company-wide, is not answered this way: its "vended product" is every product): an Attestation of Compliance,
a PCI responsibility matrix, a paragraph on its payment gateways or on HIPAA. So: **Yes** when a
statement (engine/drafting/explanation.py ``is_statement``) of a company-wide or the product's own
document names the data (:data:`REGIMES`' ``states``) and names no other product and no third
party (a company overview's "Level 1 PCI service provider (for Canvas Catalog)" is Canvas
Catalog's; an architecture paper's "AWS … adheres to … PCI-DSS compliance" is AWS's); its
explanation is the statement closest to the question, quoted word for word. **No** when none does;
when a statement says the product does not handle the data ("Instructure does not store,
process, or transmit cardholder data."), it is quoted as the explanation. Third parties'
documents are not read: what they state is theirs.

Measured on the 40 Instructure PDFs, scopes from their folders (``/work/exp/regulated_proto.py``
then ``eval questionnaire``): Canvas Credentials (PHI No, card data No), Parchment (PHI No, card
data Yes: its AOC), Impact (PHI No, card data No: the vendor's answers quoted in issue #24) —
6 of 6 against the vendors' own answers. From the documents alone the model answered Yes to both
of Canvas Credentials' (truth: No / No); with the library, Parchment's single "Yes" gave Canvas
Credentials card data = Yes and Canvas Credentials' "No" gave Parchment card data = No. Six answers
are few: the draft is flagged (``Draft.stated``) and listed in Review's "review first" queue,
where the qualifiers come first, and the reviewer's answer switches the section back on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from engine.core.scopes import ScopeFilter
from engine.core.types import DocumentInfo, Hit
from engine.drafting.explanation import is_statement, sentences_of
from engine.drafting.explanation_rules import names_any


@dataclass(frozen=True)
class Regime:
    """A kind of regulated data a qualifier asks about: the ``section`` it governs, the data in
    words (``data``), the qualifier's wording (``asks``) and what a document states about the
    product handling the data (``states``)."""

    section: str
    data: str
    asks: re.Pattern
    states: re.Pattern


REGIMES = (
    Regime(
        "HIPAA",
        "health information (PHI, HIPAA)",
        re.compile(
            r"\bphi\b|\bhipaa\b|health (?:information|data|records)|health insurance portability", re.IGNORECASE
        ),
        re.compile(r"\bHIPAA\b|protected health information|\bPHI\b|business associate", re.IGNORECASE),
    ),
    Regime(
        "PCI DSS",
        "card data (cardholder data, credit cards, PCI DSS)",
        re.compile(r"credit card|cardholder|payment card|card data|\bpci\b", re.IGNORECASE),  # HECVAT 3/4, generic
        re.compile(
            r"cardholder|credit card|payment card|card data|\bPCI\b|payment gateway|payment processor", re.IGNORECASE
        ),
    ),
)


def regime_of(question: str) -> Regime | None:
    """The regulated data a qualifier's ``question`` asks about; None for any other qualifier."""
    return next((r for r in REGIMES if r.asks.search(question)), None)


def initials(name: str) -> str:
    """A several-word name's initials ("Amazon Web Services" → "AWS"); "" for one word."""
    words = [w for w in re.split(r"\W+", name) if w]
    return "".join(w[0] for w in words).upper() if len(words) > 1 else ""


def provider_names(name: str) -> tuple[str, ...]:
    """The ways a text names a third party: its name, initials and first word ("Amazon Web
    Services", "AWS", "Amazon"; "Google Cloud Platform", "GCP", "Google")."""
    first = next((w for w in re.split(r"\W+", name) if w), "")
    return tuple(n for n in dict.fromkeys((name, initials(name), first if len(first) > 3 else "")) if n)


# a statement that the product does not handle the data: "Instructure does not store, process,
# or transmit cardholder data."
_DENIAL = re.compile(r"\b(?:does|do|did|will|is|are|was|were|has|have|can|shall)\s+not\b|\bnever\b|n[’']t\b", re.I)


def denies(sentence: str) -> bool:
    """The sentence says something is not so ("does not store …", "never", "doesn't")."""
    return bool(_DENIAL.search(sentence))


@dataclass(frozen=True)
class Statements:
    """What the company's and the product's own documents state about ``regime``'s data: the
    chunks (score 1) holding a statement that the product handles it (``stating``), else those
    holding only statements that it does not (``denying``); ``read`` is how many own documents
    were read (0: nothing to answer from)."""

    regime: Regime
    stating: tuple[Hit, ...]
    denying: tuple[Hit, ...]
    read: int

    @property
    def choice(self) -> str:
        return "Yes" if self.stating else "No"

    @property
    def quoted(self) -> tuple[Hit, ...]:
        """The chunks the explanation is quoted from."""
        return self.stating or self.denying

    def wanted(self, sentence: str) -> bool:
        """A sentence that may explain the choice: it names the data, and denies it exactly when
        the choice is No."""
        return bool(self.regime.states.search(sentence)) and denies(sentence) != bool(self.stating)

    @property
    def finding(self) -> str:
        """The draft's trust note: "documents mention card data (…)", "documents say it does not
        handle card data (…)" or "no document mentions card data (…)"."""
        if self.stating:
            return f"documents mention {self.regime.data}"
        if self.denying:
            return f"documents say it does not handle {self.regime.data}"
        return f"no document mentions {self.regime.data}"


def own_statements(
    regime: Regime,
    docs: Sequence[DocumentInfo],
    chunks: Callable[[str], Iterable],
    scope: ScopeFilter,
    excluded: Iterable[str],
) -> Statements:
    """What the company-wide and ``scope``'s product documents (never a third party's) state
    about ``regime``'s data, in statements naming none of ``excluded`` (other products, third
    parties); ``chunks`` reads a document's chunks."""
    names = tuple(excluded)
    own = [d for d in docs if scope.allows(d.scope) and not d.scope.third_party]
    stating: list[Hit] = []
    denying: list[Hit] = []
    for d in own:
        for chunk in chunks(d.name):
            if not regime.states.search(chunk.text):
                continue
            said = [
                s
                for s in sentences_of(chunk.text)
                if regime.states.search(s) and is_statement(s) and not names_any(s, names)
            ]
            if any(not denies(s) for s in said):
                stating.append(Hit(chunk, 1.0))
            elif said:
                denying.append(Hit(chunk, 1.0))
    return Statements(regime, tuple(stating), tuple(denying), len(own))


def excluded_names(other_products: Iterable[str], third_parties: Iterable[str]) -> list[str]:
    """The names a statement about this product may not carry: the other products', the third
    parties' and their initials ("AWS")."""
    parties = list(third_parties)
    return [*other_products, *parties, *(i for i in map(initials, parties) if i)]


__all__ = [
    "REGIMES",
    "Regime",
    "Statements",
    "denies",
    "excluded_names",
    "initials",
    "provider_names",
    "own_statements",
    "regime_of",
]
