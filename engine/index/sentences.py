"""Sentences of a text and the lines that repeat at page edges: what the quote anchorer
(engine/drafting/anchoring.py), the prompt's passage compaction, the atom index and the
extractive summaries (engine/index/) all cut a text by, defined once here, below them all.

* :func:`sentence_spans`: NLTK's Punkt (the English model bundled with llama-index-core, no
  download), plus a cut at every blank line (PDF paragraphs, table cells);
* :func:`without_headings`: a sentence less the PDF page number and heading lines (or a Markdown
  heading) before it, which the span holds because a heading has no end punctuation;
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


_HEADING = re.compile(r"^\s*#+ [^\n]*\n")  # a Markdown heading line opening a chunk's sentence
# A PDF's page number or heading on a line of its own before a sentence ("4 \nArchitecture \nHosting
# \nCanvas Credentials is hosted by …", "Disaster Recovery Plan Testing \nA Disaster Recovery Plan
# is …", "SOC 2 Compliance \nInstructure produces …"): a number, or up to ``HEADING_WORDS`` words,
# each capitalised (or a number, an acronym in brackets) but for small words inside ("Backup and
# Recovery Practices", "Definition of a Disaster"), no end punctuation, not a sentence's usual
# first word ("The AWS \nCloud is …" stays whole); the next line starts a sentence (a capital).
HEADING_WORDS = 8
_HEADING_WORD = re.compile(r"^(?:\(?[A-Z0-9][\w’'&/.-]*\)?|[&/–-])$")
_SMALL_WORD = re.compile(r"^(?:a|an|and|as|at|by|for|from|in|into|of|on|or|the|to|vs\.?|via|with)$")
_OPENER = re.compile(
    r"^(?:The|A|An|Our|We|This|These|Those|That|All|Each|Every|Any|No|It|Its|In|On|At|For|To|By|With|As|If|When|"
    r"Where|Once|Their|They|Customers?|Users?|See|Refer|Conduct|Using|Use)$"
)
# the next line goes on with a name the line began ("AWS Identity and Access \nManagement (IAM) …",
# "Conduct a Data Protection Impact \nAssessment (DPIA) …"): a narrow column's line, not a heading
_NAME_GOES_ON = re.compile(r"^\s*[A-Z][\w’'-]* \([A-Z][A-Za-z0-9]+\)")


def without_headings(sentence: str) -> str:
    """A sentence without the heading lines (Markdown, or a PDF's page number and headings) before
    it; a short unpunctuated line before a heading (a table's cell, a name and title) goes with it."""
    lines = _HEADING.sub("", sentence).split("\n")
    while len(lines) > 1:
        if is_heading(lines[0]) and _starts_sentence(lines[1:]):
            lines = lines[1:]
        elif len(lines) > 2 and _is_loose(lines[0]) and is_heading(lines[1]) and _starts_sentence(lines[2:]):
            lines = lines[2:]
        else:
            break
    return "\n".join(lines)


def is_heading(line: str) -> bool:
    """A PDF line that is a page number or a heading (see ``_HEADING_WORD``), not a sentence's start."""
    words = line.split()
    if len(words) == 1 and words[0].isdigit():
        return True
    if not 1 <= len(words) <= HEADING_WORDS or line.rstrip()[-1] in ".,;:!?" or _OPENER.match(words[0]):
        return False
    if _SMALL_WORD.match(words[0]) or _SMALL_WORD.match(words[-1]) or words[-1] in ("&", "/", "–", "-"):
        return False
    return all(_HEADING_WORD.match(w) or _SMALL_WORD.match(w) for w in words)


def _is_loose(line: str) -> bool:
    """A short line without end punctuation, with a comma or a digit: a table's cell ("Last 60
    monthly backups retained"), a name and title ("Jon Fletcher, Senior Director of …")."""
    words = line.split()
    return (
        1 <= len(words) <= HEADING_WORDS
        and line.rstrip()[-1] not in ".!?:;"
        and bool(re.search(r"[,\d]", line))
        and not _OPENER.match(words[0])
    )


def _starts_sentence(lines: list[str]) -> bool:
    """``lines`` start a sentence: a capital letter, not a name going on ("Management (IAM) …").
    A narrow column's line wrapped in a name without brackets ("Archives in Amazon \nS3 Glacier can
    be …") still reads as a heading: a heading above a narrow column ("What We Do \nInstructure is
    an education technology \ncompany …") has the same shape, and the own documents' headings
    must go (a third party's sentence loses a word or two at worst)."""
    return lines[0].strip()[:1].isupper() and not _NAME_GOES_ON.match(lines[0])


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
