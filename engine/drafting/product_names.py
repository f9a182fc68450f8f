"""Whether a text speaks for another product (issue #50, item 3): a company document's sentence
about one product ("We utilise a Web Application Firewall (WAF) for all Canvas instances",
"Canvas provides built-in multi-factor authentication") is not an explanation for a different
product, as another product's past answer never is (engine/drafting/cross_product.py), unless it
speaks of the company as a whole ("All Instructure products, including Canvas, …").

A product is named by its full name ("Canvas Studio") or by its first word alone ("Mastery" for
Mastery Connect, "Canvas" for Canvas LMS): a first word several products share names, alone, the
one whose other word is its kind's acronym ("Canvas LMS": the LMS) — "Canvas" is Canvas LMS, not
Canvas Credentials — and, when none is, every one of them (it cannot tell which, so it is not the
drafted product's). The drafted product's own full name is never another's ("Canvas Credentials
is hosted …" under Canvas Credentials).
"""

from __future__ import annotations

import re
from typing import Iterable

from engine.drafting.explanation_rules import names_any

BARE_MIN = 4  # a first word shorter than this ("Go", "My") is no product's name alone
# a sentence about every product of the company
_WHOLE_COMPANY = re.compile(
    r"\b(?i:all|every|each|any|across)\s+(?:of\s+)?(?:(?:our|its|the|[A-Z]\w+['’]s)\s+)?(?:\w+\s+)?"
    r"(?:products?|solutions?|platforms?|applications|offerings)\b|\b(?:our|its|[A-Z]\w+['’]s)\s+products\b"
)


def bare_names(products: Iterable[str]) -> dict[str, str | None]:
    """Each product's first word, alone, and the product it names (None: several, none of them surely)."""
    by_word: dict[str, list[str]] = {}
    for p in dict.fromkeys(products):
        words = p.split()
        if len(words) > 1 and len(words[0]) >= BARE_MIN and words[0][:1].isupper():
            by_word.setdefault(words[0], []).append(p)
    out: dict[str, str | None] = {}
    for word, named in by_word.items():
        kinds = [p for p in named if len(p.split()) == 2 and p.split()[1].isupper()]
        out[word] = named[0] if len(named) == 1 else kinds[0] if len(kinds) == 1 else None
    return out


def speaks_for_the_company(text: str) -> bool:
    """``text`` is about every product of the company ("all of our products", "Instructure's products")."""
    return bool(_WHOLE_COMPANY.search(text))


def names_another_product(text: str, others: Iterable[str], product: str | None = None) -> bool:
    """``text`` names a product of ``others`` (by its full name or its first word alone, module
    docstring) and is not about the company as a whole; ``product``: the one drafted for."""
    others = [o for o in others if o and o != product]
    if not others or speaks_for_the_company(text):
        return False
    masked = re.sub(rf"(?<!\w){re.escape(product)}(?!\w)", " ", text) if product else text
    if names_any(masked, others):
        return True
    bare = bare_names([*others, *([product] if product else [])])
    return any(owner != product and names_any(masked, [word]) for word, owner in bare.items())


__all__ = ["bare_names", "names_another_product", "speaks_for_the_company"]
