"""The reviewer's edits of a shredded solicitation's requirements (issue #57, the mapping
corrected): a sentence the shredder missed **added**, one requirement **split** in two, two
adjacent ones **merged**. Kept with the project beside the requirements left out and the kinds
changed (``ReadOptions.added`` / ``splits`` / ``merges``, like ``exclude`` / ``kinds``), and
applied first, where those are (``as_questionnaire.as_read``: the app, ``inspect``, ``draft``;
``shred --add / --split / --merge``).

Every requirement stays the solicitation's exact words on the page it names:

- **added**: the sentence is found on a page of the solicitation, whitespace aside (else refused
  in one line); its quote is the page's own text there; its heading path, paragraph and a list
  item's lead-in are those of the text it sits in; its kind and mandatory flag are the rules'
  (a sentence the rules would not count is mandatory unless it says should, preferred …). Its ID
  is ``A-001``, ``A-002`` … in the order the sentences were added: the same on every read.
- **split** ``ID=FRAGMENT``: the requirement's quote is cut where FRAGMENT (the words the second
  part starts with, whitespace aside) first starts; the first part keeps the ID, the second is
  ``ID/2``; both keep the page, paragraph, section and lead-in; each part's kind and mandatory
  flag are the rules'.
- **merge** ``ID+ID`` (or more, ``+`` between): requirements next to each other, on one page,
  become one with the ID of the first in the document: its quote runs on the page from the
  first's words to the last's (what lies between, a list marker, is the page's too); mandatory
  when any part is.

Edits apply in that order (an added sentence can then be split or merged). A reviewer's edit
that no longer fits (an ID the file does not have any more, a fragment not in the quote) is
refused in one line when it is given (``strict``), and passed over when the stored corrections are
read again, as a left-out ID that is gone is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from engine.core.limits import Limits
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.solicitation.pages import collapse, read_pages
from engine.questionnaire.solicitation.records import Page, Requirement, Shredded, Unit
from engine.questionnaire.solicitation.rules import DESIRE, judge, kind_of, section_kind
from engine.questionnaire.solicitation.units import page_units

ADDED = "A-"  # an added sentence's ID: …
SPLIT = "/"  # a split requirement's second part: "2.1/2"
SHOWN = 80  # characters of a sentence named in an error


@dataclass(frozen=True)
class Edits:
    """The reviewer's edits as ``ReadOptions`` keeps them (strings: sentences, "ID=FRAGMENT", "ID+ID")."""

    added: tuple[str, ...] = ()
    splits: tuple[str, ...] = ()
    merges: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.splits or self.merges)


@dataclass(frozen=True)
class _Read:
    """A file's pages and units, read again for the edits that need the page text."""

    pages: tuple[Page, ...]
    units: tuple[Unit, ...]


@lru_cache(maxsize=4)
def _read(path: str, mtime_ns: int, size: int, limits: Limits) -> _Read:
    pages = tuple(read_pages(path, limits))
    return _Read(pages, tuple(page_units(pages)))


def _read_file(path: Path, limits: Limits) -> _Read:
    st = os.stat(path)
    return _read(str(path), st.st_mtime_ns, st.st_size, limits)


