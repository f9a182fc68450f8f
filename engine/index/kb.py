"""The knowledge base: documents in a store folder, indexed for hybrid retrieval.

Store layout (plain files are the source of truth; the Qdrant collection is derived from them
and can be rebuilt at any time)::

    STORE/manifest.json           documents, embedder, α, current generation (atomic writes)
    STORE/docs/HASH/source.EXT    a copy of the file as added
    STORE/docs/HASH/units.jsonl   pages / sections / rows with provenance
    STORE/docs/HASH/chunks.jsonl  chunks with offsets
    STORE/docs/HASH/dense-E.npy   the chunks' dense vectors, one file per embedder E
    STORE/sparse/gN/              TF-IDF/SVD + BM25 model and BM25 matrix of generation N
    STORE/summaries/HASH.json     each document's summary (+ its vector), engine/index/kb_indexes.py
    STORE/docs/HASH/atoms.json    atoms and atom questions per chunk, when the store's index_modes ask
    STORE/qdrant/                 Qdrant local mode (collection kb_gN), unless QDRANT_URL is set
    STORE/backups/manifest-T.json the last manifests written (storage/snapshots.py)

A manifest that does not read raises :class:`ManifestDamaged` (restore a snapshot), a Qdrant
folder that does not read ``storage.vector_store.IndexDamaged`` (``kb reindex`` builds it again
from the files above); neither is changed.

Every change (add, replace, remove) builds generation N+1 beside N: refit the TF-IDF model
on the new corpus, write every point's vectors into a new collection, then switch the
manifest in one atomic rename and drop generation N. A crash at any point leaves the
previous generation whole and queryable; leftovers are removed on the next open.
"""

from __future__ import annotations

import hashlib
import json
import queue
import shutil
import threading
import uuid
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from engine.core.config import EngineConfig
from engine.core.files import file_hash, write_atomic
from engine.core.limits import Limits
from engine.core.scopes import FolderScopes, Scope
from engine.core.types import (
    Chunk,
    DocumentInfo,
    IngestError,
    LoadedDocument,
    Progress,
    StoreDamaged,
    Unit,
    no_progress,
)
from engine.index.chunking import Chunker
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.hybrid import passage_vectors
from engine.index.embed.sparse import SparseModel
from engine.index.errors import KnowledgeBaseError
from engine.index.kb_indexes import DocText, KbIndexes
from engine.index.kb_indexes import index_modes as valid_index_modes
from engine.ingest import load_document, validate_name
from engine.ingest.paths import select_files
from storage.lexical_index import LexicalIndex
from storage.snapshots import BackupFailed, take_manifest
from storage.vector_store import VectorIndex, client_for, collections

SCHEMA_VERSION = 1
_POINT_NAMESPACE = uuid.UUID("5b0e4a52-8f3c-4c55-9a57-3f1d2c7e9b10")
_ENCODE_BLOCK = 256  # chunks per encode call: big enough to batch well, small enough for progress


class DocumentDamaged(KnowledgeBaseError, StoreDamaged):
    """A stored document's ``units.jsonl`` / ``chunks.jsonl`` does not read."""


class ManifestDamaged(KnowledgeBaseError, StoreDamaged):
    """``manifest.json`` does not read; restored from its snapshots (storage/snapshots.py)."""


@dataclass(frozen=True)
class Manifest:
    schema_version: int = SCHEMA_VERSION
    store_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    embedder: str | None = None
    dim: int | None = None
    alpha: float = 0.5
    generation: int = 0
    documents: tuple[DocumentInfo, ...] = ()
    index_modes: tuple[str, ...] = ()  # atom indexes built for every document (engine/index/kb_indexes.py)

    def to_json(self) -> dict:
        d = asdict(self)
        d["documents"] = [doc.to_json() for doc in self.documents]
        return d

    @classmethod
    def from_json(cls, d: dict) -> Manifest:
        if d.get("schema_version") != SCHEMA_VERSION:
            raise KnowledgeBaseError(
                f"store format {d.get('schema_version')} is not the format this version reads "
                f"({SCHEMA_VERSION}); build a new store with `python -m engine kb add`"
            )
        docs = tuple(DocumentInfo.from_json(x) for x in d.get("documents", ()))
        return cls(**{**d, "documents": docs, "index_modes": tuple(d.get("index_modes", ()))})


