"""The risk that a drafted answer is wrong, one number per draft, and the Review-first list it
makes: the drafts at or above ``REVIEW_FIRST_RISK``.

* **Where the draft stands.** Each draft falls in one :func:`stratum` of what it rests on: a
  past answer of this product or company-wide, or other products' past answers (``other``),
  split by whether the near-identical past answers agree (and how many gave it) or disagree (and
  how strong the majority is); a qualifier answered by the documents' statements; a profile
  fact; a choice the model drafted, by its probability band and whether only a third party's
  document supports it; a text without a choice (the model's, or a past answer's). A choice
  also carries its polarity (Yes, No, another option): a No resting on little is wrong more often.
  A choice only one other product gave is split by what is asked (a question on the company's
  documented practice carries over from one product to another) and, otherwise, by what the
  documents say to it (#59). Another product's choice that leads the text of a row without a
  dropdown is a choice like a dropdown's (``led_choice``), never a text at risk 0.
* **Its risk** is the share of wrong choices in that stratum, measured leave-one-out over the
  shared filled questionnaires (each target drafted with the other files as its library and the
  40 PDFs by folder scope: ``python -m engine eval leave-one-out … --all-rows --drafts D.jsonl``,
  ``--no-model`` for the other products' strata, then ``python -m engine.bench.risk D.jsonl
  --calibration``), smoothed towards its parent stratum's
  (``PRIOR`` choices' worth: "model:high:yes" → "model:high" → "model" → one half), so a stratum
  seen rarely takes mostly its parent's risk and one never seen is not trusted.
  ``CALIBRATION`` holds the counts (wrong, choices) and docs/confidence.md the figures. This
  product's own past answers are never measured so (each target is another product): they start
  from the risk of many other products agreeing, or disputing (``_own_as_other``).
* **Review first** holds the drafts at or above ``REVIEW_FIRST_RISK``, chosen on the same
  calibration (the list's share of the drafts, the wrong choices it holds, the precision
  outside it), ordered by risk.

A text without a choice has no right or wrong here. A model's narrative whose quotes are verified
word for word in the documents (``model:text:quoted``) is not in the list but in **Read the
model's texts** (``reads_model_text``: every draft whose text is the model's wording and is not
in Review first, #59): someone must read what the model wrote, but it is not a choice that may be
wrong; a narrative in the documents' own verified words (a sentence, a reference to a section) is
in the same stratum and carries its origin ("From …", "Described in …"). A narrative without a
verified quote stays in the list (its stratum's risk is set
at the threshold), and so does a narrative other products answered in different words
(``text_differs``, issue #59); a past answer's or a profile fact's text is not — unless the past
answers behind it disagree: a dispute is a dispute whether a dropdown holds the choice or the
choice leads the text ("Yes — …"), and its risk is the disputed stratum's, never 0 (#50).
"""

from __future__ import annotations

import re
from typing import Protocol

from engine.core.types import DraftStatus
from engine.drafting.anchoring import AnchorLabel
from engine.index.library import choice_key

# how a reason for no text starts when no sentence of the documents could explain the choice, so the
# model was not asked (engine/drafting/explanation.py ``worth_asking``): the documents are silent
DOCUMENTS_SILENT = "no sentence of the documents"
# the texts drawn word for word from the documents in scope (``Draft.text_source`` values)
_QUOTED_SOURCES = ("own_document", "third_party", "reference")
# a question about the company's documented practice — a policy, procedure, process, programme or
# plan, or its staff and their training — rather than about a product's features (#59, ``asks_practice``)
_PRACTICE = re.compile(
    r"\b(?:polic(?:y|ies)|procedures?|process(?:es)?|program(?:me)?s?|plans?|documented|staff|employees?|"
    r"personnel|training|trained)\b",
    re.I,
)


class Draft(Protocol):
    """What the risk and the warnings read of a draft (engine/drafting/records.py ``Draft``)."""

    status: DraftStatus
    answer: str
    choice: str | None
    reused: bool
    past_choices: dict[str, int]
    past_answers: tuple[str, ...]
    choice_probability: float | None
    from_product: str | None
    profile_fact: str | None
    removed: tuple[str, ...]
    stated: str | None
    reused_due: str | None
    at_odds: bool
    question: str
    asked_as: str | None
    text_differs: tuple[str, ...]
    no_text: str | None
    citations: tuple  # of engine/drafting/records.py Citation

    @property
    def inherited_from(self) -> str | None: ...
    @property
    def low_confidence(self) -> bool: ...
    @property
    def model_wording(self) -> bool: ...
    @property
    def text_source(self) -> str | None: ...
    @property
    def text_origin(self) -> str | None: ...


