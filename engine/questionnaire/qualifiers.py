"""Qualifiers: the questions whose answer decides whether a section of the questionnaire must be
answered at all ("Does your product process PHI?" = No → the HIPAA section is not required), and
the state of every question they govern.

Where qualifiers come from, in this order per questionnaire:

1. **The workbook's own formulas** (engine/questionnaire/formula_gates.py), read when the
   questionnaire is: a question whose answer formulas on *other* sheets compare with a value to
   say a row does not apply, or to say "DO NOT complete the … worksheets". HECVAT 4.x: each
   tab copies the START HERE REQU answers it depends on (``Product!C18 =
   VLOOKUP($A18,'START HERE'!$A$23:$F$36,3,0)``) and every governed row's Guidance reads the
   copy (``=IF($C$18='Auto Responses'!$J$4,'Auto Responses'!$A$3,…)``: "No" → "Based on the
   response to REQU-01 … this question does not apply"); REQU-01's own Guidance names the
   Product and Infrastructure worksheets, REQU-02's IT Accessibility, REQU-04's the AI
   worksheet (and the Privacy tab's AI rows, DPAI-xx, read REQU-04 too), REQU-08's the Privacy
   tab. On the blank HECVAT 4.1.4 this gives the same rows as the declared map below
   (tests/integration/test_qualifiers_real.py).
2. **A declared map of the templates we know**, for the qualifiers the formulas do not cover
   (a copy whose formulas were lost, a template without them). HECVAT 3.x Full: the "Required"
   column of its ``Questions`` sheet holds one formula per question (``=IF(N$18="Yes",1,0)``
   for every HIPA row, ``=IF(OR(N$24="1",N$24="2"),1,0)`` for the physical data-centre rows…)
   on a sheet apart from the rows the vendor answers (no formula there reads an answer from
   another sheet, so step 1 finds nothing); the map below is those formulas written out
   (QUAL-01 → HIPA, QUAL-02 → THRD, QUAL-03 → BCPL, QUAL-04 → DRPL, QUAL-05 → PCID, QUAL-06 →
   CONS, QUAL-07's hosting option → four groups of DCTR rows).
   HECVAT 4.x: the matrix beside the REQU rows of its ``Questions`` sheet (which tab or section
   each REQU question makes required): REQU-01 cloud → Product and Infrastructure, REQU-02
   interface → IT Accessibility, REQU-03 consulting → CONS, REQU-04 AI → the AI tab and DPAI,
   REQU-05 PHI → HIPA, REQU-06 card data → PCID, REQU-07 on-premises appliance → OPEM, REQU-08
   personal data → Privacy. A rule applies only when the qualifier's ID is there *and* its text
   says what the rule expects (``health``, ``credit card``…), so another questionnaire reusing
   an ID is never gated by mistake. HECVAT Lite 3.x has no qualifiers: nothing is switched off.
   Row-level follow-ups inside a section are switched off only where the template's guidance says
   so (CONS-06/08 = No: "No need to answer CONS-07/09"); the other row-level "Required" formulas
   (AAAI-12 "If you don't support SSO…") are not applied: vendors answer those rows anyway
   (Parchment answers AAAI-12 with AAAI-01 = "1) Yes").
3. **The questionnaire's own words**, when neither finds any: a question saying "If No, skip to 4.3"
   governs the questions after it up to (not including) 4.3; "If No, skip to section 4" up to the
   first question of section 4 (its ID, or the number its text starts with, is 4 or starts with
   "4."); "If No, no need to answer CONS-09" or "If No, do not answer questions X and Y" governs
   the IDs it names. A Word or PDF questionnaire's questions are sheet rows like any other: the
   Word reader keeps such an instruction with the question it follows when the document states
   it in a paragraph of its own (engine/questionnaire/word/reader.py, :func:`states_skip`).

A governed question is *not required* when its qualifier is answered with a value that does
not make it required. An answer that is not one of the qualifier's dropdown values ("N/A" where
the list is Yes/No, an error value the file holds) is no answer: it switches nothing off, and the
reason says so. A qualifier whose explanation names another of its options as well
("4) AWS" with "AWS and Colocation") counts as each option it names (HECVAT's guidance: a
combination of options), so the rows any of them requires stay required. An unanswered
qualifier switches nothing off.

Engine-only (no Streamlit); typed values at the boundary (:class:`Qualifier`, :class:`Gate`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Mapping, Sequence

from engine.questionnaire.formula_gates import formula_gates
from engine.questionnaire.language import english_choice
from engine.questionnaire.places import DOCUMENT_SHEET
from engine.questionnaire.records import Question, Questionnaire


class QualifierSource(str, Enum):
    FORMULAS = "formulas"  # the workbook's own formulas (engine/questionnaire/formula_gates.py: HECVAT 4's REQU)
    TEMPLATE = "template"  # a declared map of a known template (HECVAT 3.x Full, HECVAT 4.x)
    WORDING = "wording"  # the questionnaire's own words ("If No, skip to …")


@dataclass(frozen=True)
class Qualifier:
    """One qualifier question and the questions it governs. ``required_when``: the values (as
    words, or the option number of a numbered dropdown: "4" for "4) AWS") that make the governed
    questions required; any other answer switches them off. ``off_when``: the qualifier's
    dropdown values that switch them off (for display; empty when it has no dropdown)."""

    id: str  # the qualifier's question ID, or "Sheet row N"
    key: str  # the qualifier's question key (question_key below)
    sheet: str
    row: int
    section: str  # what it governs, in words ("HIPAA", "Datacenter (physical)")
    governs: tuple[str, ...]  # the governed questions' keys, in questionnaire order
    governs_ids: tuple[str, ...]  # their IDs (or "Sheet row N")
    required_when: tuple[str, ...]
    off_when: tuple[str, ...]
    source: QualifierSource
    options: tuple[str, ...] = ()  # its dropdown values when the workbook's could not be read (a template's)

    def switches_off(self, values: Sequence[str]) -> bool:
        """Whether an answer (its value, plus the other options its explanation names) switches
        the governed questions off: answered, and none of the values makes them required (for a
        qualifier known only by the values that switch it off, ``required_when`` empty: every
        value is one of ``off_when``)."""
        values = [v for v in values if v and v.strip()]
        if not self.required_when:
            return bool(values) and all(_value_matches(v, self.off_when) for v in values)
        return bool(values) and not any(_value_matches(v, self.required_when) for v in values)


@dataclass(frozen=True)
class Gate:
    """The state of one governed question: ``required`` False when its qualifier switches it
    off; ``value`` is the qualifier's answer ("No", "4) AWS"), None when unanswered."""

    key: str
    qualifier: str  # the qualifier's ID
    qualifier_key: str
    section: str
    value: str | None
    required: bool
    unlisted: str | None = None  # an answer that is not one of the qualifier's values (then ``value`` is None)

    @property
    def reason(self) -> str:
        """``not required (QUAL-01 = No)`` / ``required (QUAL-05 = Yes)`` / ``depends on QUAL-01 (unanswered)``
        / ``depends on QUAL-01 (N/A is not one of its values)``."""
        if self.value is None and self.unlisted:
            return f"depends on {self.qualifier} ({self.unlisted[:40]} is not one of its values)"
        if self.value is None:
            return f"depends on {self.qualifier} (unanswered)"
        return f"{'required' if self.required else 'not required'} ({self.qualifier} = {self.value})"


