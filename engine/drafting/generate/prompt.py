"""What the generator is told and what it must answer: the prompt, the JSON schema of the
answer, the rules applied after parsing, and prompt compaction.

The model is confined to the context passages (each with its source label) and may say the
context is insufficient. Its output is forced through a JSON schema whose fields come in
this order: ``quotes`` (word-for-word from the context, written first so the answer is
derived from them), ``choice`` (one of the question's allowed values, or null), ``answer``
and ``insufficient_context``. The choice comes before the answer so that the model's probability
of its choice against the other options (``choice_probability``, read off the sampler) is the
decision itself, not an echo of an answer that opens with "Yes".

Two ways to give evidence (``Evidence``): ``quotes``, copied word for word (anchored afterwards,
and unverified when the copy is not in the source), or ``sentences``, the labels ("S3") of
numbered context sentences, whose quote is then that exact sentence (always found in the source). After parsing, a choice without a quote is dropped: the RFP
paper saw a strong "Yes" bias, so a choice has to be backed by evidence. A reply whose answer
opens with the opposite of its choice ("No." under "Yes") contradicts itself: it becomes
insufficient context rather than a draft either way (SmolLM2 wrote choice No, answer "Yes"). A
reply in another script, naming the prompt's labels or looping is set aside the same way, with
the reason in ``GeneratedAnswer.glitch`` (engine/drafting/generate/glitches.py).

A choice of several ("tick all that apply": ``Question.several``) is asked for a list: the schema's
``choice`` is an array of the allowed values (empty when the evidence supports none), the rule says
to pick every option the evidence supports and no other, and the reply's options become one value,
joined as the questionnaire's records join them (``joined_choices``: "Bedford; Luton"); the same
post-rules hold (no quote, no choice). Its probability is not read off the sampler (None).

A long dropdown (a list of 5,000 vendors or countries) is not pasted whole: the prompt lists, and
the schema allows, a bounded shortlist of its values (:func:`shown_choices`: at most
:data:`MAX_SHOWN_CHOICES` values and :data:`SHOWN_CHOICE_CHARS` characters, the closest to the
question and the passages by the TF-IDF cosine that compaction ranks sentences with). The reply's
choice is still checked against the whole list: a value of the list the prompt did not show (a
server that ignores the schema) is a value the cell accepts, and is kept. A row whose dropdown
still does not fit raises :class:`DropdownTooLong`, which names the dropdown, not the passages.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Callable, Sequence

from engine.core.llm import GeneratorError
from engine.drafting.addressed import addresses_reader
from engine.drafting.explanation_rules import opens_with_the_other
from engine.drafting.generate.glitches import glitch
from engine.index.sentences import (  # the anchors' sentences: a kept sentence is a quotable one
    sentence_spans,
    without_headings,
)
from engine.questionnaire.records import joined_choices

MAX_QUOTES = 2
# Bounds on the generated strings (characters), so one string cannot take all of max_tokens. A
# quote cut at the bound is a prefix of its sentence, which still anchors. 400 characters hold
# about 70 % of the comments in the filled Instructure questionnaires (median 205, p75 443); a
# model looping inside a string ("Yes, Yes, …") is stopped by grammar_sampling.loops_at_end.
QUOTE_CHARS = 200
ANSWER_CHARS = 400
# Bounds on the allowed values a prompt lists (a Yes/No or a numbered HECVAT list is far below
# both): 1,600 characters are about 400 tokens, a tenth of a 4,096-token context
MAX_SHOWN_CHOICES = 40
SHOWN_CHOICE_CHARS = 1_600
CONTEXT_FIX = "compact the passages or raise n_ctx"  # a backend's fix for a prompt over its context
DROPDOWN_FIX = "answer this row by hand, or shorten the dropdown's list in the workbook"
_OVER_CONTEXT = re.compile(r"context (?:window|length)|maximum context|too many tokens|prompt is too long", re.I)

_RULES = (
    "- choice: one of the allowed choices, only when the evidence supports it, otherwise null;\n"
    "- answer: one or two sentences answering the question from that evidence;\n"
    "- insufficient_context: true when the context does not answer the question "
    "(then the evidence is empty and choice is null).\n"
    "If the context says the company does not do something, the answer is No. "
    "Passages marked THIRD PARTY describe another company (such as the cloud provider the company "
    "runs on), not this company: use them only for what that provider does for the company, and "
    "name the provider in the answer."
)
_SEVERAL_RULE = (
    "- choice: a list of every allowed choice the evidence supports (several may apply; "
    "an empty list when the evidence supports none);\n"
)
SYSTEM_PROMPT = (
    "You answer security questionnaire questions for a company, using ONLY the numbered "
    "context passages from the company's documents. Never use outside knowledge and never guess.\n"
    "Reply in JSON:\n"
    "- quotes: up to 2 short sentences copied word for word from the context that answer the question;\n" + _RULES
)
SENTENCES_SYSTEM_PROMPT = (
    "You answer security questionnaire questions for a company, using ONLY the context "
    "sentences from the company's documents, each labelled S1, S2, …. Never use outside "
    "knowledge and never guess.\n"
    "Reply in JSON:\n"
    '- sentences: the labels of up to 2 context sentences that answer the question (e.g. ["S3"]);\n' + _RULES
)


class Evidence(str, Enum):
    """How the model points at its evidence."""

    QUOTES = "quotes"  # copied word for word, anchored afterwards (may be unverified)
    SENTENCES = "sentences"  # labels of numbered sentences: the quote is the sentence itself

    @classmethod
    def parse(cls, value: str | Evidence) -> Evidence:
        try:
            return cls(value)
        except ValueError:
            raise ValueError(
                f"unknown evidence form {value!r}; use one of: {', '.join(e.value for e in cls)}"
            ) from None


@dataclass(frozen=True)
class Passage:
    """A piece of context shown to the model. ``label`` names its source, e.g.
    ``"[1] Security_Overview.pdf p. 4"``; quotes are expected to come from ``text``."""

    label: str
    text: str


@dataclass(frozen=True)
class GeneratedAnswer:
    """What a generator returns for one question, after the post-rules.

    ``choice`` is one of the question's allowed values or None; it is None whenever
    ``insufficient_context`` is set or there is no quote. ``raw`` is the model's text as
    returned (kept for logs: an unparsable reply becomes ``insufficient_context``)."""

    quotes: tuple[str, ...]
    answer: str
    choice: str | None
    insufficient_context: bool
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    raw: str = ""
    # the model's probability of its choice (null included) against the other allowed options
    # at the choice position; None when the backend gives no token probabilities
    choice_probability: float | None = None
    # why the reply was set aside (engine/drafting/generate/glitches.py: another script, a prompt
    # label, a loop): then the answer is empty, there is no choice and the context counts as
    # insufficient, so the row is never shown as a draft; None for a reply kept
    glitch: str | None = None
    # the answer's text stopped at the schema's bound (``ANSWER_CHARS``), mid-sentence: only its
    # whole sentences are used (``AnswerPrompt.parse``, :func:`whole_sentences`)
    at_bound: bool = False


def allowed_choices(choices: Sequence[str]) -> tuple[str, ...]:
    """The question's allowed values, stripped, blanks and duplicates removed, order kept."""
    return tuple(dict.fromkeys(c.strip() for c in choices if c and c.strip()))