@dataclass
class AddReport:
    """What ``add`` did, file by file."""

    added: list[DocumentInfo] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # names whose older version was replaced
    unchanged: list[str] = field(default_factory=list)  # "NAME (same content as OTHER)"
    errors: list[IngestError] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "PATH: why" (links, pipes… in the folders)
    rescoped: list[DocumentInfo] = field(default_factory=list)  # content already held, its scope changed


@dataclass(frozen=True)
class _Pending:
    doc: LoadedDocument
    doc_hash: str
    source: Path
    chunks: list[Chunk]
    scope: Scope = Scope()


def point_id(doc_hash: str, index: int) -> str:
    return str(uuid.uuid5(_POINT_NAMESPACE, f"{doc_hash}:{index}"))


@lru_cache(maxsize=4096)
def point_ids(doc_hash: str, chunks: int) -> tuple[str, ...]:
    """The point ids of a document's chunks (computed once per document: scoped searches ask often)."""
    return tuple(point_id(doc_hash, i) for i in range(chunks))


class KnowledgeBase:
    """Documents in ``folder`` and their retrieval index. One instance per store per process."""

    def __init__(
        self,
        folder: Path,
        config: EngineConfig | None = None,
        encoder: DenseEncoder | None = None,
        llm=None,
        limits: Limits | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.config = config or EngineConfig()
        self.limits = limits or Limits.from_env()
        self._encoder = encoder
        # the local LLM (a generator, or a function returning one) that writes summaries and atom
        # questions when documents are added; None: extractive summaries, no atom questions
        self.llm = llm
        self.folder.mkdir(parents=True, exist_ok=True)
        self.backup_problem: BackupFailed | None = None  # the last manifest snapshot that could not be written
        self.manifest = self._read_manifest()
        self.client = client_for(str(self.folder / "qdrant"), self.config.qdrant_url)
        self._sparse: SparseModel | None = None
        self._lexical: LexicalIndex | None = None
        self._lock = threading.RLock()
        self._collect_garbage()

    # ---- reading -----------------------------------------------------------------------------
    def documents(self) -> list[DocumentInfo]:
        return list(self.manifest.documents)

    def document(self, name: str) -> DocumentInfo:
        for doc in self.manifest.documents:
            if doc.name == name:
                return doc
        known = ", ".join(d.name for d in self.manifest.documents) or "none"
        raise KnowledgeBaseError(f"no document named {name!r} in {self.folder} (documents: {known})")

    def units(self, name: str) -> list[Unit]:
        doc = self.document(name)
        return [Unit(**d) for d in self._records(doc.doc_hash, "units.jsonl")]

    def chunks(self, name: str) -> list[Chunk]:
        return self._chunks(self.document(name).doc_hash)

    def source_path(self, name: str) -> Path:
        """The stored copy of the file, as it was added."""
        doc = self.document(name)
        found = next(self._doc_dir(doc.doc_hash).glob("source*"), None)  # "source" alone: a link added before #16
        if found is None:
            raise KnowledgeBaseError(
                f"the stored copy of {name!r} is missing from {self.folder}; "
                f"remove it (`python -m engine kb remove {name!r}`) and add the file again"
            )
        return found

    @property
    def index(self) -> VectorIndex:
        if not self.manifest.documents:
            raise KnowledgeBaseError(
                f"the knowledge base in {self.folder} is empty; add documents with `python -m engine kb add PATH --store {self.folder}`"
            )
        return VectorIndex(self.client, self._collection(self.manifest.generation))

    @property
    def sparse(self) -> SparseModel:
        with self._lock:
            if self._sparse is None:
                self.index  # raises a clear error when empty
                self._sparse = SparseModel.load(self._sparse_dir(self.manifest.generation))
            return self._sparse

    @property
    def lexical(self) -> LexicalIndex:
        with self._lock:
            if self._lexical is None:
                self.index  # raises a clear error when empty
                self._lexical = LexicalIndex.load(self._sparse_dir(self.manifest.generation))
            return self._lexical

    @property
    def alpha(self) -> float:
        return self.manifest.alpha

    @cached_property
    def encoder(self) -> DenseEncoder:
        return self._encoder or DenseEncoder(self.config.embedder, self.config.batch_size)

    def check_compatible(self) -> None:
        """The stored vectors were made by the configured embedder."""
        built_with, wanted = self.manifest.embedder, self.encoder.name
        if self.manifest.documents and built_with != wanted:
            raise KnowledgeBaseError(
                f"the store {self.folder} was built with the embedder {built_with!r}, not "
                f"{wanted!r}; use --embedder {built_with}, or re-encode everything with "
                f"`python -m engine kb reindex --store {self.folder} --embedder {wanted}`"
            )

    @cached_property
    def indexes(self) -> KbIndexes:
        """The summaries and atom indexes beside the chunk index."""
        return KbIndexes(self)

    def doc_texts(self, docs: Sequence[DocumentInfo]) -> list[DocText]:
        return [DocText(d.doc_hash, d.name, tuple(self.units(d.name)), tuple(self.chunks(d.name))) for d in docs]

    @cached_property
    def chunker(self) -> Chunker:
        encoder = self.encoder
        chunker = Chunker(encoder.token_counter(), encoder.chunk_tokens, self.config.chunk_overlap)
        chunker.warm_up()
        return chunker

    # ---- changing ----------------------------------------------------------------------------
    def add(
        self,
        paths: Sequence[Path],
        progress: Progress = no_progress,
        scope: Scope | None = None,
        index_modes: Sequence[str] = (),
        folders: FolderScopes | None = None,
    ) -> AddReport:
        """Index files and folders (see engine/ingest/paths.py for which files are read). Bad files
        are reported in the result, skipped ones with the reason; the rest is indexed.
        ``scope``: of the new documents (None: company-wide, or the scope of the document a
        changed file replaces); content already held gets it merged (:meth:`Scope.merged`).
        ``folders``: instead of ``scope``, each file's scope from its folder's name
        (:meth:`FolderScopes.of_files`: a file in two product folders belongs to both), merged
        the same way. ``index_modes``: atom indexes to build from now on (engine/index/kb_indexes.py)."""
        if scope is not None and folders is not None:
            raise ValueError("give the documents one scope or their folders' scopes, not both")
        selected = select_files(paths)
        report = self._add_files(list(selected.files), list(selected.errors), progress, scope, index_modes, folders)
        report.skipped = list(selected.skipped)
        return report

    def add_file(
        self, path: Path, name: str, progress: Progress = no_progress, scope: Scope | None = None
    ) -> AddReport:
        """Index one file under an outside name (an upload's file name), validated first."""
        try:
            validate_name(name)
        except IngestError as exc:
            return AddReport(errors=[exc])
        return self._add_files([(Path(path), name)], [], progress, scope)

    def set_scopes(self, scopes: Mapping[str, Scope]) -> list[DocumentInfo]:
        """Give documents (by name) a new scope: a manifest change only (nothing is re-encoded;
        retrieval reads the scopes from the manifest). Returns the documents that changed."""
        with self._lock:
            for name in scopes:
                self.document(name)  # an unknown name is a clear error, before anything changes
            docs = tuple(replace(d, scope=scopes.get(d.name, d.scope)) for d in self.manifest.documents)
            changed = [d for d, old in zip(docs, self.manifest.documents) if d.scope != old.scope]
            if changed:
                self._write_manifest(replace(self.manifest, documents=docs))
            return changed

    def remove(self, name: str, progress: Progress = no_progress) -> DocumentInfo:
        with self._lock:
            doc = self.document(name)
            keep = [d for d in self.manifest.documents if d.name != name]
            self._rebuild(keep, [], progress)
            return doc

    def reindex(
        self,
        progress: Progress = no_progress,
        index_modes: Sequence[str] | None = None,
        rewrite_summaries: bool = False,
    ) -> None:
        """Rebuild the index from the stored files with the configured embedder and α (after
        either changed); the dense vectors are reused when the embedder is the same. Missing
        summaries are written (with ``rewrite_summaries`` also those written another way than
        the current writer would, never the edited ones), and
        the atom indexes of ``index_modes`` (default: the store's) built where missing."""
        with self._lock:
            alpha = self.config.alpha
            modes = self.manifest.index_modes if index_modes is None else valid_index_modes(index_modes)
            if self.manifest.embedder == self.encoder.name:
                self.indexes.prepare(self.doc_texts(self.manifest.documents), modes, progress, rewrite_summaries)
                self._rebuild(list(self.manifest.documents), [], progress, alpha, modes)
                return
            pending = []
            for doc in self.manifest.documents:
                source = self.source_path(doc.name)
                loaded = load_document(source, doc.name, self.limits)
                pending.append(
                    _Pending(loaded, doc.doc_hash, source, self.chunker.chunk(loaded, doc.doc_hash), doc.scope)
                )
            self.indexes.prepare([_doc_text(p) for p in pending], modes, progress, rewrite_summaries)
            self._rebuild([], pending, progress, alpha, modes)

    def _add_files(
        self,
        files: list[tuple[Path, str]],
        errors: list[IngestError],
        progress: Progress,
        scope: Scope | None = None,
        index_modes: Sequence[str] = (),
        folders: FolderScopes | None = None,
    ) -> AddReport:
        files, refused = self.limits.screen(files)  # before the embedder loads
        if not files:
            return AddReport(errors=[*errors, *refused])
        scopes = folders.of_files([path for path, _ in files]) if folders is not None else {}
        with self._lock:
            self.check_compatible()
            report = AddReport(errors=[*errors, *refused])
            known = {d.doc_hash: d.name for d in self.manifest.documents}
            rescope: dict[str, Scope] = {}
            pending: dict[str, _Pending] = {}
            for i, (path, name) in enumerate(files):
                progress("reading", i, len(files))
                file_scope = scopes.get(path, scope)
                try:
                    data = path.read_bytes() if path.is_file() else b""
                    digest = file_hash(data)
                    twin = known.get(digest) or next(
                        (p.doc.name for p in pending.values() if p.doc_hash == digest), None
                    )
                    if twin is not None:
                        report.unchanged.append(name if twin == name else f"{name} (same content as {twin})")
                        if file_scope is not None and digest in known:  # held already: a manifest change
                            rescope[twin] = rescope.get(twin, self.document(twin).scope).merged(file_scope)
                        continue
                    if name in pending:
                        raise IngestError(
                            name, f"a second file with this name was given ({path})", "rename one of them"
                        )
                    doc = load_document(path, name, self.limits)
                    chunks = self.chunker.chunk(doc, digest)
                    if not chunks:
                        raise IngestError(
                            name, "has no text to index", "check that the file has text (not only images)"
                        )
                    previous = next((d.scope for d in self.manifest.documents if d.name == name), Scope())
                    pending[name] = _Pending(
                        doc, digest, path.resolve(), chunks, previous if file_scope is None else file_scope
                    )
                except IngestError as exc:
                    report.errors.append(exc)
                except Exception as exc:  # an unexpected parser failure must not stop the batch
                    report.errors.append(
                        IngestError(
                            name,
                            f"could not be read ({type(exc).__name__}: {exc})",
                            "check that it opens in its usual program, or save it again and retry",
                        )
                    )
            progress("reading", len(files), len(files))
            report.rescoped = self.set_scopes(rescope) if rescope else []
            if not pending:
                return report
            old = {d.name for d in self.manifest.documents}
            report.replaced = [n for n in pending if n in old]
            keep = [d for d in self.manifest.documents if d.name not in pending]
            modes = valid_index_modes([*self.manifest.index_modes, *index_modes])
            # summaries (and atom indexes) of the new documents, and of the kept ones for a new index mode
            catch_up = self.doc_texts(keep) if set(modes) - set(self.manifest.index_modes) else []
            self.indexes.prepare(catch_up + [_doc_text(p) for p in pending.values()], modes, progress)
            added = self._rebuild(keep, list(pending.values()), progress, index_modes=modes)
            report.added = added
            return report

    # ---- the generation switch ---------------------------------------------------------------
    def _rebuild(
        self,
        keep: list[DocumentInfo],
        new: list[_Pending],
        progress: Progress,
        alpha: float | None = None,
        index_modes: tuple[str, ...] | None = None,
    ) -> list[DocumentInfo]:
        """Build generation N+1 from the kept and the new documents and switch to it. α is
        the store's own unless given (a new store takes the configured one)."""
        old_generation = self.manifest.generation
        generation = old_generation + 1
        if not keep and not new:
            self._switch(replace(self.manifest, generation=generation, documents=()), old_generation)
            return []
        encoder = self.encoder
        kept_chunks = [self._chunks(d.doc_hash) for d in keep]
        new_chunks = [p.chunks for p in new]
        all_texts = [c.text for group in kept_chunks + new_chunks for c in group]
        progress("fitting TF-IDF", 0, 1)
        sparse = SparseModel.fit(all_texts, dim=encoder.dim)
        sparse_dir = self._sparse_dir(generation)
        shutil.rmtree(sparse_dir, ignore_errors=True)
        sparse.save(sparse_dir)
        progress("fitting TF-IDF", 1, 1)
        index = VectorIndex.create(self.client, self._collection(generation), encoder.dim)
        if alpha is None:
            alpha = self.manifest.alpha if self.manifest.documents else self.config.alpha
        with _Writer(index) as writer:
            for doc, chunks in zip(keep, kept_chunks):
                dense = np.load(self._dense_path(doc.doc_hash, encoder.name))
                writer.put(chunks, passage_vectors([c.text for c in chunks], dense, sparse, alpha))
            # encode the new chunks longest first in blocks (sentence-transformers pads each
            # batch to its longest text) while the writer thread stores the previous block
            flat = [c for group in new_chunks for c in group]
            order = sorted(range(len(flat)), key=lambda i: -len(flat[i].text))
            dense_new = np.zeros((len(flat), encoder.dim), dtype=np.float32)
            progress("encoding", 0, len(flat))
            for block_start in range(0, len(order), _ENCODE_BLOCK):
                block = order[block_start : block_start + _ENCODE_BLOCK]
                texts = [flat[i].text for i in block]
                vectors = encoder.encode_passages(texts)
                dense_new[block] = vectors
                writer.put([flat[i] for i in block], passage_vectors(texts, vectors, sparse, alpha))
                progress("encoding", min(block_start + _ENCODE_BLOCK, len(flat)), len(flat))
            progress("indexing", 0, 1)
        lexical = LexicalIndex.build(writer.ids, writer.bm25, len(sparse.vocabulary))
        lexical.save(sparse_dir)
        progress("indexing", 1, 1)
        added = self._write_new(new, dense_new)
        manifest = replace(
            self.manifest,
            embedder=encoder.name,
            dim=encoder.dim,
            alpha=alpha,
            generation=generation,
            documents=tuple(sorted(keep + added, key=lambda d: d.name.lower())),
            index_modes=self.manifest.index_modes if index_modes is None else index_modes,
        )
        self._switch(manifest, old_generation)
        self._sparse, self._lexical = sparse, lexical
        return added

    def _write_new(self, new: list[_Pending], dense_new: np.ndarray) -> list[DocumentInfo]:
        """Each new document's files written (its dense rows: ``dense_new`` holds every new
        chunk's, in order) and its record, all dated now."""
        added: list[DocumentInfo] = []
        offset = 0
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        for p in new:
            dense = dense_new[offset : offset + len(p.chunks)]
            offset += len(p.chunks)
            info = DocumentInfo(
                name=p.doc.name,
                doc_hash=p.doc_hash,
                kind=p.doc.kind,
                chunks=len(p.chunks),
                added=now,
                pages=p.doc.pages,
                source=self._original_source(p),
                notes=p.doc.notes,
                scope=p.scope,
            )
            self._write_doc(p, dense)
            added.append(info)
        return added

    def _switch(self, manifest: Manifest, old_generation: int) -> None:
        self._write_manifest(manifest)
        self._sparse = self._lexical = None
        self._collect_garbage()
        self.indexes.collect(manifest.documents)

    def _write_manifest(self, manifest: Manifest) -> None:
        write_atomic(self.folder / "manifest.json", json.dumps(manifest.to_json(), indent=1))
        self.manifest = manifest
        try:
            take_manifest(self.folder)  # a rolling snapshot in backups/ (storage/snapshots.py)
        except BackupFailed as exc:  # backups never block: the manifest is written, the warning kept
            self.backup_problem = exc

    def _collect_garbage(self) -> None:
        """Remove what the manifest does not reference: older or unfinished generations and
        documents that were replaced, removed, or never committed."""
        current = self._collection(self.manifest.generation)
        prefix = self._collection_prefix()
        for name in collections(self.client):
            if name.startswith(prefix) and name != current:
                self.client.delete_collection(name)
        for sub in (self.folder / "sparse").glob("g*"):
            if sub.name != f"g{self.manifest.generation}":
                shutil.rmtree(sub, ignore_errors=True)
        referenced = {d.doc_hash for d in self.manifest.documents}
        for sub in (self.folder / "docs").glob("*"):
            if sub.name not in referenced:
                shutil.rmtree(sub, ignore_errors=True)

    # ---- files -------------------------------------------------------------------------------
    def _read_manifest(self) -> Manifest:
        path = self.folder / "manifest.json"
        if not path.exists():
            return Manifest(alpha=self.config.alpha)
        try:
            return Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError, KeyError, ValueError) as exc:
            raise ManifestDamaged(
                path,
                f"the knowledge base's manifest is damaged ({exc}); nothing was changed",
                f"Stop the app, then restore its newest snapshot with `python -m engine restore "
                f"--store {self.folder}` (the damaged file is moved aside, not rewritten)",
            ) from None

    def _write_doc(self, p: _Pending, dense: np.ndarray) -> None:
        folder = self._doc_dir(p.doc_hash)
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / f"source{p.source.suffix.lower()}"
        if not copy.exists():
            shutil.copyfile(p.source, copy)
        write_atomic(folder / "units.jsonl", "".join(json.dumps(asdict(u)) + "\n" for u in p.doc.units))
        write_atomic(folder / "chunks.jsonl", "".join(json.dumps(c.to_dict()) + "\n" for c in p.chunks))
        write_atomic(self._dense_path(p.doc_hash, self.encoder.name), lambda f: np.save(f, dense))

    def _original_source(self, p: _Pending) -> str:
        """Where the file was added from (kept through a re-index of the stored copy)."""
        previous = next((d.source for d in self.manifest.documents if d.doc_hash == p.doc_hash), None)
        return previous or str(p.source)

    def _dense_path(self, doc_hash: str, embedder: str) -> Path:
        slug = hashlib.sha1(embedder.encode()).hexdigest()[:10]
        return self._doc_dir(doc_hash) / f"dense-{slug}.npy"

    def _chunks(self, doc_hash: str) -> list[Chunk]:
        return [Chunk.from_dict(d) for d in self._records(doc_hash, "chunks.jsonl")]

    def _records(self, doc_hash: str, name: str) -> list[dict]:
        """The JSON lines of a stored document's file; one that does not read raises
        :class:`DocumentDamaged` (which document, how to index it again)."""
        path = self._doc_dir(doc_hash) / name
        try:
            return [json.loads(line) for line in _lines(path)]
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            doc = next((d.name for d in self.manifest.documents if d.doc_hash == doc_hash), doc_hash)
            raise DocumentDamaged(
                path,
                f"the knowledge base's stored copy of {doc!r} is damaged ({type(exc).__name__}: {exc}); nothing "
                "was changed",
                f"Index it again: `python -m engine kb remove {doc!r} --store {self.folder}`, then `kb add` the file",
            ) from None

    def _doc_dir(self, doc_hash: str) -> Path:
        return self.folder / "docs" / doc_hash

    def _sparse_dir(self, generation: int) -> Path:
        return self.folder / "sparse" / f"g{generation}"

    def _collection_prefix(self) -> str:
        # a server is shared by many stores: name collections after this store
        return f"kb_{self.manifest.store_id}_" if self.config.qdrant_url else "kb_"

    def _collection(self, generation: int) -> str:
        return f"{self._collection_prefix()}g{generation}"


