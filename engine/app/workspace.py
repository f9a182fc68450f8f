"""A workspace: one folder with everything the app keeps — the knowledge base (the same
folder as the CLI's ``--store``), ``review.sqlite`` (questionnaires, drafts, decisions),
``settings.json``, the questionnaire files being reviewed and ``backups/`` (rolling snapshots of
``review.sqlite``, ``library.sqlite`` and the knowledge base's manifest, storage/snapshots.py).
The heavy objects (embedder, LLM) load on first use, once, or ahead of it in background threads
(:meth:`Workspace.warm_up`, :class:`WarmUp`); background drafting is run by :class:`DraftingJobs`.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, replace
from datetime import date
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import Callable

from engine.app.read_apart import Reading, UploadStopped, read_apart
from engine.app.read_once import ReadOnce
from engine.app.settings import Settings
from engine.app.solicitations import KeptDecisions, ShredOnce, carried, checked_edits, solicitation_of
from engine.core.accounts import Permission, acting_account, require, require_row
from engine.core.config import SummaryWriter
from engine.core.files import write_atomic
from engine.core.limits import Limits
from engine.core.scopes import FolderScopes, Scope, ScopeFilter, products_of
from engine.core.types import DocumentInfo, IngestError, Progress, Unit, no_progress
from engine.drafting.ask import CONTEXT_TOKENS, AskService
from engine.drafting.drafter import Drafter
from engine.drafting.generate import Generator, make_generator
from engine.drafting.profile_answers import ProfileAnswers
from engine.drafting.records import Draft
from engine.index.kb import AddReport, KnowledgeBase, Manifest
from engine.index.library import AnswerLibrary, LibraryStoreDamaged, has_library
from engine.index.profile import Profile, row_ids
from engine.index.summaries import Summary
from engine.ingest.upload_names import plain_upload_name
from engine.questionnaire import Questionnaire, QuestionnaireError, ReadOptions, read_questionnaire
from engine.questionnaire.formats import SUFFIXES, format_of
from engine.questionnaire.language import LanguageSetting
from engine.questionnaire.qualifiers import qualifiers_of, question_key
from engine.questionnaire.sheet.date_format import read_ahead
from engine.questionnaire.solicitation import Shredded
from engine.review.compliance_matrix import compliance_matrix_bytes, entries_from_review, response_outline_bytes
from engine.review.draft_run import DraftRun, draft_questionnaire, questionnaire_language, to_draft
from engine.review.packet import PacketRefused
from engine.review.reports import Corpus, CoverageReport, LibraryReport, corpus, coverage_report, library_report
from engine.review.review import Review
from storage import folder_lock, snapshots
from storage.review_store import Project, ReviewStore, RowVersion, Run, StoredDraft
from storage.snapshots import REVIEW_DB, BackupFailed

STOPPED = "stopped by the reviewer"  # JobStatus.error of a run the reviewer cancelled


class Workspace:
    """Everything one reviewer works on, in one folder. One instance per folder per process
    (the knowledge base's Qdrant folder admits one client)."""

    def __init__(self, folder: str | Path, settings: Settings | None = None, *, uploads_apart: bool = False) -> None:
        self.folder = Path(folder)
        # the served app's uploads (a questionnaire, a document, a packet) read in a child process within a
        # memory ceiling and a time limit first (engine/app/read_apart.py); the CLI and the tests read in-process
        self.uploads_apart = uploads_apart
        self.folder.mkdir(parents=True, exist_ok=True)
        self.settings = settings or Settings.load(self.folder)
        self._lock = threading.RLock()
        self._warm: WarmUp | None = None
        self._read = ReadOnce()  # each project's questionnaire, read once per file and read options
        self._shredded = ShredOnce()  # each project's solicitation, shredded once per file
        self.backup_problem: BackupFailed | None = None  # the last snapshot that could not be written (back_up)

    @property
    def reviewer(self) -> str:
        """The name this workspace's drafts, decisions and comments are made under: the settings'
        reviewer, else the operating-system user (engine/core/people.py); in an app served to a
        team, the signed-in account's name (engine/core/accounts.py), never the shared setting."""
        account = acting_account()
        return account.name if account is not None else self.settings.reviewer_name

    @property
    def _incoming(self) -> Path:
        """Where an upload waits while it is read (the reader needs a file)."""
        return self.folder / "questionnaires" / "incoming"

    # ---- shared heavy objects ------------------------------------------------------------------
    @cached_property
    def kb(self) -> KnowledgeBase:
        # documents added here are summarised by the drafting model (loaded when first needed;
        # extractive summaries when it cannot be loaded, or when the settings say so)
        writes = self.settings.engine.summaries is SummaryWriter.LLM
        return KnowledgeBase(self.folder, self.settings.engine, llm=(lambda: self.generator) if writes else None)

    @cached_property
    def review_store(self) -> ReviewStore:
        return ReviewStore(self.folder / REVIEW_DB)

    def back_up(self) -> BackupFailed | None:
        """Snapshots of the review store, of the answer library (when there is one and it reads
        as a whole: a damaged one is never snapshotted, the screens show it) and of the knowledge
        base's manifest in ``backups/`` (storage/snapshots.py): when the app opens the workspace,
        after each drafting run and after a library import. A damaged review store raises
        ``ReviewStoreDamaged`` here, unchanged. A snapshot that cannot be written never stops
        the work: the warning is returned and kept in ``backup_problem`` (the app shows it,
        ``draft`` prints it); None when every snapshot was taken."""
        try:
            snapshots.take_review(self.review_store)
            if has_library(self.folder):
                with contextlib.suppress(LibraryStoreDamaged):  # a damaged library is never snapshotted
                    snapshots.take_library(self.library.store)
            snapshots.take_manifest(self.folder)
        except BackupFailed as exc:
            self.backup_problem = exc
        else:
            self.backup_problem = None
        return self.backup_problem

    def hold(self, what: str) -> None:
        """Hold the folder for this process (storage/folder_lock.py), as the app does when it
        opens it: a second app, or a command that writes its stores (``restore``, ``draft``,
        ``kb add``…), is then refused naming this one. ``FolderBusy`` when another process holds it."""
        folder_lock.hold(self.folder, what)
        # uploads being read by a process that was killed: never a project, nothing to keep (only the
        # holder removes them: a reader beside the app would delete the upload the app is reading)
        shutil.rmtree(self._incoming, ignore_errors=True)

    @cached_property
    def generator(self) -> Generator:
        """One model for drafting and for asking a document (its context holds a 3,000-word part)."""
        config = self.settings.generator
        return make_generator(config.model, config.llm_url, evidence=config.evidence, n_ctx=CONTEXT_TOKENS)

    @cached_property
    def asks(self) -> AskService:
        """Asking one document of the knowledge base (engine/drafting/ask.py), with the drafting model."""
        return AskService(self.kb, lambda: self.generator)

    @cached_property
    def library(self) -> AnswerLibrary:
        """The answer library (``library.sqlite`` here), embedding with the knowledge base's
        encoder, loaded when first needed."""
        return AnswerLibrary(self.folder, lambda: self.kb.encoder, self.settings.library)

    @cached_property
    def _profile(self) -> ProfileAnswers:
        return ProfileAnswers(self.library, kb=self.kb)

    def profile(self) -> Profile:
        """The company and product profiles as drafting uses them: learned from the answer library,
        stated by the products' own documents, and set by hand (engine/index/profile.py); read
        again when one of those changes."""
        return self._profile.profile()

    @cached_property
    def drafter(self) -> Drafter:
        return Drafter(
            self.kb, self.generator, top_k=self.settings.engine.top_k, library=self.library, profile=self._profile
        )

    def drafter_for(self, project_id: int) -> Drafter:
        """The drafter for a project: for the product its questionnaire is drafted for, in its
        questionnaire's language (issue #58)."""
        drafter = self.drafter.for_product(self.review_store.project(project_id).product)
        try:
            questionnaire = self.questionnaire(project_id)
        except QuestionnaireError:  # a file that cannot be read is drafted nowhere; its own error says why
            return drafter
        languages = questionnaire_language(questionnaire, self.review_store.options(project_id))
        return drafter.for_language(languages) if languages.translates else drafter

    def language(self, project_id: int) -> LanguageSetting:
        """The responder's setting of a questionnaire's language (none: as detected, answers in it)."""
        return LanguageSetting.from_json(self.review_store.options(project_id).get("language"))

    def set_language(self, project_id: int, setting: LanguageSetting) -> None:
        """Keep the responder's correction of a questionnaire's language and the answers' language,
        with the questionnaire's other corrections (the next drafts follow it)."""
        require(Permission.QUESTIONNAIRE)
        stored = self.review_store.options(project_id)
        self.review_store.set_options(project_id, {**stored, "language": setting.to_json()})

    @cached_property
    def jobs(self) -> DraftingJobs:
        return DraftingJobs(self)

    def warm_up(self) -> WarmUp:
        """Start loading the embedder and the LLM of the current settings in background threads
        (once; again after :meth:`apply_settings`) and return at once: the app's first page does
        not wait for them, and the first draft does not pay for loading them."""
        with self._lock:
            if self._warm is None:
                self._warm = WarmUp(self).start()
            return self._warm

    @property
    def warming(self) -> WarmUp | None:
        """The warm-up of the current settings, if one was started."""
        return self._warm

    def apply_settings(self, settings: Settings) -> None:
        """Save new settings; the knowledge base and drafter (and the generator, when its
        settings changed) are rebuilt with them on next use, or by the next :meth:`warm_up`. A
        new embedder or α needs a re-index of the stored documents (``kb.reindex``). A new
        reviewer's name alone is saved at once (nothing to reload, drafting may run on)."""
        require(Permission.SETTINGS)
        if replace(settings, reviewer=self.settings.reviewer) == self.settings:
            with self._lock:
                settings.save(self.folder)
                self.settings = settings
            return
        if self._warm is not None:  # a warm-up still loading the old models would keep them after the swap
            self._warm.wait()
        with self._lock:
            if any(self.jobs.running(p.id) for p in self.projects()):
                raise RuntimeError("drafting is running; stop it (or let it finish) before changing the settings")
            settings.save(self.folder)
            new_generator = settings.generator != self.settings.generator
            self.settings = settings
            for name in ("kb", "drafter", "library", "asks") + (("generator",) if new_generator else ()):
                self.__dict__.pop(name, None)
            self._warm = None

    # ---- the knowledge base, as the screens use it ----------------------------------------------
    def open_knowledge_base(self) -> None:
        """Open the knowledge base now (its manifest read, its Qdrant folder locked), so that a
        damaged one raises ``StoreDamaged`` here, once, and not first inside a screen."""
        _ = self.kb

    def documents(self) -> list[DocumentInfo]:
        """The documents in the knowledge base, in the order they were added."""
        return self.kb.documents()

    def products(self) -> list[str]:
        """The products this workspace knows, sorted: those the documents' scopes name and those
        the answer library's past answers were given for (read from its file, no model loaded);
        a damaged library adds none (the Knowledge base screen says why)."""
        names = set(products_of(self.documents()))
        if has_library(self.folder):
            with contextlib.suppress(LibraryStoreDamaged):
                names |= {e.product for e in self.library.entries() if e.product}
        return sorted(names)

    def document_hash(self, name: str) -> str:
        """The content hash of the stored version of document ``name`` (KnowledgeBaseError: none)."""
        return self.kb.document(name).doc_hash

    def document_units(self, name: str) -> list[Unit]:
        """The units (pages, rows, sections) of document ``name`` as it was read when added."""
        return self.kb.units(name)

    def source_path(self, name: str) -> Path:
        """The stored copy of document ``name``, as it was added (KnowledgeBaseError: missing)."""
        return self.kb.source_path(name)

    def index_manifest(self) -> Manifest:
        """What the knowledge base's index was built with (embedder, α) and holds (documents)."""
        return self.kb.manifest

    def add_document(
        self, path: Path, name: str, progress: Progress = no_progress, scope: Scope | None = None
    ) -> AddReport:
        """Index one file under an outside name (an upload's file name): see ``KnowledgeBase.add_file``."""
        require(Permission.KNOWLEDGE_BASE)
        if self.uploads_apart:  # read apart first, within a memory ceiling and a time limit: refused there, kept out
            try:
                read_apart(name, "engine.app.read_apart:vet_document", path, name)
            except IngestError as exc:
                return AddReport(errors=[exc])
        return self.kb.add_file(path, name, progress, scope=scope)

    def vet_packet(self, path: Path) -> None:
        """An uploaded packet's workbook opened apart from the server within the workbook limits,
        a memory ceiling and a time limit (engine/app/read_apart.py) before it is read for good;
        PacketRefused (one line) otherwise. Nothing outside the served app."""
        if not self.uploads_apart:
            return
        try:
            read_apart(path.name, "engine.review.packet:check_packet_file", path)
        except UploadStopped as exc:
            raise PacketRefused(path, [exc.problem], exc.fix) from None

    def add_files(
        self, paths: list[Path], progress: Progress = no_progress, folders: FolderScopes | None = None
    ) -> AddReport:
        """Index files and folders of this computer in one go: see ``KnowledgeBase.add``; with
        ``folders`` each file's scope from its folder's name (``kb add --scope-folders``)."""
        require(Permission.KNOWLEDGE_BASE)
        return self.kb.add(paths, progress, folders=folders)

    def set_scopes(self, scopes: dict[str, Scope]) -> list[DocumentInfo]:
        """Give documents (by name) a new scope; returns the documents that changed."""
        require(Permission.KNOWLEDGE_BASE)
        return self.kb.set_scopes(scopes)

    def remove_document(self, name: str, progress: Progress = no_progress) -> DocumentInfo:
        """Remove document ``name`` from the knowledge base (its index rebuilt without it)."""
        require(Permission.KNOWLEDGE_BASE)
        return self.kb.remove(name, progress)

    def reindex(self, progress: Progress = no_progress) -> None:
        """Rebuild the index from the stored files with the current settings' embedder and α."""
        require(Permission.KNOWLEDGE_BASE)
        self.kb.reindex(progress)

    def summary(self, name: str) -> Summary:
        """The summary of document ``name``, as retrieval uses it."""
        return self.kb.indexes.summary(name)

    def edit_summary(self, name: str, text: str) -> Summary:
        """Replace the summary of document ``name`` by the reviewer's text (re-embedded at once)."""
        require(Permission.KNOWLEDGE_BASE)
        return self.kb.indexes.edit_summary(name, text)

    # ---- the review store's records, as the screens read them -----------------------------------
    def project(self, project_id: int) -> Project:
        """One project (a questionnaire being reviewed); ReviewStoreError when there is none."""
        return self.review_store.project(project_id)

    def run(self, run_id: int) -> Run:
        """One drafting run, as recorded."""
        return self.review_store.run(run_id)

    def runs(self, project_id: int) -> list[Run]:
        """The project's drafting runs, oldest first."""
        return self.review_store.runs(project_id)

    def latest_drafts(self, project_id: int) -> dict[str, StoredDraft]:
        """The newest stored draft of each question of the project, by question key."""
        return self.review_store.latest_drafts(project_id)

    # ---- questionnaires ------------------------------------------------------------------------
    def add_questionnaire(
        self, name: str, data: bytes, options: ReadOptions = ReadOptions(), reading: Reading | None = None
    ) -> tuple[Project, Questionnaire]:
        """Keep an uploaded questionnaire as a project (the same bytes → the same project) and
        read it; a file that cannot be read raises QuestionnaireError and keeps nothing. ``name``
        is kept as a plain file name (:func:`~engine.ingest.upload_names.plain_upload_name`:
        no folders, drive letters or control characters, capped in length); a name with
        nothing usable left raises IngestError. ``reading``: a solicitation's shred reports its pages
        there and is stopped by it (engine/app/read_apart.py); stopped, the pages read are kept as
        the project's rows, ``ReadOptions.pages`` saying where it stopped."""
        require(Permission.QUESTIONNAIRE)
        name = plain_upload_name(name).name
        suffix = Path(name).suffix.lower()
        if suffix not in SUFFIXES:
            raise QuestionnaireError(
                name,
                f"a {suffix or 'file without extension'} is not a questionnaire",
                f"upload the questionnaire as {', '.join(SUFFIXES)}",
            )
        if not data:
            raise QuestionnaireError(name, "the file is empty (0 bytes)", "upload the questionnaire file again")
        self._incoming.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=self._incoming)) / name  # one folder per upload, removed whatever happens
        try:
            staging.write_bytes(data)
            if self.uploads_apart:  # apart from the server, within a memory ceiling and a time limit
                staged = replace(
                    read_apart(
                        name,
                        "engine.questionnaire.formats:read_questionnaire",
                        staging,
                        reading=reading,
                        **options.to_json(),
                    ),
                    path=staging,
                )
            else:  # refused here (limits first): nothing is kept
                staged = read_questionnaire(staging, progress=reading and reading.progress, **options.to_json())
            if reading is not None and reading.stopped_at is not None:  # the pages read are the rows, for now
                options = replace(options, pages=reading.stopped_at)
            project = self.review_store.project_for(staging, Path(name).stem)
        finally:
            shutil.rmtree(staging.parent, ignore_errors=True)
        kept = self.review_store.options(project.id)  # the same file again: its other options (approval) stay
        self.review_store.set_options(project.id, {**kept, "read": options.to_json()})
        path = self.questionnaire_path(project)
        # the project's file holds the bytes just read: not read again, unless the project keeps them under
        # another name (the same file uploaded again, renamed), as a CSV's sheet is named after its file
        same = path.name == name
        questionnaire = replace(staged, path=path) if same else read_questionnaire(path, **options.to_json())
        self.review_store.set_questions(project.id, [(question_key(q), asdict(q)) for q in questionnaire.questions])
        self._read.keep(project.id, path, options, questionnaire)
        return project, questionnaire

    def read_rest(self, project_id: int, reading: Reading | None = None) -> tuple[Project, Questionnaire]:
        """A solicitation whose upload's shred was stopped (``ReadOptions.pages``) read again whole,
        as its upload was (apart, within the same limits; ``reading`` as for
        :meth:`add_questionnaire`, so it may be stopped again, further on)."""
        project = self.review_store.project(project_id)
        data = self.review_store.source_bytes(project_id)
        return self.add_questionnaire(
            project.file_name, data, replace(self.read_options(project_id), pages=None), reading
        )

    def set_read_options(self, project_id: int, options: ReadOptions) -> Questionnaire:
        """Re-read a project's questionnaire with other overrides (validated before saving)."""
        require(Permission.QUESTIONNAIRE)
        path = self.questionnaire_path(self.review_store.project(project_id))
        questionnaire = read_questionnaire(path, **options.to_json())
        stored = self.review_store.options(project_id)
        self.review_store.set_options(project_id, {**stored, "read": options.to_json()})
        self.review_store.set_questions(project_id, [(question_key(q), asdict(q)) for q in questionnaire.questions])
        self._read.keep(project_id, path, options, questionnaire)
        return questionnaire

    def set_product(self, project_id: int, product: str | None) -> Project:
        """Draft the project's questionnaire for ``product`` (None: company-wide); refused while
        it is being drafted."""
        require(Permission.QUESTIONNAIRE)
        product = ScopeFilter(product).product  # a bad name is refused here (ScopeError)
        if self.jobs.running(project_id):
            raise RuntimeError("drafting is running; stop it (or let it finish) before changing the product")
        return self.review_store.set_product(project_id, product)

    def document_paragraphs(self, project_id: int) -> list[tuple[int, str]]:
        """A document questionnaire's paragraphs with text (number, words): the ones a reviewer can
        add as questions; empty for a spreadsheet."""
        path = self.questionnaire_path(self.review_store.project(project_id))
        questionnaire_format = format_of(path)
        if questionnaire_format is None or questionnaire_format.paragraphs is None:
            return []
        return questionnaire_format.paragraphs(path, Limits.from_env())

    def read_options(self, project_id: int) -> ReadOptions:
        return ReadOptions.from_json(self.review_store.options(project_id).get("read", {}))

    def questionnaire_path(self, project: Project) -> Path:
        """The project's questionnaire file, written back from the review store when missing."""
        path = self.folder / "questionnaires" / str(project.id) / project.file_name
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, self.review_store.source_bytes(project.id))
        return path

    def questionnaire(self, project_id: int) -> Questionnaire:
        """The project's questionnaire, read once per file and read options (engine/app/read_once.py)."""
        project = self.review_store.project(project_id)
        return self._read.read(project_id, self.questionnaire_path(project), self.read_options(project_id))

    def questionnaire_read(self, project_id: int) -> bool:
        """Whether :meth:`questionnaire` answers without reading the file (a screen's spinner)."""
        project = self.review_store.project(project_id)
        return self._read.holds(project_id, self.questionnaire_path(project), self.read_options(project_id))

    def review(self, project_id: int, questionnaire: Questionnaire | None = None, by: str | None = None) -> Review:
        """The project's review (answers the reviewer approves go to the answer library; while
        the library is damaged, to the review store only, and ``Review.library_problem`` says
        why); ``questionnaire``: the project's file already read (the UI caches it); ``by``: whose
        decisions they are (None: :attr:`reviewer`)."""
        try:
            library, damaged = self.library, None
        except LibraryStoreDamaged as exc:
            library, damaged = None, exc
        questionnaire = questionnaire or self.questionnaire(project_id)
        return Review(
            self.review_store, project_id, questionnaire, library, library_problem=damaged, by=by or self.reviewer
        )

    def projects(self) -> list[Project]:
        return self.review_store.projects()

    # ---- solicitations (#57: engine/questionnaire/solicitation/) --------------------------------
    def solicitation(self, project_id: int, questionnaire: Questionnaire | None = None) -> Shredded | None:
        """The project's solicitation (key facts, requirements) with the reviewer's corrections
        (left out, kinds changed), or None when its file is a questionnaire; shredded once per file."""
        questionnaire = questionnaire or self.questionnaire(project_id)
        return solicitation_of(project_id, questionnaire, self.read_options(project_id), self._shredded)

    def set_solicitation_edits(self, project_id: int, options: ReadOptions) -> Questionnaire:
        """Keep ``options`` with the project's solicitation (as :meth:`set_read_options`), once its
        sentences added and its requirements split and merged are checked against the file: an
        edit that does not fit is refused in one line naming the file, the problem and the fix
        (QuestionnaireError), and nothing is kept."""
        require(Permission.QUESTIONNAIRE)
        path = self.questionnaire_path(self.review_store.project(project_id))
        checked_edits(project_id, path, options, self._shredded)
        return self.set_read_options(project_id, options)

    def keep_decisions(self, project_id: int, previous_id: int) -> KeptDecisions:
        """The project's solicitation amends project ``previous_id``'s: the reviewer's latest
        decision on each requirement the amendment leaves unchanged (by quote, wherever it moved)
        is recorded on the same requirement here, with its answer and choice and a note naming
        where it came from; rows already decided here, and changed, added or removed requirements,
        are left alone. Raises ValueError when either project is not a solicitation."""
        require(Permission.QUESTIONNAIRE)
        sides = []
        for pid in (previous_id, project_id):
            questionnaire = self.questionnaire(pid)
            shredded = self.solicitation(pid, questionnaire)
            if shredded is None:
                raise ValueError(
                    f"{questionnaire.path.name} is a questionnaire, not a solicitation: it has no requirements"
                )
            decisions = self.review_store.latest_decisions(pid)
            sides.append((shredded, {q.id: question_key(q) for q in questionnaire.questions}, decisions))
        (before, old_keys, old_decisions), (after, new_keys, new_decisions) = sides
        decided = {rid: key for rid, key in old_keys.items() if key in old_decisions}
        undecided = {rid: key for rid, key in new_keys.items() if key not in new_decisions}
        result = carried(before, after, decided, undecided)
        previous = self.review_store.project(previous_id).file_name
        with self.review_store.batch():
            for row in result.kept:
                d = old_decisions[decided[row.old_id]]
                note = f"kept from {previous} {row.old_id}: unchanged in this version" + (
                    f" ({d.note})" if d.note else ""
                )
                self.review_store.decide(project_id, row.key, d.action, d.answer, d.choice, note, by=d.by)
        return result

    def compliance_matrix(
        self, project_id: int, review: Review | None = None, include_unreviewed: bool = False
    ) -> bytes:
        """The project's compliance matrix (XLSX: engine/review/compliance_matrix.py), filled with
        the review's answers: accepted and edited ones (and unreviewed drafts with
        ``include_unreviewed``), every row's state and assignee; a questionnaire has none (ValueError)."""
        return compliance_matrix_bytes(*self._answered_solicitation(project_id, review, include_unreviewed))

    def response_outline(
        self, project_id: int, review: Review | None = None, include_unreviewed: bool = False
    ) -> bytes:
        """The project's response outline (DOCX), with the same answers as :meth:`compliance_matrix`."""
        return response_outline_bytes(*self._answered_solicitation(project_id, review, include_unreviewed))

    def _answered_solicitation(
        self, project_id: int, review: Review | None, include_unreviewed: bool
    ) -> tuple[Shredded, dict]:
        require(Permission.EXPORT)
        review = review or self.review(project_id)
        shredded = self.solicitation(project_id, review.questionnaire)
        if shredded is None:
            raise ValueError(
                f"{review.questionnaire.path.name} is a questionnaire, not a solicitation: it has no compliance matrix"
            )
        return shredded, entries_from_review(shredded, review.items(), include_unreviewed)

    # ---- reports (#51: engine/review/reports/) ---------------------------------------------------
    def corpus(self, read: Callable[[int], Questionnaire] | None = None) -> Corpus:
        """Every questionnaire of the workspace as the reports read it: its rows (through its
        :meth:`review`, so as the Review screen shows them), the answer library's entries by place
        (none while it is damaged) and every decision's time. ``read``: a project's questionnaire
        already read (the app caches them; default :meth:`questionnaire`). A questionnaire that
        cannot be read is left out, named in ``Corpus.skipped`` with why."""
        read = read or self.questionnaire
        entries = {}
        if has_library(self.folder):
            with contextlib.suppress(LibraryStoreDamaged):
                entries = self.library.by_place()
        reviews, skipped = [], []
        for project in self.projects():
            try:
                reviews.append((project, self.review(project.id, read(project.id)).items()))
            except (QuestionnaireError, OSError) as exc:
                skipped.append(f"{project.name}: {exc}")
        found = corpus(reviews, entries, self.review_store.all_decisions())
        return replace(found, skipped=tuple(skipped))

    def coverage_report(self, project_id: int, read: Callable[[int], Questionnaire] | None = None) -> CoverageReport:
        """The coverage report of questionnaire ``project_id`` (engine/review/reports/coverage.py)."""
        return coverage_report(project_id, self.corpus(read))

    def library_report(self, today: date | None = None, library: AnswerLibrary | None = None) -> LibraryReport:
        """The answer library's health (engine/review/reports/library_report.py), its entries' uses
        read from the newest drafts of every questionnaire; ``LibraryStoreDamaged`` while it is
        damaged. ``library``: this folder's library opened with an encoder of its own (the CLI's:
        it runs beside the app, which holds the knowledge base); default :attr:`library`."""
        drafts = [(p, self.review_store.latest_drafts(p.id)) for p in self.projects()]
        return library_report(library or self.library, drafts, today)

    def set_retired_products(self, products: list[str], by: str | None = None) -> Settings:
        """Name the products the company no longer sells (the library report lists their entries);
        saved in the workspace's settings, and each product named or taken off recorded in the
        answer library's history with who (``by``; None: :attr:`reviewer`) and when. A damaged
        library raises before anything is saved."""
        require(Permission.LIBRARY)
        before = self.settings.library.retired_products
        settings = self.settings.changed(retired_products=tuple(products))  # a bad name: SettingsError, nothing saved
        recorded = has_library(self.folder)
        if recorded:
            _ = self.library  # LibraryStoreDamaged here, before the settings change
        self.apply_settings(settings)
        after = self.settings.library.retired_products
        if recorded:
            self.library.note_retired_products(
                [p for p in after if p not in before], [p for p in before if p not in after], by or self.reviewer
            )
        return self.settings

    def draft_file(
        self,
        questionnaire: Questionnaire,
        *,
        product: str | None = None,
        results: Path | None = None,
        out: Path | None = None,
        limit: int | None = None,
        redo_answered: bool = False,
        progress: Progress = no_progress,
        by: str | None = None,
        language: LanguageSetting | None = None,
    ) -> DraftRun:
        """Draft a questionnaire read from its own file, in the foreground (``python -m engine draft``),
        for ``by`` (None: :attr:`reviewer`):
        its project is the file's bytes, so the same file again continues where a run stopped; the
        drafts go to the review store, ``results`` (results.jsonl) and ``out`` (the completed
        workbook). This workspace's objects draft it: the knowledge base, the answer library when
        the folder has one (none is created), the model warmed up while the embedder loads
        (:class:`WarmUp`), and a snapshot is taken after the run, as after the app's runs. Refused
        before a model loads: a damaged review store or answer library, then a store with no
        documents and no past answers. A snapshot that cannot be written afterwards is kept in
        ``backup_problem`` (a warning: the drafts and ``out`` are written). ``language``: the
        responder's setting of the questionnaire's language, kept with it (None: as kept, else detected)."""
        review = self.review_store
        if language is not None:
            project = review.project_for(questionnaire.path)
            review.set_options(project.id, {**review.options(project.id), "language": language.to_json()})
        library = self.library if has_library(self.folder) else None  # a damaged one raises LibraryStoreDamaged
        if library is None or not library.entries():
            self.kb.index  # an empty store fails here
        self.warm_up().wait()
        drafter = Drafter(self.kb, self.generator, top_k=self.settings.engine.top_k, library=library, product=product)
        try:
            return draft_questionnaire(
                questionnaire,
                drafter,
                review,
                results=results,
                out=out,
                limit=limit,
                redo_answered=redo_answered,
                progress=progress,
                by=by or self.reviewer,
            )
        finally:
            self.back_up()

    def regenerate(self, project_id: int, key: str, expected: RowVersion | None = None, by: str | None = None) -> Draft:
        """Draft one question again (the newest draft wins; the old one stays in the history),
        for ``by`` (None: :attr:`reviewer`). ``expected``: the version of the row the reviewer
        saw (the app and the CLI pass it); a row that changed since is refused with
        ``RowChanged``, before the model drafts and again when the new draft is stored (no lost
        update: storage/review_store.py)."""
        require(Permission.DECIDE)
        require_row(lambda: getattr(self.review_store.assignments(project_id).get((project_id, key)), "to", None))
        if expected is not None:
            self.review_store.check(project_id, key, expected)
        questionnaire = self.questionnaire(project_id)
        question = next((q for q in questionnaire.questions if question_key(q) == key), None)
        if question is None:
            raise KeyError(f"no question {key} in {questionnaire.path.name}")
        qualifier = next((qual for qual in qualifiers_of(questionnaire) if qual.key == key), None)
        draft = self.drafter_for(project_id).draft(
            question, row_ids(questionnaire.questions), questionnaire.path, qualifier
        )
        self.review_store.add_draft(project_id, draft.stored(), expected=expected, by=by or self.reviewer)
        return draft


