"""A choice of several (issue #55) asked of a real model: the SmolLM2-135M test GGUF in the model
worker, through the same schema and post-rules as drafting. The model is weak, so the test asserts
what the schema and the rules guarantee (a list of allowed options, each named by a quote), not
answer quality. ``python -m tests.integration.test_several_generate [MODEL]`` prints one reply of
a model, several and single, for the figures in docs/benchmarks.md (#55)."""

from __future__ import annotations

import json
import sys
import time

import pytest

from engine.drafting.generate import ModelWorker, Passage, make_generator
from engine.drafting.generate.models import TEST_MODEL
from engine.questionnaire.records import picked_choices

QUESTION = "Please select the 'Service' in which your organisation is able to provide. Tick all that apply."
CHOICES = ("Catering Services", "Cleaning Services", "Helpdesk Services", "Security Services")
CONTEXT = [
    Passage(
        "[1] Service_Coverage.pdf p. 2",
        "Our facilities teams provide cleaning services and security services across all client sites. "
        "We do not provide catering.",
    ),
    Passage("[2] Company_Profile.pdf p. 1", "Acme Facilities Ltd was founded in 2004 and employs 1,200 staff."),
]


@pytest.fixture(scope="module")
def llama() -> ModelWorker:
    return ModelWorker(TEST_MODEL)


def test_a_choice_of_several_is_a_list_of_allowed_options_each_named_by_a_quote(llama):
    got = llama.generate(QUESTION, CONTEXT, CHOICES, several=True)
    if got.completion_tokens < 256:  # not cut off: the grammar makes the choice a list of the options
        data = json.loads(got.raw, strict=False)
        assert isinstance(data["choice"], list) and set(data["choice"]) <= set(CHOICES)
    picked = picked_choices(got.choice, CHOICES)
    assert all(p in CHOICES for p in picked)
    said = " ".join(got.quotes).lower()
    assert all(p.split()[0].lower()[:5] in said for p in picked)  # each option backed by its quote
    assert got.choice is None or (got.quotes and not got.insufficient_context)


def main(model: str | None = None) -> None:
    generator = make_generator(model)
    for several in (True, False):
        started = time.perf_counter()
        got = generator.generate(QUESTION, CONTEXT, CHOICES, **({"several": True} if several else {}))
        print(f"several={several} {time.perf_counter() - started:.1f} s choice={got.choice!r} raw={got.raw!r}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