# stratum → (wrong choices, choices) on the leave-one-out calibration (module docstring): the other
# products' strata from the 8 HECVATs drafted without the model (`eval leave-one-out --no-model … --all-rows
# --drafts D.jsonl`, then `python -m engine.bench.risk D.jsonl --calibration`; 2026-12-04, docs/confidence.md),
# the model's own from the last run with the model
CALIBRATION: dict[str, tuple[int, int]] = {
    "model:high:yes:third_party": (0, 1),
    "model:low:no:third_party": (1, 1),
    "model:low:option": (1, 1),
    "model:low:yes": (6, 8),
    "model:low:yes:third_party": (1, 3),
    "model:mid:yes": (1, 6),
    "model:mid:yes:third_party": (1, 3),
    "other:agree:1:no:silent": (3, 7),
    "other:agree:1:no:topic": (16, 32),
    "other:agree:1:option:silent": (0, 1),
    "other:agree:1:yes:practice": (0, 62),
    "other:agree:1:yes:quoted": (0, 4),
    "other:agree:1:yes:silent": (3, 29),
    "other:agree:1:yes:topic": (17, 71),
    "other:agree:2-3:yes": (0, 6),
    "other:agree:4+:no": (3, 37),
    "other:agree:4+:yes": (10, 377),
    "other:disputed:strong": (12, 96),
    "other:disputed:weak": (14, 65),
    "stated": (0, 4),
}
REVIEW_FIRST_RISK = 0.05
UNSEEN = 0.5  # the risk of what the calibration never saw
PRIOR = 2.0  # choices' worth of the parent stratum's risk in a stratum's (stratum_risk)
TEXT_RISK = {
    "model:text": REVIEW_FIRST_RISK,
    "model:text:quoted": 0.0,  # its quotes verified: in "Read the model's texts", not Review first (#59)
    "own:text": 0.0,
    "other:text": 0.0,
    "profile": 0.0,
    "text:disputed": REVIEW_FIRST_RISK,  # other products answered the narrative in other words (issue #59)
}


def _share(draft: Draft) -> float:
    """The share of the near-identical past answers that gave the drafted choice."""
    counts = draft.past_choices
    total = sum(counts.values())
    if not total:
        return 1.0
    mine = next((n for c, n in counts.items() if choice_key(c) == choice_key(draft.choice)), None)
    return (mine if mine is not None else max(counts.values())) / total


def stratum(draft: Draft) -> str | None:
    """What the drafted answer rests on (module docstring); None when it is not a draft."""
    if draft.status is not DraftStatus.DRAFTED:
        return None
    if draft.profile_fact:
        return "profile"
    if draft.stated:
        return "stated"
    if draft.text_differs and not draft.choice:  # a narrative the products answered differently: read it
        return "text:disputed"
    if draft.reused:
        who = "other" if draft.from_product else "own"
        if len(draft.past_choices) > 1:  # a dispute, whether or not a dropdown holds the choice (#50)
            return f"{who}:disputed:{'strong' if _share(draft) >= 0.75 else 'weak'}"
        if not led_choice(draft):
            return f"{who}:text"
        total = sum(draft.past_choices.values())
        alone = total <= 1 and who == "other"  # one other product's choice: what is asked, what the documents say
        said = _one_product_says(draft) if alone else ""
        return f"{who}:agree:{'1' if total <= 1 else '2-3' if total <= 3 else '4+'}{_polarity(draft)}{said}"
    if not draft.choice:
        # the model's words from verified quotes, or the documents' own (a sentence, a reference): read, not doubted
        verified = any(c.label is AnchorLabel.VERIFIED for c in draft.citations)
        grounded = draft.text_source in ("model", *_QUOTED_SOURCES)
        return "model:text:quoted" if verified and grounded else "model:text"
    p = draft.choice_probability
    band = "high" if p is not None and p >= 0.95 else "mid" if p is not None and p >= 0.8 else "low"
    return f"model:{band}{_polarity(draft)}{':third_party' if draft.inherited_from else ''}"


def _one_product_says(draft: Draft) -> str:
    """What a choice only one other product gave rests on beside it (#59): ":practice" on a question
    about the company's documented practice (``asks_practice``: it carries over from one product to
    another), else what the documents say to it (``documents_say``)."""
    return ":practice" if asks_practice(draft.asked_as or draft.question) else documents_say(draft)