def question_key(q: Question) -> str:
    """A question's stable identity inside its questionnaire (its one definition: drafting, review and the review store key drafts by it)."""
    return f"{q.sheet}!{q.question_cell}"


def label(q: Question) -> str:
    """A question's name for people: its ID, else where it is ("Sheet1 row 12", a document's "paragraph 12")."""
    return q.id or (f"paragraph {q.row}" if q.sheet == DOCUMENT_SHEET else f"{q.sheet} row {q.row}")


# ---------------------------------------------------------------- declared templates


@dataclass(frozen=True)
class _Rule:
    qualifier: str  # question ID
    expects: str  # a regex the qualifier's text must match (case-insensitive)
    section: str
    governs: tuple[str, ...]  # ID prefixes ("HIPA-") or exact IDs ("DCTR-01") or "sheet:NAME"
    required_when: tuple[str, ...]
    options: tuple[str, ...] = ()  # the qualifier's dropdown values, when the workbook's cannot be read


_PHYSICAL_DC = ("DCTR-03", "DCTR-04", "DCTR-05", "DCTR-08", "DCTR-10", "DCTR-11", "DCTR-12", "DCTR-13", "DCTR-14")
_HOSTING = (
    "1) Self owned and managed",
    "2) Physical Co-location",
    "3) Virtual Co-location",
    "4) AWS",
    "5) Azure",
    "6) GCP",
    "7) Other",
)  # HECVAT 3.x's Values sheet, "Hosting"
# HECVAT 3.x Full, from the "Required" formulas of its Questions sheet (column K; N$24 is QUAL-07's
# option number: 1 self-owned, 2 physical co-location, 3 virtual co-location, 4 AWS, 5 Azure, 6 GCP, 7 other)
HECVAT3_FULL = (
    _Rule("QUAL-01", r"health|\bphi\b|hipaa", "HIPAA", ("HIPA-",), ("yes",)),
    _Rule("QUAL-02", r"third.part", "Third Parties", ("THRD-",), ("yes",)),
    _Rule("QUAL-03", r"continuity", "Business Continuity Plan", ("BCPL-",), ("yes",)),
    _Rule("QUAL-04", r"disaster", "Disaster Recovery Plan", ("DRPL-",), ("yes",)),
    _Rule("QUAL-05", r"credit card|card", "PCI DSS", ("PCID-",), ("yes",)),
    _Rule("QUAL-06", r"professional services|consult", "Consulting", ("CONS-",), ("yes",)),
    _Rule("QUAL-07", r"hosting", "Datacenter (hosting provider's SOC 2)", ("DCTR-01",), ("2", "3", "7"), _HOSTING),
    _Rule("QUAL-07", r"hosting", "Datacenter (physical)", _PHYSICAL_DC, ("1", "2"), _HOSTING),
    _Rule("QUAL-07", r"hosting", "Datacenter (outsourced)", ("DCTR-07",), ("2", "3", "4", "5", "6", "7"), _HOSTING),
    _Rule(
        "QUAL-07", r"hosting", "Datacenter (cloud)", ("DCTR-15", "DCTR-16", "DCTR-17"), ("3", "4", "5", "6"), _HOSTING
    ),
    # the template's own "No" guidance of two follow-ups: "No need to answer CONS-07" / "… CONS-09"
    _Rule("CONS-06", r"transferred", "CONS-07 (follow-up)", ("CONS-07",), ("yes",)),
    _Rule("CONS-08", r"remote access", "CONS-09 (follow-up)", ("CONS-09",), ("yes",)),
)
# HECVAT 4.x: the REQU matrix of its Questions sheet (columns Start…Privacy of the REQU rows)
HECVAT4 = (
    _Rule("REQU-01", r"cloud", "Product and Infrastructure tabs", ("sheet:Product", "sheet:Infrastructure"), ("yes",)),
    _Rule("REQU-02", r"interface", "IT Accessibility tab", ("sheet:IT Accessibility",), ("yes",)),
    _Rule("REQU-03", r"consult", "Consulting", ("CONS-",), ("yes",)),
    _Rule("REQU-04", r"\bai\b", "AI tab", ("sheet:AI", "DPAI-"), ("yes",)),  # and the Privacy tab's AI rows
    _Rule("REQU-05", r"health|\bphi\b|hipaa", "HIPAA", ("HIPA-",), ("yes",)),
    _Rule("REQU-06", r"credit card", "PCI DSS", ("PCID-",), ("yes",)),
    _Rule("REQU-07", r"appliance|on.prem", "On-premises", ("OPEM-",), ("yes",)),
    _Rule("REQU-08", r"personal|institutional data", "Privacy tab", ("sheet:Privacy",), ("yes",)),
)
TEMPLATES = {"HECVAT 3.x Full": HECVAT3_FULL, "HECVAT 4.x": HECVAT4}


