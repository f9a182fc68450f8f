"""Another product's past answer: what of it a draft may use, and how it is labelled.

A past answer given for another product (engine/core/scopes.py, engine/index/library.py ``preference``)
speaks for that product, not for the one drafted: its names, contacts and links are never
copied into the draft, one product's own wording is never its text, and it is never shown to the
model as a passage. Reuse prefers the
target product's own near-identical past answers, then company-wide ones; only when neither
exists may another product's near-identical answers give the **choice** (Yes/No or another
dropdown value). The draft then says whose choice it is ("Parchment's HECVAT:
No", :func:`choice_label`) in its record, results.jsonl, the report and the Review screen, is
flagged "from another product" for review, and carries :func:`cross_product_confidence`; its
explanation is the company's practice when several products' past explanations state the same
(:func:`shared_explanation`: two or more products, their texts at cosine ``SHARED_MIN`` or more,
naming no product, entity, link or contact; the draft says the text comes from other products'
past answers), else the documents' sentence that speaks best to the question, word for word
(engine/drafting/explanation.py), or left empty.

For a questionnaire drafted for no product (company-wide), every product's past answer is
another product's: a company-wide draft is not one product's answer either.

Calibration (:data:`CROSS_PRODUCT_PRECISION`), measured without the model by
``python -m engine eval cross-product`` over the 10 filled Instructure questionnaires, leave one
out (each target matched against the other 9, products from their folders, the target's own
product and company-wide answers removed so that only other products' answers are left): the
share of the Yes/No choices taken from other products' near-identical past answers that equal
the target's own choice, split by whether those past answers agree among themselves (docs/scopes-and-profile.md,
"Another product's answer").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Callable, Iterable, Sequence

import numpy as np

from engine.drafting.explanation_rules import names_any
from engine.index.library import LibraryHit, choice_key
from storage.library_store import LibraryEntry

# Share of right Yes/No choices when taken from other products' near-identical past answers
# (leave-one-out over the 9 Instructure questionnaires; ``eval cross-product``): when they all
# agree, and when they disagree (the most common choice is taken).
CROSS_PRODUCT_PRECISION = {"agree": 0.918, "disagree": 0.848}  # 637 and 164 choices of 801
# A qualifier's choice taken from other products switches a section off only when at least this
# many other products' near-identical past answers give it and none disagrees. Measured on the
# shared filled questionnaires (their JSONL truth; questions matched by wording, each target left
# out): the four company-wide qualifiers (PHI, third parties, BCP, DRP; 7–8 products each, all
# agreeing) were right for 31 of 31 targets; the two answered by one other product only (card
# data, professional services) were right for 0 of 4 — Parchment's "Yes" to card data would
# blank Canvas Credentials' PCI section, its "No" to professional services its consulting rows.
# (A qualifier about regulated data — PHI, card data — no longer gets here: the product's own
# documents answer it first, engine/drafting/regulated.py.)
QUALIFIER_QUORUM = 3
# Other products' past explanations are the company's practice when at least SHARED_PRODUCTS
# products state the same (their texts' cosine at least SHARED_MIN) in SHARED_WORDS words or more
SHARED_PRODUCTS = 2
SHARED_MIN = 0.80
SHARED_WORDS = 5
_KINDS = (
    ("hecvat", "HECVAT"),
    ("k-12cvat", "K-12CVAT"),
    ("caiq", "CAIQ"),
    ("sig", "SIG"),
    ("vsaq", "VSAQ"),
    ("soa", "SoA"),
)


def is_other_product(entry: LibraryEntry, product: str | None) -> bool:
    """The past answer was given for a product other than ``product`` (for no product: for any
    product); company-wide answers (no product) never are."""
    return entry.product is not None and entry.product != product


def questionnaire_kind(file: str) -> str:
    """What a past questionnaire is, from its file name: "HECVAT", "CAIQ", … or "questionnaire"."""
    name = PurePath(file).stem.casefold()
    return next((label for key, label in _KINDS if key in name), "questionnaire")


def past_answer_name(entry: LibraryEntry) -> str:
    """Whose past answer it is: "Parchment's HECVAT", "the company-wide CAIQ"."""
    kind = questionnaire_kind(entry.file)
    return f"{entry.product}'s {kind}" if entry.product else f"the company-wide {kind}"


def choice_label(entry: LibraryEntry, choice: str | None = None) -> str:
    """A past choice named with its product: "Parchment's HECVAT: No"."""
    return f"{past_answer_name(entry)}: {choice if choice is not None else entry.choice or '—'}"


def cross_product_confidence(agreeing: int, total: int) -> float:
    """A choice taken from other products' near-identical past answers (the most common of
    them): the measured precision of such choices when they all agree, or when they disagree."""
    if total <= 0:
        return 0.0
    return float(CROSS_PRODUCT_PRECISION["agree" if agreeing == total else "disagree"])


def settles_qualifier(from_product: str | None, past_answers: Sequence[str]) -> bool:
    """A qualifier's draft may switch the sections it governs off: its choice is this product's
    or company-wide (``from_product`` is None), or at least :data:`QUALIFIER_QUORUM` other
    products' past answers (``past_answers``, as :func:`choice_label` writes them) all give it."""
    if not from_product:
        return True
    choices = {label.rpartition(": ")[2].strip().casefold() for label in past_answers}
    products = {label.rpartition(": ")[0] for label in past_answers}
    return len(choices) == 1 and len(products) >= QUALIFIER_QUORUM