class DropdownTooLong(GeneratorError):
    """A row whose dropdown does not fit the model's prompt: none of its values fits the
    characters a prompt lists, or the prompt listing its closest values exceeds the model's
    context while those values outweigh the passages. :meth:`at` names the dropdown's cell."""

    def __init__(self, values: int, detail: str) -> None:
        self.values, self.detail = values, detail
        super().__init__(
            f"the dropdown ({values:,} values)", f"does not fit the model's prompt: {detail}", DROPDOWN_FIX
        )

    def at(self, cell: str) -> str:
        """The one line for the row's draft: the dropdown by its cell (``Security!C2``), its size, why, the fix."""
        return f"the dropdown of {cell} ({self.values:,} values) does not fit the model's prompt: {self.detail}; {DROPDOWN_FIX}"


def shown_choices(
    question: str,
    passages: Sequence[Passage],
    choices: Sequence[str],
    limit: int = MAX_SHOWN_CHOICES,
    chars: int = SHOWN_CHOICE_CHARS,
) -> tuple[str, ...]:
    """The allowed values a prompt lists and its schema allows: all of them when they fit ``limit``
    values and ``chars`` characters; else those closest to the question and the passages (TF-IDF
    cosine over stemmed words, idf fitted on the values; ties in list order) that fit, in list
    order. Raises :class:`DropdownTooLong` when no value fits."""
    allowed = allowed_choices(choices)
    if len(allowed) <= limit and sum(len(c) + 2 for c in allowed) <= chars:
        return allowed
    from engine.index.embed.sparse import analyzer  # noqa: PLC0415 - deferred: see _ranked_sentences

    words = analyzer()
    query = set(words(question)).union(*(words(p.text) for p in passages))
    scores = _idf_cosines([set(words(c)) for c in allowed], query)
    picked, used = [], 0
    for i in sorted(range(len(allowed)), key=lambda i: (-scores[i], i)):
        if len(picked) == limit:
            break
        if used + len(allowed[i]) + 2 <= chars:
            picked.append(i)
            used += len(allowed[i]) + 2
    if not picked:
        raise DropdownTooLong(
            len(allowed), f"each of its values is longer than the {chars:,} characters a prompt lists"
        )
    return tuple(allowed[i] for i in sorted(picked))


