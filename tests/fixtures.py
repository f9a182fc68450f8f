"""Small documents written by the tests themselves (PyMuPDF, openpyxl, python-docx)."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import fitz
import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.config import EngineConfig
from engine.core.llm import JsonReply
from engine.core.scopes import Scope
from engine.drafting.generate import GeneratedAnswer
from engine.drafting.generate.backends import _Answers
from engine.drafting.generate.prompt import Evidence
from engine.index.kb import KnowledgeBase
from storage.vector_store import release

BOILERPLATE = "ACME Corp - Internal Security Handbook - Confidential"


def write_pdf(path: Path, pages: Sequence[str], header: str | None = BOILERPLATE) -> Path:
    """A PDF with one text block per page, the same header and a page footer on each."""
    doc = fitz.open()
    for number, body in enumerate(pages, 1):
        page = doc.new_page(width=595, height=842)
        if header:
            page.insert_text((50, 40), header, fontsize=9)
        rest = page.insert_textbox(fitz.Rect(50, 70, 545, 780), body, fontsize=10)
        assert rest >= 0, "fixture text does not fit on the page"
        page.insert_text((50, 815), f"Page {number} of {len(pages)}", fontsize=9)
    doc.save(path)
    doc.close()
    return path


TOPICS = {
    "encryption": (
        "All customer data is encrypted at rest with AES-256 using keys held in a hardware "
        "security module. Keys are rotated every twelve months. Data in transit is protected "
        "with TLS 1.2 or later, and older protocols are disabled on every public endpoint."
    ),
    "backups": (
        "Backups of the production databases are taken every night and kept for thirty-five "
        "days. Restores are tested each quarter, and the recovery point objective is one hour "
        "with a recovery time objective of four hours."
    ),
    "access": (
        "Employees sign in through single sign-on with multi-factor authentication. Access "
        "rights follow the principle of least privilege and are reviewed every quarter by the "
        "owners of each system; leavers lose access on their last day."
    ),
    "incident": (
        "Security incidents are triaged by the on-call engineer within fifteen minutes. "
        "Customers are notified within seventy-two hours of a confirmed breach, and every "
        "incident ends with a written post-mortem shared with leadership."
    ),
    "vendors": (
        "Third-party vendors complete a security questionnaire before onboarding and are "
        "reassessed every year. Subprocessors that handle personal data sign a data processing "
        "agreement with standard contractual clauses."
    ),
}


@contextmanager
def text_kb(
    tmp_path: Path, encoder, texts: Mapping[str, str], scopes: Mapping[str, Scope] | None = None
) -> Iterator[KnowledgeBase]:
    """A real knowledge base (Qdrant local mode, ``encoder``) in ``tmp_path``/store of the text
    files ``texts`` (name → text), with their ``scopes``; Qdrant is released after."""
    store, folder = tmp_path / "store", tmp_path / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    base = KnowledgeBase(store, EngineConfig(), encoder)
    assert not base.add([folder]).errors
    if scopes:
        base.set_scopes(scopes)
    try:
        yield base
    finally:
        release(str(store / "qdrant"))


def topic_pages(repeat: int = 2) -> list[str]:
    """One page per topic, each paragraph repeated so chunks stay on their page."""
    return [" ".join([text] * repeat) for text in TOPICS.values()]


QUESTIONS = [
    ("ENC-01", "Is customer data encrypted at rest?"),
    ("BCK-01", "How long are backups of the production databases kept?"),
    ("INC-01", "Are customers notified of a confirmed breach?"),
    ("ACC-01", "Do employees use multi-factor authentication?"),
]


def write_questionnaire(
    path: Path,
    answered: dict[int, str] | None = None,
    questions: Sequence[tuple[str, str]] = QUESTIONS,
    comments: dict[int, str] | None = None,
) -> Path:
    """A customer workbook: a title row, a header, a section row, ID / question / Yes-No
    dropdown / comment columns; the questions start on row 4. ``answered`` and ``comments``
    fill the dropdown and comment cells by row (a filled questionnaire)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws.append(["Vendor security questionnaire"])
    ws.append(["ID", "Question", "Answer", "Comments"])
    ws.append(["", "Data protection", "", ""])
    for qid, text in questions:
        ws.append([qid, text, None, None])
    dv = DataValidation(type="list", formula1='"Yes,No,N/A"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add(f"C4:C{3 + len(questions)}")
    for row, value in (answered or {}).items():
        ws.cell(row=row, column=3, value=value)
    for row, value in (comments or {}).items():
        ws.cell(row=row, column=4, value=value)
    wb.save(path)
    return path


class QuotingGenerator:
    """A stand-in LLM for tests about the pipeline (resume, limits, the quote rule), not about
    generation: it quotes the sentence of the first passage that shares the most words with the
    question (the longest on a tie) and answers Yes, or quotes text that is in no document when
    ``invent`` is set. Real generation is tested below and in test_generate.py. Its ``chat_json``
    is ``QuotingChat``'s (asking a document)."""

    def __init__(self, invent: bool = False, longest: bool = False) -> None:
        self.calls, self.invent, self.longest = 0, invent, longest  # longest: the longest sentence, whatever it says
        self._chat = None

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()):
        self._chat = self._chat or QuotingChat()
        return self._chat.chat_json(messages, schema, max_tokens, context)

    def generate(self, question, passages, choices):
        self.calls += 1
        pieces = re.split(r" … |(?<=\.)\s+|\n", passages[0].text)  # " … ": a gap left by compaction
        words = set(re.findall(r"\w+", question.lower()))
        overlap = (lambda p: 0) if self.longest else (lambda p: len(words & set(re.findall(r"\w+", p.lower()))))
        first = max(pieces, key=lambda p: (overlap(p), len(p))) if passages else ""
        quote = "Our moon base is staffed by penguins every Tuesday" if self.invent else first
        return GeneratedAnswer((quote,), "Yes. " + quote, "Yes" if "Yes" in choices else None, False, 10, 5, 0.0)


