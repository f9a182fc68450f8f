"""The shared Word questionnaires saved by another word processor, their truth carried to the saved file by
a rule of the documents' texts (``python -m engine bench word-resaved --json``, issue #55).

A questionnaire the product receives has often been opened and saved again by another word processor
(LibreOffice, Google Docs, an older Word): the same questions and cells, written in that processor's own
XML (field codes with bookmarks and empty runs inside, ``w:checkBox`` without ``w:default``, repeated
header marks dropped, symbol boxes redrawn, styles renamed, list numbering written on each paragraph).
Each shared Word file that has a truth of answer places (tests/questionnaire_truth/places.json) is saved
here by LibreOffice (``soffice --headless --convert-to "docx:MS Word 2007 XML"``; ``--saved DIR`` reads
files already saved under the same names instead; without ``soffice`` and without ``--saved`` the bench
says so and scores nothing) and read by the reader.

**The truth's transfer** (a rule of the two documents' texts, never the reader; :func:`carry`):

- texts are compared with whitespace collapsed and without the private use area's characters (a symbol
  font's glyph, which one processor draws as ``w:sym`` and another writes as text);
- tables are matched in document order by their text (the longest common subsequence of the tables'
  normalised texts; a table of the original with no equal one keeps its index when the saved file has
  as many tables);
- a table cell ``[t, r, c]`` is the saved table's cell ``[t', r, c]`` when that cell's text is the
  original's, else the cell of the same text in the same table (the one nearest to row ``r``, each cell
  taken once); a cell whose text is found nowhere in its table is not carried (an empty answer cell
  always has a cell of the same text at its own address when the table kept its shape);
- a paragraph ``["p", n]`` is carried by its text, in order: the two documents' paragraphs (every
  ``w:p``, in order) aligned by the longest common subsequence of their texts, a paragraph of an equal
  block carried to its partner; one outside them to the next paragraph of the same text after the
  partner of the paragraph before it;
- ``after_table`` follows its table. An item with an address that cannot be carried is left out of the
  saved file's truth and counted (``not_carried``).

Each saved file is scored as the shared files are (engine/bench/document_places.py ``score_places``:
recall, precision, usable), beside the original's figures, with the questions found in each, and its
export checked as ``bench intake`` does (engine/bench/document_intake.py ``bench_file``: every question
answered, the no-other-change check, the round trip).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

from engine.bench.document_intake import bench_file
from engine.bench.document_places import own_elements, score_places, truth_places
from engine.core.limits import Limits
from engine.questionnaire import read_questionnaire
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.word.xmltree import W

FOLDER = Path("..") / "shared" / "data" / "questionnaires" / "docx"
SAVE_AS = "docx:MS Word 2007 XML"


def _text(el: etree._Element) -> str:
    """``el``'s words, whitespace collapsed, without the private use area's characters (a symbol font's
    glyph: a ``w:sym`` box or a footnote's custom mark, which one processor writes as text)."""
    words = "".join(t.text or "" for t in el.iter(f"{W}t"))
    return " ".join("".join(ch for ch in words if not 0xE000 <= ord(ch) <= 0xF8FF).split())


class _Doc:
    """One document's tables (their cells' texts by row and cell) and paragraphs' texts, as the truth
    addresses them (engine/bench/document_places.py)."""

    def __init__(self, path: Path) -> None:
        with zipfile.ZipFile(path) as zf:
            root = etree.fromstring(zf.read("word/document.xml"), etree.XMLParser(resolve_entities=False))
        self.tables = [
            [[_text(tc) for tc in own_elements(tr, f"{W}tc")] for tr in own_elements(tbl, f"{W}tr")]
            for tbl in root.iter(f"{W}tbl")
        ]
        self.paras = [_text(p) for p in root.iter(f"{W}p")]  # ordinal n is index n - 1


def _table_map(a: _Doc, b: _Doc) -> dict[int, int]:
    """Original table index -> saved table index (equal texts in order; else the same index when the
    counts agree)."""
    key = lambda d: ["\n".join("\t".join(row) for row in t) for t in d.tables]  # noqa: E731
    out: dict[int, int] = {}
    sm = difflib.SequenceMatcher(None, key(a), key(b), autojunk=False)
    for block in sm.get_matching_blocks():
        for k in range(block.size):
            out[block.a + k] = block.b + k
    if len(a.tables) == len(b.tables):
        for t in range(len(a.tables)):
            out.setdefault(t, t)
    return out


def _para_map(a: _Doc, b: _Doc) -> dict[int, int]:
    """Original paragraph ordinal -> saved ordinal, by text in order (module docstring)."""
    out: dict[int, int] = {}
    sm = difflib.SequenceMatcher(None, a.paras, b.paras, autojunk=False)
    for block in sm.get_matching_blocks():
        for k in range(block.size):
            out[block.a + k + 1] = block.b + k + 1
    last = 0
    for n in range(1, len(a.paras) + 1):
        if n not in out:
            m = next((j for j in range(last, len(b.paras)) if b.paras[j] == a.paras[n - 1]), None)
            if m is not None:
                out[n] = m + 1
        last = out.get(n, last)
    return out


class _Carrier:
    """Carries one file's truth addresses from the original to the saved document."""

    def __init__(self, original: Path, saved: Path) -> None:
        self.a, self.b = _Doc(original), _Doc(saved)
        self.tables = _table_map(self.a, self.b)
        self.paras = _para_map(self.a, self.b)
        self.taken: set[tuple] = set()

    def cell(self, t: int, r: int, c: int) -> list | None:
        want = self.a.tables[t][r][c] if t < len(self.a.tables) else None
        u = self.tables.get(t)
        if want is None or u is None:
            return None
        rows = self.b.tables[u]
        if r < len(rows) and c < len(rows[r]) and rows[r][c] == want:
            return [u, r, c]
        same = [(abs(i - r), i, j) for i, row in enumerate(rows) for j, x in enumerate(row) if x == want]
        free = [s for s in sorted(same) if (u, s[1], s[2]) not in self.taken]
        if not free:
            return None
        self.taken.add((u, free[0][1], free[0][2]))
        return [u, free[0][1], free[0][2]]

    def address(self, a: list) -> list | None:
        if a[0] == "p":
            m = self.paras.get(a[1])
            return ["p", m] if m else None
        return self.cell(*a)

    def item(self, item: dict) -> dict | None:
        out = dict(item)
        for key in ("answer", "at"):
            if key in item:
                out[key] = self.address(item[key])
                if out[key] is None:
                    return None
        if "choice" in item:
            out["choice"] = [self.address(a) for a in item["choice"]]
            if any(a is None for a in out["choice"]):
                return None
        if "after_table" in item:
            out["after_table"] = self.tables.get(item["after_table"])
            if out["after_table"] is None:
                return None
        return out


def carry(original: Path, saved: Path, items: list[dict]) -> tuple[list[dict], int]:
    """``items`` (one file's truth) carried from ``original`` to ``saved`` by the module docstring's rule:
    the carried items and how many could not be carried."""
    carrier = _Carrier(original, saved)
    out = [c for c in (carrier.item(i) for i in items) if c is not None]
    return out, len(items) - len(out)


def save_with_libreoffice(path: Path, out_dir: Path) -> Path:
    """``path`` opened and saved by LibreOffice as Word 2007 XML into ``out_dir`` (a profile of its own,
    so that a running LibreOffice is not disturbed)."""
    profile = Path(tempfile.mkdtemp(prefix="lo-profile-"))
    try:
        subprocess.run(
            ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", SAVE_AS,
             "--outdir", str(out_dir), str(path)],
            check=True, capture_output=True, timeout=600, env={**os.environ, "HOME": str(profile)},
        )  # fmt: skip
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out_dir / path.name


