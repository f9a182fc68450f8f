"""Asking a document with the real SmolLM2-135M GGUF (the registry's fast test model) in the
model worker's child process (``tests.model_probes.InProcessProbe``): the per-part KV states,
excerpts on real PolicyQA text at their stated offsets, and the
``ask`` command. The model is weak, so the tests assert what the engine guarantees for any
reply (excerpts are exact slices of the document, a kept state gives the same reply as reading
the part again), not answer quality."""

from __future__ import annotations

import json

import pytest

from engine.bench.ask import interleave, load_policyqa
from engine.cli.main import main
from engine.core.types import SourceKind, Unit
from engine.drafting.ask import CONTEXT_TOKENS, AskDocument, AskOptions, DocumentAsker, part_prompt
from engine.drafting.generate import ModelWorker
from engine.drafting.generate.models import TEST_MODEL

pytestmark = pytest.mark.timeout(900)


PROBE = "tests.model_probes:InProcessProbe"


@pytest.fixture(scope="module")
def llama() -> ModelWorker:
    return ModelWorker(TEST_MODEL, factory=PROBE, n_ctx=CONTEXT_TOKENS)


@pytest.fixture(scope="module")
def policy(shared_data):
    """The shortest PolicyQA test policy (≈ 200 words) and its questions."""
    policies = load_policyqa(shared_data / "policyqa" / "test.json")
    return min(policies, key=lambda p: len(p.text))


def test_a_kept_part_state_gives_the_same_reply_as_reading_the_part_again(llama, policy):
    """Two parts read in turn: coming back to part 1 restores its KV state instead of reading it
    again, and the reply is the one a context that never left it gives."""
    doc = AskDocument(policy.title, SourceKind.TEXT, [Unit(policy.text)])
    options = AskOptions(subdoc_words=120)
    parts = doc.parts(120)
    assert len(parts) >= 2
    first, second = (part_prompt(doc, parts[i], len(parts), policy.questions[0].question, options) for i in (0, 1))
    again = part_prompt(doc, parts[0], len(parts), policy.questions[1].question, options)

    restored = llama.call("prefix_stats")["restored"]
    llama.chat_json(list(first.messages), first.schema, first.max_tokens, context=first.context)
    llama.chat_json(list(second.messages), second.schema, second.max_tokens, context=second.context)
    kept = llama.chat_json(list(again.messages), again.schema, again.max_tokens, context=again.context)
    assert llama.call("prefix_stats")["restored"] == restored + 1
    assert llama.call("holds_context", first.context) and llama.call("holds_context", second.context)

    fresh = ModelWorker(TEST_MODEL, factory=PROBE, n_ctx=CONTEXT_TOKENS)  # never read anything else
    alone = fresh.chat_json(list(again.messages), again.schema, again.max_tokens)
    assert kept.text == alone.text


def test_excerpts_of_a_real_policy_lie_in_it_at_their_offsets(llama, policy, shared_data):
    doc = AskDocument(policy.title, SourceKind.TEXT, [Unit(policy.text)])
    for form in ("quotes", "sentences"):
        asker = DocumentAsker(doc, llama, AskOptions(evidence=form, window=1))
        for q in policy.questions[:3]:
            result = asker.ask(q.question, answer=False)
            for e in result.excerpts:
                (span,) = e.spans
                assert policy.text[span.start : span.end] == e.text
            assert result.timing.parts == 1
    assert asker.ask(policy.questions[3].question, answer=False).timing.first is False


def test_the_ask_command_prints_json_with_offsets_and_refuses_bad_input(tmp_path, capsys, policy):
    path = tmp_path / "policy.txt"
    path.write_text(policy.text, encoding="utf-8")
    questions = [q.question for q in interleave([policy], 2)]
    assert main(["ask", str(path), *questions, "--model", TEST_MODEL, "--json", "--window", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [r["question"] for r in lines] == questions
    assert lines[0]["first_question"] is True and lines[1]["first_question"] is False
    for r in lines:
        assert r["answer"]  # an answer, or "Nothing in this document answers it."
        for e in r["excerpts"]:
            assert all(policy.text[s["start"] : s["end"]] == e["text"] for s in e["spans"])

    assert main(["ask", str(path), "x" * 5000, "--model", TEST_MODEL]) == 2
    assert "is 5,000 characters long; a question is at most 1,000" in capsys.readouterr().err
    assert main(["ask", "no-such.pdf", "What?", "--store", str(tmp_path / "none")]) == 2
    assert "no-such.pdf: is not a file" in capsys.readouterr().err
