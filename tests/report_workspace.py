"""The shared company's workspace the report tests and the report timing read (#51): the 40 PDFs of
../shared/data/instructure indexed by folder scope (three scanned ones refused, as `kb add`
refuses them), its 10 past questionnaires in the answer library each for its folder's product,
and two of its HECVATs drafted again row by row (``redo_answered``: every row, as a new customer's
copy would be) into the review store, each for its own product, with some rows decided.

The drafts are made with the library and the documents, but the LLM is :class:`NoContext`, a
stated fake that answers "no context" to every call: the reports are what is under test, not the
model (a row the model would have drafted is a row with no source here). Drafting two HECVATs with
the real model takes half an hour on 2 cores.

``python -m tests.report_workspace DIR`` builds it in DIR (about 2 minutes on 2 quiet cores)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.drafting.generate import GeneratedAnswer

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "instructure"
COMPANY, PROVIDERS = "Instructure", ("Amazon Web Services", "Google Cloud Platform")
# (folder, file, product): the two HECVATs drafted, as new ones for products of the company
DRAFTED = (
    ("Canvas Credentials", "Canvas Credentials HECVAT Full.xlsx", "Impact"),
    ("Canvas Studio", "Canvas Studio HECVAT Lite.xlsx", "Impact"),
)
REVIEWERS = ("Ana Reviewer", "Ben Lead")
# the narratives several products answered alike (retired before drafting: see ``build``)
NARRATIVES = ("Describe your organization", "Use this area to share information about your environment")
EXPERT = "Expert Eve"
# per drafted questionnaire, of its drafted rows in order: how many accepted as drafted, edited,
# rejected, marked Needs SME; of its rows with no context: how many assigned to the expert, then
# how many written by hand (an edit)
DECISIONS = ((10, 4, 3, 2, 3, 1), (5, 2, 2, 0, 1, 1))


class NoContext:
    """A stand-in LLM that answers "no context" to every question (see the module docstring)."""

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, question, passages, choices):
        self.calls += 1
        return GeneratedAnswer((), "", None, True, 0, 0, 0.0)


def build(folder: Path) -> dict:
    """The workspace in ``folder`` (see the module docstring); what was done, as counts."""
    from engine.app.settings import Settings
    from engine.app.workspace import Workspace
    from engine.core.config import EngineConfig
    from engine.core.scopes import FolderScopes
    from engine.review.draft_run import draft_questionnaire

    folders = FolderScopes(COMPANY, PROVIDERS)
    settings = Settings(EngineConfig.from_env(summaries="extractive"))  # summaries without a model
    settings.save(folder)
    ws = Workspace(folder, settings)
    try:
        added = ws.add_files(sorted(DATA.glob("*/*.pdf")), folders=folders)
        for book in sorted(DATA.glob("*/*.xlsx")):
            if not folders.scope_of(book).third_party and "SOA" not in book.name:
                ws.library.import_file(book, product=folders.product_of(book), by="Librarian Lee")
        # the company's own narratives (#59: what several products answered alike) would answer the
        # Lite's two narratives; retired here, they stay rows no source answers, the gaps these reports show
        for e in ws.library.entries():
            if not e.choice and e.question.startswith(NARRATIVES):
                ws.library.retire(e.id, by="Librarian Lee")
        fake = NoContext()
        ws.__dict__["generator"] = fake  # the workspace's LLM is the stated fake (ws.drafter uses it)
        projects = []
        for folder_name, name, product in DRAFTED:
            path = DATA / folder_name / name
            project, questionnaire = ws.add_questionnaire(name, path.read_bytes())
            ws.set_product(project.id, product)
            draft_questionnaire(
                questionnaire,
                ws.drafter_for(project.id),
                ws.review_store,
                results=folder / f"results-{project.id}.jsonl",
                redo_answered=True,
                project_id=project.id,
                by=REVIEWERS[0],
            )
            projects.append(project.id)
        for pid, plan in zip(projects, DECISIONS):
            decide(ws, pid, *plan)
        return {"documents": len(added.added), "entries": len(ws.library.entries()), "projects": projects}
    finally:
        ws.review_store.close()
        ws.library.close()


def decide(ws, pid: int, accept: int, edit: int, reject: int, sme: int, assign: int, write: int) -> None:
    """Decide rows of questionnaire ``pid`` as :data:`DECISIONS` says, the first reviewer accepting
    and editing, the second rejecting and assigning."""
    from engine.core.types import DraftStatus
    from engine.review import team

    first, second = ws.review(pid, by=REVIEWERS[0]), ws.review(pid, by=REVIEWERS[1])
    items = first.items()
    drafted = [i for i in items if i.draft is not None and i.draft.status is DraftStatus.DRAFTED]
    empty = [i for i in items if i.draft is not None and i.draft.status is DraftStatus.NO_CONTEXT]
    it = iter(drafted)
    for item in [next(it) for _ in range(accept)]:
        first.accept(item.key, expected=item.version)
    for item in [next(it) for _ in range(edit)]:
        first.edit(item.key, f"{item.answer} Reviewed and reworded.".strip(), item.choice, expected=item.version)
    for item in [next(it) for _ in range(reject)]:
        second.reject(item.key, "not this product's practice", expected=item.version)
    for item in [next(it) for _ in range(sme)]:
        second.needs_sme(item.key, "ask the product team", expected=item.version)
    if assign:
        team.assign(second, empty[:assign], EXPERT, note="no source: please answer")
    for item in empty[assign : assign + write]:
        first.edit(item.key, "Written by hand by the reviewer: see the security overview.", None, expected=item.version)


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
