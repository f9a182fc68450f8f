"""A model reply that went wrong in a way no reviewer should have to spot: it is set aside (the row
becomes no_context, ``GeneratedAnswer.glitch`` says why) and never shown as a draft.

Three glitches, each seen in the Instructure leave-one-out runs (issue #37) or typical of a small
model decoding greedily (and a fourth, a broken character: half of a UTF-16 surrogate pair that
the reply's JSON escaped, "\\ud83d", which crashed the evaluation's embedder in one run):

* **Another script.** Letters of a script the questionnaire is not written in (decided from the
  question's own letters; Latin letters are always allowed: product names, acronyms): Qwen2.5's
  "… responsible for directing the DRT recovery efforts and ongoing的通知." Digits, punctuation and
  symbols (a PDF's private-use bullet, "●") are no script and never count.
* **A label that means nothing to a reader.** The prompt labels its passages "[1] file p. 3" and,
  in the sentences form, its sentences "S1", "S2" …; ``prompt.tidy_answer`` already rewrites the
  usual citations ("as stated in S1" → "the cited source"). A label still left in the answer
  ("outlined in … specifically in sections S3 and S4", "as per the requirement in S1") is either
  invented (no passage has it) or the prompt's own vocabulary: both are glitches. A token that is a
  word of the passages themselves (Amazon's "S3", a footnote "[2]") is not a label.
* **A loop.** A block of one to eight words said three times in a row (a single word four times),
  or the same sentence (five words or more) twice. ``grammar_sampling.loops_at_end`` ends such a
  reply in the local sampler; a server's reply, or a loop that ended by itself, comes here.

Measured: of the 980 rows of the Instructure leave-one-out drafts (seven targets, the other filled
questionnaires as the library) the rules set aside exactly the three replies above (DRPL-01 twice:
the Chinese characters; PCID-09: "as per the requirement in S1 and … in S4"); of the 2,099 answers
and comments the vendor wrote in the nine filled Instructure questionnaires, none (its "S3 buckets"
and "AWS S3" are Amazon's).
"""

from __future__ import annotations

import re
import unicodedata

# scripts that are written together: a question in one allows the others of its family
_FAMILIES = ({"CJK", "HIRAGANA", "KATAKANA", "BOPOMOFO"}, {"HANGUL", "CJK"})
# the first word of a letter's Unicode name that names a script (others, such as MICRO SIGN or
# FEMININE ORDINAL INDICATOR, are no script's and never count)
_SCRIPTS = frozenset(
    "LATIN GREEK CYRILLIC ARMENIAN HEBREW ARABIC SYRIAC THAANA DEVANAGARI BENGALI GURMUKHI GUJARATI ORIYA "
    "TAMIL TELUGU KANNADA MALAYALAM SINHALA THAI LAO TIBETAN MYANMAR GEORGIAN HANGUL ETHIOPIC CHEROKEE KHMER "
    "MONGOLIAN HIRAGANA KATAKANA BOPOMOFO CJK YI".split()
)
_LABEL = re.compile(r"(?<![\w\[])(?:S\d{1,3}|\[\d{1,3}\])(?![\w\]])")
# Amazon's storage service, not a label: "AWS S3", "Amazon S3", "S3 buckets", "S3 Glacier"
_AMAZON_S3 = re.compile(r"(?:Amazon|AWS)\s+S3\b|\bS3\s+(?:buckets?|Glacier|storage|objects?)\b", re.I)
_PROMPT_LABEL_LINE = re.compile(r"^(?:S\d+\. |\[\d+\] [^\n]*$)", re.M)  # "S3. …" / "[1] file p. 3"
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
LOOP_BLOCK = 8  # words in the longest block a loop repeats
LOOP_TIMES = 3  # a block said this many times in a row is a loop (a single word: one more)
SENTENCE_WORDS = 5  # a sentence said twice is a loop from this many words


