"""`bench beir` with the real MiniLM: on a generated corpus in the BEIR SciFact layout the right
documents rank first in every mode; the subsets; the LLM summaries are cached and a second run
writes none; and a few figures on the real SciFact when it is beside the checkout.

``TitleChat`` is a stated fake LLM: the test using it is about the benchmark's cache and resume,
not about what a model writes (real summaries: tests/integration/test_summary_rag.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.beir import bench_beir, load_scifact, subset
from engine.drafting.generate.backends import JsonReply
from tests.fixtures import TOPICS

pytestmark = pytest.mark.timeout(900)

QUERIES = {
    "1": "How long are production database backups kept?",
    "2": "Is multi-factor authentication required to sign in?",
    "3": "When are customers told about a breach?",
}
QRELS = {"1": "d-backups", "2": "d-access", "3": "d-incident"}


@pytest.fixture()
def scifact(tmp_path: Path) -> Path:
    folder = tmp_path / "scifact"
    (folder / "qrels").mkdir(parents=True)
    with (folder / "corpus.jsonl").open("w") as f:
        for topic, text in TOPICS.items():
            f.write(json.dumps({"_id": f"d-{topic}", "title": f"The {topic} policy", "text": text}) + "\n")
        f.write(
            json.dumps(
                {"_id": "d-lunch", "title": "Canteen menu", "text": "Soup is served on Mondays and fish on Fridays."}
            )
            + "\n"
        )
    with (folder / "queries.jsonl").open("w") as f:
        for qid, text in {**QUERIES, "9": "A training query without judgements."}.items():
            f.write(json.dumps({"_id": qid, "text": text}) + "\n")
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, d in QRELS.items())
    )
    return folder


def test_every_mode_ranks_the_judged_document_first_on_a_clear_corpus(scifact):
    result = bench_beir(str(scifact), modes=["dense", "weighted", "summary-extractive"])
    assert result["documents"] == 6 and result["queries"] == 3  # the unjudged query is not asked
    for mode in ("dense", "weighted", "summary-extractive"):
        figures = result["modes"][mode]
        assert figures["nDCG@10"] == 1.0 and figures["Recall@100"] == 1.0, (mode, figures)
    assert result["modes"]["summary-extractive"]["dense_over_summaries"]["nDCG@10"] == 1.0
    assert result["modes"]["summary-extractive"]["summary_words"]["max"] <= 180 + 40


def test_subsets_keep_the_judged_documents_first(scifact):
    corpus = load_scifact(scifact)
    with_others = subset(corpus, 4)  # the 3 judged, then the first other one
    assert with_others.ids == ["d-encryption", "d-backups", "d-access", "d-incident"] and len(with_others.queries) == 3
    judged_only = subset(corpus, 2)  # the first 2 judged documents and the queries they answer
    assert judged_only.ids == ["d-backups", "d-access"] and set(judged_only.queries) == {"1", "2"}
    with pytest.raises(ValueError, match="at least 1"):
        subset(corpus, -1)


class TitleChat:
    """Stated fake LLM (see the module docstring): the summary is the document's first line."""

    name = "title-chat"

    def __init__(self):
        self.calls = 0

    def chat_json(self, messages, schema, max_tokens=None):
        self.calls += 1
        first = messages[-1]["content"].split("\n\n")[1].split(".")[0]
        return JsonReply(json.dumps({"summary": first + "."}), 50, 10, 0.0)


def test_llm_summaries_are_cached_and_a_second_run_writes_none(scifact, tmp_path):
    cache = tmp_path / "cache"
    chat = TitleChat()
    first = bench_beir(str(scifact), modes=["summary-llm"], cache=str(cache), chat=chat)
    figures = first["modes"]["summary-llm"]
    assert chat.calls == 6 and figures["summaries_written_now"] == 6 and len(list(cache.glob("*.json"))) == 6
    again = TitleChat()
    second = bench_beir(str(scifact), modes=["summary-llm"], cache=str(cache), chat=again)
    assert again.calls == 0 and second["modes"]["summary-llm"]["summaries_written_now"] == 0
    assert second["modes"]["summary-llm"]["nDCG@10"] == figures["nDCG@10"]


def test_the_real_scifact_figures_on_a_subset(shared_data):
    folder = shared_data / "scifact"
    if not (folder / "corpus.jsonl").is_file():
        pytest.skip(f"{folder} is absent: BEIR SciFact is not in the shared data")
    result = bench_beir(str(folder), modes=["dense", "weighted"], limit_docs=60)
    assert result["documents"] == 60 and 0 < result["queries"] < 300 and "judged" in result["subset"]
    dense, weighted = result["modes"]["dense"], result["modes"]["weighted"]
    assert dense["nDCG@10"] > 0.6 and weighted["nDCG@10"] > 0.6  # 60 documents: far easier than the corpus
    assert dense["Recall@100"] == weighted["Recall@100"] == 1.0  # 60 documents: all of them are in the top 100
