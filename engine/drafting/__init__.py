"""Drafting an answer: the drafter, generation backends and prompts, anchoring, page finder, confidence."""
