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


FILES = {
    "pdf/cdc_icar_ipc_long_term_care_section1_acroform.pdf": (FORM_RULE, form),
    "pdf/pci_dss_v4.0_saq_c-vt_flat.pdf": (PCI_FLAT_RULE, pci_flat),
    "pdf/uk_ppn_03-24_standard_selection_questionnaire_flat.pdf": (PPN_RULE, ppn),
}


def main(folder: Path) -> dict:
    out = {"about": __doc__.split("\n\n")[0].replace("\n", " "), "files": {}}
    for rel, (rule, fn) in FILES.items():
        items = fn(folder / rel)
        out["files"][Path(rel).name] = {"rule": rule, "count": len(items), "questions": items}
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1])), indent=1, ensure_ascii=False))