def _figures(q, path: Path, items: list[dict]) -> dict:
    s = score_places(q, path, items)
    return {k: s[k] for k in ("truth", "found", "recall", "precision", "usable", "missed", "not_usable", "extra")}


def bench_file_resaved(original: Path, saved: Path, items: list[dict], round_trip: bool = True) -> dict:
    """One file's figures before and after the save (module docstring)."""
    limits = Limits.from_env()
    row: dict = {"file": original.name}
    q = read_questionnaire(original, limits=limits)
    row["original"] = {"questions": len(q.questions), **_figures(q, original, items)}
    carried, lost = carry(original, saved, items)
    try:
        s = read_questionnaire(saved, limits=limits)
    except QuestionnaireError as exc:
        row["saved"] = {"refused": str(exc), "not_carried": lost}
        return row
    row["saved"] = {"questions": len(s.questions), "not_carried": lost, **_figures(s, saved, carried)}
    if round_trip:
        figures = bench_file(saved, None)
        row["saved"].update({k: figures[k] for k in ("export_error", "round_trip") if k in figures})
    return row


def _summary(rows: list[dict], side: str) -> dict:
    scored = [r[side] for r in rows if "recall" in r.get(side, {})]
    mean = lambda k: round(sum(x[k] or 0 for x in scored) / len(scored), 4) if scored else None  # noqa: E731
    out = {"files": len(scored), "recall": mean("recall"), "precision": mean("precision"), "usable": mean("usable")}
    trips = [x["round_trip"] for x in scored if "round_trip" in x]
    if side == "saved" and trips:
        out["export_refused"] = sum("export_error" in x for x in scored)
        out["answers_back"] = f"{sum(t['texts_back'] + t['choices_back'] for t in trips)}/" + str(
            sum(t["texts"] + t["choices"] for t in trips)
        )
    return out


def bench_word_resaved(
    folder: Path = FOLDER, saved: Path | None = None, keep: Path | None = None, only: str | None = None,
    round_trip: bool = True,
) -> dict:  # fmt: skip
    """Every shared Word file with a truth of answer places, saved by LibreOffice (or found under
    ``saved``), its truth carried over and scored beside the original's (module docstring)."""
    truths = truth_places()
    names = sorted(n for n in truths if (Path(folder) / n).is_file() and (not only or only in n))
    if saved is None and shutil.which("soffice") is None:
        return {"skipped": "soffice (LibreOffice) is not installed and no --saved folder was given", "files": []}
    rows = []
    with tempfile.TemporaryDirectory(prefix="word-resaved-") as tmp:
        out_dir = Path(keep) if keep else Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            original = Path(folder) / name
            target = Path(saved) / name if saved else save_with_libreoffice(original, out_dir)
            if not target.is_file():
                rows.append({"file": name, "skipped": f"no saved file {target}"})
                continue
            rows.append(bench_file_resaved(original, target, truths[name]["questions"], round_trip))
    return {
        "folder": str(folder),
        "saved_by": str(saved) if saved else "soffice --convert-to " + SAVE_AS,
        "original": _summary(rows, "original"),
        "saved": _summary(rows, "saved"),
        "files": rows,
    }


__all__ = ["bench_file_resaved", "bench_word_resaved", "carry", "save_with_libreoffice"]