def _selects(selector: str, q: Question) -> bool:
    if selector.startswith("sheet:"):
        return q.sheet == selector[6:]
    if selector.endswith("-"):
        return bool(q.id) and q.id.upper().startswith(selector)
    return (q.id or "").upper() == selector


def _from_template(questions: Sequence[Question]) -> list[Qualifier]:
    by_id = {q.id.upper(): q for q in questions if q.id}
    found: list[Qualifier] = []
    for rules in TEMPLATES.values():
        for rule in rules:
            qual = by_id.get(rule.qualifier)
            if qual is None or not re.search(rule.expects, qual.text, re.I):
                continue
            governed = [q for q in questions if q is not qual and any(_selects(s, q) for s in rule.governs)]
            if governed:
                found.append(
                    _qualifier(qual, rule.section, governed, rule.required_when, QualifierSource.TEMPLATE, rule.options)
                )
    return found


# ---------------------------------------------------------------- the workbook's formulas


def _from_formulas(questionnaire: Questionnaire) -> list[Qualifier]:
    """Qualifiers whose answer other sheets' formulas read (:mod:`engine.questionnaire.formula_gates`)."""
    questions = list(questionnaire.questions)
    by_cell: dict[tuple[str, str], Question] = {}
    for q in questions:
        for cell in (q.choice_cell, q.text_cell):
            if cell:
                by_cell.setdefault((q.sheet, cell), q)
    found: list[Qualifier] = []
    for g in formula_gates(questionnaire.path):
        qual = by_cell.get(g.cell)
        if qual is None:
            continue
        rows = set(g.rows)
        governed = [q for q in questions if q is not qual and (q.sheet in g.sheets or (q.sheet, q.row) in rows)]
        if not governed:
            continue
        if g.on_values:
            required = g.on_values
        else:  # only the values that switch it off: the other options, else those values themselves
            required = tuple(c for c in qual.choices if not _value_matches(c, g.off_values))
        off = tuple(c for c in qual.choices if not _value_matches(c, required)) if required else g.off_values
        section = g.section or (
            " and ".join(g.sheets) + (" tabs" if len(g.sheets) > 1 else " tab")
            if g.sheets
            else ", ".join(dict.fromkeys(label(q).split("-")[0] for q in governed))
        )
        found.append(
            Qualifier(
                label(qual),
                question_key(qual),
                qual.sheet,
                qual.row,
                section,
                tuple(question_key(q) for q in governed),
                tuple(label(q) for q in governed),
                tuple(required),
                tuple(off),
                QualifierSource.FORMULAS,
            )
        )
    return found