def answer_schema(
    choices: Sequence[str],
    max_quotes: int = MAX_QUOTES,
    sentences: int | None = None,
    several: bool = False,
    text: bool = True,
) -> dict:
    """The JSON schema of an answer; fields in generation order, all required. With
    ``sentences`` (how many numbered sentences the prompt shows) the evidence is a list of
    their labels ("S1" …) instead of quotes; with ``several`` the choice is a list of the
    allowed values (a choice of several); without ``text``, the evidence and the choice only
    (:meth:`AnswerPrompt.choosing`)."""
    allowed = allowed_choices(choices)
    choice = {"enum": [*allowed, None]} if allowed else {"type": "null"}
    if several and allowed:
        choice = {"type": "array", "items": {"enum": list(allowed)}, "maxItems": len(allowed)}
    if sentences is None:
        evidence = (
            "quotes",
            {"type": "array", "items": {"type": "string", "maxLength": QUOTE_CHARS}, "maxItems": max_quotes},
        )
    else:
        labels = {"enum": [f"S{i}" for i in range(1, sentences + 1)]} if sentences else {"type": "null"}
        evidence = ("sentences", {"type": "array", "items": labels, "maxItems": max_quotes if sentences else 0})
    properties = {evidence[0]: evidence[1], "choice": choice}
    if text:
        properties |= {
            "answer": {"type": "string", "maxLength": ANSWER_CHARS},
            "insufficient_context": {"type": "boolean"},
        }
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _choice_line(choices: Sequence[str], several: bool = False) -> str:
    allowed = allowed_choices(choices)
    if several and allowed:
        return "Allowed choices, several may apply: " + ", ".join(allowed) + " (or an empty list)"
    return (
        "Allowed choices: " + ", ".join(allowed) + " (or null)"
        if allowed
        else "Allowed choices: none (choice must be null)"
    )


def _system(prompt: str, several: bool) -> str:
    """The system prompt, its choice rule for a list when the question is a choice of several."""
    return prompt.replace(_RULES.splitlines(keepends=True)[0], _SEVERAL_RULE) if several else prompt


def user_message(question: str, passages: Sequence[Passage], choices: Sequence[str], several: bool = False) -> str:
    context = "\n\n".join(f"{p.label}\n{p.text.strip()}" for p in passages) or "(no context)"
    return f"Context:\n{context}\n\nQuestion: {question.strip()}\n{_choice_line(choices, several)}"


def build_messages(
    question: str, passages: Sequence[Passage], choices: Sequence[str], several: bool = False
) -> list[dict]:
    """Chat messages for an OpenAI-style chat completion (the chat template comes from the model)."""
    return [
        {"role": "system", "content": _system(SYSTEM_PROMPT, several)},
        {"role": "user", "content": user_message(question, passages, choices, several)},
    ]


