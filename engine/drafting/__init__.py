"""Drafting an answer to one question: the drafter, its records (Draft, Citation), generation backends
and prompts, the prompt's passages, anchoring, page finder, confidence, sections, profile answers."""
