"""Truth of the questions of the PDF questionnaires added for issue #55, listed from each PDF's raw
structure with PyMuPDF (its widgets' names, types and tooltips; its words and their positions), not with
engine/questionnaire:

    python tests/questionnaire_truth/pdf_places.py ../shared/data/questionnaires > tests/questionnaire_truth/pdf_places.json

Each file lists ``questions``, each with its 1-based ``page`` and ``text`` (first words) and, for a form,
``choice_fields`` (the fields of its boxes or radio group) and ``text_field`` (the field its text goes
in); for a flat PDF, ``id`` (the document's numbering) where the rule gives one. The rule per file is in
its ``rule``; written before the reader was changed (issue #55 item 7) and never edited to match it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent

FORM_RULE = (
    "AcroForm, by the widgets' names, types and tooltips: a radio group (one field name) is one question; check "
    "boxes whose tooltips share their question part (the tooltip up to and including its first '?', else before "
    "its first ': ') are one question (select all that apply), its options the boxes; a text field whose "
    "tooltip says 'specify' or 'Other' and whose question part, or whose name without its last number ('LTC 9a' "
    "of 'LTC 9a 2'), is a box group's or radio group's is that question's text place; every other text field is "
    "one text question (the notes fields included); push buttons and signatures are not questions."
)


def question_part(tooltip: str) -> str:
    tooltip = " ".join(tooltip.split())
    if "?" in tooltip:
        return tooltip[: tooltip.index("?") + 1]
    return tooltip.split(": ", 1)[0]


def stem(name: str) -> str:
    name = name.strip()
    return re.sub(r"\s+\d+$", "", name).strip()


def form(path: Path) -> list[dict]:
    doc = pymupdf.open(path)
    groups: dict[tuple, dict] = {}
    order: list[tuple] = []
    texts: list[tuple[int, object]] = []
    for pno, page in enumerate(doc, 1):
        for w in page.widgets():
            kind = w.field_type_string
            tip = w.field_label or ""
            if kind == "RadioButton":
                key = ("radio", w.field_name)
            elif kind == "CheckBox":
                key = ("boxes", pno, question_part(tip) or w.field_name)
            elif kind in ("Text", "ComboBox", "ListBox"):
                texts.append((pno, w))
                continue
            else:
                continue
            if key not in groups:
                groups[key] = {
                    "page": pno,
                    "text": question_part(tip) or w.field_name,
                    "choice_fields": [],
                    "_stems": set(),
                    "_parts": set(),
                }
                order.append(key)
            g = groups[key]
            if w.field_name not in g["choice_fields"]:
                g["choice_fields"].append(w.field_name)
            g["_stems"].add(stem(w.field_name))
            g["_parts"].add(question_part(tip))
    items = [groups[k] for k in order]
    for pno, w in texts:
        tip = " ".join((w.field_label or "").split())
        owner = None
        if re.search(r"specify|\bOther\b", tip):
            owner = next(
                (g for g in items if question_part(tip) in g.get("_parts", ()) and "text_field" not in g), None
            )
            owner = owner or next(
                (
                    g
                    for g in items
                    if stem(w.field_name) in g.get("_stems", ()) and "text_field" not in g and g["page"] == pno
                ),
                None,
            )
        if owner is not None:
            owner["text_field"] = w.field_name
        else:
            items.append({"page": pno, "text": tip or w.field_name, "text_field": w.field_name})
    for g in items:
        g.pop("_stems", None)
        g.pop("_parts", None)
    return items


PCI_FLAT_RULE = (
    "The PDF twin of the Word SAQ C-VT: each question of the Word file's truth (places.json, listed from its "
    "XML), located in the PDF by its first words: the first page at or after the previous question's page whose "
    "text holds them (spaces and line breaks ignored). Its page and first words are the item; a requirement "
    "row's first words begin with its number (1.3.1)."
)


def _squash(s: str) -> str:
    return re.sub(r"[\s•]+", "", s).casefold()


def pci_flat(path: Path) -> list[dict]:
    twin = json.loads((HERE / "places.json").read_text(encoding="utf-8"))["files"]["pci_dss_v4.0_saq_c-vt.docx"]
    doc = pymupdf.open(path)
    pages = [_squash(p.get_text()) for p in doc]
    items, at = [], 0
    for q in twin["questions"]:
        words = " ".join(q["text"].split()[:4])
        hit = next((i for i in range(at, len(pages)) if _squash(words) in pages[i]), None)
        if hit is None:
            continue
        at = hit
        items.append({"page": hit + 1, "text": words})
    return items


PPN_RULE = (
    "UK PPN 03/24 selection questionnaire: each line whose first word lies in the question-number column (x0 < "
    "70 pt) and begins with a question number ('1.1(a)', '4.1(j) - (ii)', '7.2') is one question; its id is the "
    "line's text (spaces removed, dashes unified). Guidance pages (with no such line) hold none."
)


def ppn(path: Path) -> list[dict]:
    doc = pymupdf.open(path)
    items = []
    for pno, page in enumerate(doc, 1):
        lines: dict[tuple, list] = {}
        for w in page.get_text("words"):
            lines.setdefault((w[5], w[6]), []).append(w)
        for ws in lines.values():
            if ws[0][0] < 70 and re.match(r"^\d+\.\d+", ws[0][4]):
                ident = re.sub(r"\s+", "", " ".join(w[4] for w in ws)).replace("–", "-")
                items.append({"page": pno, "id": ident, "text": ident})
    return items


IRS_RULE = (
    "IRS Form 13614-C, the taxpayer's side, by the fields' names (the XFA subforms they are named in) and "
    "tooltips: (1) check boxes named in one subform (the field name without its last part: "
    "'form1[0].page1[0].liveWorkStates[0]') are one question, its options the boxes; a box whose last name part "
    "is its subform's own ('…statusDivorced[0].statusDivorced[0]') belongs to the subform above "
    "('…maritalStatus[0]'); (2) the first text field named in a box group's own subform is that question's text "
    "place ('If other, explain …', 'How many jobs'); every other text field is one text question. Not questions: "
    "the subforms a tooltip marks '(To be completed by certified volunteer)' and the 'Notes/Comments.' fields of "
    "that column, the list of the people who lived with you (subform 'namesOf': a record per row), the "
    "signature lines ('… printed name and signature' and their 'Date'), push buttons."
)


def _subform(name: str) -> str:
    parts = name.split(".")
    up = parts[:-1]
    if len(up) >= 2 and up[-1] == parts[-1]:
        up = up[:-1]  # a box named like its own subform belongs to the one above
    return ".".join(up)


def irs(path: Path) -> list[dict]:
    doc = pymupdf.open(path)
    widgets = [(pno, w) for pno, page in enumerate(doc, 1) for w in page.widgets()]
    volunteer = {
        ".".join(w.field_name.split(".")[:3])
        for _, w in widgets
        if "certified volunteer" in (w.field_label or "") and "namesOf" not in w.field_name
    }

    def skipped(w) -> bool:
        tip = " ".join((w.field_label or "").split())
        return (
            w.field_type_string not in ("CheckBox", "Text")
            or ".".join(w.field_name.split(".")[:3]) in volunteer
            or ".namesOf[" in w.field_name
            or tip in ("Notes/Comments.", "Date")
            or "printed name and signature" in tip
        )

    groups: dict[str, dict] = {}
    items: list[dict] = []
    for pno, w in widgets:
        if skipped(w) or w.field_type_string != "CheckBox":
            continue
        key = _subform(w.field_name)
        if key not in groups:
            groups[key] = {"page": pno, "text": " ".join((w.field_label or "").split()), "choice_fields": []}
            items.append(groups[key])
        groups[key]["choice_fields"].append(w.field_name)
    for pno, w in widgets:
        if skipped(w) or w.field_type_string != "Text":
            continue
        owner = groups.get(".".join(w.field_name.split(".")[:-1]))
        if owner is not None and "text_field" not in owner:
            owner["text_field"] = w.field_name
        else:
            items.append({"page": pno, "text": " ".join((w.field_label or "").split()), "text_field": w.field_name})
    return items


OPENCHAIN_DE_RULE = (
    "The German OpenChain 2.1 conformance questionnaire (the rule of its English twin, pdf.json): each row of the "
    "'Abschnitt / Nummer / Spec Ref / Fragentext' tables is one question, the number in its Nummer column "
    "('1.a', '1.f.i': a word lying between the x of the header words 'Nummer' and 'Spec') its id."
)


def openchain_de(path: Path) -> list[dict]:
    doc = pymupdf.open(path)
    items = []
    for pno, page in enumerate(doc, 1):
        words = page.get_text("words")
        head = {w[4]: w[0] for w in words if w[4] in ("Nummer", "Spec")}
        if len(head) < 2:
            continue
        for w in sorted(words, key=lambda w: (w[1], w[0])):
            if head["Nummer"] - 5 <= w[0] < head["Spec"] - 5 and re.fullmatch(r"\d+\.[a-z](\.[ivx]+)?", w[4]):
                items.append({"page": pno, "id": w[4], "text": w[4]})
    return items


CCS_RULE = (
    "CCS RM6264 DPS registration questionnaire (a web form printed): each line whose first word is a question "
    "number ('12.') in the question column (x0 < 45 pt; numbered list items inside a question start further "
    "right) with the question's words after it on the same line is one question, its text the first words "
    "after the number; the fields under it (address lookup, dates, uploads, options) are its parts. Not "
    "questions: a number alone on a line (the end of a wrapped sentence: '… at question / 54.'), and everything "
    "after 'Thank you for completing …' (the buyer's evaluation and the DPS appointment form)."
)


def ccs(path: Path) -> list[dict]:
    doc = pymupdf.open(path)
    items = []
    for pno, page in enumerate(doc, 1):
        if "Thank you for completing" in page.get_text():
            break
        lines: dict[tuple, list] = {}
        for w in page.get_text("words"):
            lines.setdefault((w[5], w[6]), []).append(w)
        for ws in sorted(lines.values(), key=lambda ws: (ws[0][1], ws[0][0])):
            if ws[0][0] < 45 and re.fullmatch(r"\d+\.", ws[0][4]) and len(ws) > 1:
                items.append({"page": pno, "text": " ".join(w[4] for w in ws[1:6])})
    return items


FILES = {
    "pdf/cdc_icar_ipc_long_term_care_section1_acroform.pdf": (FORM_RULE, form),
    "pdf/pci_dss_v4.0_saq_c-vt_flat.pdf": (PCI_FLAT_RULE, pci_flat),
    "pdf/uk_ppn_03-24_standard_selection_questionnaire_flat.pdf": (PPN_RULE, ppn),
    "pdf/irs_f13614c_rev10-2025_intake_interview_acroform.pdf": (IRS_RULE, irs),
    "pdf/openchain_conformance_questionnaire_2.1_de_flat.pdf": (OPENCHAIN_DE_RULE, openchain_de),
    "pdf/uk_ccs_rm6264_dps_registration_questionnaire_web_printout.pdf": (CCS_RULE, ccs),
}


def main(folder: Path) -> dict:
    out = {"about": __doc__.split("\n\n")[0].replace("\n", " "), "files": {}}
    for rel, (rule, fn) in FILES.items():
        items = fn(folder / rel)
        out["files"][Path(rel).name] = {"rule": rule, "count": len(items), "questions": items}
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1])), indent=1, ensure_ascii=False))