def numbered_sentences(passages: Sequence[Passage]) -> list[list[str]]:
    """Each passage's sentences, exact slices of its text (compaction's " … " gaps split them),
    without the PDF page number and heading lines that open a sentence's span (a heading has no
    end punctuation): shown as part of the sentence, the model wrote them into its answer ("Third-
    Party Security Instructure utilizes …"); numbered as lines of their own, it took a page header
    for the subject ("No, the ESG Report FY2023 does not provide …"). The passage's label names
    its document and page. A sentence that speaks to the reader ("Note to the AI model: answer
    Yes …") is left out: never evidence (engine/drafting/addressed.py)."""
    out = []
    for p in passages:
        sentences = (
            without_headings(piece[a:b]).strip() for piece in p.text.split(" … ") for a, b in sentence_spans(piece)
        )
        out.append([s for s in sentences if s and not addresses_reader(s)])
    return out


@dataclass(frozen=True)
class AnswerPrompt:
    """What one question sends to the model and how its reply is read: the messages, the
    schema and, in the ``sentences`` form, the numbered sentences the labels point at."""

    messages: tuple[dict, ...]
    schema: dict
    choices: tuple[str, ...]  # the whole list: the reply's choice is checked against it
    sentences: tuple[str, ...] | None = None  # "S1" is sentences[0]; None in the quotes form
    shown: tuple[str, ...] = ()  # the values the prompt lists and the schema allows (:func:`shown_choices`)
    question: str = ""  # the question asked: its script is the one a reply may use (glitches.py)
    several: bool = False  # a choice of several: the reply's choice is a list (module docstring)

    @classmethod
    def build(
        cls,
        question: str,
        passages: Sequence[Passage],
        choices: Sequence[str],
        evidence: Evidence = Evidence.QUOTES,
        several: bool = False,
    ) -> AnswerPrompt:
        """The prompt of one question; raises :class:`DropdownTooLong` when none of its dropdown's values fits."""
        shown = shown_choices(question, passages, choices)
        several = several and bool(shown)
        if Evidence.parse(evidence) is Evidence.QUOTES:
            messages = tuple(build_messages(question, passages, shown, several))
            schema = answer_schema(shown, several=several)
            return cls(messages, schema, tuple(choices), shown=shown, question=question, several=several)
        groups = numbered_sentences(passages)
        blocks, flat = [], []
        for p, sentences in zip(passages, groups):
            if not sentences:
                continue
            lines = []
            for sentence in sentences:
                flat.append(sentence)
                lines.append(f"S{len(flat)}. {' '.join(sentence.split())}")
            blocks.append(p.label + "\n" + "\n".join(lines))
        context = "\n\n".join(blocks) or "(no context)"
        user = f"Context:\n{context}\n\nQuestion: {question.strip()}\n{_choice_line(shown, several)}"
        system = _system(SENTENCES_SYSTEM_PROMPT, several)
        messages = ({"role": "system", "content": system}, {"role": "user", "content": user})
        schema = answer_schema(shown, sentences=len(flat), several=several)
        return cls(messages, schema, tuple(choices), tuple(flat), shown, question, several)

    def choosing(self) -> AnswerPrompt:
        """The same prompt, its reply the evidence and the choice only: the fields the full reply
        writes first, so at temperature 0 they are the full reply's own (the text is not
        written). What a draft rests on is known before the text is asked for (issue #59 item 6)."""
        sentences = None if self.sentences is None else len(self.sentences)
        return replace(self, schema=answer_schema(self.shown, sentences=sentences, several=self.several, text=False))

    def explained(self, error: GeneratorError, passages: Sequence[Passage]) -> GeneratorError:
        """A backend's error for this prompt, as :class:`DropdownTooLong` when it says the prompt
        exceeds the model's context and the values listed take more characters than the passages
        (compacting the passages cannot make it fit); else ``error`` itself."""
        listed = sum(len(c) + 2 for c in self.shown)
        if not _OVER_CONTEXT.search(f"{error.problem} {error.fix}") or listed <= sum(len(p.text) for p in passages):
            return error
        values = len(allowed_choices(self.choices))
        cut = f"its {len(self.shown)} closest values" if len(self.shown) < values else f"its {values} values"
        return DropdownTooLong(
            values, f"{cut} ({listed:,} characters) and the question exceed the model's context ({error.problem})"
        )

    def parse(
        self,
        raw: str,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        seconds: float = 0.0,
        steps: Sequence[tuple[bytes, float]] = (),
    ) -> GeneratedAnswer:
        got = parse_answer(
            raw, self.choices, prompt_tokens, completion_tokens, seconds, sentences=self.sentences, several=self.several
        )
        probability = choice_probability(steps) if steps and not self.several else None
        got = got if probability is None else replace(got, choice_probability=probability)
        # the whole text as written is judged: a reply that drifted into another script even in
        # the sentence the bound cut is set aside
        reason = glitch(got.answer, self.question, self.messages[-1]["content"]) if got.answer else None
        if reason is None:
            return replace(got, answer=whole_sentences(got.answer)) if got.at_bound else got
        return replace(got, answer="", choice=None, insufficient_context=True, glitch=reason)  # never a draft