class _Writer:
    """Stores points from a background thread so that encoding and storing overlap (local
    Qdrant commits every point to SQLite; that is I/O wait, not CPU)."""

    def __init__(self, index: VectorIndex) -> None:
        self.index = index
        self.queue: queue.Queue = queue.Queue(maxsize=4)
        self.error: BaseException | None = None
        self.ids: list[str] = []  # every point, in the order written
        self.bm25: list = []  # and its BM25 vector, for the lexical index
        self.thread = threading.Thread(target=self._run, name="qdrant-writer", daemon=True)

    def __enter__(self) -> _Writer:
        self.thread.start()
        return self

    def put(self, chunks: list[Chunk], vectors: list) -> None:
        if self.error is not None:
            raise self.error
        self.ids += [point_id(c.doc_hash, c.index) for c in chunks]
        self.bm25 += [v.sparse for v in vectors]
        self.queue.put((chunks, vectors))

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is not None:
                continue
            chunks, vectors = item
            try:
                self.index.upsert(
                    [point_id(c.doc_hash, c.index) for c in chunks], vectors, [c.to_dict() for c in chunks]
                )
            except BaseException as exc:  # handed to the caller in __exit__
                self.error = exc

    def __exit__(self, exc_type, exc, tb) -> None:
        self.queue.put(None)
        self.thread.join()
        if exc is None and self.error is not None:
            raise self.error


def _doc_text(p: _Pending) -> DocText:
    return DocText(p.doc_hash, p.doc.name, tuple(p.doc.units), tuple(p.chunks))


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