def passages_allowed(hits: Sequence, product: str | None) -> list:
    """The past answers that may be shown to the model for ``product``: never another product's."""
    return [h for h in hits if not is_other_product(h.entry, product)]


@dataclass(frozen=True)
class SharedExplanation:
    """Other products' past explanation taken as the company's practice: ``hit`` the past answer
    whose text is used (the most central of those that say the same), ``products`` the other
    products whose near-identical past answers state it."""

    hit: LibraryHit
    products: tuple[str, ...]


def shared_explanation(
    near: Sequence[LibraryHit],
    choice: str | None,
    encode: Callable[[Sequence[str]], np.ndarray],
    names: Iterable[str],
) -> SharedExplanation | None:
    """The company-wide practice behind other products' near-identical past answers that gave
    ``choice``: their explanations that state something (``SHARED_WORDS`` words or more) and
    name none of ``names`` (the products, the legal entities), no link, e-mail or phone
    (:func:`contact_tokens`), one per product; the one closest (cosine, ``encode``: texts → unit
    rows) to the most others at ``SHARED_MIN`` or more, when at least ``SHARED_PRODUCTS`` products
    say the same. None otherwise: one product's wording is that product's, not the company's."""
    names = tuple(n for n in names if n)
    best: dict[str, LibraryHit] = {}
    for h in sorted(near, key=lambda h: -h.score):
        e = h.entry
        text = (e.answer or "").strip()
        if e.product is None or choice_key(e.choice) != choice_key(choice) or e.product in best:
            continue
        if len(text.split()) < SHARED_WORDS or contact_tokens(text) or names_any(text, names, ignore_case=True):
            continue
        best[e.product] = h
    hits = list(best.values())
    if len(hits) < SHARED_PRODUCTS:
        return None
    vectors = np.asarray(encode([h.entry.answer.strip() for h in hits]), dtype=np.float32)
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, 0.0)
    agreeing = (sims >= SHARED_MIN).sum(axis=1)
    i = max(range(len(hits)), key=lambda k: (int(agreeing[k]), float(sims[k].sum())))
    if agreeing[i] + 1 < SHARED_PRODUCTS:
        return None
    same = [hits[i]] + [hits[j] for j in range(len(hits)) if sims[i, j] >= SHARED_MIN]
    return SharedExplanation(hits[i], tuple(h.entry.product or "" for h in same))


_CONTACT = re.compile(
    r"(?:https?://|www\.)\S+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|edu|io|bid|gov)(?:/\S*)?"
    r"|\+?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?:\s*(?:ext\.?|x)\s*\d+)?",
    re.IGNORECASE,
)


def contact_tokens(text: str) -> list[str]:
    """The URLs, e-mail addresses and phone numbers in ``text``, as written (trailing
    punctuation dropped)."""
    return [m.group(0).rstrip(".,;:)") for m in _CONTACT.finditer(text or "")]


__all__ = [
    "CROSS_PRODUCT_PRECISION",
    "choice_label",
    "contact_tokens",
    "cross_product_confidence",
    "is_other_product",
    "QUALIFIER_QUORUM",
    "settles_qualifier",
    "SharedExplanation",
    "shared_explanation",
    "passages_allowed",
    "past_answer_name",
    "questionnaire_kind",
]
