"""Atomic units and synthetic questions (engine/index/embed/atoms.py) and their `bench retrieval` modes."""

import json

import numpy as np
import pytest

from engine.drafting.generate.backends import JsonReply
from engine.index.embed.atoms import (
    TAU,
    MaxIndex,
    QuestionCache,
    atoms,
    generate_questions,
    grounded,
    prune,
    prune_within,
    question_schema,
)


def test_atoms_are_sentences_with_short_fragments_merged():
    text = (
        "Ward. Tesla was born in Smiljan in 1856. He moved to New York in 1884. Aged 28.\n\n"
        "The Wardenclyffe Tower was never finished. :12"
    )
    got = atoms(text)
    assert got == [
        "Ward. Tesla was born in Smiljan in 1856.",  # a short first fragment joins the next atom
        "He moved to New York in 1884. Aged 28.",  # a short one later joins the atom before it
        "The Wardenclyffe Tower was never finished. :12",
    ]
    assert all(a in text for a in got)  # exact slices of the chunk
    assert atoms("Short one. Then a longer sentence follows here.") == [
        "Short one. Then a longer sentence follows here."
    ]
    assert atoms("Just two.") == ["Just two."]
    assert atoms("") == []


def test_prune_drops_rewordings_within_tau_and_keeps_distinct_questions(encoder):
    questions = [
        "When did Nikola Tesla die?",
        "when did Nikola Tesla  die?",  # the same question up to case and spaces
        "In what year did Nikola Tesla die?",  # a rewording: cosine ≈ 0.98
        "Where was Nikola Tesla born?",  # another fact about the same man: cosine ≈ 0.86
        "What did Nikola Tesla invent?",
        "Who funded the Wardenclyffe Tower?",
    ]
    vectors = encoder.encode_passages(questions)
    assert TAU == 0.1
    assert prune(questions, vectors) == [0, 3, 4, 5]
    assert prune(questions, vectors, tau=0.0) == [0, 2, 3, 4, 5]  # only the repeat goes
    assert prune(questions, vectors, tau=0.3) == [0, 5]  # a loose threshold merges the Tesla questions
    # within each passage only: the same question under two passages is kept for both
    assert prune_within(questions[:2] * 2, np.concatenate([vectors[:2]] * 2), [0, 0, 1, 1]) == [0, 2]
    with pytest.raises(ValueError, match="cosine distance"):
        prune(questions, vectors, tau=3.0)


CITIES = ["Oslo", "Lima", "Cairo", "Perth", "Quito", "Hanoi", "Dakar", "Sofia", "Tunis", "Accra", "Riga", "Bern"]
FACTS = [
    ("The bridge in {c} was opened in {y}.", "When was the bridge in {c} opened?"),
    ("The museum of {c} holds {n} paintings by local artists.", "How many paintings does the museum of {c} hold?"),
    ("The mayor of {c} was elected with {p} percent of the vote.", "What share of the vote did the mayor of {c} get?"),
    ("Trains from {c} to the coast take {h} hours.", "How long do trains from {c} to the coast take?"),
]


def test_question_to_atom_retrieval_ranks_the_paragraph_of_the_answering_sentence_first(encoder):
    rng = np.random.default_rng(7)
    paragraphs, questions, gold = [], [], []
    for i, city in enumerate(CITIES):
        values = {
            "c": city,
            "y": int(rng.integers(1850, 2000)),
            "n": int(rng.integers(100, 900)),
            "p": int(rng.integers(40, 80)),
            "h": int(rng.integers(2, 9)),
        }
        order = rng.permutation(len(FACTS))
        paragraphs.append(" ".join(FACTS[j][0].format(**values) for j in order))
        questions.append(FACTS[i % len(FACTS)][1].format(c=city))
        gold.append(i)
    units = [(a, i) for i, p in enumerate(paragraphs) for a in atoms(p)]
    assert len(units) == len(CITIES) * len(FACTS)
    index = MaxIndex(encoder.encode_passages([a for a, _ in units]), [i for _, i in units], len(paragraphs))
    ranked = index.search(encoder.encode_queries(questions), k=3)
    assert [r[0] for r in ranked] == gold
    assert all(len(r) == 3 and len(set(r)) == 3 for r in ranked)


def test_max_index_scores_a_passage_by_its_best_vector_and_leaves_empty_ones_last():
    vectors = np.eye(3, dtype=np.float32)
    index = MaxIndex(vectors, owners=[2, 0, 2], passages=4)  # passage 1 and 3 have no vector
    scores = index.scores(np.array([[0.1, 0.2, 0.9]], dtype=np.float32))
    assert scores[0, 2] == pytest.approx(0.9) and scores[0, 0] == pytest.approx(0.2)
    assert np.isneginf(scores[0, 1]) and np.isneginf(scores[0, 3])
    assert index.search(np.array([[0.0, 1.0, 0.0]], dtype=np.float32), k=2) == [[0, 2]]


