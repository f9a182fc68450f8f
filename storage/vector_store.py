"""Qdrant adapter: one client per location per process, one collection per index generation.

Local mode on a folder by default (``QdrantClient(path=…)``); a Qdrant server when a URL is
given (``QDRANT_URL``). Every vector is stored unit-length (or, for ``concat``, with the
weights already applied) and compared by dot product, which equals the cosine: Qdrant's local
COSINE distance re-normalises every stored vector on every query.

In local mode the dense vectors and payloads of the collection being searched are also held
in memory (:class:`_Mirror`, loaded once from Qdrant): local mode is a brute-force scan in
Python anyway, and its per-call overhead (request models, float64 scoring, one record object
per point) was most of a query's time after encoding. Qdrant stays the store and the source
of the mirror; the mirror is dropped whenever this process writes the collection, and a
local store folder has no other writer (it is locked to one process). A server is always
asked directly: other processes may write to it.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Iterable, Sequence

import numpy as np

from engine.core.config import Mode
from engine.core.types import StoreDamaged
from engine.core.vectors import PointVectors, SparseVector

if TYPE_CHECKING:  # qdrant-client (≈ 1-2 s to import) is imported where a client is made or a request built
    from qdrant_client import QdrantClient
    from qdrant_client import models as qm

DENSE, PAPER, CONCAT, SPARSE = "dense", "paper", "concat", "sparse"
FUSION_DEPTH = 50  # candidates each side contributes to the fusion

_clients: dict[str, QdrantClient] = {}
_clients_lock = threading.Lock()


class StoreLockedError(Exception):
    """The local store folder is held by another process."""


class IndexDamaged(StoreDamaged):
    """The local Qdrant folder cannot be read (a file in it cut short or overwritten). It is
    derived from the store's plain files: ``kb reindex`` moves it aside and builds it again."""

    def __init__(self, location: str, exc: BaseException) -> None:
        why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        store = Path(location).parent
        super().__init__(
            location,
            f"the knowledge base's vector index (Qdrant local folder) is damaged ({why}); nothing was changed",
            f"Stop the app, then rebuild it from the stored documents with `python -m engine kb reindex --store {store}` "
            "(the damaged folder is moved aside, not rewritten), or put back a copy of the folder",
        )


_damaged: dict[str, IndexDamaged] = {}  # a folder that failed to open is not read again by this process


def client_for(location: str, url: str | None = None) -> QdrantClient:
    """The process-wide client for a store folder (local mode) or a server URL. A local folder
    that cannot be read raises :class:`IndexDamaged` (and again on every later call, until
    :func:`release`), with nothing in it changed."""
    key = url or location
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            if not url and key in _damaged:
                raise _damaged[key]
            from qdrant_client import QdrantClient  # noqa: PLC0415

            try:
                client = QdrantClient(url=url) if url else QdrantClient(path=location)
            except RuntimeError as exc:
                if "already accessed" not in str(exc):
                    raise
                raise StoreLockedError(
                    f"the store {location} is open in another process (the app or another "
                    "`python -m engine` command). Close that process and try again, use another "
                    "--store folder, or run a Qdrant server and set QDRANT_URL to share one store"
                ) from None
            except Exception as exc:  # a file of the local folder that does not parse (JSON, SQLite, pickle)
                if url:
                    raise
                _damaged[key] = IndexDamaged(location, exc)
                raise _damaged[key] from None
            _clients[key] = client
        return client


def close_all() -> None:
    with _clients_lock:
        for client in _clients.values():
            try:
                client.close()
            except Exception:  # closing at exit must never raise
                pass
        _clients.clear()


def release(location: str, url: str | None = None) -> None:
    """Close the client for one location so another process may open it."""
    with _clients_lock:
        client = _clients.pop(url or location, None)
        _damaged.pop(url or location, None)
    if client is not None:
        client.close()


atexit.register(close_all)


@dataclass(frozen=True)
class Scored:
    payload: dict[str, Any]
    score: float


@dataclass(frozen=True)
class _Mirror:
    """Every point of one local collection: its id, dense vector (a row) and payload."""

    ids: list[str]
    dense: np.ndarray  # (points, dim) float32, the stored unit vectors
    payloads: list[dict[str, Any]]
    rows: dict[str, int] = field(init=False)
    documents: dict[str, int] = field(init=False)  # payload doc_hash → its number in doc_numbers
    doc_numbers: np.ndarray = field(init=False)  # per row, the number of its document

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", {pid: i for i, pid in enumerate(self.ids)})
        hashes = [p.get("doc_hash") for p in self.payloads]
        documents = {h: i for i, h in enumerate(dict.fromkeys(hashes))}
        object.__setattr__(self, "documents", documents)
        object.__setattr__(
            self, "doc_numbers", np.fromiter((documents[h] for h in hashes), dtype=np.int32, count=len(hashes))
        )

    def of_documents(self, doc_hashes: Collection[str]) -> np.ndarray:
        """Per row, whether its payload's ``doc_hash`` is one of ``doc_hashes``."""
        return np.isin(self.doc_numbers, [self.documents[h] for h in doc_hashes if h in self.documents])


