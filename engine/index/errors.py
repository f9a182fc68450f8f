"""The knowledge base's and the embedder's errors, in their own module so that every part of the
index (the store in engine/index/kb.py, its summary and atom indexes in engine/index/kb_indexes.py,
the embedder's runtimes in engine/index/embed/) raises the same class without importing one another."""


class KnowledgeBaseError(Exception):
    """A knowledge-base operation that cannot be done; the message says why and what to do."""


class EmbedderError(Exception):
    """The configured embedder cannot be loaded; the message says why and what to do."""
