"""The knowledge base's best page for a question, for a draft whose only source is a past answer
(a reused answer cites the answer library, not a document): the reviewer can still see what the
documents say before accepting it.

The page is the one holding the documents' sentence that speaks best to the question, found the
way a choice taken from another product gets its explanation (engine/drafting/explanation.py:
the passages retrieved within the drafter's scope, the statement closest to the question with the
knowledge base's own embedder, a company or product document's before a third party's, none
naming another product), and cited as the drafter cites a quote, so the sentence is outlined on
its page. No sentence speaks to the question, or it does not anchor: no best page (None). No
model call.
"""

from __future__ import annotations

from engine.drafting.anchoring import AnchorLabel
from engine.drafting.drafter import Drafter
from engine.drafting.explanation import EXPLANATION_MIN, best_sentence
from engine.drafting.records import Citation
from engine.index.embed.question import QuestionVectors


def best_page(drafter: Drafter, question: str) -> Citation | None:
    """The citation of the documents' best sentence for ``question`` within ``drafter``'s scope
    (its page and outlined lines), or None (module docstring)."""
    kb = drafter.kb
    if not question.strip() or not kb.documents():
        return None
    asked = QuestionVectors.of(question, kb.encoder)
    hits = list(drafter.retrieve(asked).hits)
    if not hits:
        return None
    found = best_sentence(  # a page to show, not a text to use: the plain cosine bar
        asked.dense_for(kb.encoder),
        hits,
        kb.encoder,
        drafter.third_party,
        drafter.other_products(),
        None,
        EXPLANATION_MIN,
        product=drafter.product,
    )
    cited = drafter.cite(found.quote, [found.hit]) if found is not None else None
    if cited is None or cited.label is AnchorLabel.UNVERIFIED:
        return None
    return cited


__all__ = ["best_page"]
