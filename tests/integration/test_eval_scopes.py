"""``eval questionnaire`` / ``eval leave-one-out`` with scopes from folders (``--scope-folders``):
a generated tree laid out like ../shared/data/instructure — a company folder, two product
folders (one file in both), a third party's folder. The target is drafted for its folder's
product, never from the other product's documents, and its own product's past answers are
reused over another product's; the two scope figures are in the JSON.

The LLM is ``QuotingGenerator`` (a stated fake: it quotes the longest sentence of the first
passage): these tests are about what the evaluation lets into the drafts and how it counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.evaluate import LOO_FIGURES, Scores, evaluate_questionnaire, leave_one_out
from engine.core.scopes import FolderScopes, Scope
from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from tests.fixtures import QUESTIONS, QuotingGenerator
from tests.integration.test_eval_questionnaire import TRUTH, filled

pytestmark = pytest.mark.timeout(600)

FOLDERS = FolderScopes("Acme", ("Cloud",))
DOCS = {
    "Acme/policy.md": "# Policy\n\nEmployees use multi-factor authentication for every system they sign in to.\n",
    "Alpha/alpha.md": "# Alpha\n\nAlpha backups of the production databases are kept for thirty-five days.\n",
    "Beta/beta.md": "# Beta\n\nBeta encrypts all customer data at rest with AES-256.\n",
    "Cloud/cloud.md": "# Cloud\n\nCustomers are notified within seventy-two hours of a confirmed breach.\n",
    "Alpha/shared.md": "# Shared\n\nProduction databases are copied to a second region every hour.\n",
    "Beta/shared.md": "# Shared\n\nProduction databases are copied to a second region every hour.\n",
}


@pytest.fixture()
def tree(tmp_path: Path) -> dict:
    data = tmp_path / "data"
    for name, text in DOCS.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_text(text, encoding="utf-8")
    target = filled(data / "Beta" / "target.xlsx", TRUTH, "Beta's answer")
    truth = tmp_path / "truth.jsonl"
    truth.write_text(
        "".join(json.dumps({"id": q, "question": t, "answer": TRUTH[q], "comment": ""}) + "\n" for q, t in QUESTIONS)
    )
    return dict(data=data, target=target, truth=truth, tmp=tmp_path)


def test_folder_scopes_of_the_tree(tree):
    files = sorted(p for p in tree["data"].rglob("*") if p.is_file())
    scopes = {str(p.relative_to(tree["data"])): s for p, s in FOLDERS.of_files(files).items()}
    assert scopes["Acme/policy.md"] == Scope() and scopes["Cloud/cloud.md"] == Scope(third_party="Cloud")
    assert scopes["Alpha/alpha.md"] == Scope(("Alpha",)) and scopes["Beta/target.xlsx"] == Scope(("Beta",))
    assert scopes["Alpha/shared.md"] == scopes["Beta/shared.md"] == Scope(("Alpha", "Beta"))  # in both folders
    assert FOLDERS.product_of(tree["target"]) == "Beta" and FOLDERS.product_of(tree["data"] / "Acme" / "x.xlsx") is None


def test_documents_only_the_target_is_drafted_from_its_products_scope(tree):
    store = tree["tmp"] / "store"
    figures = evaluate_questionnaire(
        [str(tree["data"])],
        [],
        str(tree["target"]),
        str(tree["truth"]),
        store=str(store),
        folders=FOLDERS,
        generator=QuotingGenerator(),
        report=str(tree["tmp"] / "r.html"),
    )
    assert figures["product"] == "Beta" and figures["questions"] == 4
    assert figures["other_product_citation_rate"] == 0.0
    # INC-01 (breach notification) rests on the third party's document alone: inherited
    assert figures["third_party_only_rate"] == 25.0
    page = (tree["tmp"] / "r.html").read_text()
    assert "inherited from Cloud" in page and "alpha.md" not in page  # BCK-01's best match is Alpha's
    # the store keeps the scopes; a run with another target product changes none of them
    alpha = evaluate_questionnaire(
        [str(tree["data"])],
        [],
        str(tree["target"]),
        str(tree["truth"]),
        store=str(store),
        folders=FOLDERS,
        product="Alpha",
        generator=QuotingGenerator(),
        report=str(tree["tmp"] / "alpha.html"),
    )
    assert alpha["product"] == "Alpha" and "alpha.md" in (tree["tmp"] / "alpha.html").read_text()
    assert "beta.md" not in (tree["tmp"] / "alpha.html").read_text()


def test_the_targets_own_products_past_answers_are_reused(tree):
    """Two Alpha files answered ACC-01 Yes, an older Beta file No (the truth): without scopes the
    majority (Yes) is reused; with the folders, Beta's own answer."""
    data = tree["data"]
    others = {**TRUTH, "ACC-01": "Yes"}
    library = [
        str(filled(data / "Alpha" / "past1.xlsx", others, "Alpha says")),
        str(filled(data / "Alpha" / "past2.xlsx", others, "Alpha again")),
        str(filled(data / "Beta" / "old.xlsx", TRUTH, "Beta said")),
    ]
    args = ([], library, str(tree["target"]), str(tree["truth"]))
    plain = evaluate_questionnaire(*args, generator=QuotingGenerator())
    scoped = evaluate_questionnaire(*args, generator=QuotingGenerator(), folders=FOLDERS)
    assert plain["reused_rate"] == scoped["reused_rate"] == 100.0
    assert (plain["choice_accuracy"], scoped["choice_accuracy"]) == (75.0, 100.0)