# one mirror per client, (collection name, mirror) of the collection last searched: a store
# searches one generation at a time, so older generations are not kept alive
_mirrors: weakref.WeakKeyDictionary[QdrantClient, tuple[str, _Mirror]] = weakref.WeakKeyDictionary()
_mirrors_lock = threading.Lock()


def _is_local(client: QdrantClient) -> bool:
    options = client.init_options
    return options.get("path") is not None or options.get("location") == ":memory:"


class VectorIndex:
    """One Qdrant collection holding the chunks of one knowledge-base generation.

    ``in_memory=False`` asks Qdrant for every search even in local mode (the tests compare
    the two paths)."""

    def __init__(self, client: QdrantClient, name: str, in_memory: bool = True) -> None:
        self.client, self.name = client, name
        self.in_memory = in_memory and _is_local(client)

    @classmethod
    def create(cls, client: QdrantClient, name: str, dim: int) -> VectorIndex:
        from qdrant_client import models as qm  # noqa: PLC0415

        _forget(client, name)
        if client.collection_exists(name):
            client.delete_collection(name)
        client.create_collection(
            name,
            vectors_config={
                DENSE: qm.VectorParams(size=dim, distance=qm.Distance.DOT),
                PAPER: qm.VectorParams(size=dim, distance=qm.Distance.DOT),
                CONCAT: qm.VectorParams(size=2 * dim, distance=qm.Distance.DOT),
            },
            sparse_vectors_config={SPARSE: qm.SparseVectorParams()},
        )
        return cls(client, name)

    def upsert(self, ids: Sequence[str], vectors: Sequence[PointVectors], payloads: Sequence[dict]) -> None:
        from qdrant_client import models as qm  # noqa: PLC0415

        points = [
            qm.PointStruct(id=pid, vector=_named(v), payload=payload)
            for pid, v, payload in zip(ids, vectors, payloads, strict=True)
        ]
        if points:
            _forget(self.client, self.name)
            self.client.upsert(self.name, points, wait=True)
            _forget(self.client, self.name)  # and anything loaded while it was written

    def count(self) -> int:
        return self.client.count(self.name, exact=True).count

    def search(
        self, mode: Mode, query: PointVectors, limit: int, doc_hashes: Collection[str] | None = None
    ) -> list[Scored]:
        """Top ``limit`` points for the modes Qdrant answers alone (``weighted`` is composed
        in engine.retrieval.retrieve from :meth:`dense_candidates` and the lexical index); only points of
        the documents ``doc_hashes`` when given (a payload filter, applied inside the search)."""
        if mode is Mode.WEIGHTED:
            raise ValueError("the weighted mode is composed by engine.retrieval.retrieve.search")
        if mode is Mode.DENSE and self.in_memory:
            best = self.dense_candidates(query.dense, limit, doc_hashes)
            payloads = self.payloads([pid for pid, _ in best])
            return [Scored(payloads[pid], score) for pid, score in best]
        from qdrant_client import models as qm  # noqa: PLC0415

        within = _documents_filter(doc_hashes)
        if mode is Mode.DENSE_SPARSE:
            depth = max(FUSION_DEPTH, limit)
            prefetch = [qm.Prefetch(query=query.dense.tolist(), using=DENSE, limit=depth, filter=within)]
            if query.sparse.indices:  # a question with no known term has no lexical side
                prefetch.append(qm.Prefetch(query=_sparse(query.sparse), using=SPARSE, limit=depth, filter=within))
            # Qdrant's RRF constant k = 2: on SQuAD dev it beats the textbook k = 60 at R@5
            fusion = qm.FusionQuery(fusion=qm.Fusion.RRF)
            response = self.client.query_points(
                self.name, prefetch=prefetch, query=fusion, limit=limit, with_payload=True, query_filter=within
            )
        else:
            using = {Mode.DENSE: DENSE, Mode.PAPER: PAPER, Mode.CONCAT: CONCAT}[mode]
            vector = getattr(query, using)
            response = self.client.query_points(
                self.name, query=vector.tolist(), using=using, limit=limit, with_payload=True, query_filter=within
            )
        return [Scored(p.payload or {}, float(p.score)) for p in response.points]

    def dense_candidates(
        self, vector: np.ndarray, limit: int, doc_hashes: Collection[str] | None = None
    ) -> list[tuple[str, float]]:
        """Point ids and cosines of the ``limit`` nearest dense vectors, nearest first; only
        points of the documents ``doc_hashes`` when given."""
        mirror = self._mirror()
        if mirror is not None:
            if not mirror.ids:
                return []
            # einsum, not @: numpy's BLAS runs a matrix-vector product on every core, and on
            # busy cores waiting for the slowest one costs 10-100× the product itself
            scores = np.einsum("ij,j->i", mirror.dense, np.asarray(vector, dtype=np.float32))
            allowed = len(mirror.ids)
            if doc_hashes is not None:
                mask = mirror.of_documents(doc_hashes)
                scores, allowed = np.where(mask, scores, -np.inf), int(mask.sum())
            limit = min(limit, allowed)
            if limit < 1:
                return []
            best = np.argpartition(-scores, limit - 1)[:limit]
            best = best[np.argsort(-scores[best], kind="stable")]
            return [(mirror.ids[i], float(scores[i])) for i in best]
        response = self.client.query_points(
            self.name,
            query=vector.tolist(),
            using=DENSE,
            limit=limit,
            with_payload=False,
            query_filter=_documents_filter(doc_hashes),
        )
        return [(str(p.id), float(p.score)) for p in response.points]

    def dense_vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        mirror = self._mirror()
        if mirror is not None:
            return {pid: mirror.dense[mirror.rows[pid]] for pid in ids if pid in mirror.rows}
        points = self.client.retrieve(self.name, list(ids), with_vectors=[DENSE], with_payload=False)
        return {str(p.id): np.asarray(p.vector[DENSE], dtype=np.float32) for p in points}

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        mirror = self._mirror()
        if mirror is not None:  # copies, as Qdrant returns (payload values are scalars)
            return {pid: dict(mirror.payloads[mirror.rows[pid]]) for pid in ids if pid in mirror.rows}
        points = self.client.retrieve(self.name, list(ids), with_payload=True)
        return {str(p.id): p.payload or {} for p in points}

    def drop(self) -> None:
        _forget(self.client, self.name)
        if self.client.collection_exists(self.name):
            self.client.delete_collection(self.name)

    def _mirror(self) -> _Mirror | None:
        """The in-memory copy of this collection (loaded on first use), or None for a server."""
        if not self.in_memory:
            return None
        with _mirrors_lock:
            name, mirror = _mirrors.get(self.client, ("", None))
            if mirror is not None and name == self.name:
                return mirror
            ids, vectors, payloads = [], [], []
            offset = None
            while True:
                points, offset = self.client.scroll(
                    self.name, limit=1024, offset=offset, with_payload=True, with_vectors=[DENSE]
                )
                for p in points:
                    ids.append(str(p.id))
                    vectors.append(p.vector[DENSE])
                    payloads.append(p.payload or {})
                if offset is None:
                    break
            dense = np.asarray(vectors, dtype=np.float32) if ids else np.zeros((0, 0), dtype=np.float32)
            mirror = _Mirror(ids, dense, payloads)
            _mirrors[self.client] = (self.name, mirror)
            return mirror


def _forget(client: QdrantClient, name: str) -> None:
    """Drop the in-memory copy of a collection that changes."""
    with _mirrors_lock:
        if _mirrors.get(client, ("", None))[0] == name:
            del _mirrors[client]


def collections(client: QdrantClient) -> Iterable[str]:
    return [c.name for c in client.get_collections().collections]


def _documents_filter(doc_hashes: Collection[str] | None) -> qm.Filter | None:
    """Qdrant's filter for the points of some documents (by the payload's ``doc_hash``)."""
    if doc_hashes is None:
        return None
    from qdrant_client import models as qm  # noqa: PLC0415

    return qm.Filter(must=[qm.FieldCondition(key="doc_hash", match=qm.MatchAny(any=sorted(doc_hashes)))])


def _sparse(v: SparseVector) -> qm.SparseVector:
    from qdrant_client import models as qm  # noqa: PLC0415

    return qm.SparseVector(indices=v.indices, values=v.values)


def _named(v: PointVectors) -> dict:
    return {
        DENSE: v.dense.tolist(),
        PAPER: v.paper.tolist(),
        CONCAT: v.concat.tolist(),
        SPARSE: _sparse(v.sparse),
    }
