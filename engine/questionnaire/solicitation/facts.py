"""A solicitation's key facts, each quoted with its page (the sentence that states it), or
"not stated": issuing organisation, solicitation number, response due date and time, questions
deadline, submission method, page limits and format, contract type, set-aside. Rules only: the
first sentence (in document order) that states each fact by its words; the due date is read
from the quote and said at the top when it is past or within 3 days."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime

from engine.questionnaire.solicitation.records import NOT_STATED, DueDateAlert, Fact, KeyFact, Page, Unit

_I = re.I
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE = re.compile(
    rf"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+)?(?P<m>{MONTHS})\.?\s+(?P<d>\d{{1,2}}),?\s+(?P<y>\d{{4}})\b"
    r"|\b(?P<mm>\d{1,2})/(?P<dd>\d{1,2})/(?P<yy>\d{4})\b",
    _I,
)
ZONE = re.compile(
    r"\b(ET|EST|EDT|CT|CST|CDT|MT|MST|MDT|PT|PST|PDT|HST|AKST|UTC|GMT|Eastern|Central|Mountain|Pacific|Hawaii)\b"
)
NUMBER = re.compile(
    r"\b(?:(?:RFP|RFQ|RFI|IFB|ITB|RFx|Solicitation)[-\s]*(?:No\.?|Number|#)?\s*[:#]?\s*)"
    r"(?P<n>[A-Z0-9][A-Z0-9\-_/]*\d[A-Z0-9\-_/]*)"
    r"|\b(?P<bare>(?=[A-Z0-9]*\d)(?=[0-9]*[A-Z])[A-Z0-9]{10,20})\b"
)
ORG = re.compile(
    r"\b(?:Issued by|Issuing (?:Office|Agency)|Purchasing (?:Agency|Office))\s*:?\s*(?P<o>.*)"
    r"|(?P<n>(?:The\s+)?(?:[A-Z][\w&.,'’-]*\s+){0,6}(?:Administration|Department|County|Corporation|Agency|"
    r"Authority|Commission|District|University|Office|Ministry|Council|City|State) of [A-Z][\w]+(?:\s+[A-Z][\w]+){0,3}"
    r"|(?:[A-Z][\w&.'’-]*\s+){1,6}(?:Administration|Corporation|Agency|Authority|Commission|County Government))",
)
ORG_DEFINED = re.compile(
    r"(?:[A-Z][\w.&'’-]*\s+){0,6}(?:Administration|Department|County(?: Government)?|Corporation|Corp\.|Agency|"
    r"Authority|Commission|District|University|Council|Government|Service|Office)\s*\(\s*[“\"]?[A-Z]{2,8}[”\"]?\s*\)"
)
RESPONSE = re.compile(
    r"\b(proposals?|quotes?|quotations?|bids?|applications?|responses?|offers?|submissions?|submit\w*)\b", _I
)
CLOCK = re.compile(r",?\s*(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?|noon)?(?:,?\s*\(?[A-Z][A-Za-z ]{0,20}\)?)?", _I)
SENTENCE_WORDS = 80  # a longer unit is a cover's or a table's lines run together, not a sentence that states a fact
SHORT_LINE = 50  # characters: a cover's or an address block's lines are shorter than a paragraph's
SENTENCE_END = re.compile(r"[.;!?](?=\s|$)")
SCHEDULE_ROW_WORDS = 12  # a schedule row's words (its date stands apart, after them)
SCHEDULE_REACH = 160  # characters after a schedule row's words where its date may stand
DUE = re.compile(
    r"\b(due|deadline|closing date|must be received|no later than|submitted (?:by|before)|received by|close[sd]? on)\b",
    _I,
)
QUESTIONS = re.compile(r"\b(questions?|inquir\w+|clarifications?)\b", _I)
METHOD = re.compile(
    r"\b(e-?buy|portal|bonfire|sam\.gov|electronically|via (?:e-?mail|email)|by e-?mail|hand[- ]deliver\w*|"
    r"sealed (?:envelope|package)|submitted (?:via|through|to|electronically))\b",
    _I,
)
LIMITS = re.compile(
    r"\b(?:page limit\w*|not (?:to )?exceed\s+\w+(?:\s+\(\d+\))?\s+(?:pages?|words)|no (?:more|greater) than\s+"
    r"\w+(?:\s+\(\d+\))?\s+(?:pages?|words)|\d+[- ]page|font size|point font|\d+\s*-?\s*point|margins?)\b",
    _I,
)
CONTRACT = re.compile(
    r"\b(firm[- ]fixed[- ]price|fixed[- ]price|time[- ]and[- ]materials|labor[- ]hours?|cost[- ]plus|"
    r"cost[- ]reimbursement|indefinite[- ]delivery|IDIQ|blanket purchase agreements?|BPAs?|"
    r"requirements contract|pre-?qualified (?:provider |vendor )?list)\b",
    _I,
)
SET_ASIDE = re.compile(
    r"\b(set[- ]aside|8\(a\)|HUBZone|service-disabled veteran|SDVOSB|WOSB|women-owned small business)\b", _I
)


def _first(units: Sequence[Unit], test) -> Unit | None:
    return next((u for u in units if test(u.text)), None)


def _fact(fact: Fact, unit: Unit | None) -> KeyFact:
    return KeyFact(fact, unit.text, unit.file, unit.page) if unit is not None else KeyFact(fact, NOT_STATED)


def _page_fact(fact: Fact, pages: Sequence[Page], pattern: re.Pattern[str], group: str) -> KeyFact:
    """A fact stated on a cover page: the line that holds it, quoted."""
    for page in pages[:3]:
        for a, b in page.lines:
            line = page.text[a:b]
            m = pattern.search(line)
            if m and (m.group(group) or "").strip():
                return KeyFact(fact, line, page.file, page.number)
    return KeyFact(fact, NOT_STATED)


def may_state(text: str) -> bool:
    """Whether a unit may state a key fact found in the body (a due date, the submission method,
    limits, contract type, set-aside): the only units a long package's shred keeps for them."""
    return any(p.search(text) for p in (DUE, METHOD, LIMITS, CONTRACT, SET_ASIDE))


