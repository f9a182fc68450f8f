"""Naming a questionnaire and a row on the command line (``review``, ``review packet-…``): a
questionnaire by its file (the same bytes as the project's), its project id or its name; a row by
its question ID (``ENC-01``), key (``Sheet1!B5``) or label."""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from engine.app.workspace import Workspace
from engine.cli.common import DEFAULT_STORE
from engine.core.types import FileProblem
from engine.review.review import ReviewItem
from storage.review_store import Project


def questionnaire_args(p: argparse.ArgumentParser) -> None:
    """A command's questionnaire (by file, id or name) and its workspace folder."""
    p.add_argument("project", metavar="QUESTIONNAIRE", help="the questionnaire file, or its project id or name")
    p.add_argument("--store", default=str(DEFAULT_STORE), help="the workspace folder (the app's; default: ./store)")


def find_project(ws: Workspace, named: str) -> Project:
    """The project of a questionnaire file (the same bytes), of an id, or of a name or file name."""
    projects = ws.projects()
    path = Path(named)
    if path.is_file():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        found = [p for p in projects if p.file_sha256 == digest]
    elif named.isdigit():
        found = [p for p in projects if p.id == int(named)]
    else:
        found = [p for p in projects if named in (p.name, p.file_name)]
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{p.id}: {p.name} ({p.file_name})" for p in projects) or "none yet"
    if found:
        raise FileProblem(named, f"{len(found)} questionnaires match it", f"Name one by its id ({listed})")
    raise FileProblem(
        named,
        f"no questionnaire of the review store {ws.review_store.path} is this one",
        f"Name one of them by id or name ({listed}); a new questionnaire is drafted with "
        "`python -m engine draft` or uploaded in the app first",
    )


def find_row(items: list[ReviewItem], named: str, project: Project) -> ReviewItem:
    """The row named by its key, question ID or label (``Sheet1 row 5``)."""
    found = [i for i in items if i.key == named] or [i for i in items if named in (i.question.id, i.label)]
    if len(found) == 1:
        return found[0]
    if found:
        keys = ", ".join(i.key for i in found)
        raise FileProblem(project.file_name, f"{len(found)} rows are {named}", f"Name one by its key ({keys})")
    raise FileProblem(
        project.file_name,
        f"no row {named}",
        f"Name a row by its question ID or key as `python -m engine review show {project.id}` lists them",
    )


# ---- team work: assign, my questions, comments, history, restore ----------------------------------