def documents_say(draft: Draft) -> str:
    """What the documents in scope say to a choice only one other product gave (#59), read off the
    draft: ":quoted" when a sentence of theirs explains it (the text is theirs, word for word);
    ":silent" when no sentence of theirs could (``no_text`` from the pre-test, ``DOCUMENTS_SILENT``,
    or no text and no reason: nothing to retrieve); ":topic" when they speak of the question but
    nothing of theirs passed: the model was asked (its text kept or not) or the text was set aside.
    Measured leave-one-out on the two HECVAT Fulls (docs/confidence.md), the questions on the
    company's practice apart (``asks_practice``: 0 wrong in 62): a Yes resting on one other product
    is wrong 3 times in 29 when the documents are silent and 17 in 71 when they speak of the
    question without saying it (the products differ where the documents name the technology:
    intrusion detection, backups, encryption modules), 0 in 4 quoted (2026-12-04)."""
    source = draft.text_source
    if source in _QUOTED_SOURCES:
        return ":quoted"
    if source == "model" or (draft.no_text and not draft.no_text.startswith(DOCUMENTS_SILENT)):
        return ":topic"
    return ":silent"


def asks_practice(question: str) -> bool:
    """The question asks about the company's documented practice — a policy, procedure, process,
    programme or plan, or its staff and their training ("Do you have a documented patch management
    process?", "Is security awareness training mandatory for all employees?") — rather than about
    a product's features ("Have you implemented an Intrusion Detection System?"). One product's
    practice is the company's, so another product's choice on it carries over; its features are
    its own (#59: on the two HECVAT Fulls, docs/confidence.md)."""
    return bool(_PRACTICE.search(question))


def led_choice(draft: Draft) -> str | None:
    """The drafted choice: the dropdown's, or on a row without one the other products' choice that
    leads the text ("No — …", cited first as that choice alone): a choice resting on one other
    product is one whether a dropdown holds it or the text does (#59; a dispute likewise, #50)."""
    if draft.choice or not (draft.reused and draft.from_product and draft.past_choices and draft.citations):
        return draft.choice
    return draft.citations[0].quote or None


def _polarity(draft: Draft) -> str:
    """The choice's polarity, ":yes", ":no" or ":option" (another dropdown value): a product's No is a product fact
    others rarely share (the vendors' answers are mostly Yes), so a No resting on little is wrong
    more often."""
    key = choice_key(led_choice(draft))
    return f":{key}" if key in ("yes", "no") else ":option"


def stratum_risk(name: str, calibration: dict[str, tuple[int, int]] | None = None) -> float:
    """A stratum's risk: its share of wrong choices, smoothed towards its parent's (the stratum
    less its last part: "model:high:no" → "model:high" → "model"), the root's towards
    ``UNSEEN``: a stratum seen rarely takes mostly its parent's risk, one never seen all of it."""
    table = CALIBRATION if calibration is None else calibration
    if name in TEXT_RISK:
        return TEXT_RISK[name]
    parts = name.split(":")
    risk = stratum_risk(_own_as_other(name), table) if name.startswith("own:") else UNSEEN
    for depth in range(1, len(parts) + 1):
        prefix = ":".join(parts[:depth])
        wrong = sum(w for s, (w, _) in table.items() if s == prefix or s.startswith(prefix + ":"))
        total = sum(n for s, (_, n) in table.items() if s == prefix or s.startswith(prefix + ":"))
        risk = (wrong + PRIOR * risk) / (total + PRIOR)
    return risk


def _own_as_other(name: str) -> str:
    """The other-products stratum an own stratum starts from. This product's (or company-wide)
    past answers are never measured leave-one-out (each target is another product): agreeing, they
    start from the risk of many other products agreeing (an own answer carries no product
    difference, the main error of another product's), disputed from other products disputing."""
    parts = name.split(":")
    if parts[1] == "agree":
        return ":".join(["other", "agree", "4+", *parts[3:]])
    return "other:" + name[4:]


def risk_of(draft: Draft, calibration: dict[str, tuple[int, int]] | None = None) -> float | None:
    """The estimated chance that ``draft`` is wrong; None when it is not a draft. A text that says
    the opposite of the choice the same reply gave (``at_odds``) is at least ``REVIEW_FIRST_RISK``:
    a reviewer decides which is right."""
    name = stratum(draft)
    if name is None:
        return None
    risk = stratum_risk(name, calibration)
    return max(risk, REVIEW_FIRST_RISK) if draft.at_odds else risk


__all__ = [
    "CALIBRATION",
    "DOCUMENTS_SILENT",
    "REVIEW_FIRST_RISK",
    "asks_practice",
    "documents_say",
    "led_choice",
    "risk_of",
    "stratum",
    "stratum_risk",
]