def test_leave_one_out_reports_each_targets_product_and_the_scope_figures(tree):
    alpha_target = filled(tree["data"] / "Alpha" / "alpha_q.xlsx", TRUTH, "Alpha's answer")
    pairs = [(str(tree["target"]), str(tree["truth"])), (str(alpha_target), str(tree["truth"]))]
    result = leave_one_out([str(tree["data"])], pairs, library=False, folders=FOLDERS, generator=QuotingGenerator())
    assert [t["product"] for t in result["targets"]] == ["Beta", "Alpha"]
    assert {"other_product_citation_rate", "third_party_only_rate"} <= set(LOO_FIGURES)
    assert all(t["other_product_citation_rate"] == 0.0 for t in result["targets"])


def test_the_scope_figures_count_drafted_questions_only():
    scores = Scores()
    q = type("Q", (), {"id": "X", "text": "?"})
    drafted = Draft("k", "X", "S", 4, "?", "Yes.", "Yes", DraftStatus.DRAFTED)
    scores.add(q, "Yes", drafted, other_product=True)
    scores.add(q, "Yes", drafted)
    scores.add(q, "No", Draft("k", "X", "S", 5, "?", "", None, DraftStatus.NO_CONTEXT), other_product=True)
    figures = scores.summary()
    assert figures["other_product_citation_rate"] == 50.0 and figures["third_party_only_rate"] == 0.0
    assert Scores().summary()["other_product_citation_rate"] is None


def test_the_eval_commands_take_the_scope_flags():
    import engine.cli.eval as cli_eval
    import engine.cli.main as cli

    parse = cli.build_parser().parse_args
    args = parse(
        [
            "eval",
            "questionnaire",
            "--target",
            "t.xlsx",
            "--truth",
            "t.jsonl",
            "--scope-folders",
            "--third-party-folder",
            "Cloud",
            "Other Cloud",
            "--product",
            "Beta",
        ]
    )
    assert (
        cli_eval.folder_scopes(args) == FolderScopes("Instructure", ("Cloud", "Other Cloud")) and args.product == "Beta"
    )
    args = parse(["eval", "leave-one-out", "--pair", "a", "b", "--scope-folders"])
    assert cli_eval.folder_scopes(args) == FolderScopes("Instructure", ("Amazon Web Services", "Google Cloud Platform"))
    args = parse(["eval", "leave-one-out", "--pair", "a", "b", "--company-folder", "Acme"])
    assert cli_eval.folder_scopes(args) is None and args.product is None  # no --scope-folders: no folder scopes