class FakeChat:
    """A fake LLM (not the real one): answers every request with two questions built from the
    statement, and counts the calls."""

    name = "fake-chat"

    def __init__(self):
        self.calls = 0

    def chat_json(self, messages, schema, max_tokens=None):
        self.calls += 1
        statement = messages[-1]["content"].rsplit("Statement: ", 1)[1]
        subject = " ".join(statement.split()[:3])
        asked = [f"What about {subject}?", f"Why is {subject} so?", "Where is the Eiffel Tower?"]
        reply = {"questions": [{"answer": subject, "question": q} for q in asked]}
        return JsonReply(json.dumps(reply), 10, 10, 0.0)


def test_with_paragraph_averages_the_paragraph_cosine_and_its_best_unit():
    from engine.bench.retrieval import with_paragraph

    paragraphs = np.eye(3, dtype=np.float32)
    query = np.array([[0.8, 0.0, 0.6]], dtype=np.float32)
    units = MaxIndex(np.array([[1.0, 0.0, 0.0], [0.8, 0.0, 0.6]], dtype=np.float32), owners=[0, 1], passages=3)
    assert units.search(query, k=3)[0][0] == 1  # alone, paragraph 1's question (a perfect match) wins
    # paragraph 0: (0.8 + 0.8) / 2 = 0.8; paragraph 2 has no unit: its own 0.6; paragraph 1: (0 + 1) / 2
    assert with_paragraph(units, query, paragraphs, k=3) == [[0, 2, 1]]


def test_atom_questions_are_cached_and_a_killed_run_resumes(tmp_path):
    items = [(f"Statement number {i} says the river Danube floods in spring.", "the chunk") for i in range(5)]
    cache = tmp_path / "questions.jsonl"
    chat = FakeChat()
    first = generate_questions(chat, items[:3], n=3, cache=cache, progress=False)  # then "killed"
    assert chat.calls == 3 and first.generated == 3
    # the Eiffel question shares no word with its statement: dropped as not grounded
    assert first.questions[0] == ["What about Statement number 0?", "Why is Statement number 0 so?"]
    with cache.open("a", encoding="utf-8") as f:
        f.write('{"key": "cut off by the ki')  # a line the kill left half-written
    chat = FakeChat()
    resumed = generate_questions(chat, items, n=3, cache=cache, progress=False)
    assert chat.calls == 2 and resumed.generated == 2
    assert resumed.questions[:3] == first.questions
    chat = FakeChat()
    again = generate_questions(chat, items, n=3, cache=cache, progress=False)
    assert chat.calls == 0 and again.generated == 0 and again.seconds_per_atom is None
    assert again.questions == resumed.questions
    assert len(QuestionCache(cache).entries) == 5
    # another model's questions are not reused
    other = FakeChat()
    other.name = "another-model"
    generate_questions(other, items[:1], n=3, cache=cache, progress=False)
    assert other.calls == 1


def test_question_schema_and_grounding():
    schema = question_schema(3)
    assert schema["properties"]["questions"]["maxItems"] == 3
    assert schema["properties"]["questions"]["items"]["properties"]["question"]["pattern"].endswith("[?]$")
    assert schema["properties"]["questions"]["items"]["required"] == ["answer", "question"]  # answer first
    assert grounded("Who won Super Bowl 50?", "Super Bowl 50 was an American football game.")
    assert not grounded("When was the Eiffel Tower completed?", "The Broncos took an early lead and never trailed.")


def test_bench_retrieval_atoms_on_squad(shared_data, capsys):
    squad = shared_data / "squad" / "dev-v1.1.json"
    if not squad.is_file():
        pytest.skip(f"{squad} is absent: SQuAD v1.1 dev is not in the shared data")
    from engine.cli.main import main

    assert main(["bench", "retrieval", "--squad", str(squad), "--modes", "atoms", "--limit", "30", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["paragraphs"] == 30
    assert result["questions"] == 515  # the questions about the first 30 paragraphs only
    got = result["modes"]["atoms"]
    assert got["atoms"] > 30
    assert got["R@1"] <= got["R@2"] <= got["R@5"]
    assert got["R@1"] > 50.0  # MiniLM, 30 paragraphs: 67.0 when written


def test_the_papers_embedder_is_found_by_name_once_assembled(tmp_path, monkeypatch):
    import sys

    from engine.index.embed.dense import EmbedderError, resolve_model

    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # an environment where `make bench-models` has not run
    with pytest.raises(EmbedderError, match="make bench-models"):
        resolve_model("all-mpnet-base-v2")
    (tmp_path / "models" / "all-mpnet-base-v2").mkdir(parents=True)
    assert resolve_model("sentence-transformers/all-mpnet-base-v2") == str(tmp_path / "models" / "all-mpnet-base-v2")
