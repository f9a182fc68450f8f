"""What a reviewer reads about a draft in a second: one short line per reason to look at it,
the lists behind each line kept apart (``details``, shown on demand).

A reason is a :class:`Warning`: ``line`` ("Other products disagree: Yes ×5, No ×2"), its
``details`` (which product said what), the question list's ``icon`` and whether it is
``quiet`` — information where nothing is in doubt ("Yes, as 8 other products answered", "From
Instructure Security Overview (2024-12-20), p. 15"), one grey line and never a coloured box. What
is true of many rows at once is not a line of each: a library answer past its review-by date
(``Draft.reused_due``) is one line above the Review list, with its filter (ui/screens/review.py,
``stale_line``), not a warning of every card that reuses one (#50). The lines are made from the draft's own record
(engine/drafting/records.py), so a stored draft shows the same lines after a restart; which
drafts the reviewer reads first is the risk ranking's (engine/drafting/risk.py), not the number
of lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.types import DraftStatus, SourceKind
from engine.drafting.company_text import origin_line
from engine.drafting.risk import REVIEW_FIRST_RISK, Draft, risk_of
from engine.questionnaire.language import Language


@dataclass(frozen=True)
class Warning:  # noqa: A001 — the reviewer's word for it; Python's builtin is never used here
    """One reason to look at a draft: a line, the lists behind it, the list's icon, and whether
    it is only information (nothing in doubt)."""

    line: str
    details: tuple[str, ...] = ()
    icon: str = "priority_high"
    quiet: bool = False


_PRODUCT = re.compile(r"^(?P<who>.+?): (?P<choice>[^:]*)$")  # "Parchment's HECVAT: No"


def _tally(past_choices: dict[str, int]) -> str:
    """ "Yes ×5, No ×2", most common first."""
    ranked = sorted(past_choices.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{choice} ×{n}" for choice, n in ranked)


def _products(past_answers: tuple[str, ...]) -> int:
    """How many past answers are named (one per product and questionnaire)."""
    return len({_PRODUCT.match(a).group("who") if _PRODUCT.match(a) else a for a in past_answers})


def past_answers(draft: Draft) -> Warning | None:
    """The near-identical past answers behind a reused choice: a warning when they disagree, a
    quiet line when they agree (and how many), none when there were none."""
    if not draft.reused or not draft.past_choices:
        return None
    others = "Other products" if draft.from_product else "Past answers"
    details = tuple(draft.past_answers)
    if len(draft.past_choices) > 1:
        return Warning(f"{others} disagree: {_tally(draft.past_choices)}", details, "call_split")
    n = max(_products(draft.past_answers), sum(draft.past_choices.values()))
    choice = next(iter(draft.past_choices))
    if draft.from_product:
        if n == 1:  # one other product's word only: nothing to agree with (in doubt where its risk says so)
            quiet = (risk_of(draft) or 0.0) < REVIEW_FIRST_RISK
            line = f"{choice}: one other product's past answer only ({draft.from_product})"
            return Warning(line, details, "swap_horiz", quiet=quiet)
        return Warning(f"{choice}, as {n} other products answered", details, "swap_horiz", quiet=True)
    said = "past answer" if n == 1 else f"{n} past answers agree"
    return Warning(f"{choice}: {said}", details, "history", quiet=True)


def _company_products(draft: Draft) -> tuple[str, ...]:
    """The products whose past answers a company text (a narrative without a choice) is the same
    in, as its citations name them; () for any other draft — one whose text another product's choice
    leads (``past_choices``: a Yes/No row without a dropdown, "Yes — …") cites that product for its
    choice alone, not for the text (#59: COMP-03's "The same in 2 products' past answers: Parchment,
    …", Parchment having answered in its own words)."""
    if draft.choice or draft.past_choices or not draft.reused or not draft.from_product:
        return ()
    cited = tuple(dict.fromkeys(c.product for c in draft.citations if c.kind is SourceKind.LIBRARY and c.product))
    return cited if len(cited) >= 2 else ()


def warnings_of(draft: Draft) -> tuple[Warning, ...]:
    """The reasons to look at a drafted answer, one line each; () when it is not a draft."""
    if draft.status is not DraftStatus.DRAFTED:
        return ()
    out: list[Warning] = []
    past = past_answers(draft)
    if past is not None:
        out.append(past)
    if draft.cut_to:  # longer than the question allows: cut at a sentence (engine/drafting/drafter.py)
        out.append(Warning(f"Cut to {draft.cut_to}, the length the question allows: check the end", icon="content_cut"))
    if draft.low_confidence and draft.choice_probability is not None:
        out.append(Warning(f"The model was unsure of {draft.choice} ({draft.choice_probability:.0%})"))
    elif draft.low_confidence:
        out.append(Warning("Low confidence"))
    third = draft.inherited_from
    if third:
        out.append(Warning(f"Only a third party's document supports this ({third})", icon="handshake"))
    company = _company_products(draft)
    if draft.text_source == "shared_past" and company:  # a narrative several products answered alike (#59)
        out.append(Warning(origin_line(company), tuple(draft.past_answers), "groups", quiet=not draft.text_differs))
    elif draft.text_source == "shared_past":
        out.append(
            Warning(
                "The text comes from other products' past answers (their names left out)",
                icon="groups",
                quiet=True,
            )
        )
    if draft.text_differs:
        who = ", ".join(draft.text_differs)
        line = (
            f"Other products answered this in other words ({who}): check which is right"
            if company
            else f"Other products answered this in different words ({who}): none is the company's"
        )
        out.append(Warning(line, tuple(draft.text_differs), "call_split"))
    if draft.at_odds:
        out.append(Warning(f"The text seems to say the opposite of {draft.choice}: check which is right", icon="rule"))
    if draft.stated:
        out.append(Warning(f"Answered from the documents: {draft.stated}", icon="policy"))
    if draft.profile_fact:
        out.append(Warning(f"Profile fact ({draft.profile_fact})", icon="badge", quiet=True))
    if draft.removed:
        n = len(draft.removed)
        out.append(
            Warning(
                f"{n} link{'s' if n > 1 else ''} or contact{'s' if n > 1 else ''} taken out: in none of your sources",
                tuple(draft.removed),
                "link_off",
            )
        )
    if draft.translated_from:  # issue #58: a past answer in another language, its origin cited
        out.append(_past_translation(draft))
    if draft.translated:  # issue #58: the model's translation, its English source kept on the card
        changed = numbers_changed(draft.english or "", draft.answer)
        out.append(
            Warning(
                f"Translated into {_language_name(draft.language)} by the model from the English text: check the wording"
                + (f"; its numbers differ from the English ({', '.join(changed)})" if changed else ""),
                (draft.english or "",),
                "translate",
            )
        )
    elif draft.untranslated and not draft.translated_from:
        out.append(
            Warning(
                f"Not translated into {_language_name(draft.language)}: the model's translation failed, the text is "
                "in English; translate it by hand",
                icon="translate",
            )
        )
    if draft.model_wording or draft.text_source == "model":
        out.append(Warning("Written by the model", icon="edit_note"))
    elif draft.text_origin:  # a documents' sentence or a reference, word for word: where it is from
        out.append(Warning(draft.text_origin, icon="description", quiet=True))
    return tuple(out)


_NUMBER = re.compile(r"\d+")


def numbers_changed(english: str, translated: str) -> tuple[str, ...]:
    """The numbers a translation holds that its English source does not, or lost (a number is
    written alike in every language the product translates into, its separators aside: "1,000" and
    "1.000" are both 1 and 000): the default model wrote COMP-01's "tens of millions" as "100
    Millionen". Each number once, the translation's first."""
    said, kept = _NUMBER.findall(english), _NUMBER.findall(translated)
    added = [n for n in dict.fromkeys(kept) if kept.count(n) > said.count(n)]
    lost = [n for n in dict.fromkeys(said) if said.count(n) > kept.count(n)]
    return tuple(added + lost)


_CHOICE_WORDS = 4  # a cited past answer of this many words or fewer is a choice ("Ja", "4) AWS"), not a text


def _past_translation(draft) -> Warning:
    """The line of a reused past answer written in another language (``Draft.translated_from``):
    where it comes from, and whether the model translated it or its own words are kept."""
    cited = [c for c in draft.citations if c.kind is SourceKind.LIBRARY]
    # the past answer the text came from: not another product's bare choice cited before its shared explanation
    past = next((c for c in cited if len(c.quote.split()) > _CHOICE_WORDS), cited[0] if cited else None)
    origin = past.location.label().removeprefix("past answer: ") if past is not None else "the answer library"
    name = _language_name(draft.translated_from)
    if draft.untranslated:
        return Warning(
            f"Not translated: the {name} answer of {origin} is reused in its own words; translate it by hand",
            icon="translate",
        )
    return Warning(
        f"Translated from the {name} answer of {origin}: check the wording",
        (past.quote,) if past is not None else (),
        "translate",
    )


def _language_name(code: str | None) -> str:
    """ "German" for "de"; the code itself for one not known."""
    found = Language.parse(code)
    return found.label if found else (code or "another language")


__all__ = ["Warning", "numbers_changed", "past_answers", "warnings_of"]
