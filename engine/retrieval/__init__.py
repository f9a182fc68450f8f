"""Retrieval over the knowledge base: the hybrid modes and the summary / atom strategies."""