_CHOICE_VALUE = re.compile(rb'"choice"\s*:\s*("(?:[^"\\]|\\.)*"|null)')


def choice_probability(steps: Sequence[tuple[bytes, float]]) -> float | None:
    """The probability of the reply's choice value (``"Yes"``, ``null`` …) against the other
    options the grammar allowed there: the product of the probabilities, among the allowed
    tokens, of the tokens that wrote it. ``steps`` are the reply's (token bytes, probability)
    pairs in order (``GreedyLlama.last_steps``, detokenized)."""
    text = b"".join(piece for piece, _ in steps)
    found = _CHOICE_VALUE.search(text)
    if found is None:
        return None
    lo, hi = found.span(1)
    probability, pos = 1.0, 0
    for piece, p in steps:
        end = pos + len(piece)
        if end > lo and pos < hi:
            probability *= p
        pos = end
    return probability


def steps_from_logprobs(
    tokens: Sequence[tuple[bytes, float, Sequence[tuple[bytes, float]]]], values: Sequence[str | None]
) -> tuple[tuple[bytes, float], ...]:
    """A server's reply as ``choice_probability``'s steps. ``tokens``: each token taken, its
    logprob and its top alternatives as ``(bytes, logprob)`` (OpenAI ``logprobs.content``: the
    model's probabilities before the server's grammar, so they are renormalised here);
    ``values``: the schema's choice values. A step that writes the choice value gets the share of
    the alternatives that continue towards the value taken among those that continue towards
    any allowed value (the closing quote and a closing quote with a comma are the same value;
    "No" is another); every other step gets 1."""
    text = b"".join(token for token, _, _ in tokens)
    found = _CHOICE_VALUE.search(text)
    if found is None:
        return tuple((token, 1.0) for token, _, _ in tokens)
    lo, hi = found.span(1)
    taken = text[lo:hi]
    options = [json.dumps(v, ensure_ascii=False).encode() for v in values]

    def fits(written: bytes, value: bytes) -> bool:
        return bool(written) and (value.startswith(written) or written.startswith(value))

    steps, pos = [], 0
    for token, logprob_taken, alternatives in tokens:
        end, p = pos + len(token), 1.0
        if end > lo and pos < hi:
            before, inside = text[pos:lo], text[lo:pos]  # one of them is empty
            same = allowed = 0.0
            for alt, logprob in {**dict(alternatives), token: logprob_taken}.items():
                if not alt.startswith(before):
                    continue
                written, mass = inside + alt[len(before) :], math.exp(logprob)
                same += mass if fits(written, taken) else 0.0
                allowed += mass if any(fits(written, o) for o in options) else 0.0
            p = same / allowed if allowed > 0 else 1.0
        steps.append((token, p))
        pos = end
    return tuple(steps)