# ---------------------------------------------------------------- the questionnaire's own words

_REF = r"(?:(?P<kind>question|section|part|item)\s+)?(?P<target>[A-Za-z]{0,10}[-_.]?\d[\w.&-]*)"
_SKIP = re.compile(
    r"\bif\s+(?:you\s+answered\s+)?[\"“']?(?P<when>no|yes|not applicable|n/?a)[\"”']?\b[^.;]{0,40}?"
    r"\b(?:skip|go|proceed|continue|move)\s+(?:on\s+)?to\s+" + _REF,
    re.I,
)
_DONT = re.compile(
    r"\bif\s+[\"“']?(?P<when>no|yes)[\"”']?\b[^.;]{0,20}?\b(?:no need to|do not|don't|you need not)\s+"
    r"(?:answer|complete|respond to)\s+(?:questions?\s+)?(?P<ids>[\w&.-]+(?:\s*(?:,|and|through|to|-)\s*[\w&.-]+)*)",
    re.I,
)


def _from_wording(questions: Sequence[Question]) -> list[Qualifier]:
    found: list[Qualifier] = []
    for i, qual in enumerate(questions):
        m = _SKIP.search(qual.text)
        if m:
            target, kind = m["target"].rstrip(".").upper(), (m["kind"] or "").lower()
            section = kind in ("section", "part")  # up to its first question: "4", or "4.1"
            later = [q for q in questions[i + 1 :] if q.sheet == qual.sheet]
            stop = next(
                (j for j, q in enumerate(later) if _names(q, target) or section and _in_section(q, target)), None
            )
            if stop:
                found.append(
                    _qualifier(
                        qual,
                        " ".join(filter(None, ("up to", kind, m["target"].rstrip(".")))),
                        later[:stop],
                        _opposite(m["when"]),
                        QualifierSource.WORDING,
                    )
                )
                continue
        m = _DONT.search(qual.text)
        if m:
            wanted = {t.upper() for t in re.findall(r"[A-Za-z]{0,10}[-_.]?\d[\w.&-]*", m["ids"])}
            governed = [q for q in questions if q is not qual and any(_names(q, t) for t in wanted)]
            if governed:
                found.append(
                    _qualifier(
                        qual,
                        ", ".join(label(q) for q in governed),
                        governed,
                        _opposite(m["when"]),
                        QualifierSource.WORDING,
                    )
                )
    return found


def _names(q: Question, target: str) -> bool:
    """Whether ``target`` ("4.3", "CONS-09") names question ``q``: its ID, or the number its text starts with."""
    target = target.upper().rstrip(".")
    if q.id and q.id.upper().rstrip(".") == target:
        return True
    head = q.text.split(maxsplit=1)[0].rstrip(".):").upper() if q.text.split() else ""
    return head == target


