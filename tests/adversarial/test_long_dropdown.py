"""A dropdown of thousands of values does not become the prompt (#36).

Before #36 a 5,000-value list (a literal list, as openpyxl writes one) put every value in the
prompt and in the answer schema of each row using it: about 65,000 characters (35,000 tokens),
and the model's error advised to "compact the passages or raise n_ctx", though the list was the
cause. Now the prompt lists a bounded shortlist, the values closest to the question and the
passages, and the choice is still checked against the whole list; a row that still cannot fit
names its dropdown.

The model is replaced by ``RecordingBackend``, a stated fake: an ``HttpGenerator`` whose
``chat_json`` records the messages and schema it would send and answers with a scripted reply
(or, past its ``n_ctx``, with llama.cpp's context error); the prompt, the schema and the parsing
are the real ones. These tests are about what the prompt holds, not about generation.
"""

from __future__ import annotations

import json
import math

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.llm import GeneratorError, JsonReply
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.drafting.generate import HttpGenerator, Passage
from engine.questionnaire import read_questionnaire
from tests.fixtures import text_kb

EVIDENCE = (
    "The Acme platform is hosted on Amazon Web Services in the us-east-1 and eu-west-1 regions. "
    "Production data never leaves those two regions."
)
QUESTION = "Which cloud hosting provider runs the production service?"


def vendor_names(n: int) -> list[str]:
    """``n`` distinct made-up provider names, "Amazon Web Services" among them (in the middle)."""
    first = [
        a + b
        for a in ("Ab", "Bri", "Cor", "Del", "Em", "Fal", "Gor", "Hel", "Ir", "Jun")
        for b in ("ton", "via", "ex", "ara", "iun")
    ]
    second = (
        "Data Cloud Net Host Grid Byte Core Edge Link Stack Wave Node Sky Vault Line Point Base Port Path Logic".split()
    )
    third = ("Systems", "Services", "Group", "Labs", "Works")
    names = [f"{a} {b} {c}" for a in first for b in second for c in third][:n]
    names[n * 3 // 4] = "Amazon Web Services"
    return names


def dropdown_workbook(path, form: str, n: int):
    """A questionnaire whose answer cells C2:C4 carry one list of ``n`` providers: ``literal``
    (``"A,B,…"``, the issue's form) or ``range`` (``Lists!$A$1:$A$N`` on a hidden sheet, Excel's
    own form for a long list)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws.append(["ID", "Question", "Answer", "Comments"])
    ws.append(["HST-01", QUESTION, None, None])
    ws.append(["HST-02", "Which provider runs the disaster recovery site?", None, None])
    ws.append(["HST-03", "Which provider stores the backups?", None, None])
    names = vendor_names(n)
    if form == "literal":
        formula = '"' + ",".join(names) + '"'
    else:
        lists = wb.create_sheet("Lists")
        lists.sheet_state = "hidden"
        for i, name in enumerate(names, start=1):
            lists.cell(i, 1, name)
        formula = f"Lists!$A$1:$A${n}"
    dv = DataValidation(type="list", formula1=formula, allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C2:C4")
    wb.save(path)
    return path


class RecordingBackend(HttpGenerator):
    """The stated fake model (see the module docstring): records each (messages, schema) sent and
    replies choosing ``choice``, citing the first numbered sentence; a prompt over ``n_ctx``
    tokens (four characters a token) is refused as llama.cpp refuses it."""

    def __init__(self, choice: str | None, n_ctx: int | None = None) -> None:  # no server to ask for its model
        self.name, self.choice, self.n_ctx, self.calls = "recording-backend (test stand-in)", choice, n_ctx, []

    def chat_json(self, messages, schema, max_tokens=None, context=None) -> JsonReply:
        self.calls.append((list(messages), schema))
        tokens = sum(math.ceil(len(m["content"]) / 4) for m in messages) + 256
        if self.n_ctx is not None and tokens > self.n_ctx:
            raise GeneratorError(
                self.name,
                f"Requested tokens ({tokens}) exceed context window of {self.n_ctx}",
                "compact the passages or raise n_ctx",
            )
        reply = {
            "sentences": ["S1"],
            "choice": self.choice,
            "answer": f"It is {self.choice}.",
            "insufficient_context": False,
        }
        return JsonReply(json.dumps(reply), tokens, 30, 0.0)


@pytest.mark.parametrize(("form", "n"), [("literal", 5_000), ("range", 2_000)])
def test_the_prompt_lists_a_shortlist_and_the_choice_is_checked_against_the_whole_list(tmp_path, form, n):
    q = read_questionnaire(dropdown_workbook(tmp_path / "q.xlsx", form, n)).questions[0]
    assert len(q.choices) == n and q.choice_cell == "C2"
    passages = [Passage("[1] Acme Architecture.pdf p. 3", EVIDENCE)]
    backend = RecordingBackend("Amazon Web Services")

    got = backend.generate(q.text, passages, q.choices)
    messages, schema = backend.calls[-1]
    size = sum(len(m["content"]) for m in messages)
    assert size < 6_000, f"{size:,} characters of prompt"  # all 5,000 values: about 100,000
    shown = [v for v in schema["properties"]["choice"]["enum"] if v is not None]
    assert 10 <= len(shown) <= 50 and set(shown) <= set(q.choices)
    assert "Amazon Web Services" in shown and "Amazon Web Services" in messages[-1]["content"]
    assert got.choice == "Amazon Web Services" and not got.insufficient_context

    # a value of the list the prompt did not show (a server ignoring the schema): the cell accepts it, kept
    unshown = next(v for v in reversed(q.choices) if v not in shown)
    backend.choice = unshown
    assert backend.generate(q.text, passages, q.choices).choice == unshown
    # a value outside the list: no choice
    backend.choice = "Oracle Cloud Infrastructure"
    assert backend.generate(q.text, passages, q.choices).choice is None


def test_a_row_whose_dropdown_still_does_not_fit_names_the_dropdown(tmp_path, encoder):
    """A model with a 600-token context: the question, the passages and the system prompt fit
    it, the shortlist of the dropdown does not; the draft's error names the dropdown, its size
    and its cell, not the passages."""
    q = read_questionnaire(dropdown_workbook(tmp_path / "q.xlsx", "literal", 5_000)).questions[0]
    backend = RecordingBackend("Amazon Web Services", n_ctx=600)
    with text_kb(tmp_path, encoder, {"architecture.txt": EVIDENCE}) as kb:
        draft = Drafter(kb, backend).draft(q)
    assert draft.status is DraftStatus.ERROR and draft.choice is None
    assert draft.error.startswith("the dropdown of Security!C2 (5,000 values) does not fit the model's prompt: ")
    assert "exceed the model's context (Requested tokens" in draft.error
    assert draft.error.endswith("answer this row by hand, or shorten the dropdown's list in the workbook")
    assert "compact the passages" not in draft.error


def test_values_too_long_to_list_are_refused_naming_the_dropdown():
    backend = RecordingBackend(None)
    with pytest.raises(GeneratorError) as refused:
        backend.generate(QUESTION, [Passage("[1] a.pdf p. 1", EVIDENCE)], ["A" * 2_000, "B" * 2_000])
    assert "the dropdown (2 values): does not fit the model's prompt: each of its values is longer than" in str(
        refused.value
    )
    assert not backend.calls  # nothing was sent