def _short(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _judged(text: str, base: Unit) -> tuple:
    """The rules' kind and mandatory flag of ``text`` where ``base`` (the text it sits in) is; a
    sentence the rules would not count is mandatory unless it has a desirable cue."""
    unit = replace(base, text=text, number="", leads=False)
    section = section_kind(unit.headings)
    verdict = judge(unit, section)
    mandatory = verdict.mandatory if verdict.requirement else not DESIRE.search(text)
    return kind_of(unit, section), mandatory


def _unit_of(req: Requirement) -> Unit:
    headings = tuple(req.section.split(" > ")) if req.section else ()
    return Unit(req.file, req.page, 0, 0, req.quote, req.id, headings, req.lead_in, bool(req.lead_in), req.paragraph)


def _place(read: _Read, sentence: str) -> tuple[Page, int, int] | None:
    wanted = collapse(sentence)
    for page in read.pages:
        at = page.text.find(wanted) if wanted else -1
        if at >= 0:
            return page, at, at + len(wanted)
    return None


def _around(read: _Read, page: Page, start: int) -> tuple[Unit | None, bool]:
    """The unit the found text sits in (True), else the last one before it (False)."""
    before = None
    for unit in read.units:
        if (unit.page, unit.start) > (page.number, start):
            break
        if unit.page == page.number and unit.start <= start < unit.end:
            return unit, True
        before = unit
    return before, False


def _position(read: _Read, req: Requirement) -> tuple[int, int]:
    page = read.pages[req.page - 1] if 0 < req.page <= len(read.pages) else None
    at = page.text.find(req.quote) if page is not None else -1
    return req.page, max(at, 0)


def _added(reads: dict[str, _Read], sentence: str, rid: str) -> Requirement:
    found = next(((file, f) for file, read in reads.items() if (f := _place(read, sentence)) is not None), None)
    if found is None:
        raise QuestionnaireError(
            ", ".join(reads),
            f"does not hold the sentence “{_short(collapse(sentence))}” on any page (whitespace aside)",
            "paste the words exactly as the solicitation prints them, from one page",
        )
    file, (page, start, end) = found
    unit, inside = _around(reads[file], page, start)
    base = Unit(file, page.number, start, end, "", "", unit.headings if unit else (), paragraph=1)
    if unit is not None:
        lead = unit.lead_in if inside else ""
        base = replace(base, lead_in=lead, item=bool(lead), paragraph=unit.paragraph if unit.page == page.number else 1)
    quote = page.text[start:end]
    kind, mandatory = _judged(quote, base)
    return Requirement(
        rid, file, page.number, base.paragraph, quote, kind, mandatory, " > ".join(base.headings), base.lead_in
    )


def add(result: Shredded, paths: Sequence[Path], sentences: Iterable[str], limits: Limits, strict: bool) -> Shredded:
    """``result`` with the sentences added as requirements, each in its place in document order
    (found in the first of the files ``paths`` that holds it)."""
    sentences = [s for s in sentences if s.strip()]
    if not sentences:
        return result
    reads = {p.name: _read_file(p, limits) for p in paths}
    reqs = list(result.requirements)
    taken = {r.id for r in reqs}
    for n, sentence in enumerate(sentences, 1):
        rid = f"{ADDED}{n:03d}"
        while rid in taken:
            rid += "a"
        try:
            new = _added(reads, sentence, rid)
        except QuestionnaireError:
            if strict:
                raise
            continue
        same = next((r for r in reqs if (r.file, r.page, r.quote) == (new.file, new.page, new.quote)), None)
        if same is not None:
            if strict:
                raise QuestionnaireError(
                    new.file, f"already lists “{_short(new.quote)}” as requirement {same.id}", "add another sentence"
                )
            continue
        read = reads[new.file]
        where = _position(read, new)
        at = next((i for i, r in enumerate(reqs) if r.file == new.file and _position(read, r) > where), None)
        if at is None:  # after the file's last requirement
            last = [i for i, r in enumerate(reqs) if r.file == new.file]
            at = last[-1] + 1 if last else len(reqs)
        reqs.insert(at, new)
        taken.add(rid)
    return replace(result, requirements=tuple(reqs))


def _refused(result: Shredded, problem: str, fix: str) -> QuestionnaireError:
    return QuestionnaireError(", ".join(result.files), problem, fix)


def split(result: Shredded, pairs: Iterable[str], strict: bool) -> Shredded:
    """``result`` with each "ID=FRAGMENT" requirement cut in two where FRAGMENT starts."""
    reqs = list(result.requirements)
    for pair in pairs:
        rid, _, fragment = (x.strip() for x in pair.partition("="))
        at = next((i for i, r in enumerate(reqs) if r.id == rid), None)
        cut = reqs[at].quote.find(collapse(fragment)) if at is not None and fragment.strip() else -1
        first = reqs[at].quote[:cut].rstrip() if cut > 0 else ""
        if not first:
            if not strict:
                continue
            if at is None:
                raise _refused(
                    result, f"has no requirement {rid} to split", "give ID=FRAGMENT with an ID `shred` lists"
                )
            raise _refused(
                result,
                f"cannot split {rid} at “{_short(fragment)}”: "
                + ("it starts there" if cut == 0 else "its words do not hold it"),
                "give the words the second part starts with, as the requirement quotes them",
            )
        old = reqs[at]
        second = old.quote[cut:]
        n, taken = 2, {r.id for r in reqs}
        while f"{rid}{SPLIT}{n}" in taken:
            n += 1
        parts = []
        for rid_part, quote in ((rid, first), (f"{rid}{SPLIT}{n}", second)):
            kind, mandatory = _judged(quote, _unit_of(old))
            parts.append(replace(old, id=rid_part, quote=quote, kind=kind, mandatory=mandatory, also_in=()))
        reqs[at : at + 1] = parts
    return replace(result, requirements=tuple(reqs))


def _merge_refusal(result: Shredded, reqs: Sequence[Requirement], ids: list[str]) -> str | None:
    """Why the requirements ``ids`` cannot be merged (None: they can)."""
    index = {r.id: i for i, r in enumerate(reqs)}
    missing = [rid for rid in ids if rid not in index]
    if len(ids) < 2:
        return f"merge '{'+'.join(ids)}' names one requirement"
    if missing:
        return f"has no requirement {', '.join(missing)} to merge"
    places = [index[rid] for rid in ids]
    if places != list(range(places[0], places[0] + len(ids))):
        return f"cannot merge {' + '.join(ids)}: they are not next to each other in the document"
    if len({(reqs[i].file, reqs[i].page) for i in places}) > 1:
        pages = " and ".join(f"p.{reqs[i].page}" for i in places)
        return f"cannot merge {' + '.join(ids)}: they are on different pages ({pages}); a requirement is quoted from one page"
    return None


def merge(result: Shredded, paths: Sequence[Path], pairs: Iterable[str], limits: Limits, strict: bool) -> Shredded:
    """``result`` with each "ID+ID" run of adjacent requirements on one page made one (the first's ID)."""
    reqs = list(result.requirements)
    for pair in pairs:
        index = {r.id: i for i, r in enumerate(reqs)}
        ids = sorted((x.strip() for x in pair.split("+") if x.strip()), key=lambda rid: index.get(rid, -1))
        why = _merge_refusal(result, reqs, ids)  # in document order, whatever order they were given in
        if why is not None:
            if strict:
                raise _refused(
                    result, why, "give ID+ID of requirements next to each other on one page, as `shred` lists them"
                )
            continue
        at = next(i for i, r in enumerate(reqs) if r.id == ids[0])
        parts = reqs[at : at + len(ids)]
        path = next(p for p in paths if p.name == parts[0].file)
        page = _read_file(path, limits).pages[parts[0].page - 1]
        start = page.text.find(parts[0].quote)
        end = start
        for part in parts:
            found = page.text.find(part.quote, end)
            end = found + len(part.quote) if found >= 0 else -1
            if found < 0:
                break
        if start < 0 or end < 0:  # not where the page holds them (never, for the shredder's quotes)
            if strict:
                raise _refused(
                    result,
                    f"cannot merge {' + '.join(ids)}: their words are not in order on their page",
                    "merge others",
                )
            continue
        merged = replace(parts[0], quote=page.text[start:end], mandatory=any(p.mandatory for p in parts))
        reqs[at : at + len(ids)] = [merged]
    return replace(result, requirements=tuple(reqs))


def edited(
    paths: Sequence[str | Path], result: Shredded, edits: Edits, limits: Limits | None = None, strict: bool = False
) -> Shredded:
    """``result`` (the files ``paths`` shredded) with the reviewer's edits: sentences added, then
    requirements split, then merged (module docstring). ``strict``: an edit that does not fit is
    refused (a :class:`QuestionnaireError` naming the file, the problem and the fix), else passed over."""
    if not edits:
        return result
    files, limits = [Path(p) for p in paths], limits or Limits.from_env()
    result = add(result, files, edits.added, limits, strict)
    result = split(result, edits.splits, strict)
    return merge(result, files, edits.merges, limits, strict)


__all__ = ["ADDED", "SPLIT", "Edits", "add", "edited", "merge", "split"]
