"""Sentences of a text and the lines that repeat at page edges: what the quote anchorer
(engine/drafting/anchoring.py), the prompt's passage compaction, the atom index and the
extractive summaries (engine/index/) all cut a text by, defined once here, below them all.

* :func:`sentence_spans`: NLTK's Punkt (the English model bundled with llama-index-core, no
  download), plus a cut at every blank line (PDF paragraphs, table cells);
* :func:`loose`: the lower-cased words of a text without punctuation (how quotes are compared);
* :func:`page_furniture`: page headers and footers, left out of matching and of summaries.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from engine.core.types import Unit

WORD = re.compile(r"[^\W_]+")  # letters and digits: the "loose" form drops punctuation


@lru_cache(maxsize=1)
def _punkt():
    """NLTK's English Punkt model (the copy bundled with llama-index-core, so no download);
    the untrained Punkt tokenizer, as llama-index's splitter uses, when it is absent."""
    from nltk.tokenize import PunktSentenceTokenizer, PunktTokenizer

    spec = importlib.util.find_spec("llama_index.core")
    for root in spec.submodule_search_locations if spec else ():
        cache = Path(root) / "_static" / "nltk_cache"
        if (cache / "tokenizers" / "punkt_tab" / "english").is_dir():
            import nltk

            if str(cache) not in nltk.data.path:
                nltk.data.path.append(str(cache))
            return PunktTokenizer("english")
    return PunktSentenceTokenizer()


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentences of ``text`` as ``(start, end)`` offsets, trimmed of whitespace. Punkt, and
    also a cut at every blank line (PDF paragraphs, table cells)."""
    spans: list[tuple[int, int]] = []
    for block in re.finditer(r"\S(?:.*?\S)?(?=\s*\n\s*\n|\s*$)", text, re.S):
        offset = block.start()
        for start, end in _punkt().span_tokenize(block.group(0)):
            spans.append((offset + start, offset + end))
    return spans


def loose(text: str) -> str:
    """Lower-cased words without punctuation, one space apart: the form quotes are repaired in."""
    return " ".join(w.lower() for w in WORD.findall(text))


def page_furniture(units: Sequence[Unit], edge: int = 2) -> dict[int, list[tuple[int, int]]]:
    """Page headers and footers: among the first and last ``edge`` lines of each page, those
    found (numbers aside) on at least three pages and half of them, never every line of a
    page. Returns, per unit, the
    offsets of those lines; their words are left out of matching, so a quote that runs over a
    page break is found with the footer and header in between skipped."""
    if sum(u.page is not None for u in units) < 2:
        return {}
    edges: dict[int, list[tuple[str, int, int]]] = {}
    seen: dict[str, set[int]] = {}
    for u, unit in enumerate(units):
        if unit.page is None:
            continue
        lines = [m for m in re.finditer(r"[^\n]*\S[^\n]*", unit.text)]
        for m in lines[:edge] + lines[edge:][-edge:]:
            key = re.sub(r"\d+", "#", loose(m.group(0)))
            edges.setdefault(u, []).append((key, m.start(), m.end()))
            seen.setdefault(key, set()).add(u)
    pages = sum(u.page is not None for u in units)
    repeated = {k for k, on in seen.items() if k and len(on) >= max(3, pages / 2)}
    out = {u: [(a, b) for k, a, b in lines if k in repeated] for u, lines in edges.items()}
    return {
        u: skip for u, skip in out.items() if skip and len(skip) < len(re.findall(r"[^\n]*\S[^\n]*", units[u].text))
    }
