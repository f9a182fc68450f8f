"""``bench quotes``: quote anchoring on real PDFs.

Positives: body sentences sampled from the PDFs (``MIN_WORDS``–``MAX_WORDS`` words, said once
in their document, no page header or footer in them), each perturbed
the way LLMs misquote — line breaks and runs of spaces collapsed (always), plus one of: none,
case, punctuation (curly quotes and dashes straightened, commas and the final stop dropped),
a dropped word, two neighbouring words swapped, truncation to 50–80 % of the words. A quote
is right when its anchor's main sentence is the sampled one (or has the same words: the
same sentence elsewhere in the file cannot be told apart by text); the page is right when
it is the sampled sentence's page.

Negatives (quotes that are not in the document): sentences of the other PDFs that do not
occur in this one, and this document's own sentences with their words shuffled. A false
anchor is a negative that comes back highlighted (verified or repaired).

Figures are percentages, except ``ms_per_quote`` (mean over positives and negatives, with
the index built beforehand, once per document).
"""

from __future__ import annotations

import random
import re
import sys
import time
from dataclasses import dataclass
from typing import Sequence

from tqdm import tqdm

from engine.bench.page_finder import pdf_files
from engine.core.types import IngestError
from engine.drafting.anchoring import Anchor, AnchorLabel, QuoteAnchorer
from engine.index.sentences import loose
from engine.ingest import load_document

MIN_WORDS = 6  # shorter sentences (headings, table cells) are not what a quote looks like
MAX_WORDS = 80
KINDS = ("none", "case", "punctuation", "drop", "swap", "truncate")


def perturb(sentence: str, kind: str, rng: random.Random) -> str:
    """``sentence`` as an LLM might quote it: whitespace collapsed, then one change."""
    words = sentence.split()
    if kind == "case":
        return " ".join(words).lower() if rng.random() < 0.5 else " ".join(words).capitalize()
    if kind == "punctuation":
        text = " ".join(words).translate(
            str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})
        )
        return re.sub(r"\.$", "", text.replace(",", ""))
    if kind == "drop":
        del words[rng.randrange(len(words))]
    elif kind == "swap":
        i = rng.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
    elif kind == "truncate":
        keep = max(MIN_WORDS - 1, round(len(words) * rng.uniform(0.5, 0.8)))
        start = rng.randrange(len(words) - keep + 1)
        words = words[start : start + keep]
    return " ".join(words)


def shuffled(sentence: str, rng: random.Random) -> str | None:
    """The words of ``sentence`` (letters and digits, so a long URL or cipher string is words
    too) in an order where no two neighbours stay neighbours (so the result is not a quote
    with a word or two moved), or None when no such order was found."""
    words = loose(sentence).split()
    pairs = set(zip(words, words[1:]))
    for _ in range(100):
        rng.shuffle(words)
        if not pairs & set(zip(words, words[1:])):
            return " ".join(words)
    return None


@dataclass
class _Clock:
    """Seconds spent anchoring, overall and on the largest document's quotes."""

    largest: str
    seconds: float = 0.0
    largest_seconds: float = 0.0
    largest_quotes: int = 0

    def anchor(self, anchorer: QuoteAnchorer, name: str, quote: str) -> Anchor:
        started = time.perf_counter()
        found = anchorer.anchor(quote)
        took = time.perf_counter() - started
        self.seconds += took
        if name == self.largest:
            self.largest_seconds, self.largest_quotes = self.largest_seconds + took, self.largest_quotes + 1
        return found


def _pct(right: int, total: int) -> float:
    return round(100.0 * right / max(total, 1), 2)


def bench_quotes(pdfs: Sequence[str], n: int = 1000, seed: int = 0) -> dict:
    """Anchor ``n`` perturbed sentences and ``n`` quotes that are not in their document."""
    rng = random.Random(seed)
    anchorers, skipped, index_seconds, pages = _index_pdfs(pdfs)
    eligible, repeated = _eligible(anchorers)
    positives = [(name, i, rng.choice(KINDS)) for name, i in rng.sample(eligible, min(n, len(eligible)))]
    negatives = _negatives(anchorers, eligible, len(positives), rng)
    largest = max(anchorers, key=lambda name: len(anchorers[name].units))
    clock = _Clock(largest)
    right_sentence, right_page, by_kind, misses = _anchor_positives(anchorers, positives, rng, clock)
    false_anchors, false_examples = _anchor_negatives(anchorers, negatives, clock)

    total_false = sum(v[0] for v in false_anchors.values())
    result = {
        "quotes": len(positives),
        "sentence_accuracy": _pct(right_sentence, len(positives)),
        "page_accuracy": _pct(right_page, len(positives)),
        "false_anchor_rate": _pct(total_false, len(negatives)),
        "ms_per_quote": round(1000.0 * clock.seconds / max(len(positives) + len(negatives), 1), 3),
        "negatives": len(negatives),
        "sentences_left_out": repeated,  # repeated, or with a page header or footer in them
        "files": len(anchorers),
        "pages": pages,
        "index_ms_per_page": round(1000.0 * index_seconds / max(pages, 1), 3),
        "largest": {
            "file": largest,
            "pages": len(anchorers[largest].units),
            "ms_per_quote": round(1000.0 * clock.largest_seconds / max(clock.largest_quotes, 1), 3),
        },
        "sentence_accuracy_by_kind": {k: _pct(r, t) for k, (r, t) in by_kind.items()},
        "false_anchor_rate_by_source": {k: _pct(f, t) for k, (f, t) in false_anchors.items()},
    }
    if misses:
        result["misses"] = misses
    if false_examples:
        result["false_anchors"] = false_examples
    if skipped:
        result["skipped"] = skipped
    return result


