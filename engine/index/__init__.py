"""What is indexed for lookup: the knowledge base (chunks, embedders, summaries, atoms) and the answer library with the profiles learned from it."""
