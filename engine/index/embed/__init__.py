"""Dense (sentence-transformers), sparse (TF-IDF/SVD and BM25) and hybrid encodings."""
