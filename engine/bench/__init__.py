"""Benchmarks: each returns a dict of JSON figures; engine/cli/bench.py adds each one's parser and
prints its figures (nothing but the CLI imports this package)."""