class TranslatingGenerator(QuotingGenerator):
    """A stand-in LLM for tests about languages' plumbing (which texts are translated, into what, and
    what a draft carries), not about translation: drafts as ``QuotingGenerator`` does; answers a
    translation request with :meth:`translation` (a subclass's table) and logs each one asked in
    ``translated`` as (source text, target language's name); no past question is "the same"."""

    def __init__(self) -> None:
        super().__init__()
        self.translated: list[tuple[str, str]] = []

    def translation(self, text: str, target: str) -> str:
        return text  # as a model that failed to translate

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()):
        fields = schema["properties"]
        if "same" in fields:
            return JsonReply(json.dumps({"same": 0}), 10, 2, 0.0)
        if "translation" not in fields:
            return super().chat_json(messages, schema, max_tokens, context)
        text, target = messages[-1]["content"], messages[0]["content"].split(" into ", 1)[1].split(".")[0]
        self.translated.append((text, target))
        return JsonReply(json.dumps({"translation": self.translation(text, target)}), 10, 10, 0.0)


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3}


class QuotingChat:
    """A stand-in LLM behind ``chat_json`` for tests about asking a document that are not about
    generation (the CLI, the screens, progress and cancelling): in a part of a document it
    "quotes" the sentence sharing the most words (of four letters or more) with the question,
    or gives that sentence's label in the numbered form, or nothing when no sentence shares
    two; asked for an answer, it restates the first excerpt and cites it. Each call is logged in
    ``calls`` as (context key, messages)."""

    name = "quoting-chat (test stand-in)"

    def __init__(self) -> None:
        self.calls: list[tuple[str | None, list[dict]]] = []

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()):
        import json

        from engine.drafting.generate import JsonReply

        self.calls.append((context, list(messages)))
        user = messages[-1]["content"]
        body, _, question = user.rpartition("\n\nQuestion: ")
        wanted = _content_words(question)
        fields = schema["properties"]
        if "answer" in fields:
            first = re.search(r"\[(\d+)\][^\n]*\n([^\n]+)", body)
            reply = (
                {
                    "answer": f"The document says: {first.group(2)[:200]} [{first.group(1)}]",
                    "cites": [int(first.group(1))],
                }
                if first
                else {"answer": "Nothing in this document answers it.", "cites": []}
            )
        elif "sentences" in fields:
            lines = re.findall(r"^(S\d+)\. (.*)$", body, re.M)
            best = max(lines, key=lambda line: len(_content_words(line[1]) & wanted), default=None)
            reply = {"sentences": [best[0]] if best and len(_content_words(best[1]) & wanted) >= 2 else []}
        else:
            text = body.split(":\n\n", 1)[-1]
            sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
            best = max(sentences, key=lambda s: len(_content_words(s) & wanted), default=None)
            reply = {"quotes": [best] if best and len(_content_words(best) & wanted) >= 2 else []}
        return JsonReply(json.dumps(reply), len(user) // 4, 20, 0.0)


class RefusingGenerator:
    """A stand-in LLM that fails the test if it is called: reused answers must not generate."""

    def generate(self, question, passages, choices):
        raise AssertionError(f"the generator was called for {question!r}")


SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "sample"


def sample_sentences() -> list[str]:
    """Every 5th sentence (of six words or more) of the bundled sample's four documents: 63."""
    from engine.ingest import load_document

    found: list[str] = []
    for path in sorted((SAMPLE / "kb").iterdir()):
        for unit in load_document(path).units:
            for sentence in re.split(r"(?<=[.!?])\s+", unit.text):
                sentence = " ".join(sentence.split())
                if len(sentence.split()) >= 6 and sentence not in found:
                    found.append(sentence)
    return found[::5]


def sample_questions() -> list[str]:
    """The bundled sample's questions (assets/sample/questions.txt)."""
    return [q.strip() for q in (SAMPLE / "questions.txt").read_text(encoding="utf-8").splitlines() if q.strip()]


class ChoosingModel(_Answers):
    """A stand-in model behind the real prompt, schema and parsing (the backends' ``_Answers``),
    for a test about which calls the drafter makes, not about generation: it cites the numbered
    sentence sharing the most words with the question, chooses Yes where offered, and writes that
    sentence as its text when the schema asks for one. Each call is logged as (the schema's fields,
    the context key), its user message in ``prompts``; ``forget`` as the context dropped."""

    evidence = Evidence.SENTENCES
    name = "choosing (test stand-in)"

    def __init__(self, silent: bool = False) -> None:
        self.silent, self.calls, self.forgotten, self.prompts = silent, [], [], []  # silent: it cites nothing

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()):
        fields = list(schema["properties"])
        self.calls.append((fields, context))
        user = messages[-1]["content"]
        self.prompts.append(user)
        asked = set(re.findall(r"\w+", user.split("Question:")[1].lower()))
        numbered = re.findall(r"^(S\d+)\. (.+)$", user, re.M)
        shared = [
            (len(asked & set(re.findall(r"\w+", text.lower()))), -i, label, text)
            for i, (label, text) in enumerate(numbered)
        ]
        *_, label, text = max(shared)  # a tie: the first
        offered = schema["properties"]["choice"].get("enum", [])
        reply = {"sentences": [label], "choice": "Yes" if "Yes" in offered else None}
        if self.silent:
            reply = {"sentences": [], "choice": None}
        if "answer" in fields:
            reply |= {"answer": text, "insufficient_context": False}
        return JsonReply(json.dumps(reply), 100, 10, 0.0)

    def forget(self, context):
        self.forgotten.append(context)
