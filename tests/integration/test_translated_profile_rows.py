"""A translated profile row reaches its profile fact as the English row does (issue #58).

The real rows GNRL-14 ("Vendor Hosting Regions") and GNRL-15 ("Vendor Work Locations") of the
shared translated HECVAT in German, French, Spanish, Dutch and Japanese, drafted with the real
answer library and embedder (all-MiniLM-L6-v2) and a profile learned from a past questionnaire.
The model is a stated stand-in (``Paraphraser``): it translates each question into a paraphrase
that matches no fact's wording and shares no word with the fact's question ("Supplier's
workplace sites", as the real model translated the French GNRL-15), and, asked which candidate is
the same question, names the fact's own question when it is shown, else none. These tests are about the matching — whether the translation memory
shows the profile's question, and whether the pick reaches the fact — not about the model's
translation or judgement (docs/benchmarks.md has the real model's run).
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from engine.core.config import EngineConfig
from engine.core.llm import JsonReply
from engine.drafting.drafter import Drafter
from engine.drafting.translate import MEMORY_SCORE
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.index.profile import FACT_QUESTIONS, fact_key, row_ids
from engine.questionnaire import read_questionnaire
from engine.questionnaire.language import Language, QuestionnaireLanguage
from storage.vector_store import release

PRODUCT = "Canvas Credentials"
ROWS = {"GNRL-14": "hosting_regions", "GNRL-15": "work_locations"}
# the paraphrases: no FACT_PATTERNS wording, no word shared with the fact's question but "Supplier"
PARAPHRASES = {"GNRL-14": "Supplier's server locations", "GNRL-15": "Supplier's workplace sites"}
LANGS = ("de", "fr", "es", "nl", "ja")


class Paraphraser:
    """A stand-in for the model's ``chat_json`` (stated): a question of ``questions`` comes back as
    its paraphrase; any other text (the English answer) unchanged, so the drafter keeps it in
    English and says so; asked which candidate asks the same as a question, it names the one
    ``same`` gives for it when shown (recording every list shown), else 0."""

    def __init__(self, questions: dict[str, str], same: dict[str, str]) -> None:
        self.questions, self.same, self.shown = questions, same, []

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
        text = messages[-1]["content"]
        if "same" in schema["properties"]:
            asked, listed = text.split("\n\nEnglish:\n", 1)
            listed = [line.split(". ", 1)[1] for line in listed.splitlines()]
            self.shown.append(listed)
            same = self.same.get(asked.split(": ", 1)[1])
            picked = next((i for i, c in enumerate(listed, 1) if c == same), 0)
            return JsonReply(json.dumps({"same": picked}), 10, 2, 0.01)
        return JsonReply(json.dumps({"translation": self.questions.get(text, text)}), 10, 10, 0.01)


@pytest.fixture(scope="module")
def truth(shared_data) -> dict[str, dict]:
    path = shared_data / "translated" / "truth.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is absent: the translated HECVAT set is not in the shared data")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return {r["id"]: r for r in rows if r["id"] in ROWS}


@pytest.fixture()
def library(tmp_path: Path, encoder, truth):
    """The product's past questionnaire answering the two rows in English (the truth's answers)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "General"
    ws.append(["ID", "Question", "Answer"])
    for qid in ROWS:
        ws.append([qid, truth[qid]["question_en"], truth[qid]["answer"]])
    wb.save(tmp_path / "past.xlsx")
    lib = AnswerLibrary(tmp_path / "store", encoder)
    lib.import_file(tmp_path / "past.xlsx", product=PRODUCT)
    yield lib
    lib.close()


def test_each_facts_question_is_read_as_its_fact():
    assert {k: fact_key(q) for k, q in FACT_QUESTIONS.items()} == {k: k for k in FACT_QUESTIONS}


@pytest.mark.parametrize("lang", LANGS)
def test_a_translated_profile_row_reaches_its_profile_fact(lang, shared_data, truth, library, tmp_path):
    target = read_questionnaire(shared_data / "translated" / f"hecvat_canvas_credentials_{lang}.xlsx")
    questions = {q.id: q for q in target.questions if q.id in ROWS}
    assert {i: q.text for i, q in questions.items()} == {i: truth[i][lang] for i in ROWS}  # the real rows
    assert all(not q.choices for q in questions.values())
    same = {questions[i].text: FACT_QUESTIONS[key] for i, key in ROWS.items()}
    chat = Paraphraser({questions[i].text: PARAPHRASES[i] for i in ROWS}, same)
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), library.encoder)
    try:
        drafter = Drafter(kb, chat, library=library, product=PRODUCT).for_language(
            QuestionnaireLanguage(Language(lang))
        )
        drafts = {i: drafter.draft(q, row_ids(target.questions)) for i, q in questions.items()}
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
    for qid, key in ROWS.items():
        d = drafts[qid]
        assert d.asked_as == FACT_QUESTIONS[key], (lang, qid, chat.shown)  # the profile's question, picked
        assert d.profile_fact == key and d.question == truth[qid][lang]
        assert (d.english or d.answer) == truth[qid]["answer"]  # the fact, as English answered it
        assert d.citations and d.citations[0].section == qid  # cited to the past row, as in English


def test_the_librarys_score_alone_misses_the_paraphrase(library):
    """The baseline, measured here: the library's hybrid score (dense and TF-IDF) of each
    paraphrase against the past question is under the memory's bar (no shared word), while the
    profile's dense match finds it."""
    for qid, key in ROWS.items():
        hits = library.match(PARAPHRASES[qid], top_k=None, min_score=MEMORY_SCORE)
        assert FACT_QUESTIONS[key] not in [h.entry.question for h in hits]


def test_a_question_with_choices_is_shown_no_profile_question(library, tmp_path):
    kb = KnowledgeBase(tmp_path / "kb", EngineConfig(), library.encoder)
    try:
        drafter = Drafter(kb, Paraphraser({}, {}), library=library, product=PRODUCT)
        assert FACT_QUESTIONS["work_locations"] in drafter.past_questions(PARAPHRASES["GNRL-15"])
        assert drafter.past_questions(PARAPHRASES["GNRL-15"], profile=False) == []
    finally:
        release(str(tmp_path / "kb" / "qdrant"))
