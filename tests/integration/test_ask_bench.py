"""``bench ask`` end to end on a tiny hand-made PolicyQA file: the hybrid rows (real MiniLM,
the product's chunker and weighted retrieval), the embedding-free rows, the cache a killed run
resumes from, and the offsets check. The model's replies are scripted (``ScriptedQuotes``: it
quotes the gold answer's sentence) because the test is about the benchmark's plumbing and
scoring, not about generation; `bench ask` with the real model is what docs/benchmarks.md reports."""

from __future__ import annotations

import json

from engine.bench.ask import bench_ask
from engine.drafting.generate import JsonReply

POLICY = (
    "We collect your name and email address when you register. We use cookies to remember your "
    "settings. We never sell personal information to advertisers. You can delete your account at any "
    "time from the settings page. Children under thirteen may not use the service."
)
SECOND = "Questions about this policy can be sent by mail to our office. We update this policy every year."


def policyqa(tmp_path):
    def qa(qid, question, answer, context):
        return {"id": qid, "question": question, "answers": [{"text": answer, "answer_start": context.index(answer)}]}

    data = {
        "version": "1",
        "data": [
            {
                "title": "one.com",
                "paragraphs": [
                    {
                        "context": POLICY,
                        "qas": [
                            qa(
                                "q1",
                                "Do you sell my data?",
                                "We never sell personal information to advertisers",
                                POLICY,
                            ),
                            qa("q2", "Can I delete my account?", "delete your account at any time", POLICY),
                        ],
                    }
                ],
            },
            {
                "title": "two.com",
                "paragraphs": [
                    {"context": SECOND, "qas": [qa("q3", "How do I contact you?", "by mail to our office", SECOND)]}
                ],
            },
        ],
    }
    path = tmp_path / "policyqa.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class ScriptedQuotes:
    """Quotes the sentence holding the words of the question's gold answer (scripted), or gives
    that sentence's label in the numbered form."""

    name = "scripted"
    gold = {
        "sell": "We never sell personal information to advertisers.",
        "delete": "You can delete your account at any time from the settings page.",
        "contact": "Questions about this policy can be sent by mail to our office.",
    }

    def __init__(self) -> None:
        self.calls = 0

    def chat_json(self, messages, schema, max_tokens=None, context=None):
        self.calls += 1
        user = messages[-1]["content"]
        question = user.rsplit("Question: ", 1)[1]
        sentence = next(s for k, s in self.gold.items() if k in question.lower())
        if "sentences" in schema["properties"]:
            label = next((line.split(".")[0] for line in user.splitlines() if line.endswith(sentence)), None)
            reply = {"sentences": [label] if label else []}
        else:
            reply = {"quotes": [sentence] if sentence in user else []}
        return JsonReply(json.dumps(reply), 50, 5, 0.01)


def test_bench_ask_scores_every_method_and_resumes_from_its_cache(tmp_path, encoder):
    path, cache = policyqa(tmp_path), tmp_path / "readings.jsonl"
    chat = ScriptedQuotes()
    result = bench_ask(str(path), window=0, cache=str(cache), chat=chat, encoder=encoder)
    assert result["questions"] == 3 and result["policies"] == 2 and result["excerpts_at_stated_offsets"] == 100.0
    methods = result["methods"]
    quotes = methods["embedding-free quotes"]
    assert quotes["recall"] == 100.0 and quotes["answered"] == 100.0  # the gold sentence, every time
    assert methods["embedding-free sentences"]["recall"] == 100.0
    assert 0 < quotes["precision"] < 100  # a whole sentence around each answer span
    assert quotes["first_questions"] == 2 and quotes["later_questions"] == 1  # q2 is one.com's second question
    for k in (1, 2, 4):
        assert {"precision", "recall", "f1"} <= set(methods[f"hybrid top-{k} chunks"])
        assert {"precision", "recall", "f1"} <= set(methods[f"hybrid top-{k} sentence windows"])
    assert methods["hybrid top-4 chunks"]["recall"] == 100.0  # each policy is one chunk: its whole text
    assert result["targets"]["embedding-free quotes"]["f1_over_best_hybrid"] is not None
    assert {"embedding-free quotes, window 1", "embedding-free sentences, window 2"} <= set(methods)

    calls = chat.calls
    assert len(cache.read_text().splitlines()) == 6  # 3 questions × 2 forms
    again = bench_ask(str(path), window=0, cache=str(cache), chat=chat, encoder=encoder)
    assert chat.calls == calls  # everything came from the cache
    assert again["methods"]["embedding-free quotes"]["f1"] == quotes["f1"]

    lines = cache.read_text().splitlines()  # as if the run had been stopped after one.com's first question
    cache.write_text("\n".join(line for line in lines if '"id": "q1"' in line) + "\n")
    partial = bench_ask(str(path), window=0, cache=str(cache), chat=chat, encoder=encoder, cached_only=True)
    assert chat.calls == calls and partial["questions"] == 1 and partial["policies"] == 1
