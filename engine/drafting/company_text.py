"""What several products answered in the same words is the company's answer (issue #59).

A narrative (a question without a dropdown, answered with text) that two or more other products
answered with the same sentences ("Describe your organization's business background and
ownership structure": "Instructure, Inc. was founded in 2008 …" in six Lites and a Full) is the
company's answer, not one product's: it is reused for any product of the company, its origin
shown ("The same in 3 products' past answers: …"). One product's wording alone stays that
product's (engine/drafting/cross_product.py).

* **The same words.** The past answers are split into sentences (a list's lead-in with its list);
  a sentence is the company's when a near-identical one (RapidFuzz ratio ``SAME_SENTENCE`` or more,
  whitespace and the products' names masked: "the Canvas Catalog Compliance package" and "the
  LearnPlatform Compliance package" are the same slot) stands in another product's answer. The
  text is the answer with the most such sentences, less the others, in its own order and layout.
* **A product's name in it.** A sentence naming a product stays when it speaks of the company —
  its history or its portfolio (a year, "founded", "acquired", "launched", "all our products" …:
  "The outcome was Canvas, a ground-breaking LMS that officially launched to market in 2011") —
  and is left out when it speaks of that product's features ("the Amazon Web Services
  infrastructure on which Canvas is hosted has …"); a sentence after a left-out one that does not
  stand alone ("Some of the many certifications include:" and its list) goes with it. A sentence
  with a link, an e-mail or a phone number is left out (one product's contact is not the
  company's). When fewer than ``COMPANY_WORDS`` words are left, there is no company text.
* **Disagreement.** The other products whose answers share none of its sentences are named
  (``differing``): the draft says so and is in Review first (engine/drafting/risk.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from rapidfuzz import fuzz

from engine.drafting.cross_product import contact_tokens
from engine.drafting.explanation_rules import names_any, standing_alone
from engine.drafting.product_names import bare_names, speaks_for_the_company
from engine.index.library import LibraryHit, choice_key

SAME_SENTENCE = 90  # RapidFuzz ratio (0–100) of two sentences, names masked, that say the same
COMPANY_PRODUCTS = 2  # products whose answers must carry a sentence for it to be the company's
COMPANY_WORDS = 8  # fewer words left: no company text
_MASK = "‹product›"
# the company's history or portfolio: a sentence naming a product so is about the company
_HISTORY = re.compile(
    r"\b(?:1[89]\d\d|20\d\d)\b|\b(?:found(?:ed|er|ers|ing)|acquir(?:ed|es|ing)|acquisition|launch(?:ed|es)|"
    r"merg(?:ed|er)|portfolio|subsidiar(?:y|ies)|parent company|spun off|headquarter(?:s|ed)|history|"
    r"publicly traded|privately held)\b",
    re.IGNORECASE,
)
_LINE = re.compile(r"(?:\r?\n|_x000B_|\x0b)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z•(\"'“])")
# a sentence that picks out of what the sentence before it named ("Some of the many certifications include:")
_PICKS_OUT = re.compile(
    r"^(?:Some|Many|Most|All|Each|One|Both|Several|Few|Among)\b(?: of)?\s+(?:the|these|those|them|its|their)\b", re.I
)
_SPACE = re.compile(r"[\s\u00a0\ufeff]+")


@dataclass(frozen=True)
class CompanyText:
    """The company's answer to a narrative: ``text`` (the sentences two or more products' past
    answers share), ``hit`` the past answer whose wording and layout it keeps, ``agreeing`` the
    past answers (one per product) that carry its sentences, ``differing`` the products whose
    answers share none of them, ``left_out`` how many of ``hit``'s sentences were left out (one
    product's own, a product's features, a contact)."""

    text: str
    hit: LibraryHit
    agreeing: tuple[LibraryHit, ...]
    differing: tuple[str, ...]
    left_out: int

    @property
    def products(self) -> tuple[str, ...]:
        """The products whose past answers carry the text, the used one first."""
        return tuple(h.entry.product or "" for h in self.agreeing)


@dataclass(frozen=True)
class _Unit:
    """A sentence of a past answer (a list's lead-in with its list) and what follows it as written."""

    text: str
    after: str
    line: int


def units(text: str) -> list[_Unit]:
    """``text``'s sentences, each with the separator after it, a lead-in ending in ":" joined
    with the lines of its list (up to the next line that is a sentence of its own)."""
    out: list[_Unit] = []
    lines = [(m.group(0)) for m in re.finditer(r"[^\n\x0b]+|[\n\x0b]+", text.replace("_x000B_", "\n"))]
    line = 0
    for piece in lines:
        if not piece.strip("\n\x0b"):  # a line break: after the unit before it
            if out:
                out[-1] = _Unit(out[-1].text, out[-1].after + piece, out[-1].line)
            line += 1
            continue
        parts = _SENTENCE_END.split(piece.strip())
        for i, p in enumerate(parts):
            p = p.strip()
            if not p:
                continue
            follows_lead = out and out[-1].text.rstrip().endswith(":") and i == 0 and not _is_sentence(p)
            last_line = out[-1].text.rsplit("\n", 1)[-1] if out else ""
            if follows_lead or (out and _is_list_item(p) and _is_list_item(last_line)):
                prev = out[-1]
                out[-1] = _Unit(prev.text + prev.after + p, " ", prev.line)
                continue
            out.append(_Unit(p, " ", line))
    if out:
        out[-1] = _Unit(out[-1].text, "", out[-1].line)
    return out


def _is_list_item(text: str) -> bool:
    return bool(re.match(r"^\s*[•·▪‣◦*–-]\s", text))


def _is_sentence(text: str) -> bool:
    """A line that reads as a sentence of its own (a capital, a verb, an end), not a list's item."""
    return not _is_list_item(text) and text.rstrip().endswith((".", "!", "?")) and len(text.split()) >= 6


def _stands_alone(text: str) -> bool:
    """A unit reads without the sentence before it: its first sentence (a list's lead-in read as a
    sentence: "… subsidiaries, including:") stands alone and does not pick out of what came before
    ("Some of the many certifications include:")."""
    first = _SPACE.sub(" ", re.split(r"[\n\x0b]", text, maxsplit=1)[0]).strip()
    if first.endswith(":"):  # "…, including:" → "….": the lead-in as the statement it makes
        first = re.sub(r"[,\s]*\b(?:including|such as|include|includes|are|is|as follows)$", "", first[:-1]) + "."
    return not _PICKS_OUT.match(first) and standing_alone(first) is not None


def _key(text: str, names: Sequence[str]) -> str:
    """A sentence as compared: names masked, whitespace and case flattened, bullets dropped."""
    flat = _SPACE.sub(" ", text).strip()
    for n in names:
        flat = re.sub(rf"(?<!\w){re.escape(n)}(?!\w)", _MASK, flat)
    flat = re.sub(r"(?:https?://|www\.)\S+|\b[\w.-]+\.(?:com|bid|org|net|io)(?:/\S*)?", "‹link›", flat)
    return re.sub(r"[•·▪]", " ", flat).casefold()


def _same(a: str, b: str) -> bool:
    return a == b or fuzz.ratio(a, b) >= SAME_SENTENCE


def names_a_product(sentence: str, products: Iterable[str]) -> bool:
    """``sentence`` names one of ``products`` (by its full name, or its first word alone:
    engine/drafting/product_names.py)."""
    products = [p for p in products if p]
    return names_any(sentence, products) or names_any(sentence, list(bare_names(products)))


def speaks_of_the_company(sentence: str) -> bool:
    """A sentence naming a product that is about the company: its history (a year, founded,
    launched, acquired …) or its portfolio ("all our products", "Instructure's products")."""
    return bool(_HISTORY.search(sentence)) or speaks_for_the_company(sentence)


def narratives(near: Sequence[LibraryHit]) -> dict[str, LibraryHit]:
    """Other products' past answers in ``near`` that are a text without a choice, one per product
    (the closest match)."""
    answers: dict[str, LibraryHit] = {}
    for h in sorted(near, key=lambda h: -h.score):
        e = h.entry
        if e.product is None or e.product in answers or choice_key(e.choice) or not (e.answer or "").strip():
            continue
        answers[e.product] = h
    return answers


def company_text(near: Sequence[LibraryHit], products: Iterable[str]) -> CompanyText | None:
    """The company's answer among other products' near-identical past answers ``near`` to a
    narrative (module docstring); ``products``: every product of the company (the drafted one
    too), whose names are masked when sentences are compared and judged when one is kept.
    None when no sentence is shared by ``COMPANY_PRODUCTS`` products or too little is left."""
    products = sorted({p for p in products if p} | {h.entry.product for h in near if h.entry.product}, key=len)
    names = sorted(products, key=len, reverse=True)
    names += [w for w in bare_names(products) if w not in names]  # "Canvas" after "Canvas Credentials"
    answers = narratives(near)
    if len(answers) < COMPANY_PRODUCTS:
        return None
    split = {p: units(h.entry.answer) for p, h in answers.items()}
    keys = {p: [_key(u.text, names) for u in us] for p, us in split.items()}

    def shared_by(p: str, k: str) -> set[str]:
        return {o for o in keys if o != p and any(_same(k, x) for x in keys[o])}

    sharing = {p: [shared_by(p, k) for k in keys[p]] for p in keys}
    # the answer with the most shared sentences (then words), the closest match first
    base = max(
        answers,
        key=lambda p: (
            sum(bool(s) for s in sharing[p]),
            sum(len(u.text.split()) for u, s in zip(split[p], sharing[p]) if s),
            answers[p].score,
        ),
    )
    kept: list[_Unit] = []
    agreeing: set[str] = set()
    dropping = False
    left_out = 0
    for u, who in zip(split[base], sharing[base]):
        own = len(who) + 1 < COMPANY_PRODUCTS
        product_claim = names_a_product(u.text, products) and not speaks_of_the_company(u.text)
        contact = bool(contact_tokens(u.text))
        follows_dropped = dropping and not _stands_alone(u.text)
        if own or product_claim or contact or follows_dropped:
            dropping, left_out = True, left_out + 1
            if kept and "\n" in u.after and "\n" not in kept[-1].after:  # its line break stays
                kept[-1] = _Unit(kept[-1].text, u.after, kept[-1].line)
            continue
        dropping = False
        kept.append(u)
        agreeing |= who
    text = _joined(kept)
    if len(text.split()) < COMPANY_WORDS:
        return None
    differing = tuple(sorted(p for p in answers if p != base and p not in agreeing))
    ordered = (answers[base], *(answers[p] for p in sorted(agreeing)))
    return CompanyText(text, answers[base], ordered, differing, left_out)


def _joined(kept: Sequence[_Unit]) -> str:
    """The kept sentences in their answer's layout: a sentence's own line break kept, at most one blank line."""
    out = ""
    for u in kept:
        if out and not out.endswith(("\n", " ")):
            out += " "
        out += u.text + u.after
    out = re.sub(r"[ \t\u00a0]+\n", "\n", out.replace("\ufeff", ""))
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def shared_share(text: str, other: str, products: Iterable[str]) -> float:
    """The share of ``text``'s sentences that ``other`` holds near-identically (names masked):
    1.0 when one says all the other says, 0.0 when they share no sentence."""
    names = sorted({p for p in products if p}, key=len, reverse=True)
    names += [w for w in bare_names(names) if w not in names]
    mine = [_key(u.text, names) for u in units(text)]
    theirs = [_key(u.text, names) for u in units(other)]
    if not mine:
        return 0.0
    return sum(any(_same(k, x) for x in theirs) for k in mine) / len(mine)


def origin_line(products: Sequence[str]) -> str:
    """Where a company text comes from, as the card says it: "The same in 3 products' past answers:
    Canvas Catalog, Canvas Studio, Elevate Standards Alignment"."""
    names = ", ".join(p for p in products if p)
    return f"The same in {len(products)} products' past answers: {names}"


__all__ = [
    "COMPANY_PRODUCTS",
    "COMPANY_WORDS",
    "CompanyText",
    "SAME_SENTENCE",
    "company_text",
    "names_a_product",
    "narratives",
    "origin_line",
    "shared_share",
    "speaks_of_the_company",
    "units",
]
