"""An explanation taken word for word from the documents, without the model: the sentence of the
retrieved passages that speaks best to the question. It explains a draft whose choice is another
product's past answer (engine/drafting/cross_product.py): the choice is that answer's, the text
never is, and the product's own documents say why.

* **Which sentences.** Every sentence (engine/index/sentences.py) of the retrieved chunks that
  states something: at least ``STATEMENT_WORDS`` words, not a question (a third party's CAIQ
  holds its questions too), naming no control's id ("IAM-10.1 Is an access process…", a
  catalogue's "STA-07 Develop and maintain…"), no table of contents' dot leaders, and no other
  product's name (a company document's "PCI Level 1 service provider (for Canvas Catalog)" is
  Canvas Catalog's, not the drafted product's). A PDF's headings before it are not part of it
  ("Disaster Recovery Plan Testing \nA Disaster Recovery Plan is …"), and it must read without the
  sentence before it ("This is why …", "But whatever …": engine/drafting/explanation_rules.py).
* **Which one.** The one that best answers the question by the relevance test
  (engine/drafting/relevance.py: its cosine with the near-identical past answers' explanations
  when two or more exist, else with the question — the knowledge base's own embedder), when it
  passes the test. A
  sentence of a company or product document comes before a third party's (AWS's, Google's): a
  third party's sentence is taken only when no own sentence answers and (when the
  question's text is given) the question asks what the provider does; its text names the provider
  ("Amazon Web Services, the third-party provider, states: …") and its citation says whose it is
  (Review's "third party: Amazon Web Services" badge). A sentence that contradicts the draft's
  choice is none. None answers it: no explanation (the choice stands alone). A caller that has
  found its statement already (a stated qualifier, a page to show) gives a plain cosine bar
  (``minimum``; ``EXPLANATION_MIN`` for a page to show).
* **Why not the model.** Measured on the whole Canvas Credentials HECVAT Full, the other 8 filled
  questionnaires as the library, 188 of its 255 rows taking their choice from another product
  (docs/scopes-and-profile.md, "Another product's answer"): mean cosine with the vendor's own Additional Information
  (151 rows, an empty one scoring 0) **0.363** with this sentence against **0.339** with the
  model's explanation (which often restates the question), under the question baseline 0.483 and
  the best past answer 0.421; the whole questionnaire in **4.2 min** instead of 27.0 (0.35 s a
  row instead of 7.7 s); the Yes/No figures unchanged (the choice is the past answer's either
  way). The sentence is a verbatim quote, so its highlight is exact. Where no sentence reaches
  ``EXPLANATION_MIN`` but one reaches the quote's bar (``SUPPORT_MIN``), the model explains the
  choice, last (engine/drafting/drafter.py ``_explained``; docs/benchmarks.md: +0.03 and +0.02 on the
  two Full targets for about 7 more minutes each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np

from engine.core.types import Hit
from engine.drafting.confidence import SUPPORT_MIN
from engine.drafting.explanation_rules import (
    asks_provider,
    contradicts,
    customers_duty,
    provider_says,
    standing_alone,
)
from engine.drafting.product_names import names_another_product
from engine.drafting.relevance import MODEL_HOPE, Relevance, relevance_of
from engine.drafting.risk import DOCUMENTS_SILENT
from engine.index.embed.dense import DenseEncoder
from engine.index.library import choice_key
from engine.index.sentences import sentence_spans, without_headings

# why the model is not asked to explain another product's No (#59 item 6): the documents state what
# the company does, so a text for a No says the question back ("No, the company does not comply with
# ISO 9001."), says what the documents lack, or argues the opposite. On the Canvas Credentials Full
# (docs/benchmarks.md) 3 of the 20 calls for a No ended in a kept text, mostly the question said back.
# It does not start as DOCUMENTS_SILENT: the documents speak of the question (engine/drafting/risk.py ":topic")
NO_UNEXPLAINED = "the model is not asked to explain a No: the documents say what is done, not what is not"
STATEMENT_WORDS = 5  # fewer words: a heading, a table cell or a label, not a statement
# The cosine with the question a sentence needs: higher than a model's quote needs (SUPPORT_MIN,
# 0.30), because this sentence is the best of dozens, so its cosine is inflated by the choosing.
# Measured (module docstring): under 0.45 most chosen sentences were off the question (a table of
# contents, an ESG report's line under the PHI question); at 0.45 125 of the 150 are kept.
EXPLANATION_MIN = 0.45
# a control's id ("IAM-10.1 Is an access process…?", "STA-07 Develop and maintain…") marks a
# catalogue's requirement or a questionnaire's question, not what the vendor does
_CONTROL_ID = re.compile(r"\b[A-Z&]{2,5}-\d{1,2}(?:\.\d+)?\b")
_LEADERS = re.compile(r"\.{4,}|…{2,}")  # a table of contents' dot leaders
_BULLET = re.compile(r"^[•·▪‣◦*–—-]\s*")
_ITEM = re.compile(r"\s[•▪‣◦]\s")  # a list item inside a sentence span starts a sentence of its own


@dataclass(frozen=True)
class Explanation:
    """The sentence chosen: ``quote`` exactly as it stands in ``hit``'s chunk (it anchors in the
    source), ``text`` as the draft shows it (whitespace collapsed, a leading bullet dropped), and
    its cosine with the question (``support``)."""

    text: str
    quote: str
    hit: Hit
    support: float
    relevance: Relevance | None = None


def shown(sentence: str) -> str:
    """A sentence as a draft shows it: one line, without a leading bullet."""
    return _BULLET.sub("", " ".join(sentence.split()))


def is_statement(sentence: str) -> bool:
    """The sentence states something: enough words, not a question, no control's id, no dot leaders."""
    text = shown(sentence)
    return (
        len(text.split()) >= STATEMENT_WORDS
        and not text.endswith("?")
        and not _CONTROL_ID.search(text)
        and not _LEADERS.search(text)
    )


