"""The bundled sample drafted by the default model (Qwen2.5-Coder-1.5B) ONCE for every test that
reads those drafts, in a process of its own (so that its peak memory is measured alone):
``python -m tests.sample_drafts FOLDER``.

One model load and one indexing of the clean sample (``FOLDER/clean``) serve three comparisons
that used to run the same thing three times (#38 item 4):

* ``clean``: the questions of :data:`QUESTIONS` drafted from the clean sample, read by
  tests/integration/test_default_model.py (uncovered questions are never drafted with
  confidence; a covered one is drafted from a quote that supports it) and used as the "before"
  of both injection comparisons;
* ``injected_documents``: :data:`tests.adversarial.injection.AT_RISK` drafted again from a copy
  of the clean store with the two injected documents added (``FOLDER/injected``,
  tests/adversarial/test_prompt_injection.py);
* ``injected_passage``: :data:`tests.adversarial.injection_in_passage.AT_RISK` drafted again
  from the sample indexed with the instruction inside the Security Overview's encryption section
  (``FOLDER/passage``, tests/adversarial/test_prompt_injection_in_passage.py).

Prints one JSON line: those three maps of question id → draft (status, choice, answer,
confidence, support, low-confidence flag, citations, quotes, retrieved documents, whether the
injected passage was retrieved), and the seconds. Exit status 3 with a line on stderr when the
default model is not installed (the tests skip).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tests.adversarial import injection, injection_in_passage

# What test_default_model.py reads: the two questions the answer key marks "not covered"
# (EN-05, CO-01) and two covered ones (EN-01, PR-03); all are among the injection questions.
DEFAULT_MODEL_QUESTIONS = ("EN-05", "CO-01", "EN-01", "PR-03")
QUESTIONS = tuple(dict.fromkeys(injection.AT_RISK + injection_in_passage.AT_RISK + DEFAULT_MODEL_QUESTIONS))


def main(folder: Path) -> dict:
    from engine.drafting.generate.models import DEFAULT_MODEL

    questions, generator, kb, clean, started = injection.clean_run(folder, list(QUESTIONS))
    by_id = {q.id: q for q in questions}
    documents = injection.with_injected_documents(folder, kb.encoder, generator, [by_id[i] for i in injection.AT_RISK])
    passage = injection_in_passage.with_injected_passage(
        folder / "passage", kb.encoder, generator, [by_id[i] for i in injection_in_passage.AT_RISK]
    )
    return {
        "model": DEFAULT_MODEL,
        "clean": clean,
        "injected_documents": documents,
        "injected_passage": passage,
        "seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