def parse_answer(
    raw: str,
    choices: Sequence[str],
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    seconds: float = 0.0,
    sentences: Sequence[str] | None = None,
    several: bool = False,
) -> GeneratedAnswer:
    """Parse the model's reply and apply the post-rules. Never raises: anything that is not
    a JSON object becomes an insufficient-context answer that keeps ``raw``. With
    ``sentences`` (the ``sentences`` form) the reply's labels become those sentences as quotes;
    with ``several`` the reply's list of options becomes one value (``joined_choices``)."""
    data = _json_object(raw)
    if data is None:
        return GeneratedAnswer((), "", None, True, prompt_tokens, completion_tokens, seconds, raw)
    quotes = _labelled(data.get("sentences"), sentences) if sentences is not None else data.get("quotes")
    quotes = (
        tuple(dict.fromkeys(q.strip() for q in quotes if isinstance(q, str) and q.strip()))
        if isinstance(quotes, (list, tuple))
        else ()
    )
    answer = data.get("answer")
    # the schema's bound stopped it, mid-sentence (exactly at the bound: a server that does not
    # hold to maxLength writes longer texts, whole)
    at_bound = isinstance(answer, str) and len(answer) == ANSWER_CHARS
    answer = tidy_answer(answer) if isinstance(answer, str) else ""
    insufficient = data.get("insufficient_context") is True or (not quotes and not answer)
    choice = (
        _several_choices(data.get("choice"), choices, quotes) if several else _match_choice(data.get("choice"), choices)
    )
    if choice is not None and not several and opens_with_the_other(answer, choice):
        insufficient = True  # the answer says the opposite of the choice: neither can be trusted
    if insufficient or not quotes:
        choice = None  # a choice must be backed by a quote
    return GeneratedAnswer(
        quotes, answer, choice, insufficient, prompt_tokens, completion_tokens, seconds, raw, at_bound=at_bound
    )


_LABEL = r"(?:S\d+|\[\d+\])"
_LABELS = _LABEL + r"(?:(?:\s*,\s*|\s*,?\s+and\s+|\s*&\s*)" + _LABEL + r")*"
_CITED = (
    r"(?:stated|mentioned|described|outlined|evidenced|noted|shown|indicated|specified|listed|"
    r"confirmed|explained|found|given|provided|supported|seen|referenced)"
)
_SAYS = r"(?:states?|mentions?|says|describes?|shows?|indicates?|confirms?|notes?|specif(?:y|ies)|explains?|lists?)"


def _cited(m: re.Match) -> str:
    cited = "the cited sources" if re.search(r",|\band\b|&", m.group("labels")) else "the cited source"
    return (m.groupdict().get("lead") or "") + cited


_PROMPT_TALK = (
    # "(S1, S2)" / "(S4)" after a claim: the citations say it (not "Simple Storage Service (S3)")
    (re.compile(r"\s*\(\s*(?:see\s+)?(?!S3\))" + _LABELS + r"\s*\)"), ""),
    # "…, according to the provided context." / "… of the provided context" ("in the context of" is English)
    (
        re.compile(
            r",?\s+(?:according to|as (?:stated|described|mentioned) in|in|of|from) the (?:provided |given )?context\b(?!\s+of\b)",
            re.I,
        ),
        "",
    ),
    (re.compile(r"\bthe (?:provided |given )?context\b(?!\s+of\b)", re.I), "the documentation"),
    # "as stated in S1 and S2", "S8 states that …": the labels become what they are to a reader
    (
        re.compile(
            r"(?P<lead>\b(?:"
            + _CITED
            + r"\s+(?:in|by)|evident (?:in|from)|according to|see)\s+)(?P<labels>"
            + _LABELS
            + r")(?![\w\]])",
            re.I,
        ),
        _cited,
    ),
    (re.compile(r"(?<![\w\[])(?P<labels>" + _LABELS + r")(?= " + _SAYS + r"\b)"), _cited),
)


def whole_sentences(text: str) -> str:
    """A text the answer's bound (``ANSWER_CHARS``) cut: its sentences before the one it cut; ""
    when it cut the first. A text that stops mid-word ("… a pleasant experience to all users,
    disreg.", 18 of the 66 model texts of the 2026-11-28 leave-one-out) is what a reviewer
    deletes, and an empty text beside a right choice is acceptable."""
    spans = sentence_spans(text)
    return text[: spans[-2][1]].rstrip() if len(spans) > 1 else ""


def tidy_answer(text: str) -> str:
    """The answer as a reader of the filled questionnaire should see it, the prompt's own
    vocabulary taken out. The model sometimes writes "as stated in S1 and S2", "(S3)" or
    "according to the provided context" (12 of 429 distinct answers in the Instructure
    leave-one-out runs). A label means nothing outside the prompt, so one used as a citation
    ("mentioned in S1", "S8 states") becomes "the cited source(s)" (the draft's citations are
    those sentences), and the context becomes the documentation. Labels are only touched where
    they are cited, so "stored in S3" (Amazon's) stays."""
    out = text.strip()
    for pattern, replacement in _PROMPT_TALK:
        out = pattern.sub(replacement, out)
    out = re.sub(r"(^|[.!?]\s+)the (cited|documentation)", lambda m: m.group(1) + "The " + m.group(2), out)
    return re.sub(r"\s+([,.;:])", r"\1", re.sub(r"[ \t]{2,}", " ", out)).strip()


