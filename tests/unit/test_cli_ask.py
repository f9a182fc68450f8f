"""The ``ask`` command's bad input (the issue's list): an empty file, a scanned PDF and a
5,000-character question are refused in one line naming the file or question, the problem and
the fix, before any model loads; a model that quotes nothing prints "Nothing in this document
answers it." and no excerpt. The model is the scripted stand-in of tests/unit/test_ask.py."""

from __future__ import annotations

import json

import fitz
import pytest

import engine.drafting.generate
from engine.cli.main import main
from engine.drafting.ask import NOTHING
from tests.unit.test_ask import TEXT, Scripted


@pytest.fixture
def no_model(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded for input that is refused")

    monkeypatch.setattr(engine.drafting.generate, "make_generator", refuse)


def refused(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err  # one line
    return err


def test_an_empty_file_is_refused_naming_the_file_and_the_fix(tmp_path, capsys, no_model):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n ", encoding="utf-8")
    err = refused(capsys, ["ask", str(empty), "Who reviews the controls?"])
    assert "empty.txt" in err and "no text" in err and "add a file with text" in err


def test_a_scanned_pdf_is_refused_with_the_ocr_hint(tmp_path, capsys, no_model):
    scanned = tmp_path / "scan.pdf"
    pdf = fitz.open()
    pdf.new_page().draw_rect(fitz.Rect(50, 50, 300, 300), fill=(0.2, 0.2, 0.2))  # image only, no text layer
    pdf.save(scanned)
    err = refused(capsys, ["ask", str(scanned), "Who reviews the controls?"])
    assert "scan.pdf" in err and "no text layer" in err and "OCR" in err


def test_a_5000_character_question_is_refused_before_the_model_loads(tmp_path, capsys, no_model):
    path = tmp_path / "policy.txt"
    path.write_text(TEXT, encoding="utf-8")
    err = refused(capsys, ["ask", str(path), "x" * 5000])
    assert "5,000 characters long" in err and "at most 1,000" in err


def test_a_model_that_quotes_nothing_prints_nothing_answers_it(tmp_path, capsys, monkeypatch):
    path = tmp_path / "policy.txt"
    path.write_text(TEXT, encoding="utf-8")
    chat = Scripted({})  # every part: no quotes
    monkeypatch.setattr(engine.drafting.generate, "make_generator", lambda *a, **k: chat)
    assert main(["ask", str(path), "Is there a moon base?", "--json"]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert line["answer"] == NOTHING and line["excerpts"] == []
    assert all("answer" not in schema["properties"] for _, _, schema in chat.calls)  # no answer call
    assert main(["ask", str(path), "Is there a moon base?"]) == 0
    assert f"A: {NOTHING}" in capsys.readouterr().out


class Interrupted(Scripted):
    """Ctrl-C while the model reads the document (the scripted stand-in above; the test is about
    what the command says, not about the model)."""

    def chat_json(self, *args, **kwargs):
        raise KeyboardInterrupt


def test_ctrl_c_during_an_ask_says_nothing_was_changed(tmp_path, capsys, monkeypatch):
    path = tmp_path / "policy.txt"
    path.write_text(TEXT, encoding="utf-8")
    monkeypatch.setattr(engine.drafting.generate, "make_generator", lambda *a, **k: Interrupted())
    assert main(["ask", str(path), "Who reviews the controls?"]) == 130
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == "interrupted; nothing was changed"  # not the knowledge base's message: ask writes nothing


@pytest.mark.parametrize(
    "argv, means",
    [
        (["kb", "add", "x.pdf"], "the knowledge base is as it was before this command"),
        (["kb", "summary", "x.pdf", "--set", "s.txt"], "the knowledge base is as it was before this command"),
        (["kb", "summary", "x.pdf"], "nothing was changed"),
        (
            ["draft", "q.xlsx", "--out", "o.xlsx"],
            "the drafts written so far are kept; run the same command again to continue",
        ),
        (
            ["bench", "ask", "--policyqa", "t.json", "--cache", "c.jsonl"],
            "what the model read so far is kept in c.jsonl; run the same command again to resume",
        ),
        (["search", "backups"], "nothing was changed"),
    ],
)
def test_what_an_interruption_left_is_said_per_command(argv, means):
    from engine.cli.main import build_parser, interrupted_means

    assert interrupted_means(build_parser().parse_args(argv)) == means