def _in_section(q: Question, target: str) -> bool:
    """Whether question ``q`` is in section ``target`` ("4"): its ID, or the number its text starts
    with, starts with "4." ("4.1", "4.2.3")."""
    head = q.text.split(maxsplit=1)[0].upper() if q.text.split() else ""
    return any(n.startswith(target + ".") for n in ((q.id or "").upper(), head))


def states_skip(text: str) -> bool:
    """Whether ``text`` states a qualifier the wording rules read ("If No, skip to section 4", "If you
    answered No, go to question 12", "If No, no need to answer CONS-09")."""
    return bool(_SKIP.search(text) or _DONT.search(text))


def _opposite(when: str) -> tuple[str, ...]:
    """The values that keep the governed questions required when "If <when>, skip" switches them off."""
    when = when.lower()
    return ("no",) if when == "yes" else ("yes",)


# ---------------------------------------------------------------- public entry points


def _qualifier(
    qual: Question,
    section: str,
    governed: Sequence[Question],
    required_when: tuple[str, ...],
    source: QualifierSource,
    options: tuple[str, ...] = (),
) -> Qualifier:
    options = qual.choices or options
    off = tuple(c for c in options if not _value_matches(c, required_when))
    return Qualifier(
        label(qual),
        question_key(qual),
        qual.sheet,
        qual.row,
        section,
        tuple(question_key(q) for q in governed),
        tuple(label(q) for q in governed),
        tuple(required_when),
        off,
        source,
        () if qual.choices else options,
    )


def find_qualifiers(questionnaire: Questionnaire | Sequence[Question]) -> tuple[Qualifier, ...]:
    """The qualifiers of a questionnaire: what the workbook's formulas say, then a known
    template's declared map for the qualifiers the formulas do not cover, else what the
    questions' own words say (see the module docstring). Questions without their workbook
    (a sequence) have no formulas to read."""
    if isinstance(questionnaire, Questionnaire):
        questions = list(questionnaire.questions)
        formulas = _from_formulas(questionnaire)
    else:
        questions, formulas = list(questionnaire), []
    read = {x.id for x in formulas}
    declared = [x for x in _from_template(questions) if x.id not in read]
    return tuple(formulas + declared or _from_wording(questions))


def qualifiers_of(questionnaire: Questionnaire) -> tuple[Qualifier, ...]:
    """The qualifiers of a questionnaire read (:func:`find_qualifiers`), found once per
    questionnaire object and kept on it (as ``functools.cached_property`` keeps a value): the
    Review screen asks on every rerun."""
    found = questionnaire.__dict__.get("_qualifiers")
    if found is None:
        found = questionnaire.__dict__["_qualifiers"] = find_qualifiers(questionnaire)
    return found


def drafting_order(questions: Sequence[Question], qualifiers: Sequence[Qualifier]) -> list[Question]:
    """The qualifiers first, then the questions no qualifier governs, then the governed ones (each
    group in questionnaire order): a section's state is known before its questions are drafted,
    and a reviewer who answers a qualifier while the rest drafts decides its section before the
    run reaches it."""
    first = {q.key for q in qualifiers}
    governed = {k for q in qualifiers for k in q.governs} - first

    def group(q: Question) -> int:
        key = question_key(q)
        return 0 if key in first else 2 if key in governed else 1

    return sorted(questions, key=group)  # stable: questionnaire order within each group


# (value, explanation) as the questionnaire or the reviewer has it: the dropdown's choice and the
# Additional Information text; for a question without a dropdown, its text and the comment cell's
Answer = tuple[str | None, str | None]


def answer_of(q: Question, choice: str | None, text: str | None, comment: str | None = None) -> Answer:
    """A question's (value, explanation) from its cells: the choice and the text cell when it has
    a dropdown, else the text cell and the comment cell."""
    return (choice, text) if q.choice_cell else (text, comment)


