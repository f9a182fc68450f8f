"""Knowledge base screen (AppTest): add a folder of this computer with a scope per sub-folder
(#38) — the preview of each sub-folder's scope after choosing the company-wide and third-party
folders, one Add for them all through the engine (``Workspace.add_files``, the code of
``kb add --scope-folders``): a file in two product folders belongs to both, a refused file is
named and counted, a file of another type is left out and said so. Real MiniLM, Qdrant local."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.core.scopes import Scope
from tests.fixtures import write_pdf
from tests.ui.conftest import button, texts
from ui.components.messages import escape_md


def company_tree(root: Path) -> Path:
    for name, text in {
        "Acme/policy.pdf": "Employees use multi-factor authentication for every system.",
        "Alpha/alpha.pdf": "Alpha backups are kept for thirty-five days.",
        "Beta/beta.pdf": "Beta encrypts all customer data at rest with AES-256.",
        "Cloud/cloud.pdf": "Customers are notified within seventy-two hours of a breach.",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        write_pdf(root / name, [text], header=None)
    shutil.copy(write_pdf(root / "Alpha" / "shared.pdf", ["Databases are copied every hour."]), root / "Beta")
    (root / "Beta" / "empty.pdf").write_bytes(b"")  # refused
    (root / "Beta" / "notes.jsonl").write_text("{}\n", encoding="utf-8")  # not a type the knowledge base reads
    return root


def test_add_a_folder_with_a_scope_per_sub_folder(open_screen, ui_workspace, tmp_path):
    root = company_tree(tmp_path / "package")
    at = open_screen("knowledge_base")
    assert not at.exception
    at.text_input(key="kb_folder_path").input(str(tmp_path / "nowhere")).run()
    assert "is not a folder on this computer" in texts(at.error)

    at.text_input(key="kb_folder_path").input(str(root)).run()
    at.selectbox(key="kb_folder_company").select("Acme").run()
    at.multiselect(key="kb_folder_third_parties").select("Cloud").run()
    assert not at.exception
    preview = at.dataframe[0].value  # the screen's first table: the documents' comes once there are some
    assert dict(zip(preview["Folder"], preview["Scope"])) == {
        "Acme": "Company-wide",
        "Alpha": "Product: Alpha",
        "Beta": "Product: Beta",
        "Cloud": "Third party: Cloud",
    }
    assert dict(zip(preview["Folder"], preview["Files"])) == {"Acme": 1, "Alpha": 2, "Beta": 3, "Cloud": 1}
    assert "Left out: 1 file of types the knowledge base does not read (.jsonl ×1)" in texts(at.caption)

    button(at, "Add 7 files").click()
    at.run()
    assert not at.exception
    scopes = {d.name: d.scope for d in ui_workspace.documents()}
    assert scopes == {
        "policy.pdf": Scope(),
        "alpha.pdf": Scope(("Alpha",)),
        "shared.pdf": Scope(("Alpha", "Beta")),  # in both product folders: both products'
        "beta.pdf": Scope(("Beta",)),
        "cloud.pdf": Scope(third_party="Cloud"),
    }
    assert f"**{escape_md(root)}**: indexed 5 documents (5 chunks), 1 file unchanged or a copy" in texts(at.success)
    assert "Not indexed — **empty.pdf**: Is empty (0 bytes)." in texts(at.error)
    assert "1 file refused: empty.pdf." in texts(at.warning)