def sentences_of(text: str) -> list[str]:
    """The sentences of a chunk's text, each without the heading lines before it (Markdown, or a
    PDF's page number and title-case heading), a list's items apart (a PDF's page footer runs into
    the next page's first item: "November 2024 6 • Level 1 service provider…")."""
    return [item for start, end in sentence_spans(text) for item in _ITEM.split(without_headings(text[start:end]))]


def best_sentence(
    question: np.ndarray,
    hits: Sequence[Hit],
    encoder: DenseEncoder,
    third_party: Callable[[str], str | None],
    other_products: Iterable[str] = (),
    wanted: Callable[[str], object] | None = None,
    minimum: float | None = None,
    *,
    choice: str | None = None,
    asked: str | None = None,
    product: str | None = None,
    past: np.ndarray | None = None,
) -> Explanation | None:
    """The statement among ``hits``' sentences that best answers the question, a company or
    product document's before a third party's (``third_party`` names a document's third party,
    None for the company's own); None when none does. ``question`` is the question's unit vector
    in ``encoder``'s space. Which answer it (engine/drafting/relevance.py): with ``minimum`` None,
    those that pass the relevance test against the question and ``past`` (the near-identical past
    answers' explanations, ``relevance.references``), ranked by it; with a ``minimum``, those whose
    cosine with the question reaches it (a statement already found: a stated qualifier's), ranked
    by that cosine. A sentence that speaks for one of ``other_products`` (its name, or its first
    word alone, unless it speaks of the whole company: engine/drafting/product_names.py;
    ``product``: the one drafted for) is never a candidate, nor one that needs the sentence before
    it, a heading, a fragment or a definition (``explanation_rules.standing_alone``). A third
    party's sentence names its provider in the text. ``wanted``, when given, keeps only the
    sentences it is true of. With ``asked`` (the question's text) a third party's sentence is a
    candidate only when the question asks what the provider does (``asks_provider``), and a
    sentence that contradicts ``choice`` about it never is."""
    candidates = _candidates(hits, third_party, (tuple(other_products), product), wanted, choice, asked)
    if not candidates:
        return None
    vectors = np.asarray(encoder.encode_passages([text for _, _, text in candidates]), dtype=np.float32)
    judged = relevance_of(vectors, question, past if minimum is None else None)
    if minimum is None:
        supported = [i for i, r in enumerate(judged) if r.answers]
    else:
        supported = [i for i, r in enumerate(judged) if r.question >= minimum]
    supported.sort(key=lambda i: -judged[i].score)
    if not supported:
        return None
    own = [i for i in supported if third_party(candidates[i][0].chunk.doc) is None]
    i = (own or supported)[0]
    hit, quote, text = candidates[i]
    provider = third_party(hit.chunk.doc)
    shown_text = text if provider is None else provider_says(provider, text)
    return Explanation(shown_text, quote.strip(), hit, judged[i].question, judged[i])


