"""Token-limited, overlapping chunks with exact provenance.

llama-index-core's ``SentenceSplitter`` cuts the text; sizes are counted with the dense
model's own word-piece tokenizer, so a chunk is never longer than what the model reads (it
truncates silently past ``max_seq_length``). Offsets are found in the source text, never
re-derived later: for a single-page chunk ``page_text[start:end] == chunk.text``.

PDF pages flow into each other (a paragraph may continue on the next page), so a PDF is cut
as one text and a chunk may span pages; other documents are cut unit by unit (a DOCX or
Markdown section, a spreadsheet row).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.core.types import Chunk, LoadedDocument, SourceKind, Unit

PAGE_SEPARATOR = "\n"  # between page texts when a PDF is cut as one text


@dataclass(frozen=True)
class Span:
    text: str
    start: int
    end: int


class Chunker:
    def __init__(self, token_counter: Callable[[str], Sequence[int]], chunk_size: int, overlap: int = 20) -> None:
        from llama_index.core.node_parser import SentenceSplitter

        if overlap >= chunk_size:
            raise ValueError(f"chunk overlap ({overlap}) must be smaller than the chunk size ({chunk_size})")
        self.count = token_counter
        self.chunk_size = chunk_size
        self.splitter = SentenceSplitter(chunk_size=chunk_size, chunk_overlap=overlap, tokenizer=token_counter)

    def warm_up(self) -> None:
        """Load the sentence tokenizer now (NLTK's first import takes seconds)."""
        self.splitter.split_text("Warm up. " * (self.chunk_size + 1))

    def spans(self, text: str) -> list[Span]:
        """Chunks of ``text`` with their offsets in ``text``."""
        if not text.strip():
            return []
        if len(self.count(text)) <= self.chunk_size:
            stripped = text.strip()
            start = text.index(stripped)
            return [Span(stripped, start, start + len(stripped))]
        spans: list[Span] = []
        cursor = 0
        for piece in self.splitter.split_text(text):
            span = _locate(text, piece, cursor)
            if span is not None:
                spans.append(span)
                cursor = span.start + 1
        return spans

    def chunk(self, doc: LoadedDocument, doc_hash: str) -> list[Chunk]:
        if doc.kind is SourceKind.PDF:
            return self._chunk_pages(doc, doc_hash)
        chunks: list[Chunk] = []
        for unit in doc.units:
            for span in self.spans(unit.text):
                chunks.append(_chunk(doc, doc_hash, len(chunks), span, unit))
        return chunks

    def _chunk_pages(self, doc: LoadedDocument, doc_hash: str) -> list[Chunk]:
        pages = [u for u in doc.units if u.text.strip()]
        offsets: list[int] = []
        position = 0
        for unit in pages:
            offsets.append(position)
            position += len(unit.text) + len(PAGE_SEPARATOR)
        whole = PAGE_SEPARATOR.join(u.text for u in pages)
        chunks: list[Chunk] = []
        for span in self.spans(whole):
            first = bisect.bisect_right(offsets, span.start) - 1
            last = bisect.bisect_right(offsets, span.end - 1) - 1
            share = [
                min(span.end, offsets[i] + len(pages[i].text)) - max(span.start, offsets[i])
                for i in range(first, last + 1)
            ]
            chunks.append(
                Chunk(
                    doc=doc.name,
                    doc_hash=doc_hash,
                    index=len(chunks),
                    kind=doc.kind,
                    text=span.text,
                    start=span.start - offsets[first],
                    end=span.end - offsets[last],
                    page_start=pages[first].page,
                    page_end=pages[last].page,
                    page=pages[first + share.index(max(share))].page,
                )
            )
        return chunks


def _chunk(doc: LoadedDocument, doc_hash: str, index: int, span: Span, unit: Unit) -> Chunk:
    return Chunk(
        doc=doc.name,
        doc_hash=doc_hash,
        index=index,
        kind=doc.kind,
        text=span.text,
        start=span.start,
        end=span.end,
        sheet=unit.sheet,
        row=unit.row,
        section=unit.section,
    )


def _locate(text: str, piece: str, cursor: int) -> Span | None:
    """Where the splitter's ``piece`` sits in ``text``, at or after ``cursor``.

    The splitter returns substrings of its input; should it ever normalise whitespace, the
    piece is found again with any run of whitespace allowed between its words, and the chunk
    takes the exact source text so the offset invariant still holds.
    """
    start = text.find(piece, cursor)
    if start >= 0:
        return Span(piece, start, start + len(piece))
    words = piece.split()
    if not words:
        return None
    match = re.compile(r"\s+".join(map(re.escape, words))).search(text, cursor)
    if match is None:
        return None
    return Span(match.group(0), match.start(), match.end())
