"""The mapping a reviewer checks before drafting: for each question its key, ID, where it is in
the file (:func:`location`: a page of a PDF, a paragraph of a Word document, a sheet's row), text,
kind (``choice``, ``text``, ``checkbox``, ``date``), choices and where its answer goes, and the
counts by kind. The same for every format: a spreadsheet question's answer goes to its cells, a
document question's to its answer places (engine/questionnaire/places.py). Read by ``inspect
--json`` (engine/cli/inspect.py) and the Questionnaire screen."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.questionnaire.formats import FORMATS, format_of
from engine.questionnaire.places import AnswerPlace, place_key, question_kind
from engine.questionnaire.records import Question, Questionnaire


@dataclass(frozen=True)
class Mapped:
    """One question as the mapping shows it."""

    key: str  # "Document!A12", "Sheet1!B7": the question's identity (engine.questionnaire.qualifiers.question_key)
    id: str | None
    location: str  # where the question is: "page 3", "paragraph 12", "sheet Security · row 7"
    text: str
    kind: str
    choices: tuple[str, ...]
    place: str  # where the answer goes, in words: "Observations" (its column's header), "C12 (dropdown B12)", "new paragraph: …"
    choice_place: AnswerPlace | None
    text_place: AnswerPlace | None
    answered: bool
    several: bool = False  # a choice of several ("tick all that apply": records.Question.several)

    def to_json(self) -> dict:
        out: dict = {
            "key": self.key,
            "id": self.id,
            "location": self.location,
            "text": self.text,
            "kind": self.kind,
            "choices": list(self.choices),
        }
        if self.several:
            out["several"] = True
        out["answer_place"] = {
            name: place.to_json() for name, place in (("choice", self.choice_place), ("text", self.text_place)) if place
        } or self.place
        out["answered"] = self.answered
        return out


def mapped(questionnaire: Questionnaire, q: Question) -> Mapped:
    """The mapping of question ``q`` of ``questionnaire``."""
    places = questionnaire.places
    choice = places.get(place_key(q.sheet, q.choice_cell)) if q.choice_cell else None
    text = places.get(place_key(q.sheet, q.text_cell)) if q.text_cell else None
    if places:
        kind = question_kind(choice, text)
        where = "; ".join(_words(p) for p in (choice, text) if p is not None) or "none"
    else:
        kind = "choice" if q.choice_cell else "text"
        where = ", ".join(f"{label} {ref}" for label, ref in (("choice", q.choice_cell), ("text", q.text_cell)) if ref)
    return Mapped(
        f"{q.sheet}!{q.question_cell}",
        q.id,
        location(questionnaire, q),
        q.text,
        kind,
        q.choices,
        where,
        choice,
        text,
        q.answered,
        q.several,
    )


def location(questionnaire: Questionnaire, q: Question) -> str:
    """Where question ``q`` is in its file, in the reviewer's words: "page 3" in a PDF (form or flat),
    "paragraph 12" in a Word document, "sheet Security · row 7" in a spreadsheet; a Word solicitation's
    requirement by its order in the document ("requirement 7 of the document"): its format's
    (engine/questionnaire/formats.py)."""
    # a record made without a questionnaire file of a format read (a test's, a stand-in's): its sheet's row
    return (format_of(questionnaire.path) or FORMATS[".csv"]).location(questionnaire, q)


def _words(place: AnswerPlace) -> str:
    """A place in the reviewer's words: by its column's header when it is in a table column
    ("Response: In Place / Not in Place", "Observations"), else by its kind ("table cell")."""
    what = place.column or place.kind.value + (f" ({place.control})" if place.control else "")
    if place.options:
        what += ": " + " / ".join(label for label, _ in place.options)
    limit = " and ".join(
        f"max {n} {unit}" for n, unit in ((place.max_words, "words"), (place.max_chars, "characters")) if n
    )
    note = "" if place.column else place.note  # the column's header says where; its kind's note says how
    return what + (f", {limit}" if limit else "") + (f" — {note}" if note else "")


def mapping(questionnaire: Questionnaire) -> list[Mapped]:
    """Every question's mapping, in order."""
    return [mapped(questionnaire, q) for q in questionnaire.questions]


def kind_counts(rows: list[Mapped]) -> dict[str, int]:
    """How many questions of each kind ({"choice": 12, "text": 30})."""
    return dict(Counter(r.kind for r in rows).most_common())


__all__ = ["Mapped", "kind_counts", "location", "mapped", "mapping"]
