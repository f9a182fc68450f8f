"""The hosting qualifier — HECVAT 3.x's QUAL-07 "Select your hosting option." (1) Self owned and
managed … 4) AWS, 5) Azure, 6) GCP, 7) Other) — answered from what the product's own documents
state, without the model.

Why not the model, nor another product's past answer: the option switches whole groups of rows
off (engine/questionnaire/qualifiers.py: "4) AWS" leaves the physical data-centre rows, 10 of a
HECVAT Full, not required), and another product's hosting is that product's (Parchment's "4) AWS"
comes with "AWS and Colocation", so a single other product's choice switches nothing off,
engine/drafting/cross_product.py). Left to those, Canvas Credentials' ten data-centre rows were
drafted although its vendor left them blank.

The rule. A statement (``explanation.is_statement``) of a company-wide or the product's own
document (never a third party's) that names the product, says it is hosted, and names one cloud
provider of :data:`PROVIDERS` — "Canvas Credentials is hosted by Amazon Web Services (AWS) …",
"Instructure's Learning Ecosystem, including Impact, is hosted in the cloud by Instructure and
delivered … through … Amazon Web Services (AWS)" — gives the option naming that provider, the
statement quoted word for word. Nothing is answered (the question is drafted as before) when the
statements name two providers, or when one naming the product says it is hosted otherwise too
(co-location, its own data centre, on premises: HECVAT's guidance then wants every option that
applies), or when no option names the provider. A statement that does not name the product is
not about it: Parchment's PCI AOC says "The system is hosted entirely within Amazon Web Services
(AWS)" of its payment application, while Parchment also runs a co-location (its vendor answered
the physical data-centre rows), so Parchment's hosting is not answered this way.

Measured on the 40 Instructure PDFs, scopes from their folders (``Drafter._stated`` on QUAL-07 per product):
Canvas Credentials "4) AWS" (its vendor's answer); Parchment not answered (its vendor: "4) AWS"
with "AWS and Colocation"); Impact, Canvas LMS, Mastery Connect "4) AWS" (no filled HECVAT Full to
compare); Canvas Catalog not answered (its PCI AOC's form lists "Physical space (co-location)"
among service types beside its name); Canvas Studio, Intelligent Insights: no statement. The draft is flagged like a regulated-data qualifier
(``Draft.stated``), listed in Review's "review first" queue, and the reviewer's answer switches
the sections back.
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
class Provider:
    """A cloud provider a hosting qualifier offers: its ``name``, how a statement names it
    (``named``) and how the qualifier's option does (``option``)."""

    name: str
    named: re.Pattern
    option: re.Pattern


PROVIDERS = (
    Provider("Amazon Web Services", re.compile(r"Amazon Web Services|\bAWS\b"), re.compile(r"\bAWS\b|amazon", re.I)),
    Provider("Microsoft Azure", re.compile(r"\bAzure\b"), re.compile(r"\bazure\b", re.I)),
    Provider("Google Cloud", re.compile(r"Google Cloud|\bGCP\b"), re.compile(r"\bGCP\b|google", re.I)),
)
ASKS = re.compile(r"\bhosting\b|\bhosted\b", re.I)  # "Select your hosting option.", "Where is the product hosted?"
_HOSTED = re.compile(r"\bhosted\b|\bhosts\b|\bhosting\b", re.I)
# hosted otherwise too: a co-location, its own data centre, on premises
_ELSEWHERE = re.compile(
    r"co-?locat|\bcolos?\b|on[- ]prem|self[- ](?:owned|hosted|managed)|(?:our|its) own data ?cent", re.I
)
# a denial of the hosting itself ("is not hosted by …"); "client data is not stored outside of a
# customer's region" beside "hosted" is no denial of it
_NOT_HOSTED = re.compile(r"\bnot\s+(?:be\s+|been\s+)?hosted\b|\bnever\s+(?:been\s+)?hosted\b", re.I)


def asks_hosting(question: str, options: Sequence[str]) -> bool:
    """A qualifier asking where the product is hosted, one of whose ``options`` names a provider."""
    return bool(ASKS.search(question)) and any(p.option.search(o) for p in PROVIDERS for o in options)


@dataclass(frozen=True)
class Hosting:
    """What the own documents state about where ``product`` is hosted: the ``provider`` and the
    chunks (score 1) holding the statements."""

    product: str
    provider: Provider
    stating: tuple[Hit, ...]

    def option(self, options: Sequence[str]) -> str | None:
        """The qualifier's option naming the provider (its own spelling); None when none does."""
        return next((o for o in options if self.provider.option.search(o)), None)

    def wanted(self, sentence: str) -> bool:
        """A sentence that may explain the option: a statement that the product is hosted by the provider."""
        return _hosting_statement(sentence, self.product) and bool(self.provider.named.search(sentence))

    @property
    def finding(self) -> str:
        """The draft's trust note."""
        return f"documents state it is hosted by {self.provider.name}"


def _hosting_statement(sentence: str, product: str) -> bool:
    return names_any(sentence, [product]) and bool(_HOSTED.search(sentence)) and is_statement(sentence)


def hosting_of(
    product: str,
    docs: Sequence[DocumentInfo],
    chunks: Callable[[str], Iterable],
    scope: ScopeFilter,
    other_products: Iterable[str],
) -> Hosting | None:
    """Where the company-wide and ``scope``'s product documents (never a third party's) say
    ``product`` is hosted, in statements naming it and none of ``other_products``; None when they
    say nothing, name two providers, or say it is hosted otherwise too (see the module docstring)."""
    others = tuple(other_products)
    by_provider: dict[str, tuple[Provider, list[Hit]]] = {}
    for d in docs:
        if not scope.allows(d.scope) or d.scope.third_party:
            continue
        for chunk in chunks(d.name):
            if product not in chunk.text:
                continue
            for s in sentences_of(chunk.text):
                if not _hosting_statement(s, product) or names_any(s, others):
                    continue
                if _ELSEWHERE.search(s) or _NOT_HOSTED.search(s):
                    return None  # hosted otherwise too, or a denial: for the responder to choose
                named = [p for p in PROVIDERS if p.named.search(s)]
                if len(named) == 1:
                    hits = by_provider.setdefault(named[0].name, (named[0], []))[1]
                    if not hits or hits[-1].chunk is not chunk:
                        hits.append(Hit(chunk, 1.0))
    if len(by_provider) != 1:
        return None
    provider, hits = next(iter(by_provider.values()))
    return Hosting(product, provider, tuple(hits))


__all__ = ["PROVIDERS", "Hosting", "Provider", "asks_hosting", "hosting_of"]
