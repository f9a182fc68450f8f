"""Document summaries (engine/index/summaries.py): the extractive selection, the LLM's map-reduce plan
and its budget, the summary files; and the nDCG/Recall arithmetic of `bench beir`.

``ScriptedChat`` is a stated fake LLM: the tests that use it are about which calls the
map-reduce makes, with what input and what is kept of the replies, not about summary quality
(the real model writes summaries in tests/integration/test_summaries.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.bench.beir import evaluate, ndcg, recall_at
from engine.core.types import Unit
from engine.drafting.generate import GeneratorError
from engine.drafting.generate.backends import JsonReply
from engine.index.summaries import (
    MAX_SECTIONS,
    ExtractiveSummarizer,
    LlmSummarizer,
    Summary,
    SummaryMethod,
    SummaryStore,
    SummaryStoreError,
    document_sentences,
    edited,
    extractive_summary,
)
from tests.fixtures import TOPICS

FURNITURE = "ACME Corp Internal Security Handbook Confidential page footer."
HEADER = "ACME Corp - Internal Security Handbook"  # no full stop: the sentence splitter would join it to the next line


def pages(n: int) -> list[Unit]:
    """``n`` PDF pages: the same header line, then the topics in turn, then the same footer line."""
    topics = list(TOPICS.values())
    return [
        Unit(f"{HEADER}\n{topics[i % len(topics)]} This is section {i} of the handbook.\n{FURNITURE}", page=i + 1)
        for i in range(n)
    ]


def test_extractive_summary_keeps_central_sentences_in_document_order_within_the_budget():
    texts = pages(10)
    summary = extractive_summary(texts, max_words=60)
    sentences = [s.text for s in document_sentences(texts)]
    assert sentences[0].startswith("All customer data")  # the header is cut off, not joined to it
    picked = [s for s in sentences if s in summary]
    assert summary == " ".join(picked)  # whole sentences of the document, nothing else, in its order
    assert [sentences.index(s) for s in picked] == sorted(sentences.index(s) for s in picked)
    assert len(summary.split()) <= 60 + max(len(s.split()) for s in picked)
    assert FURNITURE not in summary and HEADER not in summary  # lines on every page are page furniture
    # no sentence twice, and near-repeats ("section 3" / "section 8") only once
    assert len(picked) == len(set(picked))
    assert sum("This is section" in s for s in picked) <= 1


def test_extractive_summarizer_never_returns_an_empty_summary():
    s = ExtractiveSummarizer().summarize("h", "Tiny.pdf", [Unit("Yes."), Unit("No.")])  # no sentence of 5+ words
    assert s.text and s.method is SummaryMethod.EXTRACTIVE and s.model is None


class ScriptedChat:
    """Stated fake LLM (see the module docstring): records each call; replies with JSON."""

    name = "scripted"

    def __init__(self, reply=lambda field, n: {field: f"Reply {n} about AES-256 and 35 days."}):
        self.calls: list[list[dict]] = []
        self.reply = reply

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def chat_json(self, messages, schema, max_tokens=None):
        self.calls.append(list(messages))
        field = next(iter(schema["properties"]))
        text = self.reply(field, len(self.calls))
        return JsonReply(text if isinstance(text, str) else json.dumps(text), 100, 20, 0.0)


def test_a_short_document_is_summarised_in_one_call():
    chat = ScriptedChat()
    steps = []
    s = LlmSummarizer(chat).summarize("abc", "Backup policy.pdf", pages(2), step=lambda: steps.append(1))
    assert len(chat.calls) == 1 and len(steps) == 1
    user = chat.calls[0][-1]["content"]
    assert "Document: Backup policy.pdf" in user and "thirty-five days" in user
    assert s.text == "Reply 1 about AES-256 and 35 days." and s.method is SummaryMethod.LLM
    assert s.model == "scripted" and s.sections == 0 and s.input_tokens == 100 and s.output_tokens == 20


def test_a_long_document_is_mapped_over_at_most_four_sections_then_reduced_within_the_budget():
    chat = ScriptedChat()
    summarizer = LlmSummarizer(chat, single_tokens=200, section_tokens=120)
    texts = pages(300)  # far more than four sections' worth
    assert summarizer.calls(texts) == MAX_SECTIONS + 1
    s = summarizer.summarize("abc", "Handbook.pdf", texts)
    assert len(chat.calls) == MAX_SECTIONS + 1 and s.sections == MAX_SECTIONS
    maps, reduce = chat.calls[:-1], chat.calls[-1]
    for i, call in enumerate(maps, 1):
        user = call[-1]["content"]
        assert f"part {i} of {MAX_SECTIONS}" in user
        section = user.split("\n\n", 1)[1].rsplit("\n\n", 1)[0]
        assert len(section.split()) <= 120 + 60  # the section budget (plus at most one sentence)
    # sections follow the document: the first map reads its start, the last its end
    assert "section 0 " in maps[0][-1]["content"] or "section 1 " in maps[0][-1]["content"]
    assert any(f"section {n} " in maps[-1][-1]["content"] for n in range(225, 300))
    notes = reduce[-1]["content"]
    assert all(f"Part {i}: Reply {i} about" in notes for i in range(1, MAX_SECTIONS + 1))
    assert s.text == f"Reply {MAX_SECTIONS + 1} about AES-256 and 35 days."


def test_a_reply_cut_off_by_the_token_limit_keeps_its_whole_sentences_and_an_empty_one_falls_back():
    cut = ScriptedChat(reply=lambda field, n: '{"summary": "The plan covers backups. Restores are tes')
    assert LlmSummarizer(cut).summarize("h", "Plan", pages(1)).text == "The plan covers backups."
    empty = ScriptedChat(reply=lambda field, n: '{"summary": ""}')
    s = LlmSummarizer(empty).summarize("h", "Plan", pages(3))
    assert s.text == extractive_summary(pages(3)) and s.method is SummaryMethod.LLM


def test_a_reply_that_only_gives_back_the_title_falls_back_to_the_documents_sentences():
    # seen with the default model on BEIR SciFact: the "summary" was the title with a subtitle
    title = ScriptedChat(reply=lambda field, n: {field: "Memory and Modularity in Cell-Fate Decision Making: A Study"})
    s = LlmSummarizer(title).summarize("h", "Memory and Modularity in Cell-Fate Decision Making", pages(3))
    assert s.text == extractive_summary(pages(3)) and s.method is SummaryMethod.LLM
    question = ScriptedChat(reply=lambda field, n: {field: "Which backups are kept for 35 days?"})
    assert LlmSummarizer(question).summarize("h", "Plan", pages(1)).text == "Which backups are kept for 35 days?"


def test_a_generator_that_cannot_write_is_refused_with_a_generator_error():
    class AnswersOnly:  # a drafting generator without chat_json
        name = "answers-only"

    with pytest.raises(GeneratorError, match="cannot write summaries"):
        LlmSummarizer(AnswersOnly()).summarize("h", "Plan", pages(1))
    loads = []
    lazy = LlmSummarizer(lambda: loads.append(1) or ScriptedChat())
    assert loads == []  # a factory is called only when a summary is written
    lazy.summarize("h", "Plan", pages(1))
    assert loads == [1]


class CountingEncoder:
    """Not a fake of anything under test: a deterministic stand-in embedder for the file logic."""

    name, dim = "counting", 4

    def __init__(self):
        self.encoded: list[str] = []

    def encode_passages(self, texts, progress=False):
        self.encoded += list(texts)
        return np.array([[len(t), 1, 0, 0] for t in texts], dtype=np.float32)


def test_summary_files_round_trip_and_an_edited_text_gets_its_own_vector(tmp_path):
    store = SummaryStore(tmp_path / "summaries")
    first = store.put(Summary("h1", "The plan covers backups.", SummaryMethod.LLM, model="m", sections=2))
    assert store.get("h1") == first and store.get("nope") is None
    encoder = CountingEncoder()
    v1 = store.vector(first, encoder)
    assert np.array_equal(store.vector(first, encoder), v1) and encoder.encoded == [
        first.text
    ]  # read back, not re-encoded
    second = store.put(edited(first, "h1", "  The plan covers\nbackups and restores. "))
    assert second.text == "The plan covers backups and restores." and second.method is SummaryMethod.EDITED
    v2 = store.vector(second, encoder)
    assert v2[0] == len(second.text) and encoder.encoded[-1] == second.text
    assert len(list((tmp_path / "summaries").glob("h1.*.npy"))) == 1  # the old text's vector is gone
    with pytest.raises(ValueError, match="empty"):
        edited(second, "h1", "   ")
    store.collect({"other"})
    assert list((tmp_path / "summaries").iterdir()) == []


def test_a_damaged_summary_file_is_named_with_the_fix(tmp_path):
    store = SummaryStore(tmp_path)
    store.path("h1").write_text("{not json", encoding="utf-8")
    with pytest.raises(SummaryStoreError, match=r"h1\.json.*delete it"):
        store.get("h1")


def test_ndcg_and_recall_golden_values():
    rel = {"a": 1, "b": 1}
    assert ndcg(["a", "b", "c"], rel, 10) == pytest.approx(1.0)
    assert ndcg(["c", "a"], rel, 10) == pytest.approx((1 / np.log2(3)) / (1 + 1 / np.log2(3)))
    assert ndcg(["c", "d"], rel, 10) == 0.0
    assert recall_at(["a", "c"], rel, 100) == 0.5 and recall_at(["c"] * 100 + ["a"], rel, 100) == 0.0
    figures = evaluate({"q1": ["a", "b"], "q2": ["x"]}, {"q1": rel, "q2": {"y": 1}})
    assert figures == {"nDCG@10": 0.5, "nDCG@100": 0.5, "Recall@100": 0.5}
