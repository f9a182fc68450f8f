"""Whether a flat PDF's text asks: a "?" ending a sentence, or a first word that asks (Do, Is, Have,
Describe, Provide, List, Explain, Indicate …; "Where", "When", "How" … ask only with a "?", "Please
ensure / note / read …" instructs, and so do "Bitte beachten …", "Veuillez noter …"); whether it can be answered Yes or No (it starts with Do / Is /
Have / Can …); and a line that does not ask under a question ending in "?" or ":" as one of the
topics that question lists (its sub-question), unless it has an ID of its own that does not go on from
the question's. A drafting note in square brackets before the words ("[Example Option 1] Please
provide …") is read past.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.questionnaire.cues import asks_by_mark
from engine.questionnaire.pdf.questions import Found

# words that ask at the start of an item without a "?" (a question word, "Where …", "When …", asks only
# with one: without, it starts a clause of guidance: "Where you are using the selection questions, …")
_ASK_WORDS = frozenset(
    "do does did have has had is are was were can could will would should shall may describe provide list "
    "explain indicate specify state identify confirm please detail outline summarize summarise clarify demonstrate"
    " haben hat ist sind wird werden können gibt verfügt beschreiben erläutern nennen geben"
    " heeft hebben zijn wordt worden kan kunnen beschrijf geef noem".split()
)
_PLEASE_INSTRUCTS = frozenset(
    "ensure note read refer see be contact remember keep retain beachten lesen füllen ausfüllen kreuzen noter lire consulter lees let".split()
)  # not asking
_PLEASE = frozenset("please bitte veuillez gelieve".split())  # "Bitte geben Sie … an", "Veuillez indiquer …"
_YES_NO_WORDS = frozenset(
    "do does did have has had is are was were can could will would should shall may"
    " haben hat ist sind wird werden können gibt verfügt heeft hebben zijn wordt worden kan kunnen avez êtes".split()
)
SUB = " — "  # between a question and one of the topics it lists
_NOTE = re.compile(r"^\s*\[[^\[\]]{1,60}\]\s*(?=\S)")  # "[Example Option 1] ": a drafting note before the words


def asks(text: str) -> bool:
    """A question mark ending a sentence, or a capitalised first word that asks ("Please" not before
    a word that instructs: "Please provide …", not "Please ensure that all questions are completed …").
    A drafting note in square brackets before the words ("[Example Option 1] Please provide …", the
    template's note to its buyer) is read past: the words after it ask or not."""
    text = _NOTE.sub("", text, count=1)
    words = [re.sub(r"[^\w]", "", w) for w in text.split()[:2]]
    first = words[0] if words else ""
    if first.lower() in _PLEASE and (len(words) < 2 or words[1].lower() in _PLEASE_INSTRUCTS):
        return asks_by_mark(text)
    return asks_by_mark(text) or (first[:1].isupper() and first.lower() in _ASK_WORDS | _PLEASE)


def asks_yes_no(text: str) -> bool:
    first = re.sub(r"[^\w]", "", text.split()[0].lower()) if text.split() else ""
    return first in _YES_NO_WORDS


def sub_question(q: Found, before: list[Found]) -> Found:
    """A row that does not ask, under a question ending in "?" or ":" (a topic it lists: "- The open
    source policy …"), as that question's sub-question. A row with an ID of its own is a question of its
    own ("QU02" under a "QU01 … Supplier Response:", "7.7(e)" under "7.7(d) … Date:"), unless its ID
    goes on from the question's ("4.1(j) - (i)" under "4.1(j) Do any of the following …?", "1.f.i"
    under "1.f"): a numbered topic of that question."""
    lead = next((f for f in reversed(before) if SUB not in f.text), None)
    if lead is None or asks(q.text) or not re.search(r"[?:]\s*$", lead.text):
        return q
    if q.id and not _goes_on(q.id, lead.id):
        return q
    item = q.text.lstrip("-–• ").strip()
    place = q.choice_place or (q.text_place if lead.choices else None)
    return replace(q, text=f"{lead.text}{SUB}{item}", choices=lead.choices, choice_place=place)


def _goes_on(ident: str, lead: str | None) -> bool:
    """Whether ID ``ident`` goes on from the ID ``lead`` (starts with it and is longer), spaces left
    out and dashes made one: "4.1(j)–(iii)" from "4.1(j)", "1.f.i" from "1.f"."""

    def norm(s: str) -> str:
        return re.sub(r"[‐-―−]", "-", "".join(s.split()))

    return bool(lead) and len(norm(ident)) > len(norm(lead)) and norm(ident).startswith(norm(lead))