def key_facts(
    pages: Sequence[Page], units: Sequence[Unit], unit_pages: Mapping[tuple[str, int], Page] | None = None
) -> tuple[KeyFact, ...]:
    """The key facts of a package: ``pages`` its first pages (the cover's facts), ``units`` those
    that may state a fact in the body (:func:`may_state`; all units will do), ``unit_pages`` the
    pages they are on, by (file, page) (default: ``pages``). See the module docstring."""
    number = _number(pages)
    org = _organisation(pages)
    texts = dict(unit_pages) if unit_pages is not None else {(p.file, p.number): p for p in pages}
    due = _dated(
        texts,
        units,
        lambda t: (
            RESPONSE.search(t) and not QUESTIONS.search(t) and not re.search(r"\banswers?\b", t, _I) and DUE.search(t)
        ),
        Fact.RESPONSE_DUE,
    )
    questions = _dated(texts, units, lambda t: DUE.search(t) and QUESTIONS.search(t), Fact.QUESTIONS_DEADLINE)
    method = _first(
        units, lambda t: METHOD.search(t) and re.search(r"\b(submi\w+|accepted|deliver\w*|upload\w*)\b", t, _I)
    )
    return (
        org,
        number,
        due,
        questions,
        _fact(Fact.SUBMISSION_METHOD, method),
        _fact(Fact.PAGE_LIMITS, _first(units, LIMITS.search)),
        _stated(Fact.CONTRACT_TYPE, units, texts, CONTRACT),
        _stated(Fact.SET_ASIDE, units, texts, SET_ASIDE),
    )


def _sentence(unit: Unit, page: Page | None) -> bool:
    """A sentence of the body, not a cover's lines run together: it ends as a sentence does, is not
    too long, not mostly capitals, and not a stack of short lines (an address block)."""
    words = unit.text.split()
    caps = sum(len(w) >= 2 and w.strip(".,:;()").isupper() for w in words)
    if not unit.text.endswith((".", ";", "!", "?")) or len(words) > SENTENCE_WORDS or caps >= len(words) / 3:
        return False
    lines = [b - a for a, b in (page.lines if page is not None else ()) if b > unit.start and a < unit.end]
    return len(lines) < 3 or sum(n < SHORT_LINE for n in lines) <= len(lines) / 2


def _stated(fact: Fact, units: Sequence[Unit], texts: Mapping[tuple[str, int], Page], pattern) -> KeyFact:
    """The first sentence that states the fact by its words; where only a cover's run of lines
    does, the part of it from the line the words are on to the end of their sentence."""
    sentence = next((u for u in units if pattern.search(u.text) and _sentence(u, texts.get((u.file, u.page)))), None)
    if sentence is not None:
        return _fact(fact, sentence)
    unit = _first(units, pattern.search)
    page = texts.get((unit.file, unit.page)) if unit is not None else None
    if unit is None or page is None:
        return _fact(fact, unit)
    at = unit.start + pattern.search(unit.text).start()
    start = max([unit.start] + [a for a, _ in page.lines if a <= at])
    end = SENTENCE_END.search(page.text, at, unit.end)
    return KeyFact(fact, page.text[start : end.end() if end else unit.end].strip(), unit.file, unit.page)


