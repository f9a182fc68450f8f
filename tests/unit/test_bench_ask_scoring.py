"""``bench ask`` scoring on tiny hand-made cases: character precision / recall / F1 the
LegalBench-RAG way, range merging, the PolicyQA loader's offsets and the question order."""

from __future__ import annotations

import json

import pytest

from engine.bench.ask import interleave, load_policyqa, merge, overlap, score, summary


def test_merge_joins_overlapping_and_touching_ranges_and_drops_empty_ones():
    assert merge([(10, 20), (0, 5), (15, 30), (30, 32), (40, 40)]) == [(0, 5), (10, 32)]


def test_overlap_counts_each_character_once():
    assert overlap([(0, 10), (5, 15)], [(8, 12)]) == 4  # the returned ranges overlap each other
    assert overlap([(0, 10)], [(10, 20)]) == 0


@pytest.mark.parametrize(
    "returned, gold, expected",
    [
        ([(10, 20)], [(10, 20)], (1.0, 1.0, 1.0)),  # exactly the answer
        ([(0, 40)], [(10, 20)], (0.25, 1.0, 0.4)),  # the answer inside a longer excerpt
        ([(15, 20)], [(10, 20)], (1.0, 0.5, 2 / 3)),  # half the answer, nothing else
        ([(30, 40)], [(10, 20)], (0.0, 0.0, 0.0)),  # elsewhere
        ([], [(10, 20)], (0.0, 0.0, 0.0)),  # nothing returned
        ([(0, 10), (20, 30)], [(5, 25)], (0.5, 0.5, 0.5)),  # two excerpts around one answer
        ([(0, 10)], [(0, 5), (8, 12)], (0.7, 7 / 9, 2 * 0.7 * (7 / 9) / (0.7 + 7 / 9))),  # two gold spans
    ],
)
def test_character_precision_recall_f1(returned, gold, expected):
    s = score(returned, gold)
    assert (s.precision, s.recall, s.f1) == pytest.approx(expected)


def test_summary_averages_per_question_in_percent():
    scores = [score([(10, 20)], [(10, 20)]), score([], [(0, 5)])]
    out = summary(scores, [[(10, 20)], []])
    assert out["precision"] == 50.0 and out["recall"] == 50.0 and out["f1"] == 50.0
    assert out["answered"] == 50.0 and out["chars_returned"] == 5.0


def _policyqa(tmp_path):
    data = {
        "version": "1",
        "data": [
            {
                "title": "a.com",
                "paragraphs": [
                    {
                        "context": "We collect your email.",
                        "qas": [
                            {
                                "id": "a1",
                                "question": "What do you collect?",
                                "answers": [{"text": "your email", "answer_start": 11}],
                            }
                        ],
                    },
                    {
                        "context": "We never sell data. Cookies track visits.",
                        "qas": [
                            {
                                "id": "a2",
                                "question": "Do you sell data?",
                                "answers": [{"text": "We never sell data.", "answer_start": 0}],
                            },
                            {
                                "id": "a3",
                                "question": "Cookies?",
                                "answers": [
                                    {"text": "Cookies track visits", "answer_start": 20},
                                    {"text": "track", "answer_start": 28},
                                ],
                            },
                        ],
                    },
                ],
            },
            {
                "title": "b.com",
                "paragraphs": [
                    {
                        "context": "Contact us by mail.",
                        "qas": [
                            {
                                "id": "b1",
                                "question": "How to contact?",
                                "answers": [{"text": "by mail", "answer_start": 11}],
                            }
                        ],
                    }
                ],
            },
        ],
    }
    path = tmp_path / "policyqa.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_policies_are_joined_and_gold_spans_point_into_the_joined_text(tmp_path):
    a, b = load_policyqa(_policyqa(tmp_path))
    assert a.text == "We collect your email.\n\nWe never sell data. Cookies track visits."
    texts = {q.id: [a.text[s:e] for s, e in q.gold] for q in a.questions}
    assert texts == {
        "a1": ["your email"],
        "a2": ["We never sell data."],
        "a3": ["Cookies track visits"],
    }  # nested answer merged
    assert b.questions[0].gold == ((11, 18),) and b.text[11:18] == "by mail"


def test_a_misplaced_answer_is_refused(tmp_path):
    path = _policyqa(tmp_path)
    data = json.loads(path.read_text())
    data["data"][0]["paragraphs"][0]["qas"][0]["answers"][0]["answer_start"] = 3
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="a1 is not at its answer_start"):
        load_policyqa(path)


def test_questions_are_taken_in_turn_from_each_policy(tmp_path):
    policies = load_policyqa(_policyqa(tmp_path))
    assert [q.id for q in interleave(policies)] == ["a1", "b1", "a2", "a3"]
    assert [q.id for q in interleave(policies, 3)] == ["a1", "b1", "a2"]