def gates(
    qualifiers: Sequence[Qualifier], answers: Mapping[str, Answer], choices: Mapping[str, Sequence[str]] | None = None
) -> dict[str, Gate]:
    """The state of every governed question, from the qualifiers' current answers (``answers``:
    question key → (value, explanation), see :func:`answer_of`); ``choices``: a qualifier's
    dropdown values, to read the options its explanation names (a template's own list when the
    workbook's dropdown could not be read). An answer outside those values switches nothing off. A
    question governed by several qualifiers is not required when any of them switches it off."""
    out: dict[str, Gate] = {}
    for qual in qualifiers:
        given, text = answers.get(qual.key, (None, None))
        value, options = _value(given), (choices or {}).get(qual.key) or qual.options
        unlisted = value if value and options and not _listed(value, options) else None
        if unlisted:
            value, off = None, False
        else:
            off = qual.switches_off([value or ""] + _named_options(text, options, value))
        for key in qual.governs:
            gate = Gate(key, qual.id, qual.key, qual.section, value or None, not off, unlisted)
            if key not in out or (out[key].required and not gate.required):
                out[key] = gate
    return out


def contradiction(gate: Gate | None, answer: Answer) -> str | None:
    """A follow-up answered although its qualifier switches its section off: the answer and the
    qualifier disagree (one of them is wrong); None otherwise."""
    choice, text = answer
    if gate is None or gate.required or gate.value is None:
        return None
    given = (choice or "").strip() or (text or "").strip()
    if not given or is_na(given):
        return None
    return (
        f"answered ({given[:40]}) although {gate.qualifier} = {gate.value} says the {gate.section} "
        "section is not required: check the qualifier or clear this answer"
    )


# ---------------------------------------------------------------- values


def _norm(v: str) -> str:
    return " ".join(v.lower().replace("’", "'").split()).strip(" .")


def _option_number(v: str) -> str | None:
    m = re.match(r"\s*(\d+)\s*[).:-]", v)
    return m.group(1) if m else None


def _value_matches(value: str, tokens: Sequence[str]) -> bool:
    # a Yes or No in the questionnaire's language ("Ja", "Non", "はい") is its Yes or No (issue #58)
    n, num, said = _norm(value), _option_number(value), english_choice(value)
    for t in tokens:
        t = _norm(t)
        if n == t or (num is not None and num == t) or re.sub(r"^\d+\)\s*", "", n) == t:
            return True
        if said is not None and said == english_choice(t):
            return True
    return False


def _listed(value: str, options: Sequence[str]) -> bool:
    """Whether an answer is one of a dropdown's values ("No" of Yes/No; "4) AWS" or "AWS" of "4) AWS")."""
    return _value_matches(value, options) or any(_value_matches(o, [value]) for o in options)


def _value(given: str | None) -> str | None:
    """The value of an answer: a short one as it is ("No", "4) AWS"), a short sentence's leading Yes
    or No ("Yes, with every processor." → "Yes"); a numbered option leading
    its explanation, as a draft without a dropdown is written ("4) AWS — Canvas Credentials is
    hosted by …"); of a sentence written where a choice was expected, its leading Yes/No ("No, we
    do not…" → "No"); else None."""
    if not given or not given.strip():
        return None
    given = given.strip()
    if len(given) <= 60 and "\n" not in given:
        sentence = re.match(r"(yes|no)\b[\s,.;:—-]+\w", given, re.I)  # "Yes, with every processor."
        return sentence.group(1).capitalize() if sentence else given
    head = given.split(" — ", 1)[0].strip()
    if re.fullmatch(r"\d{1,2}\)[ \t]*[^\n]{1,50}", head):
        return head
    m = re.match(r"(yes|no|n/?a)\b", given, re.I)
    return m.group(1).capitalize() if m else None


def is_na(text: str) -> bool:
    return _norm(text) in {"n/a", "na", "not applicable", "none"}


_STOP = {"and", "the", "other", "self", "with", "for", "owned", "managed"}


def _named_options(text: str | None, options: Sequence[str], choice: str | None) -> list[str]:
    """The other options of a numbered dropdown that an explanation names ("AWS and Colocation"
    names "2) Physical Co-location" and "3) Virtual Co-location")."""
    if not text or not options:
        return []
    words = set(re.findall(r"[a-z0-9]+", text.lower().replace("-", "")))
    named = []
    for option in options:
        if option == choice:
            continue
        own = {
            w
            for w in re.findall(r"[a-z0-9]+", re.sub(r"^\s*\d+\)", "", option).lower().replace("-", ""))
            if len(w) >= 3 and w not in _STOP
        }
        if own & words:
            named.append(option)
    return named


__all__ = [
    "Answer",
    "Gate",
    "Qualifier",
    "QualifierSource",
    "answer_of",
    "contradiction",
    "drafting_order",
    "find_qualifiers",
    "gates",
    "is_na",
    "question_key",
    "states_skip",
]