def _index_pdfs(pdfs: Sequence[str]) -> tuple[dict[str, QuoteAnchorer], list[str], float, int]:
    """An anchorer per readable PDF (by file name), the errors of the unreadable ones, the seconds
    spent building the anchorers and the pages read."""
    anchorers: dict[str, QuoteAnchorer] = {}
    skipped: list[str] = []
    index_seconds = 0.0
    pages = 0
    for path in tqdm(pdf_files(pdfs), desc="index", file=sys.stderr):
        try:
            doc = load_document(path)
        except IngestError as exc:
            skipped.append(str(exc))
            continue
        started = time.perf_counter()
        anchorers[doc.name] = QuoteAnchorer(doc.units)
        index_seconds += time.perf_counter() - started
        pages += doc.pages or 0
    if not anchorers:
        raise ValueError(f"no readable PDF in {list(pdfs)}: give folders or files that hold PDFs")
    return anchorers, skipped, index_seconds, pages


def _anchor_positives(
    anchorers: dict[str, QuoteAnchorer], positives: list[tuple[str, int, str]], rng: random.Random, clock: _Clock
) -> tuple[int, int, dict[str, list[int]], list[dict]]:
    """Each (document, sentence, kind) perturbed and anchored: how many found their sentence and
    their page, [right, total] by kind, and the first misses."""
    right_sentence = right_page = 0
    by_kind: dict[str, list[int]] = {k: [0, 0] for k in KINDS}
    misses: list[dict] = []
    for name, i, kind in tqdm(positives, desc="quotes", file=sys.stderr):
        a = anchorers[name]
        truth = a.sentences[i]
        quote = perturb(a.sentence_text(i), kind, rng)
        found = clock.anchor(a, name, quote)
        ok = found.highlighted and (found.sentence == i or loose(found.matched_text) in loose(a.sentence_text(i)))
        right_sentence += ok
        right_page += found.highlighted and found.page == truth.page
        by_kind[kind][0] += ok
        by_kind[kind][1] += 1
        if not ok and len(misses) < 15:
            misses.append(
                {
                    "file": name,
                    "kind": kind,
                    "quote": quote,
                    "label": found.label.value,
                    "score": found.score,
                    "matched": found.matched_text[:200],
                }
            )
    return right_sentence, right_page, by_kind, misses


def _anchor_negatives(
    anchorers: dict[str, QuoteAnchorer], negatives: list[tuple[str, str, str]], clock: _Clock
) -> tuple[dict[str, list[int]], list[dict]]:
    """Each (document, quote, source) anchored: [anchored anyway, total] by source, and the first
    quotes that came back highlighted."""
    false_anchors: dict[str, list[int]] = {"other_document": [0, 0], "shuffled": [0, 0]}
    false_examples: list[dict] = []
    for name, quote, source in tqdm(negatives, desc="negatives", file=sys.stderr):
        found = clock.anchor(anchorers[name], name, quote)
        false_anchors[source][0] += found.label is not AnchorLabel.UNVERIFIED
        false_anchors[source][1] += 1
        if found.highlighted and len(false_examples) < 10:
            false_examples.append(
                {
                    "file": name,
                    "source": source,
                    "quote": quote,
                    "score": found.score,
                    "matched": found.matched_text[:200],
                }
            )
    return false_anchors, false_examples


def _eligible(anchorers: dict[str, QuoteAnchorer]) -> tuple[list[tuple[str, int]], int]:
    """Sentences to quote: ``MIN_WORDS``–``MAX_WORDS`` words of body text (no page header or
    footer in them: those are left out of matching, and are not evidence), said once in the
    document (the same sentence on several pages cannot be placed by its text alone; the
    pipeline passes the page of the chunk it came from). Also how many were left out."""
    eligible: list[tuple[str, int]] = []
    repeated = 0
    for name, a in anchorers.items():
        text = loose(" ".join(u.text for u in a.units))
        for i in range(len(a.sentences)):
            sentence, s = loose(a.sentence_text(i)), a.sentences[i]
            if any(start < s.end and s.start < end for start, end in a.furniture.get(s.unit, ())):
                repeated += 1
            elif MIN_WORDS <= len(sentence.split()) and MIN_WORDS <= len(a.sentence_text(i).split()) <= MAX_WORDS:
                if text.count(sentence) == 1:
                    eligible.append((name, i))
                else:
                    repeated += 1
    return eligible, repeated


def _negatives(
    anchorers: dict[str, QuoteAnchorer], eligible: list[tuple[str, int]], n: int, rng: random.Random
) -> list[tuple[str, str, str]]:
    """``n`` quotes (document, quote, source) absent from their document: half from the other
    PDFs (a sentence whose words do not occur in the document), half shuffled sentences."""
    names = list(anchorers)
    out: list[tuple[str, str, str]] = []
    if len(names) > 1:
        texts = {name: loose(" ".join(u.text for u in a.units)) for name, a in anchorers.items()}
        for attempt in range(20 * n):
            if len(out) >= n // 2:
                break
            source, i = rng.choice(eligible)
            target = rng.choice([x for x in names if x != source])
            sentence = anchorers[source].sentence_text(i)
            if loose(sentence) not in texts[target]:
                out.append((target, " ".join(sentence.split()), "other_document"))
    for name, i in rng.sample(eligible, len(eligible)):
        if len(out) >= n:
            break
        quote = shuffled(anchorers[name].sentence_text(i), rng)
        if quote is not None:
            out.append((name, quote, "shuffled"))
    return out