def script(ch: str) -> str | None:
    """The script of a letter ("LATIN", "CJK", "CYRILLIC" …); None for anything else."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    first = unicodedata.name(ch, "").split(" ", 1)[0]
    if first in ("FULLWIDTH", "HALFWIDTH"):  # the CJK blocks' forms of Latin letters and kana
        return "CJK"
    return first if first in _SCRIPTS else None


def allowed_scripts(question: str) -> set[str]:
    """The scripts a reply to ``question`` may use: the question's own, their family's, and Latin."""
    own = {s for s in map(script, question) if s} | {"LATIN"}
    for family in _FAMILIES:
        if own & family:
            own |= family
    return own


def foreign_text(answer: str, question: str) -> str:
    """The first run of ``answer`` written in a script ``question`` does not allow (letters of
    such scripts and what stands between them, "的通知", "Данные шифруются"); "" when none."""
    allowed = allowed_scripts(question)
    foreign = [i for i, ch in enumerate(answer) if (s := script(ch)) and s not in allowed]
    if not foreign:
        return ""
    end = foreign[0]
    for i in foreign[1:]:
        if any(script(ch) for ch in answer[end + 1 : i]):  # a letter of an allowed script between: the run ended
            break
        end = i
    return answer[foreign[0] : end + 1]


def dangling_labels(answer: str, context: str) -> list[str]:
    """The prompt labels ("S3", "[2]") ``answer`` still names that are no word of the passages'
    text (``context``: what the model read, labels included), in order, each once."""
    text = _PROMPT_LABEL_LINE.sub(" ", context)
    return [
        label
        for label in dict.fromkeys(m.group(0) for m in _LABEL.finditer(_AMAZON_S3.sub(" ", answer)))
        if not re.search(rf"(?<![\w\[]){re.escape(label)}(?![\w\]])", text)
    ]


def loop_in(answer: str) -> str | None:
    """The repeated words when ``answer`` loops (a block said ``LOOP_TIMES`` times in a row, a
    single word once more; or a sentence of ``SENTENCE_WORDS`` words or more said twice); None."""
    words = [w.casefold() for w in _WORD.findall(answer)]
    for size in range(1, LOOP_BLOCK + 1):
        times = LOOP_TIMES + (size == 1)
        for start in range(len(words) - size * times + 1):
            block = words[start : start + size]
            if all(words[start + k * size : start + (k + 1) * size] == block for k in range(1, times)):
                return " ".join(block)
    seen: set[tuple[str, ...]] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", answer):
        key = tuple(w.casefold() for w in _WORD.findall(sentence))
        if len(key) >= SENTENCE_WORDS and key in seen:
            return sentence.strip()
        seen.add(key)
    return None


def glitch(answer: str, question: str, context: str = "") -> str | None:
    """Why the model's ``answer`` to ``question`` must be set aside, or None. ``context`` is what
    the model read (the prompt's passages with their labels): a label-like token that is a word of
    a passage ("S3", Amazon's) is not a label."""
    if broken := [ch for ch in answer if unicodedata.category(ch) == "Cs"]:
        # half of a character (a JSON "\ud83d" without its pair): no text holds it, nor can it be
        # stored, exported or embedded (the tokenizer refuses it)
        return f"{len(broken)} broken character{'s' if len(broken) > 1 else ''} (half of a character's code)"
    if foreign := foreign_text(answer, question):
        return f"characters outside the questionnaire's script ({foreign[:20]})"
    if labels := dangling_labels(answer, context):
        return f"it cites {', '.join(labels)}, labels that mean nothing outside the prompt"
    if (looped := loop_in(answer)) is not None:
        return f"it repeats itself ({looped[:60]!r})"
    return None


def set_aside(reason: str) -> str:
    """A draft's line for a reply set aside (``Draft.error`` of its no_context row)."""
    return f"the model's reply was set aside: {reason}; write this answer by hand"


__all__ = ["allowed_scripts", "dangling_labels", "foreign_text", "glitch", "loop_in", "script", "set_aside"]
