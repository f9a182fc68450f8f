"""Write answers into a PDF form's fields, and check that nothing else changed.

:func:`write_pdf` takes the questionnaire read by engine/questionnaire/pdf/reader.py and the answer
writes (:class:`~engine.questionnaire.places.AnswerWrite`: anything with ``.sheet``, ``.cell`` and
``.value``, as engine.questionnaire.writes' ``CellWrite``), looks each write up
in ``Questionnaire.places`` and fills that place:

- a text field: its value (``/V``) and an appearance drawn by MuPDF (``/AP``), on every widget of
  the field and on the widgets stacked on it (see form.py), with no script run
  (``pdf_set_field_value`` with its trigger events ignored);
- a combo or list box: the choice's export value, its display text drawn;
- check boxes and radio buttons: the chosen box's ``/AS`` set to its own "on" state, the others'
  to ``Off``, and the field's ``/V``; their appearances are the document's own (the tick it
  draws), never redrawn.

The file is saved **incrementally** (every byte of the original stays, the changes are appended;
an encrypted form keeps its encryption), then re-opened and compared with the original, object by
object (:func:`changes`): the filled fields may change their value, ``/AS`` and appearance, new
appearance streams may appear, and for a hybrid form the XFA copy and the Reader-extension
signature are removed (pdf_reader.py says why); anything else that differs (a page's content or
text, another annotation, another field, the form's dictionary) means nothing is written, and the
one-line :class:`PdfWriteError` names the first differences. The target is written atomically
(engine/core/files.py).

What a viewer tolerates, the check tolerates too: a widget whose ``/Rect`` is stored upside down
(``y1 < y0``, ``x1 < x0``) is the same rectangle once MuPDF, drawing its appearance, writes it
the right way up.

One answer never refuses the others: given an ``unwritten`` list, an answer that cannot be written
(a choice the field does not offer, a text longer than the field holds, a field whose filling the
check finds changing more than its answer, a value that does not read back) is left out and listed
there (:class:`~engine.questionnaire.places.Unwritten`: its place and why), and the form is written
with the others. Without the list, the first such answer refuses the whole export, as before.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from engine.core.files import write_atomic
from engine.core.types import FileProblem
from engine.questionnaire.pdf.layout import page_widgets, pdf_name
from engine.questionnaire.pdf.reader import has_xfa, open_pdf
from engine.questionnaire.places import AnswerPlace, AnswerWrite, PlaceKind, Unwritten, answer_values
from engine.questionnaire.records import CHOICE_SEPARATOR, Questionnaire, QuestionnaireError, picked_choices

_REF = re.compile(r"(\d+) 0 R")
_TEXT_KINDS = (pymupdf.PDF_WIDGET_TYPE_TEXT, pymupdf.PDF_WIDGET_TYPE_COMBOBOX, pymupdf.PDF_WIDGET_TYPE_LISTBOX)
_BOX_KINDS = (pymupdf.PDF_WIDGET_TYPE_CHECKBOX, pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON)
RESAVE = "open the form in a PDF viewer, save it again and export again"
_ROUNDS = 8  # fills at most: each one after the first leaves out the answers the check blamed


class PdfWriteError(FileProblem):
    """A PDF export that cannot be done, or whose result would change more than the answers."""


@dataclass(frozen=True)
class _Widget:
    page: int
    xref: int
    name: str
    kind: int
    on_state: str
    box: pymupdf.Rect
    max_chars: int = 0
    nth: int = 0  # its place among the widgets of its field name, in page order


@dataclass
class _Plan:
    """What to write: text values by field name, box states by widget xref; each entry's answer
    place (its pseudo-cell key), so that an answer can be left out whole."""

    texts: dict[str, str] = field(default_factory=dict)  # field name → value (export value for a choice)
    shown: dict[str, str] = field(default_factory=dict)  # field name → the text its appearance shows
    states: dict[int, str] = field(default_factory=dict)  # widget xref → its new /AS ("Off" or its on state)
    places: dict[str | int, str] = field(default_factory=dict)  # field name or widget xref → place key

    def text(self, key: str, name: str, value: str, shown: str) -> None:
        self.texts[name], self.shown[name], self.places[name] = value, shown, key

    def state(self, key: str, xref: int, state: str) -> None:
        self.states[xref], self.places[xref] = state, key

    def drop(self, key: str) -> None:
        """Leave out everything the answer at place ``key`` would write."""
        for entry in [e for e, k in self.places.items() if k == key]:
            del self.places[entry]
            if isinstance(entry, int):
                self.states.pop(entry, None)
            else:
                self.texts.pop(entry, None)
                self.shown.pop(entry, None)

    def keys_of(self, xrefs: Iterable[int], widgets: list[_Widget]) -> set[str]:
        """The answer places that wrote the widgets ``xrefs`` (by their state or their field's value)."""
        names = {w.xref: w.name for w in widgets}
        out = set()
        for x in xrefs:
            for entry in (x, names.get(x)):
                if entry in self.places:
                    out.add(self.places[entry])
        return out


@dataclass(frozen=True)
class _Finding:
    """A difference the check found, and the filled widgets it is theirs (none: the file's own)."""

    text: str
    xrefs: frozenset[int] = frozenset()


def write_pdf(
    questionnaire: Questionnaire,
    target: str | Path,
    writes: Iterable[AnswerWrite],
    unwritten: list[Unwritten] | None = None,
) -> Path:
    """Copy the questionnaire's PDF form to ``target`` with ``writes`` filled in (the last write to
    a place wins), after checking that nothing else changed (see the module docstring). Given
    ``unwritten``, an answer that cannot be written is listed there and the others are written;
    without it, that answer refuses the export."""
    source, target = Path(questionnaire.path), Path(target)
    if target.resolve() == source.resolve():
        raise PdfWriteError(target, "the export target is the source questionnaire itself", "export to a new file")
    if target.suffix.lower() != ".pdf":
        raise PdfWriteError(target, "the export of a PDF form must keep the .pdf extension", "name the target *.pdf")
    doc = _open(source)
    try:
        _check_permissions(doc, source)
        widgets = _widgets(doc)
        plan = _plan(questionnaire, writes, widgets, unwritten)
        hybrid = has_xfa(doc)
    finally:
        doc.close()
    with tempfile.TemporaryDirectory(prefix=".pdf-export-", dir=target.parent) as tmp:
        work = Path(tmp) / "form.pdf"
        for _ in range(_ROUNDS):
            shutil.copyfile(source, work)
            filled = _fill(work, plan, widgets, hybrid)
            found = _changes(source, work, filled, hybrid)
            problem = _refusal(found) if found else _unread(work, plan)
            if problem is None:
                break
            blamed = {f: plan.keys_of(f.xrefs, widgets) for f in problem[1]}
            if unwritten is None or not all(blamed.values()):  # a difference no answer explains: refused
                raise PdfWriteError(source, problem[0], RESAVE)
            for key in sorted(set().union(*blamed.values())):
                plan.drop(key)
                why = "; ".join(f.text for f, keys in blamed.items() if key in keys)
                unwritten.append(Unwritten(key, f"its field could not be filled alone ({why})", RESAVE))
        else:
            raise PdfWriteError(source, "filling the fields kept changing more than the answers", RESAVE)
        data = work.read_bytes()
    write_atomic(target, data)
    return target


def _refusal(found: list[_Finding]) -> tuple[str, list[_Finding]]:
    texts = [f.text for f in found]
    more = f"; and {len(texts) - 3} more" if len(texts) > 3 else ""
    return (
        f"filling the fields would change more than the answers ({'; '.join(texts[:3])}{more}); nothing was written",
        found,
    )


def _open(source: Path) -> pymupdf.Document:
    try:
        return open_pdf(source)
    except QuestionnaireError as exc:
        raise PdfWriteError(source, exc.problem, exc.fix) from None


def _check_permissions(doc: pymupdf.Document, source: Path) -> None:
    """A form whose permissions allow neither filling nor changing it is not filled."""
    perms = doc.permissions
    if doc.is_encrypted or doc.metadata.get("encryption"):
        if not perms & (pymupdf.PDF_PERM_FORM | pymupdf.PDF_PERM_MODIFY | pymupdf.PDF_PERM_ANNOTATE):
            raise PdfWriteError(
                source,
                "its permissions forbid filling in its form fields",
                "ask the sender for a copy that allows form filling, or fill it in a PDF viewer",
            )


def _widgets(doc: pymupdf.Document) -> list[_Widget]:
    out = []
    seen: dict[str, int] = {}
    for page in doc:
        for w in page_widgets(page):
            state = w.on_state() if w.field_type in _BOX_KINDS else ""
            name = w.field_name or ""
            seen[name] = seen.get(name, -1) + 1
            box = pymupdf.Rect(w.rect)
            out.append(
                _Widget(page.number, w.xref, name, w.field_type, state or "", box, w.text_maxlen or 0, seen[name])
            )
    return out


# ---------------------------------------------------------------- the plan


def _plan(
    questionnaire: Questionnaire, writes: Iterable[AnswerWrite], widgets: list[_Widget], unwritten: list | None
) -> _Plan:
    """What each write fills; one that cannot be planned is refused, or (given ``unwritten``) left out
    and listed there."""
    plan = _Plan()
    name = Path(questionnaire.path).name
    for key, value in answer_values(writes).items():
        try:
            _plan_one(plan, key, questionnaire.places.get(key), value, widgets, name)
        except PdfWriteError as exc:
            if unwritten is None:
                raise
            plan.drop(key)
            unwritten.append(Unwritten(key, exc.problem, exc.fix))
    return plan


def _plan_one(plan: _Plan, key: str, place: AnswerPlace | None, value: str, widgets: list[_Widget], name: str) -> None:
    if place is None:
        raise PdfWriteError(name, f"no answer place at {key}", "read the questionnaire again and export its answers")
    if place.kind == PlaceKind.PDF_FIELD:
        _plan_field(plan, key, place, value, widgets, name)
    elif place.kind == PlaceKind.PDF_BUTTONS:
        _plan_boxes(plan, key, place, value, widgets, name)
    else:
        raise PdfWriteError(
            name,
            f"{key} is a {place.kind.value} place, not a form field",
            "export a flat PDF's answers as a response document (engine/questionnaire/pdf/response.py)",
        )


def _plan_field(plan: _Plan, key: str, place: AnswerPlace, value: str, widgets: list[_Widget], name: str) -> None:
    if place.locator.startswith("["):
        _plan_comb(plan, key, place, value, widgets, name)
        return
    own = [w for w in widgets if w.name == place.locator]
    if not own:
        raise PdfWriteError(name, f"has no field named '{place.locator}'", "read the questionnaire again")
    export = value
    if place.options:
        match = next((e for d, e in place.options if value.strip().lower() in (d.lower(), e.lower())), None)
        if value and match is None:
            raise PdfWriteError(
                name,
                f"'{value}' is not one of the choices of field '{place.locator}' "
                f"({', '.join(d for d, _ in place.options)})",
                "pick one of the field's choices",
            )
        export = match or ""
        value = next((d for d, e in place.options if e == export), value)
    if place.max_chars and len(value) > place.max_chars:
        raise PdfWriteError(
            name,
            f"the answer for field '{place.locator}' has {len(value)} characters; the field holds {place.max_chars}",
            "shorten the answer",
        )
    for stacked in _stacked(own, widgets):
        plan.text(key, stacked, export, value)


def _plan_comb(plan: _Plan, key: str, place: AnswerPlace, value: str, widgets: list[_Widget], name: str) -> None:
    """A number typed into several comb fields: its characters (without spaces and dashes) spread
    over them, each taking as many as it holds."""
    names = json.loads(place.locator)
    sizes = [next((w.max_chars for w in widgets if w.name == n), 0) for n in names]
    chars = re.sub(r"[\s-]", "", value)
    if chars and len(chars) != sum(sizes):
        raise PdfWriteError(
            name,
            f"the answer '{value}' has {len(chars)} characters for {len(names)} boxes of {'+'.join(map(str, sizes))}",
            f"give {sum(sizes)} characters (dashes and spaces are left out)",
        )
    start = 0
    for n, size in zip(names, sizes):
        plan.text(key, n, chars[start : start + size], chars[start : start + size])
        start += size


def _stacked(own: list[_Widget], widgets: list[_Widget]) -> list[str]:
    """The field's name and the names of the same-kind fields drawn on its spot (form.py)."""
    names = [own[0].name]
    for w in widgets:
        if w.name in names or w.kind != own[0].kind:
            continue
        for o in own:
            shared = (w.box & o.box).get_area() if w.page == o.page else 0.0
            if shared >= 0.8 * max(w.box.get_area(), o.box.get_area(), 1e-9):
                names.append(w.name)
                break
    return names


def _plan_boxes(plan: _Plan, key: str, place: AnswerPlace, value: str, widgets: list[_Widget], name: str) -> None:
    options = {choice.strip().lower(): json.loads(ticks or "[]") for choice, ticks in place.options}
    picked = [p.strip().lower() for p in picked_choices(value, [c for c, _ in place.options])]
    unknown = [p for p in picked if p not in options]
    if unknown:
        raise PdfWriteError(
            name,
            f"'{value}' is not one of the choices of '{place.locator}' ({', '.join(c for c, _ in place.options)})",
            "pick one of its choices" + ("" if len(picked) == 1 else f" (several joined by '{CHOICE_SEPARATOR}')"),
        )
    fields = [{n for n, _, _ in options[p]} for p in picked]
    if len(picked) > 1 and len(set().union(*fields)) < sum(map(len, fields)):
        raise PdfWriteError(name, f"'{value}' picks several options of the radio group '{place.locator}'", "pick one")
    chosen = {(n, k) for p in picked for n, _, k in options[p]}
    every = {(n, k) for ticks in options.values() for n, _, k in ticks}
    for w in widgets:
        if (w.name, w.nth) in every:
            plan.state(key, w.xref, w.on_state if (w.name, w.nth) in chosen else "Off")


# ---------------------------------------------------------------- filling


def _fill(work: Path, plan: _Plan, widgets: list[_Widget], hybrid: bool) -> frozenset[int]:
    """Fill ``work`` in place; the object numbers of the widgets filled."""
    doc = pymupdf.open(work)
    if doc.needs_pass:
        doc.authenticate("")
    mu = pymupdf.mupdf
    pdoc = pymupdf._as_pdf_document(doc)
    if mu.pdf_js_supported(pdoc):
        raise PdfWriteError(work.name, "JavaScript is enabled in the PDF engine", "report this: scripts must never run")
    touched: set[int] = set()
    for page in doc:
        for w in page_widgets(page):
            name = w.field_name or ""
            if name in plan.texts:
                obj = mu.pdf_annot_obj(w._annot)
                mu.pdf_set_field_value(pdoc, obj, plan.shown[name], 1)  # 1: trigger no event, run no script
                mu.pdf_update_annot(w._annot)  # the appearance, drawn with the text shown
                head = _field_head(doc, w.xref)
                if plan.texts[name] != plan.shown[name]:  # a choice: /V holds its export value
                    mu.pdf_dict_put_text_string(mu.pdf_load_object(pdoc, head), mu.pdf_new_name("V"), plan.texts[name])
                touched.add(w.xref)
            elif w.xref in plan.states:
                state = plan.states[w.xref]
                doc.xref_set_key(w.xref, "AS", "/" + state)
                touched.add(w.xref)
    for w in widgets:  # a box field's /V: its widget's on state, or Off
        if w.xref in plan.states:
            head = _field_head(doc, w.xref)
            current = doc.xref_get_key(head, "V")
            if plan.states[w.xref] != "Off" or current[1] == "null" or pdf_name(current[1]) == pdf_name(w.on_state):
                doc.xref_set_key(head, "V", "/" + plan.states[w.xref])
    if hybrid:
        cat = doc.pdf_catalog()
        doc.xref_set_key(cat, "AcroForm/XFA", "null")  # every viewer now draws the AcroForm fields
        doc.xref_set_key(cat, "Perms", "null")  # the Reader-extension signature a changed form invalidates
    if doc.can_save_incrementally():
        doc.save(work, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
        doc.close()
    else:  # a damaged file MuPDF repaired: saved whole, object numbers kept
        full = work.with_suffix(".full.pdf")
        doc.save(full, garbage=0, encryption=pymupdf.PDF_ENCRYPT_KEEP)
        doc.close()
        full.replace(work)
    return frozenset(touched)


def _field_head(doc: pymupdf.Document, xref: int) -> int:
    """The field object holding a widget's value: the widget when it is a field (has ``/T``),
    else its parent."""
    if doc.xref_get_key(xref, "T")[0] != "null":
        return xref
    kind, parent = doc.xref_get_key(xref, "Parent")
    return int(parent.split()[0]) if kind == "xref" else xref


# ---------------------------------------------------------------- the check


def changes(original: Path, written: Path, filled: frozenset[int], hybrid: bool = False) -> list[str]:
    """Where ``written`` differs from ``original`` other than in the values, states and
    appearances of the ``filled`` widgets (object numbers) and their fields (and, for a hybrid
    form, its removed XFA copy and usage-rights signature)."""
    return [f.text for f in _changes(original, written, filled, hybrid)]


def check_form(original: Path, written: Path, writes: Iterable[AnswerWrite], questionnaire: Questionnaire) -> list[str]:
    """The no-other-change check of an exported form (the ``.pdf`` format's check,
    engine/questionnaire/formats.py): :func:`changes` with the widgets that ``writes`` fill, as
    :func:`write_pdf` plans and fills them."""
    doc = _open(Path(original))
    try:
        widgets, hybrid = _widgets(doc), has_xfa(doc)
    finally:
        doc.close()
    plan = _plan(questionnaire, writes, widgets, [])
    filled = frozenset(w.xref for w in widgets if w.name in plan.texts or w.xref in plan.states)
    return changes(Path(original), Path(written), filled, hybrid)


def _changes(original: Path, written: Path, filled: frozenset[int], hybrid: bool) -> list[_Finding]:
    """:func:`changes`, each with the filled widgets whose objects changed (none: not theirs)."""
    a, b = pymupdf.open(original), pymupdf.open(written)
    for doc in (a, b):
        if doc.needs_pass:
            doc.authenticate("")
    try:
        out = [_Finding(t) for t in _page_changes(a, b)]
        allowed = _allowed_keys(a, filled, hybrid)
        heads: dict[int, set[int]] = {}
        for w in filled:
            heads.setdefault(_field_head(a, w), set()).add(w)
        for x in range(1, a.xref_length()):
            diff = _object_change(a, b, x, allowed.get(x, frozenset()))
            if diff:
                owners = ({x} if x in filled else set()) | heads.get(x, set())
                out.append(_Finding(_where(a, x) + diff, frozenset(owners)))
        out += [_Finding(t) for t in _new_objects(a, b, filled)]
        return out
    finally:
        a.close()
        b.close()


def _page_changes(a: pymupdf.Document, b: pymupdf.Document) -> list[str]:
    """Page count, each page's words outside its form fields (the text extraction reads a
    field's appearance: the answers), and each page's list of annotations."""
    if a.page_count != b.page_count:
        return [f"{b.page_count} pages instead of {a.page_count}"]
    out = []
    for pa, pb in zip(a, b):
        spots = [pymupdf.Rect(w.rect) + (-4, -4, 4, 4) for w in page_widgets(pa)]  # what a field draws is its own
        if _words(pa, spots) != _words(pb, spots):
            out.append(f"page {pa.number + 1}: its text")
        if [x for x, *_ in pa.annot_xrefs()] != [x for x, *_ in pb.annot_xrefs()]:
            out.append(f"page {pa.number + 1}: its annotations")
    return out


def _words(page: pymupdf.Page, spots: list[pymupdf.Rect]) -> list[tuple]:
    out = []
    for x0, y0, x1, y1, word, *_ in page.get_text("words"):
        centre = pymupdf.Point((x0 + x1) / 2, (y0 + y1) / 2)
        if not any(centre in r for r in spots):
            out.append((round(x0, 1), round(y0, 1), word))
    return out


def _allowed_keys(a: pymupdf.Document, filled: frozenset[int], hybrid: bool) -> dict[int, frozenset[str]]:
    allowed: dict[int, set[str]] = {}
    for x in filled:
        allowed.setdefault(x, set()).update(("V", "AS", "AP"))
        allowed.setdefault(_field_head(a, x), set()).update(("V", "I"))
    if hybrid:
        cat = a.pdf_catalog()
        allowed.setdefault(cat, set()).add("Perms")
        kind, form = a.xref_get_key(cat, "AcroForm")
        allowed.setdefault(int(form.split()[0]) if kind == "xref" else cat, set()).add(
            "XFA" if kind == "xref" else "AcroForm"
        )
    return {x: frozenset(keys) for x, keys in allowed.items()}


def _object_change(a: pymupdf.Document, b: pymupdf.Document, x: int, allowed: frozenset[str]) -> str:
    """What changed in object ``x`` outside the ``allowed`` keys ("" when nothing)."""
    try:
        ka, kb = a.xref_get_keys(x), b.xref_get_keys(x)
    except Exception:  # noqa: BLE001 - a free or damaged object number
        return ""
    changed = sorted(
        k for k in set(ka) | set(kb) if k not in allowed and not _same(k, a.xref_get_key(x, k), b.xref_get_key(x, k))
    )
    if changed:
        return "its " + ", ".join("/" + k for k in changed[:4])
    if not ka and a.xref_object(x) != b.xref_object(x):
        return "its value"
    if a.xref_is_stream(x) and a.xref_stream_raw(x) != b.xref_stream_raw(x):
        return "its stream"
    return ""


def _same(key: str, before: tuple[str, str], after: tuple[str, str]) -> bool:
    """Whether a key's two values are the same; a rectangle is the same rectangle whichever
    corners it is stored by (an upside-down ``/Rect`` that MuPDF wrote the right way up)."""
    if before == after:
        return True
    return key in ("Rect", "BBox") and _rect(before[1]) is not None and _rect(before[1]) == _rect(after[1])


def _rect(text: str) -> tuple[float, ...] | None:
    """A rectangle's ``[x0 y0 x1 y1]`` as (left, bottom, right, top), rounded to 0.01 point."""
    numbers = re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)", text or "")
    if not text.strip().startswith("[") or len(numbers) != 4:
        return None
    x0, y0, x1, y1 = (float(n) for n in numbers)
    return tuple(round(v, 2) for v in (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))


def _where(a: pymupdf.Document, x: int) -> str:
    """``object 40 (field 'storage')``, ``object 4 (Page)``: an object as a person can find it."""
    kind = a.xref_get_key(x, "Type")[1].lstrip("/")
    name = a.xref_get_key(_field_head(a, x), "T")
    if name[0] == "string":
        return f"object {x} (field '{name[1]}') changed "
    return f"object {x}" + (f" ({kind})" if kind != "null" else "") + " changed "


def _new_objects(a: pymupdf.Document, b: pymupdf.Document, filled: frozenset[int]) -> list[str]:
    """New objects must be the filled widgets' new appearance streams and what those use
    (fonts), or the incremental save's own cross-reference stream."""
    reachable: set[int] = set()
    todo = [x for w in filled for x in _refs(b.xref_get_key(w, "AP")[1])]
    while todo:
        x = todo.pop()
        if x in reachable or x >= b.xref_length():
            continue
        reachable.add(x)
        if x >= a.xref_length():
            todo.extend(_refs(b.xref_object(x)))
    out = []
    for x in range(a.xref_length(), b.xref_length()):
        kind = b.xref_get_key(x, "Type")[1]
        if x in reachable or kind in ("/XRef", "/ObjStm") or b.xref_object(x).strip() in ("null", ""):
            continue
        out.append(f"a new object {x} ({kind.lstrip('/') if kind != 'null' else 'untyped'}) outside the answers")
    return out


def _refs(text: str) -> list[int]:
    return [int(n) for n in _REF.findall(text or "")]


def _unread(work: Path, plan: _Plan) -> tuple[str, list[_Finding]] | None:
    """The first filled field that does not read back as written (None: each does)."""
    doc = pymupdf.open(work)
    if doc.needs_pass:
        doc.authenticate("")
    try:
        for page in doc:
            for w in page_widgets(page):
                name = w.field_name or ""
                problem = None
                if name in plan.texts and str(w.field_value or "") not in (plan.texts[name], plan.shown[name]):
                    problem = f"field '{name}' reads back '{w.field_value}'"
                elif w.xref in plan.states and pdf_name(doc.xref_get_key(w.xref, "AS")[1]) != pdf_name(
                    plan.states[w.xref]
                ):
                    problem = f"box '{name}' did not take its state"
                if problem:
                    return problem, [_Finding(problem, frozenset({w.xref}))]
        return None
    finally:
        doc.close()


__all__ = ["PdfWriteError", "changes", "check_form", "write_pdf"]
