"""The families bench (engine/bench/families.py): its truth is what the generator wrote, checked here
against the document itself (each address holds the question's row or the field), and one variant per
family scores the real reader."""

from __future__ import annotations

import zipfile

import docx
from lxml import etree

from engine.bench.families import FAMILIES, W_NS, build, score_variant, variants
from engine.bench.paragraph_forms import WORDS

LIMITS = {w["limit"] for w in WORDS.values()}

W = f"{{{W_NS}}}"


def _cell_text(doc, t: int, r: int, c: int) -> str:
    tbl = doc.tables[t]._tbl
    tr = tbl.findall(f"{{{tbl.nsmap['w']}}}tr")[r]
    tcs = tr.findall(f"{{{tbl.nsmap['w']}}}tc")
    return "".join(tcs[c].itertext())


def test_the_generators_truth_points_at_the_rows_it_wrote(tmp_path):
    for family in FAMILIES:
        for v in variants(family, 4):
            path = tmp_path / f"{family.replace('/', '-')}-{v.n}.docx"
            items = build(v, path)
            doc = docx.Document(str(path))
            assert items and all("answer" in x or "choice" in x for x in items)
            for item in items:
                for t, r, c in (a for a in item.get("choice", []) if a[0] != "p"):
                    row = "".join(_cell_text(doc, t, r, k) for k in range(c + 1))  # the question sits left of its boxes
                    start = item["text"][: min(12, len(item["text"]) // 2)]  # (a long table's text may go on below)
                    assert start in row or v.options_first or family == "attestation form", item


def test_one_variant_of_each_family_is_read_and_scored(tmp_path):
    for family in FAMILIES:
        row = score_variant(variants(family, 1)[0], tmp_path)
        assert row["truth"] > 0 and "baseline" in row
        assert row["matched"] == row["truth"] == row["found"] and row["usable_n"] == row["truth"], row
        assert row["free_text_in_option"] == row["default_as_answer"] == row["note_in_text"] == 0


def test_a_long_tables_question_split_over_two_rows_is_one_truth_item_with_its_whole_text(tmp_path):
    """The long tables family: a question whose text goes on in the next row (no ID, no boxes of its
    own) is one item, its text the two rows' words, its places the first row's; the header rows and
    the section rows are no item."""
    v = next(x for x in variants("long tables", 20) if x.split_every and x.answer != "text" and x.id_col)
    path = tmp_path / "long.docx"
    items = build(v, path)
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    rows = root.findall(f".//{W}tbl/{W}tr")

    def cell(r: int, c: int) -> str:
        return "".join(t.text or "" for t in rows[r].findall(f"{W}tc")[c].iter(f"{W}t"))

    assert len(items) == sum(v.rows_per_section)
    split = items[v.split_every - 1]
    _, r, _ = split["choice"][0]
    first, rest = cell(r, 1), cell(r + 1, 1)  # the question column, after the ID's
    assert first and rest and "".join(split["text"].split()) == "".join(f"{first} {rest}".split())
    assert cell(r + 1, 0) == ""  # the second row has no ID


def test_a_paragraph_forms_truth_points_at_its_question_and_an_empty_place_after_it(tmp_path):
    """The paragraph forms family: each item's ``at`` paragraph holds its text (after its number), its
    answer place comes after it and is empty (nothing, an underscore line, the answer label, a
    control's placeholder), its choice's paragraph holds the options; headings and notes are no item."""
    for v in variants("paragraph forms", 6):
        path = tmp_path / f"paragraph-{v.n}.docx"
        items = build(v, path)
        with zipfile.ZipFile(path) as zf:
            root = etree.fromstring(zf.read("word/document.xml"))
        paras = list(root.iter(f"{W}p"))
        cells = [list(tbl.iter(f"{W}tc"))[0] for tbl in root.iter(f"{W}tbl")]

        def text(a: list) -> str:
            el = paras[a[1] - 1] if a[0] == "p" else cells[a[0]]
            return "".join(t.text or "" for t in el.iter(f"{W}t"))

        assert len(items) == len(v.paragraph_plan) == sum(v.rows_per_section)
        for item, plan in zip(items, v.paragraph_plan):
            asked = next((item["text"][: -len(x) - 1] for x in LIMITS if item["text"].endswith(f" {x}")), item["text"])
            assert text(item["at"]) == f"{item.get('prefix', '')} {asked}".strip() or "choice" in item
            assert asked in text(item["at"])  # (a length limit's line under it is read with it)
            if plan.startswith("choice"):
                assert all(o in text(item["choice"][0]) for o in item["options"]), item
                continue
            shown = text(item["answer"]).strip(" _:：")
            assert (
                shown in ("", "Answer", "Antwort", "Réponse", "Antwoord", "Respuesta", "回答")
                or "ici" in shown
                or "hier" in shown
                or "here" in shown
                or "aquí" in shown
                or "クリック" in shown
            ), (item, shown)
            if item["answer"][0] == "p":
                assert item["answer"][1] > item["at"][1]