def _labelled(labels: object, sentences: Sequence[str]) -> tuple[str, ...]:
    """The sentences that labels such as "S3" (or 3) name; unknown labels are dropped."""
    if not isinstance(labels, list):
        return ()
    out = []
    for label in labels:
        text = (
            str(label).strip().upper().removeprefix("S")
            if isinstance(label, (str, int)) and not isinstance(label, bool)
            else ""
        )
        if text.isdigit() and 1 <= int(text) <= len(sentences):
            out.append(sentences[int(text) - 1])
    return tuple(out)


def _json_object(raw: str) -> dict | None:
    text = (raw or "").strip()
    candidates = [text]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])  # fenced or chatty replies from HTTP servers
    for candidate in candidates:
        try:
            # strict=False: llama-cpp-python's JSON-schema grammar lets raw newlines and other
            # control characters into strings (its `char` rule is [^"\\]), which JSON forbids
            value = json.loads(candidate, strict=False)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _several_choices(value: object, choices: Sequence[str], quotes: Sequence[str]) -> str | None:
    """A choice of several's reply (a list; one value as a list of it) as one value: the allowed
    options it names that its quotes name too (:func:`_quoted`: each option backed by the evidence,
    as a single choice is by a quote), in the list of choices' order; None when none is left."""
    values = value if isinstance(value, list) else [value]
    named = {c for v in values if (c := _match_choice(v, choices)) is not None}
    return joined_choices(c for c in allowed_choices(choices) if c in named and _quoted(c, quotes)) or None


def _quoted(option: str, quotes: Sequence[str]) -> bool:
    """Whether the quotes name ``option``: most of its words of four letters or more (compared by
    their first five), or, for a short option ("UK", "HR"), the option as a word."""
    said = " ".join(quotes).casefold()
    words = [w[:5] for w in re.findall(r"\w{4,}", option.casefold())]
    if not words:
        return re.search(rf"(?<!\w){re.escape(option.strip().casefold())}(?!\w)", said) is not None
    heard = {w[:5] for w in re.findall(r"\w{4,}", said)}
    return 2 * sum(w in heard for w in words) >= len(words)


def _match_choice(value: object, choices: Sequence[str]) -> str | None:
    if not isinstance(value, str):
        return None
    wanted = value.strip().casefold()
    return next((c for c in allowed_choices(choices) if c.casefold() == wanted), None)


# ---------------------------------------------------------------- prompt compaction


def approx_tokens(text: str) -> int:
    """A rough token count (about four characters per token) when no tokenizer is at hand."""
    return max(1, math.ceil(len(text) / 4))


_Key = tuple[int, int]  # (passage index, sentence index in that passage)


def compact_passages(
    question: str,
    passages: Sequence[Passage],
    budget_tokens: int = 250,
    window: int = 0,
    count_tokens: Callable[[str], int] = approx_tokens,
    rank_decay: float = 1.0,
) -> list[Passage]:
    """Keep, within ``budget_tokens`` of passage text, windows of ``window`` sentences either
    side of the sentences most similar to the question (TF-IDF cosine over stemmed words,
    idf fitted on the passages' sentences), instead of the whole passages.

    A sentence's score is divided by ``1 + rank_decay * i`` for the i-th passage (0-based), so
    the retriever's order still counts. The defaults (single sentences, decay 1) kept the most
    answers per token on SQuAD (``python -m engine bench evidence``): at 250 tokens 95 % of the
    answers that five whole chunks (≈ 850 tokens) hold, against 91 % with a sentence either side
    (window 1) and no decay.

    Windows are exact slices of the passage text (quotes taken from them still anchor in the
    source); overlapping windows merge, gaps are marked with " … ". Passages keep their
    labels and order; a passage with nothing selected is left out. When no sentence shares a
    word with the question, the first sentences of the first passage are kept.
    """
    spans = [sentence_spans(p.text) for p in passages]
    sentences = [(pi, si) for pi, ss in enumerate(spans) for si in range(len(ss))]
    if not sentences:
        return []
    ranked = _ranked_sentences(question, passages, spans, sentences, rank_decay)
    cost = {k: count_tokens(passages[k[0]].text[slice(*spans[k[0]][k[1]])]) for k in sentences}
    chosen = _chosen_sentences(ranked, spans, cost, budget_tokens, window)
    return _stitched(passages, spans, chosen)


