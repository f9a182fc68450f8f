"""The families bench (engine/bench/families.py): its truth is what the generator wrote, checked here
against the document itself (each address holds the question's row or the field), and one variant per
family scores the real reader."""

from __future__ import annotations

import docx

from engine.bench.families import FAMILIES, build, score_variant, variants


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
                    assert item["text"][:12] in row or v.options_first or family == "attestation form", item


def test_one_variant_of_each_family_is_read_and_scored(tmp_path):
    for family in FAMILIES:
        row = score_variant(variants(family, 1)[0], tmp_path)
        assert row["truth"] > 0 and "baseline" in row
        assert row["matched"] == row["truth"] == row["found"] and row["usable_n"] == row["truth"], row
        assert row["free_text_in_option"] == row["default_as_answer"] == row["note_in_text"] == 0