def worth_asking(
    question: np.ndarray,
    hits: Sequence[Hit],
    encoder: DenseEncoder,
    third_party: Callable[[str], str | None],
    other_products: Iterable[str] = (),
    *,
    choice: str | None = None,
    asked: str | None = None,
    product: str | None = None,
    past: np.ndarray | None = None,
) -> str | None:
    """Whether the model, asked to explain ``choice`` from ``hits``, could write a text that passes
    (issue #59, item 6): the relevance test run on the passages' sentences first (the candidates of
    :func:`best_sentence`). None when it could: a sentence speaks to the question as a quote must
    (``SUPPORT_MIN``) and, when the near-identical past answers give a yardstick (``past``), one of
    those says what they say at ``MODEL_HOPE`` or more (the model writes from these sentences; a
    text of it that passes is as close to the past answers as its closest sentence, within
    ``REFERENCE_MIN − MODEL_HOPE``), and ``choice`` is not a No (``NO_UNEXPLAINED``: its texts do
    not pass). Else why not, as results.jsonl says it (``Draft.no_text``).

    A bar on the sentences' cosine with the question alone was measured and not taken: on the
    Canvas Credentials Full (docs/benchmarks.md) the 15 calls that ended in a kept text had a best
    sentence at 0.32–0.63 and the 50 that did not at 0.31–0.63; ``QUESTION_FLOOR`` (0.40) would
    have saved 19 calls and lost 3 of the 15 texts."""
    candidates = _candidates(hits, third_party, (tuple(other_products), product), None, choice, asked)
    if not candidates:
        return f"{DOCUMENTS_SILENT} in scope stands alone on this question"
    vectors = np.asarray(encoder.encode_passages([text for _, _, text in candidates]), dtype=np.float32)
    judged = [r for r in relevance_of(vectors, question, past) if r.question >= SUPPORT_MIN]
    if not judged:  # its quotes could not be supported (the cosine a quote needs)
        return (
            f"{DOCUMENTS_SILENT} in scope speaks to the question (cosine under {SUPPORT_MIN:.2f}): "
            "a text written from them would not pass"
        )
    best = max((r.reference for r in judged if r.reference is not None), default=None)
    if best is not None and best < MODEL_HOPE:
        return (
            f"{DOCUMENTS_SILENT} says what the past answers say (best cosine {best:.2f}, under "
            f"{MODEL_HOPE:.2f}): a text written from them would not pass"
        )
    if choice_key(choice) == "no":
        return NO_UNEXPLAINED
    return None


def _candidates(
    hits: Sequence[Hit],
    third_party: Callable[[str], str | None],
    others: tuple[tuple[str, ...], str | None],
    wanted: Callable[[str], object] | None,
    choice: str | None,
    asked: str | None,
) -> list[tuple[Hit, str, str]]:
    """``best_sentence``'s candidates: (hit, the sentence as it stands in the chunk, its text
    standing alone) for each statement that passes the rules; ``others``: the other products and
    the one drafted for."""
    providers_too = asked is None or asks_provider(asked)
    names, product = others
    out = []
    for hit in hits:
        if not providers_too and third_party(hit.chunk.doc) is not None:
            continue
        for s in sentences_of(hit.chunk.text):
            if not is_statement(s) or (wanted is not None and not wanted(s)):
                continue
            text = standing_alone(shown(s))
            if text is None or names_another_product(text, names, product):
                continue
            if third_party(hit.chunk.doc) is not None and customers_duty(text):
                continue  # the provider's customers' duty is no practice of the provider's (#59)
            if not (asked is not None and contradicts(choice, text, asked)):
                out.append((hit, s, text))
    return out


__all__ = [
    "EXPLANATION_MIN",
    "Explanation",
    "NO_UNEXPLAINED",
    "STATEMENT_WORDS",
    "best_sentence",
    "is_statement",
    "sentences_of",
    "shown",
    "worth_asking",
]
