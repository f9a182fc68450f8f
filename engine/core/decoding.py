"""Text files as text: which encoding a CSV, Markdown or TXT file is in, and its decoded text.

One helper for every reader (``kb add``, ``inspect``, ``library import``) and for the CSV
export, which writes the file back in the encoding it came in:

1. a byte-order mark: UTF-32 LE/BE, UTF-8, UTF-16 LE/BE (UTF-32 LE is tested before UTF-16
   LE, whose mark is its prefix);
2. UTF-16 without a mark, when its NUL bytes say so: in Latin-script text every other byte
   is NUL (the high byte of each character). At least 30 % of the byte pairs of the first
   4 KiB with a NUL on one side and almost none (≤ 2 %) on the other, an even length, and a
   strict decode that succeeds; anything else is not taken for UTF-16;
3. UTF-8, else Windows-1252.

Text that still holds NUL characters after decoding is binary, or in an encoding that was not
recognised (UTF-16 of non-Latin text without a mark): it is refused, never indexed as garbage.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from engine.core.types import FileProblem, IngestError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_SAMPLE = 4096  # bytes looked at to recognise UTF-16 without a byte-order mark
_NUL_SIDE = 0.30  # share of the pairs with a NUL on the high-byte side
_CLEAN_SIDE = 0.02  # most NULs allowed on the other side
SAVE_AS_UTF8 = "save it again as UTF-8 text (Excel: Save As → CSV UTF-8) and add it again"


@dataclass(frozen=True)
class Encoding:
    """How a file's bytes are text: its byte-order mark (``b""`` when none) and the codec of
    the bytes after it."""

    bom: bytes
    codec: str


def _utf16_without_bom(raw: bytes) -> str | None:
    """ "utf-16-le" / "utf-16-be" when the NUL bytes say so (see the module docstring)."""
    sample = raw[:_SAMPLE]
    if len(raw) % 2 or len(sample) < 4:
        return None
    pairs = len(sample) // 2
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    for nuls, clean, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if nuls >= _NUL_SIDE * pairs and clean <= _CLEAN_SIDE * pairs:
            try:
                raw.decode(codec)
            except UnicodeDecodeError:
                return None
            return codec
    return None


def detect_encoding(raw: bytes) -> Encoding | None:
    """The encoding of ``raw`` (see the module docstring), or None when none decodes it."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return Encoding(bom, codec)
    if (codec := _utf16_without_bom(raw)) is not None:
        return Encoding(b"", codec)
    for codec in ("utf-8", "cp1252"):
        try:
            raw.decode(codec)
        except UnicodeDecodeError:
            continue
        return Encoding(b"", codec)
    return None


def count_chars(path: Path, chunk: int = 1 << 20) -> int:
    """The characters of a text file in the encoding :func:`detect_encoding` finds, counted
    ``chunk`` bytes at a time (the file is never held whole). Bytes that are not UTF-8 count
    one character each (Windows-1252)."""
    with path.open("rb") as f:
        head = f.read(_SAMPLE)
        encoding = detect_encoding(head[: len(head) - len(head) % 4])  # whole code units only
        codec = encoding.codec if encoding and encoding.codec != "cp1252" else "utf-8"
        f.seek(len(encoding.bom) if encoding else 0)
        decoder = codecs.getincrementaldecoder(codec)()
        chars = 0
        try:
            while data := f.read(chunk):
                chars += len(decoder.decode(data))
            return chars + len(decoder.decode(b"", final=True))
        except UnicodeDecodeError:  # not UTF-8 after all: Windows-1252, one byte a character
            return path.stat().st_size


def decode_text(raw: bytes, name: str, error: type[FileProblem] = IngestError) -> str:
    """The text of a file's bytes; ``error`` (naming ``name``, the problem and the fix) when
    no encoding fits or the text holds NUL characters."""
    encoding = detect_encoding(raw)
    if encoding is None:
        raise error(name, "is not UTF-8, UTF-16, UTF-32 or Windows-1252 text", SAVE_AS_UTF8)
    try:
        text = raw[len(encoding.bom) :].decode(encoding.codec)
    except UnicodeDecodeError as exc:  # a byte-order mark followed by bytes of another encoding
        raise error(
            name,
            f"starts with a {encoding.codec} byte-order mark but is not {encoding.codec} text "
            f"(byte {exc.start + len(encoding.bom)})",
            SAVE_AS_UTF8,
        ) from None
    if "\x00" in text:
        raise error(
            name,
            f"holds NUL characters ({text.count(chr(0)):,} of {len(text):,}): it is binary, or text in "
            "an encoding that was not recognised (UTF-16 without a byte-order mark)",
            SAVE_AS_UTF8,
        )
    return text


__all__ = ["Encoding", "SAVE_AS_UTF8", "decode_text", "detect_encoding"]