def _organisation(pages: Sequence[Page]) -> KeyFact:
    """The issuer: the "Issued by" line and the line after it on a cover page, else the first
    line of the first pages that names an organisation with its acronym ("The General Services
    Administration (GSA)": how a document names who issues it) with the rest of its sentence, else a cover line naming one."""
    for page in pages[:3]:
        for i, (a, b) in enumerate(page.lines):
            m = ORG.search(page.text[a:b])
            if m and m.group("o") is not None:
                end = b if m.group("o").strip() or i + 1 == len(page.lines) else page.lines[i + 1][1]
                return KeyFact(Fact.ISSUING_ORGANIZATION, page.text[a:end], page.file, page.number)
    for page in pages[:6]:
        for a, b in page.lines:
            if ORG_DEFINED.search(page.text[a:b]):  # the whole sentence, over the lines it runs on
                end = SENTENCE_END.search(page.text, a)
                return KeyFact(
                    Fact.ISSUING_ORGANIZATION,
                    page.text[a : end.end() if end else len(page.text)].strip(),
                    page.file,
                    page.number,
                )
    return _page_fact(Fact.ISSUING_ORGANIZATION, pages, ORG, "n")


def _dated(texts: Mapping[tuple[str, int], Page], units: Sequence[Unit], says, fact: Fact) -> KeyFact:
    """The first unit that ``says`` the fact and states a date, quoted; a schedule's row (the
    words, then the date a few lines below: "Deadline to Submit Written Questions: … August 13,
    2025 1:00 PM (HST)") quoted from its words to its date and time."""
    for unit in units:
        said = says(unit.text)
        if not said:
            continue
        if DATE.search(unit.text, said.start()):
            return KeyFact(fact, unit.text, unit.file, unit.page)
        page = texts.get((unit.file, unit.page))
        if page is None or not (unit.text.endswith(":") or len(unit.text.split()) <= SCHEDULE_ROW_WORDS):
            continue
        before = [d.end() for d in DATE.finditer(unit.text, 0, said.start())]
        start = unit.start + (before[-1] if before else 0)
        m = DATE.search(page.text, unit.end, unit.end + SCHEDULE_REACH)
        if m is None:
            continue
        between = page.text[unit.end : m.start()]
        if DATE.search(between) is None:
            end = m.end()
            clock = CLOCK.match(page.text, end)
            if clock:
                end = clock.end()
            return KeyFact(fact, page.text[start:end].strip(), unit.file, unit.page)
    return KeyFact(fact, NOT_STATED)


def _number(pages: Sequence[Page]) -> KeyFact:
    for page in pages[:3]:
        for a, b in page.lines:
            line = page.text[a:b]
            m = NUMBER.search(line)
            if m:
                return KeyFact(Fact.SOLICITATION_NUMBER, line, page.file, page.number)
    return KeyFact(Fact.SOLICITATION_NUMBER, NOT_STATED)


def due_date(fact: KeyFact) -> date | None:
    """The date a due-date quote states (the first one), or None."""
    m = DATE.search(fact.value) if fact.stated else None
    if m is None:
        return None
    try:
        if m.group("m"):
            return datetime.strptime(f"{m.group('m')} {m.group('d')} {m.group('y')}", "%B %d %Y").date()
        return date(int(m.group("yy")), int(m.group("mm")), int(m.group("dd")))
    except ValueError:
        return None


def due_alert(facts: Sequence[KeyFact], today: date | None = None) -> DueDateAlert | None:
    """The alert said at the top: the response due date past, or within 3 days."""
    due = next((due_date(f) for f in facts if f.fact is Fact.RESPONSE_DUE), None)
    if due is None:
        return None
    left = (due - (today or date.today())).days
    return DueDateAlert(due.isoformat(), left) if left <= 3 else None


def time_zone(fact: KeyFact) -> str:
    """The time zone a quote names ("" when none)."""
    m = ZONE.search(fact.value) if fact.stated else None
    return m.group(1) if m else ""


__all__ = ["due_alert", "due_date", "key_facts", "may_state", "time_zone"]
