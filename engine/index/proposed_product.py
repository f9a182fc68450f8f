"""The product a questionnaire is proposed for when it is added, before anyone picks one (the
Questionnaire screen preselects it and says why): the product its file name names ("Canvas
Credentials HECVAT Full.xlsx" → Canvas Credentials), else the only product its
general-information rows name (the answers of its "Product Name" and "Product Description"
rows, found by their wording: engine/index/profile.py ``fact_key``; the name row first).

Names are matched as whole words, without case, with ``_``, ``-`` and other punctuation read as
spaces ("Canvas_Credentials_HECVAT_Full.xlsx" names Canvas Credentials). Where one name holds
another ("Canvas LMS" and "Canvas"), the longer wins. Two products named apart, or none, is no
proposal: a wrong product would draft from another product's documents, so the responder picks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from engine.index.profile import fact_key
from engine.questionnaire import Question, Questionnaire

NAME_ROWS = ("product_name", "product_description")  # the general-information rows that name the product
FILE_NAME = "named in the file name"


@dataclass(frozen=True)
class ProductProposal:
    """``product`` (one of the workspace's products) and why it is proposed, in words that end a
    sentence such as "Proposed: …" ("named in the file name")."""

    product: str
    reason: str


def proposed_product(
    file_name: str, questionnaire: Questionnaire | None, products: Iterable[str]
) -> ProductProposal | None:
    """The product ``file_name`` names, else the only one the general-information rows of
    ``questionnaire`` name, among ``products`` (the products the workspace knows); None when
    none or several are named."""
    products = sorted(set(products))
    named = names_in(Path(file_name).stem, products)
    if len(named) == 1:
        return ProductProposal(named[0], FILE_NAME)
    rows = [q for q in (questionnaire.questions if questionnaire else ()) if fact_key(q.text) in NAME_ROWS]
    rows.sort(key=lambda q: NAME_ROWS.index(fact_key(q.text)))  # the name row first, then the description
    for upto in range(1, len(rows) + 1):  # the name row alone, then with the description
        named = names_in(" / ".join(_answer(q) for q in rows[:upto]), products)
        if len(named) == 1:
            return ProductProposal(named[0], f"named in the workbook's general information ({_where(rows[upto - 1])})")
        if len(named) > 1:
            return None
    return None


def names_in(text: str, products: Iterable[str]) -> list[str]:
    """The products ``text`` names (whole words, any case, punctuation read as spaces), sorted;
    a name found only inside a longer name found at the same place ("Canvas" in "Canvas LMS")
    is left out."""
    words = _words(text)
    spans: dict[str, list[tuple[int, int]]] = {}
    for product in products:
        name = _words(product).strip()
        if name:
            spans[product] = [(m.start(), m.end()) for m in re.finditer(rf"(?<= ){re.escape(name)}(?= )", words)]
    found = {p: s for p, s in spans.items() if s}

    def inside(span: tuple[int, int], product: str) -> bool:
        return any(
            o != product and len(_words(o)) > len(_words(product)) and a <= span[0] and span[1] <= b
            for o, others in found.items()
            for a, b in others
        )

    return sorted(p for p, s in found.items() if any(not inside(span, p) for span in s))


def _words(text: str) -> str:
    """``text`` as lower-case words between single spaces, with a space at each end (so that a
    name is found whole: " canvas lms " in " canvas lms hecvat full ")."""
    return " " + " ".join(re.findall(r"[^\W_]+", (text or "").casefold())) + " "


def _answer(q: Question) -> str:
    return " ".join(x for x in (q.existing_choice, q.existing_answer) if x)


def _where(q: Question) -> str:
    return q.id or f"{q.sheet} row {q.row}"


__all__ = ["ProductProposal", "names_in", "proposed_product"]
