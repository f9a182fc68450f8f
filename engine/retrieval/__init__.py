"""Retrieval over the knowledge base: one entry point (retrieve.search / retrieve.retrieve) deciding
the way once, the hybrid modes (modes) and the summary / atom strategies (summary_rag)."""