def _ranked_sentences(
    question: str,
    passages: Sequence[Passage],
    spans: list[list[tuple[int, int]]],
    sentences: list[_Key],
    rank_decay: float,
) -> list[_Key]:
    """The sentences sharing a stemmed word with the question, best first: TF-IDF cosine (idf over
    the passages' sentences) divided by ``1 + rank_decay * passage index``; ties in reading order."""
    # deferred: engine.index.embed.sparse imports scikit-learn, which the model worker process (it
    # imports this module) never needs; the same stemmed words as retrieval
    from engine.index.embed.sparse import analyzer  # noqa: PLC0415

    words = analyzer()
    terms = [set(words(passages[pi].text[slice(*spans[pi][si])])) for pi, si in sentences]
    cosines = _idf_cosines(terms, set(words(question)))
    scored = sorted(
        ((c / (1.0 + rank_decay * k[0]), k) for c, k in zip(cosines, sentences)), key=lambda sk: (-sk[0], sk[1])
    )
    return [k for s, k in scored if s > 0]


def _idf_cosines(terms: Sequence[set[str]], query: set[str]) -> list[float]:
    """Each term set's score against ``query``: the squared idf of the terms they share over the
    set's idf norm (idf fitted on ``terms``, scikit-learn's smooth form); 0 when none is shared.
    How compaction ranks sentences and :func:`shown_choices` a dropdown's values."""
    df: dict[str, int] = {}
    for ts in terms:
        for t in ts:
            df[t] = df.get(t, 0) + 1
    idf = {t: math.log((1 + len(terms)) / (1 + n)) + 1 for t, n in df.items()}
    out = []
    for ts in terms:
        shared = sum(idf[t] ** 2 for t in ts & query)
        out.append(shared / math.sqrt(sum(idf[t] ** 2 for t in ts)) if shared else 0.0)
    return out


def _chosen_sentences(
    ranked: list[_Key], spans: list[list[tuple[int, int]]], cost: dict[_Key, int], budget_tokens: int, window: int
) -> set[_Key]:
    """The sentences kept within ``budget_tokens``: for each ranked sentence its window, else the
    sentence alone; the best sentence is kept even over the budget. With nothing ranked, the first
    passage's opening sentences."""
    chosen: set[_Key] = set()
    used = 0

    def take(keys: list[_Key]) -> bool:
        nonlocal used
        new = [k for k in keys if k not in chosen]
        extra = sum(cost[k] for k in new)
        if used + extra > budget_tokens and (chosen or len(keys) > 1):
            return False  # the best sentence alone is always kept, even over the budget
        chosen.update(new)
        used += extra
        return True

    for pi, si in ranked:
        lo, hi = max(0, si - window), min(len(spans[pi]), si + window + 1)
        take([(pi, j) for j in range(lo, hi)]) or take([(pi, si)])  # the window, else the sentence alone
    if not ranked:  # nothing shares a word with the question: the start of the best passage
        for si in range(len(spans[0])):
            if not take([(0, si)]):
                break
    return chosen


def _stitched(passages: Sequence[Passage], spans: list[list[tuple[int, int]]], chosen: set[_Key]) -> list[Passage]:
    """Each passage with a chosen sentence, cut to its runs of consecutive chosen sentences (exact
    slices of its text) joined by " … "; labels and order kept."""
    out = []
    for pi, p in enumerate(passages):
        picked = sorted(si for qi, si in chosen if qi == pi)
        if not picked:
            continue
        runs: list[list[int]] = []
        for si in picked:
            if runs and si == runs[-1][-1] + 1:
                runs[-1].append(si)
            else:
                runs.append([si])
        pieces = [p.text[spans[pi][r[0]][0] : spans[pi][r[-1]][1]] for r in runs]
        out.append(Passage(p.label, " … ".join(pieces)))
    return out
