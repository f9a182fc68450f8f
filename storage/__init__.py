"""Adapters for what persists: the vector store (Qdrant)."""
