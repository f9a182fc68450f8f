"""The knowledge base's error, in its own module so that every part of the index (the store in
engine/index/kb.py, its summary and atom indexes in engine/index/kb_indexes.py) raises the same
class without importing one another."""


class KnowledgeBaseError(Exception):
    """A knowledge-base operation that cannot be done; the message says why and what to do."""
