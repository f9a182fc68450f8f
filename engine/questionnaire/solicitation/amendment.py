"""An amendment against the solicitation it amends: the requirements added, changed and removed,
by quote. A requirement whose words (with its lead-in; case, spacing and punctuation aside) are
in both is unchanged, wherever it moved; of the rest, a requirement of the new version is a
change of an old one when they share most of their words (the same ID first, then the closest:
word overlap ≥ :data:`CHANGED`, then the closer wording); the others are added or removed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from engine.questionnaire.solicitation.records import Requirement

CHANGED = 0.5  # shared words / words of the longer of two requirements, for a change rather than add + remove
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Amendment:
    added: tuple[Requirement, ...]
    changed: tuple[tuple[Requirement, Requirement], ...]  # (before, after)
    removed: tuple[Requirement, ...]
    unchanged: tuple[tuple[Requirement, Requirement], ...]  # (before, after): decisions on these are kept

    def counts(self) -> dict[str, int]:
        return {
            "added": len(self.added),
            "changed": len(self.changed),
            "removed": len(self.removed),
            "unchanged": len(self.unchanged),
        }


def _key(req: Requirement) -> str:
    return " ".join(_WORD.findall(req.text.lower()))


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a), len(b))


def compare(before: Sequence[Requirement], after: Sequence[Requirement]) -> Amendment:
    """What ``after`` (the amendment's requirements) adds, changes and removes (see the module docstring)."""
    old_by_key: dict[str, list[Requirement]] = {}
    for req in before:
        old_by_key.setdefault(_key(req), []).append(req)
    unchanged, rest_new = [], []
    for req in after:
        same = old_by_key.get(_key(req))
        if same:
            unchanged.append((same.pop(0), req))
        else:
            rest_new.append(req)
    rest_old = [r for reqs in old_by_key.values() for r in reqs]
    words = {id(r): set(_WORD.findall(r.text.lower())) for r in [*rest_old, *rest_new]}
    pairs = []
    for new in rest_new:
        for old in rest_old:
            share = _overlap(words[id(old)], words[id(new)])
            if share >= CHANGED:
                close = SequenceMatcher(None, old.text, new.text, autojunk=False).ratio()
                pairs.append((old.id == new.id, share + close, id(old), id(new), old, new))
    pairs.sort(key=lambda p: (p[0], p[1]), reverse=True)
    used_old, used_new, changed = set(), set(), []
    for _, _, o, n, old, new in pairs:
        if o not in used_old and n not in used_new:
            used_old.add(o)
            used_new.add(n)
            changed.append((old, new))
    order = {id(r): i for i, r in enumerate(after)}
    changed.sort(key=lambda p: order[id(p[1])])
    return Amendment(
        added=tuple(r for r in rest_new if id(r) not in used_new),
        changed=tuple(changed),
        removed=tuple(r for r in rest_old if id(r) not in used_old),
        unchanged=tuple(unchanged),
    )


__all__ = ["CHANGED", "Amendment", "compare"]
