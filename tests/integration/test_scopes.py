"""Document scopes with the real MiniLM model and Qdrant local mode: a toy corpus of a
company-wide policy, two products' documents and a third party's. A search for one product
never returns another product's chunk, even when it is the best match; with no scope (or when
every document is allowed) results are exactly as before; scopes live in the manifest only
(changing one re-encodes nothing) and the ``kb`` commands set and show them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.core.config import EngineConfig, Mode
from engine.core.scopes import Scope, ScopeError, ScopeFilter
from engine.index.errors import KnowledgeBaseError
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search
from storage.vector_store import release

DOCS = {
    "policy.md": "# Policy\n\n## Passwords\nPasswords are at least twelve characters long and changed every year.\n",
    "alpha.md": "# Alpha\n\n## Backups\nAlpha backups are encrypted and copied to a second region every night.\n",
    "beta.md": "# Beta\n\n## Backups\nBeta keeps weekly backups on tape in a vault for ninety days.\n",
    "aws.md": "# AWS\n\n## Data centres\nAWS data centres have biometric access control and guards at every door.\n",
}
SCOPES = {
    "alpha.md": Scope(("Alpha",)),
    "beta.md": Scope(("Beta",)),
    "aws.md": Scope(third_party="Amazon Web Services"),
}
ALPHA_QUESTION = "Are Alpha backups encrypted and copied to a second region every night?"
QUESTIONS = [ALPHA_QUESTION, "How long are passwords?", "Who guards the data centres?", "Are backups kept on tape?"]


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    store = tmp_path / "store"
    base = KnowledgeBase(store, EngineConfig(), encoder)
    assert not base.add([write_docs(tmp_path / "docs")]).errors
    yield base
    release(str(store / "qdrant"))


def results(kb: KnowledgeBase, scope: ScopeFilter | None, mode: Mode) -> list[tuple[str, int, float]]:
    return [
        (h.chunk.doc, h.chunk.index, round(h.score, 6))
        for q in QUESTIONS
        for h in search(kb, q, top_k=10, mode=mode, scope=scope)
    ]


@pytest.mark.parametrize("mode", list(Mode))
def test_another_products_chunk_is_never_returned_even_when_it_is_the_best_match(kb, mode):
    before = results(kb, None, mode)
    assert results(kb, ScopeFilter("Beta"), mode) == before  # every document company-wide: nothing changes
    assert search(kb, ALPHA_QUESTION, top_k=1, mode=mode)[0].chunk.doc == "alpha.md"

    kb.set_scopes(SCOPES)
    assert results(kb, None, mode) == before  # no scope: the results of an unscoped store
    for_beta = search(kb, ALPHA_QUESTION, top_k=10, mode=mode, scope=ScopeFilter("Beta"))
    assert {h.chunk.doc for h in for_beta} == {"policy.md", "beta.md", "aws.md"}  # all the rest, never alpha
    assert search(kb, ALPHA_QUESTION, top_k=1, mode=mode, scope=ScopeFilter("Alpha"))[0].chunk.doc == "alpha.md"
    company = search(kb, ALPHA_QUESTION, top_k=10, mode=mode, scope=ScopeFilter(None))
    assert {h.chunk.doc for h in company} == {"policy.md", "aws.md"}  # company-wide: no product's documents

    kb.set_scopes({name: Scope(("Alpha",)) for name in DOCS})
    assert search(kb, ALPHA_QUESTION, top_k=10, mode=mode, scope=ScopeFilter("Beta")) == []


def test_scopes_are_kept_in_the_manifest_and_old_manifests_read_as_company_wide(kb, tmp_path, encoder):
    generation = kb.manifest.generation
    changed = kb.set_scopes(SCOPES)
    assert {d.name for d in changed} == set(SCOPES) and kb.manifest.generation == generation  # nothing re-encoded
    assert kb.set_scopes(SCOPES) == []  # the same scopes again: nothing changes
    manifest = json.loads((kb.folder / "manifest.json").read_text())
    scopes = {d["name"]: d["scope"] for d in manifest["documents"]}
    assert scopes["alpha.md"] == {"products": ["Alpha"], "third_party": None}
    assert scopes["aws.md"] == {"products": [], "third_party": "Amazon Web Services"}
    assert scopes["policy.md"] == {"products": [], "third_party": None}

    release(str(kb.folder / "qdrant"))
    reopened = KnowledgeBase(kb.folder, EngineConfig(), encoder)
    assert {d.name: d.scope for d in reopened.documents()} == {"policy.md": Scope(), **SCOPES}

    for d in manifest["documents"]:  # a manifest written before scopes existed
        del d["scope"]
    (kb.folder / "manifest.json").write_text(json.dumps(manifest))
    release(str(kb.folder / "qdrant"))
    old = KnowledgeBase(kb.folder, EngineConfig(), encoder)
    assert all(d.scope == Scope() and d.scope.company for d in old.documents())
    assert old.manifest.schema_version == manifest["schema_version"]

    with pytest.raises(KnowledgeBaseError, match="no document named 'nope.md'"):
        old.set_scopes({"nope.md": Scope(("Alpha",))})
    release(str(kb.folder / "qdrant"))


def test_adding_the_same_content_for_another_product_adds_the_product(kb, tmp_path):
    generation = kb.manifest.generation
    kb.set_scopes({"alpha.md": Scope(("Alpha",))})
    elsewhere = tmp_path / "Canvas Studio"
    elsewhere.mkdir()
    shutil.copy(tmp_path / "docs" / "alpha.md", elsewhere / "alpha.md")
    report = kb.add([elsewhere], scope=Scope(("Studio",)))
    assert report.unchanged == ["alpha.md"] and not report.added
    assert [(d.name, d.scope) for d in report.rescoped] == [("alpha.md", Scope(("Alpha", "Studio")))]
    assert kb.document("alpha.md").scope.products == ("Alpha", "Studio")
    assert kb.manifest.generation == generation  # a manifest change only: nothing re-encoded
    # a product scope for a company-wide document replaces it; no scope given changes nothing
    kb.add([tmp_path / "docs" / "policy.md"])
    assert kb.document("policy.md").scope.company
    kb.add([tmp_path / "docs" / "policy.md"], scope=Scope(third_party="Okta"))
    assert kb.document("policy.md").scope == Scope(third_party="Okta")
    # a changed file under the same name keeps its document's scope unless one is given
    (tmp_path / "docs" / "beta.md").write_text("# Beta\n\nBeta keeps daily backups for a year.\n", encoding="utf-8")
    kb.set_scopes({"beta.md": Scope(("Beta",))})
    report = kb.add([tmp_path / "docs" / "beta.md"])
    assert report.replaced == ["beta.md"] and kb.document("beta.md").scope == Scope(("Beta",))
    new = kb.add_file(write_docs(tmp_path / "more") / "aws.md", "aws-copy.md", scope=Scope(third_party="AWS"))
    assert new.unchanged == ["aws-copy.md (same content as aws.md)"]
    assert kb.document("aws.md").scope == Scope(third_party="AWS")


def test_scope_values_are_checked_with_the_rule_and_the_fix():
    assert Scope((" Canvas  LMS ", "Canvas LMS", "Alpha")).products == ("Alpha", "Canvas LMS")
    assert Scope.from_json(None) == Scope() and Scope.from_json(Scope(("A",)).to_json()) == Scope(("A",))
    assert Scope(("A", "B")).label == "products: A, B" and Scope(third_party="T").label == "third party: T"
    with pytest.raises(ScopeError, match="either products' .* or a third party's"):
        Scope(("A",), "T")
    with pytest.raises(ScopeError, match="is empty; give the product's name"):
        Scope(("  ",))
    with pytest.raises(ScopeError, match="one string; give a tuple"):
        Scope("Alpha")
    with pytest.raises(ScopeError, match="control characters"):
        ScopeFilter("Al\x00pha")
    with pytest.raises(ScopeError, match="more than 80"):
        Scope(third_party="x" * 81)


def test_kb_commands_set_and_show_scopes(tmp_path, encoder, monkeypatch, capsys):
    import engine.cli.common as common
    import engine.cli.main as cli

    monkeypatch.setattr(common, "open_kb", lambda args: KnowledgeBase(Path(args.store), common.config(args), encoder))
    store = str(tmp_path / "store")
    docs = write_docs(tmp_path / "docs")
    assert cli.main(["kb", "add", str(docs / "alpha.md"), "--product", "Alpha", "--store", store]) == 0
    assert "added: alpha.md (text, 1 chunks, product: Alpha)" in capsys.readouterr().out
    assert cli.main(["kb", "add", str(docs / "alpha.md"), "--product", "Studio", "--store", store]) == 0
    assert "scope: alpha.md is now products: Alpha, Studio" in capsys.readouterr().out
    assert cli.main(["kb", "add", str(docs / "aws.md"), "--third-party", "Amazon Web Services", "--store", store]) == 0
    capsys.readouterr()
    assert cli.main(["kb", "list", "--store", store]) == 0
    listed = capsys.readouterr().out
    assert "products: Alpha, Studio" in listed and "third party: Amazon Web Services" in listed
    assert cli.main(["kb", "scope", "aws.md", "--company", "--store", store]) == 0
    assert "aws.md: company-wide" in capsys.readouterr().out
    assert cli.main(["kb", "scope", "alpha.md", "--product", "Beta", "--store", store]) == 0
    assert "alpha.md: product: Beta" in capsys.readouterr().out
    assert cli.main(["kb", "list", "--json", "--store", store]) == 0
    assert {d["name"]: d["scope"] for d in json.loads(capsys.readouterr().out)} == {
        "alpha.md": {"products": ["Beta"], "third_party": None},
        "aws.md": {"products": [], "third_party": None},
    }
    assert cli.main(["search", "backups", "--product", "Alpha", "--json", "--store", store]) == 0
    assert [h["file"] for h in json.loads(capsys.readouterr().out)] == ["aws.md"]  # alpha.md is Beta's now
    assert cli.main(["kb", "scope", "nope.md", "--company", "--store", store]) == 2
    assert "no document named 'nope.md'" in capsys.readouterr().err
    assert cli.main(["kb", "scope", "aws.md", "--product", "", "--store", store]) == 2
    assert "the product name '' is empty" in capsys.readouterr().err
    release(str(Path(store) / "qdrant"))