class WarmState(str, Enum):
    LOADING = "loading"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True)
class WarmStep:
    """One heavy object being loaded ahead of use: ``what`` names it (embedder or model);
    ``error`` is the loader's one-line message (file or name, problem, fix) when it failed."""

    name: str  # "embedder" or "model"
    what: str
    state: WarmState = WarmState.LOADING
    seconds: float | None = None
    error: str | None = None


class WarmUp:
    """Loads a workspace's heavy objects in background threads, one per object, so that they
    load side by side: the embedder (``ws.kb.encoder``: importing sentence-transformers and the
    model, ≈ 11 s on 2 cores, then one query, so the first real one does not pay torch's first
    call) and the llama.cpp model (``ws.generator``: the GGUF checked and mapped; an LLM server
    has nothing to load here); beside them, what the first screens read (:meth:`_reads`). They
    are the workspace's own objects, built through its cached properties, so nothing is loaded
    twice: a drafting run that asks for one while it loads waits for it (Python 3.11's
    ``cached_property`` builds under a lock) and then uses it.

    The threads hold no lock of the workspace, the review store or the knowledge base while the
    models load, so every screen can be drawn meanwhile. A failure (a missing or damaged model
    file) is kept as the step's one-line error for the screens to show; the object is built
    again, and fails the same way, when drafting asks for it."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.steps: dict[str, WarmStep] = {"embedder": WarmStep("embedder", ws.settings.engine.embedder)}
        if not ws.settings.generator.llm_url:
            self.steps["model"] = WarmStep("model", ws.settings.generator.label)
        self._threads: list[threading.Thread] = []

    def start(self) -> WarmUp:
        loaders = {"embedder": self._embedder, "model": self._model}
        threads = [
            threading.Thread(target=self._run, args=(name, loaders[name]), daemon=True, name=f"warm-up-{name}")
            for name in self.steps
        ]
        threads.append(threading.Thread(target=self._reads, daemon=True, name="warm-up-reads"))
        for thread in threads:
            self._threads.append(thread)
            thread.start()
        return self

    @property
    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for every step to end; False when ``timeout`` seconds passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not self.running

    def failed(self) -> list[WarmStep]:
        return [s for s in self.steps.values() if s.state is WarmState.FAILED]

    def _run(self, name: str, load) -> None:
        started = time.perf_counter()
        try:
            load()
        except Exception as exc:  # kept for the screens; drafting meets the same error when it asks
            self.steps[name] = replace(
                self.steps[name],
                state=WarmState.FAILED,
                error=str(exc) or type(exc).__name__,
                seconds=time.perf_counter() - started,
            )
            return
        self.steps[name] = replace(self.steps[name], state=WarmState.READY, seconds=time.perf_counter() - started)

    def _embedder(self) -> None:
        kb = self.ws.kb
        kb.encoder.encode_query("Is customer data encrypted at rest?")
        if kb.documents():  # the retrieval index's term statistics, read from the store once
            _ = kb.sparse, kb.lexical

    def _reads(self) -> None:
        """Not a step (nothing to show while it runs, nothing that fails: a questionnaire or a library
        that cannot be read is said by the screen that opens it): what the screens and the reports
        read first, read here once so that no first screen waits for it — every questionnaire of
        the workspace, newest first (the one the screens open first; the coverage report reads
        them all): its file into the cache, its qualifiers (its formulas: the workbook read again)
        and its date formats (the Export screen's completed workbook), ≈ 5 s for a HECVAT Full on 2
        busy cores; then the answer library's near-identical questions (its conflicts and
        duplicates: the Knowledge base screen's lists and the library report)."""
        ws = self.ws
        with contextlib.suppress(Exception):  # a damaged review store: each screen says so
            for project in reversed(ws.projects()):
                with contextlib.suppress(Exception):
                    questionnaire = ws.questionnaire(project.id)
                    qualifiers_of(questionnaire)  # kept on the questionnaire
                    read_ahead(questionnaire.path)
        if has_library(ws.folder):
            with contextlib.suppress(Exception):  # a damaged library: the Knowledge base screen says so
                ws.library.conflicts()
                ws.library.duplicates()

    def _model(self) -> None:
        generator = self.ws.generator
        warm = getattr(generator, "warm_up", None)  # the system prompt evaluated once: the first question skips it
        if warm is not None:
            warm()


@dataclass(frozen=True)
class JobStatus:
    """A drafting run as the UI shows it."""

    project_id: int
    run_id: int
    done: int
    total: int
    running: bool
    started: float  # time.time() when this process started (or resumed) it
    rate: float | None  # questions per second in this process, once one finished
    error: str | None = None
    not_required: int = 0  # of ``total``, switched off by a qualifier (known when the run has finished)
    stage: str = "drafting"  # "explaining": every row is drafted; the model writes the explanations (draft_run.py)

    @property
    def eta_s(self) -> float | None:
        if not self.running or not self.rate:
            return None
        return max(self.total - self.done, 0) / self.rate

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    @property
    def doing(self) -> str:
        """What the run is doing, as the screens say it ("Drafting: 12 of 255 questions")."""
        if self.stage == "explaining":
            return f"Every question is drafted; the model writes explanations: {self.done} of {self.total}"
        return f"Drafting: {self.done} of {self.total} question{'' if self.total == 1 else 's'}"


class _Cancelled(Exception):
    pass


class DraftingJobs:
    """Drafting in background threads, one run at a time per project, so the app stays usable.
    Each run is recorded in the review store before it starts and marked finished at its end;
    :meth:`resume` restarts the unfinished ones after an app restart (drafts already stored
    are kept, so nothing is done twice)."""

    def __init__(self, workspace: Workspace) -> None:
        self.ws = workspace
        self._lock = threading.Lock()
        self._threads: dict[int, threading.Thread] = {}
        self._status: dict[int, JobStatus] = {}
        self._cancel: dict[int, threading.Event] = {}

    def start(
        self, project_id: int, *, limit: int | None = None, redo_answered: bool = False, by: str | None = None
    ) -> JobStatus:
        """Draft the project in the background for ``by`` (None: the workspace's reviewer), whose
        name the run and its drafts carry."""
        require(Permission.QUESTIONNAIRE)
        with self._lock:
            if self._alive(project_id):
                return self._status[project_id]
        options = {"limit": limit, "redo_answered": redo_answered}
        run = self.ws.review_store.start_run(project_id, options, by=by or self.ws.reviewer)
        return self._launch(run)

    def resume(self) -> list[JobStatus]:
        """Restart every run that an earlier process left unfinished."""
        started = []
        for run in self.ws.review_store.runs(unfinished=True):
            with self._lock:
                if self._alive(run.project_id):
                    continue
            started.append(self._launch(run))
        return started

    def cancel(self, project_id: int) -> None:
        """Stop after the question being drafted; the run is marked finished (stopped)."""
        event = self._cancel.get(project_id)
        if event is not None:
            event.set()

    def status(self, project_id: int) -> JobStatus | None:
        return self._status.get(project_id)

    def running(self, project_id: int) -> bool:
        with self._lock:
            return self._alive(project_id)

    def wait(self, project_id: int, timeout: float | None = None) -> JobStatus | None:
        thread = self._threads.get(project_id)
        if thread is not None:
            thread.join(timeout)
        return self.status(project_id)

    def _alive(self, project_id: int) -> bool:
        thread = self._threads.get(project_id)
        return thread is not None and thread.is_alive()

    def _launch(self, run: Run) -> JobStatus:
        questionnaire = self.ws.questionnaire(run.project_id)
        limit, redo = run.options.get("limit"), bool(run.options.get("redo_answered"))
        total = len(to_draft(questionnaire, redo, limit)[0])
        status = JobStatus(run.project_id, run.id, 0, total, True, time.time(), None)
        cancel = threading.Event()
        with self._lock:
            self._status[run.project_id], self._cancel[run.project_id] = status, cancel
            thread = threading.Thread(
                target=self._work, args=(run, questionnaire, cancel), daemon=True, name=f"drafting-{run.project_id}"
            )
            self._threads[run.project_id] = thread
        thread.start()
        return status

    def _work(self, run: Run, questionnaire: Questionnaire, cancel: threading.Event) -> None:
        first: dict[str, tuple[int, float]] = {}  # per stage: done when this process reached it, and when

        def progress(stage: str, done: int, total: int) -> None:
            st = self._status[run.project_id]
            began = first.setdefault(stage, (done, time.time() if stage != "drafting" else st.started))
            elapsed, new = time.time() - began[1], done - began[0]
            rate = new / elapsed if new and elapsed > 0 else None
            self._status[run.project_id] = JobStatus(
                run.project_id, run.id, done, total, True, st.started, rate, stage=stage
            )
            if cancel.is_set():
                raise _Cancelled()

        error, not_required = None, 0
        try:
            not_required = draft_questionnaire(
                questionnaire,
                self.ws.drafter_for(run.project_id),
                self.ws.review_store,
                project_id=run.project_id,
                limit=run.options.get("limit"),
                redo_answered=bool(run.options.get("redo_answered")),
                progress=progress,
                by=run.by,
            ).not_required
        except _Cancelled:
            error = STOPPED
        except Exception as exc:  # the run ends; finished drafts are stored; the UI shows why
            error = f"{type(exc).__name__}: {exc}"
        try:
            self.ws.review_store.finish_run(run.id, error)
        except Exception as exc:  # a store replaced on disk (StoreReplaced) or gone: the status still ends
            error = f"{error + '; ' if error else ''}{exc}"
        try:
            self.ws.back_up()  # a snapshot after each drafting run
        except Exception as exc:  # the drafts are stored; the screen says the snapshot failed
            error = (
                f"{error + '; ' if error else ''}the snapshot of the review store failed ({type(exc).__name__}: {exc})"
            )
        st = self._status[run.project_id]
        self._status[run.project_id] = JobStatus(
            run.project_id, run.id, st.done, st.total, False, st.started, st.rate, error, not_required, st.stage
        )
