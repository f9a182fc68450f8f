"""Scopes: whose evidence a knowledge-base document (or a past answer) is.

A document is company-wide (the default: it speaks for every product), belongs to one or more
products, or is a third party's (a cloud provider's certificate describes another company's
practice). A questionnaire is drafted for one product, or for none (company-wide), and retrieval
for it uses only the documents its :class:`ScopeFilter` allows:

==========================  ======================  ========================
document                    drafted for product P   drafted with no product
==========================  ======================  ========================
company-wide                yes                     yes
a product scope with P      yes                     no
a product scope without P   never                   no
third party T               yes, labelled T         yes, labelled T
==========================  ======================  ========================

Third-party passages are labelled to the model (``… — THIRD PARTY: T``) and a draft whose
highlightable citations are all third-party is *inherited* from that third party.

Adding content the knowledge base already holds with a scope (``kb add … --product P``) changes
only the document's scope (:meth:`Scope.merged`): a product scope gains the product (a file
present in two product folders belongs to both); any other scope is replaced by the new one.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Protocol, Sequence, TypeVar

NAME_CHARS = 80  # longest product or third-party name
THIRD_PARTY_MARK = " — THIRD PARTY: "  # how a third-party passage's label ends (the prompt explains it)
COMPANY_LABEL = "company-wide"


class Scoped(Protocol):
    """Anything with a scope (a knowledge-base document's info, a past answer): what the rules
    below read, so that this module needs no record of engine/core/types.py (which imports it)."""

    @property
    def scope(self) -> Scope: ...


D = TypeVar("D", bound=Scoped)


class ScopeError(ValueError):
    """A scope that cannot be: the message names the value, the rule and the fix."""


def scope_name(value: object, what: str = "product") -> str:
    """``value`` as a product or third-party name (inner runs of spaces made one), or ScopeError."""
    if not isinstance(value, str):
        raise ScopeError(f'the {what} name {value!r} is not text; give the {what} as a name, e.g. "Canvas LMS"')
    name = " ".join(value.split())
    if not name:
        raise ScopeError(f'the {what} name {value!r} is empty; give the {what}\'s name, e.g. "Canvas LMS"')
    if len(name) > NAME_CHARS:
        raise ScopeError(
            f"the {what} name {name[:40]!r}… has {len(name)} characters, more than {NAME_CHARS}; give a shorter name"
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise ScopeError(
            f"the {what} name {name!r} holds control characters; type the name with letters, "
            "digits and punctuation only"
        )
    return name


@dataclass(frozen=True)
class Scope:
    """Whose evidence a document is: ``products`` (sorted, no repeats) or ``third_party``, or
    neither (company-wide, ``Scope()``)."""

    products: tuple[str, ...] = ()
    third_party: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.products, str):
            raise ScopeError(
                f"products={self.products!r} is one string; give a tuple of names, "
                f"e.g. Scope(products=({self.products!r},))"
            )
        products = tuple(sorted({scope_name(p, "product") for p in self.products}))
        third = None if self.third_party is None else scope_name(self.third_party, "third party")
        if products and third:
            raise ScopeError(
                f"a document is either products' ({', '.join(products)}) or a third party's "
                f"({third}), not both; choose one"
            )
        object.__setattr__(self, "products", products)
        object.__setattr__(self, "third_party", third)

    @property
    def company(self) -> bool:
        """Company-wide: no product and no third party."""
        return not self.products and self.third_party is None

    @property
    def label(self) -> str:
        """ "company-wide", "product: Canvas LMS", "products: A, B" or "third party: T"."""
        if self.third_party:
            return f"third party: {self.third_party}"
        if self.products:
            return f"product{'s' if len(self.products) > 1 else ''}: {', '.join(self.products)}"
        return COMPANY_LABEL

    def merged(self, new: Scope) -> Scope:
        """The scope after the same content is added again with ``new``: the products of both
        when both are product scopes, else ``new``."""
        if self.products and new.products:
            return Scope(self.products + new.products)
        return new

    def to_json(self) -> dict:
        return {"products": list(self.products), "third_party": self.third_party}

    @classmethod
    def from_json(cls, d: Mapping | None) -> Scope:
        """A stored scope; None (a manifest written before scopes existed) is company-wide."""
        if not d:
            return cls()
        return cls(tuple(d.get("products") or ()), d.get("third_party"))


COMPANY = Scope()


@dataclass(frozen=True)
class ScopeFilter:
    """The documents a questionnaire may be drafted from: for ``product`` P, company-wide, P's and
    third-party documents; for no product (company-wide), company-wide and third-party ones."""

    product: str | None = None

    def __post_init__(self) -> None:
        if self.product is not None:
            object.__setattr__(self, "product", scope_name(self.product, "product"))

    def allows(self, scope: Scope) -> bool:
        return not scope.products or self.product in scope.products

    def restrict(self, docs: Sequence[D]) -> list[D] | None:
        """The documents of ``docs`` a search may return; None when it may return every one
        (nothing to filter)."""
        allowed = [d for d in docs if self.allows(d.scope)]
        return None if len(allowed) == len(docs) else allowed


def passage_suffix(third_party: str | None) -> str:
    """What the label of a passage from a third party's document ends with for the model
    (`` — THIRD PARTY: T``); nothing for other documents."""
    return f"{THIRD_PARTY_MARK}{third_party}" if third_party else ""


def inherited_from(third_parties: Iterable[str | None]) -> str | None:
    """The third party (names joined by ", " when several) that every one of a draft's
    highlightable citations comes from; None when there is none, or one is not a third party's."""
    names = list(third_parties)
    if not names or any(n is None for n in names):
        return None
    return ", ".join(sorted(set(names)))


def products_of(docs: Iterable[Scoped]) -> list[str]:
    """Every product named by a document scope, sorted."""
    return sorted({p for d in docs for p in d.scope.products})


def third_parties_of(docs: Iterable[Scoped]) -> list[str]:
    """Every third party named by a document scope, sorted."""
    return sorted({d.scope.third_party for d in docs if d.scope.third_party})


@dataclass(frozen=True)
class FolderScopes:
    """A file's scope from the name of the folder that holds it (``--scope-folders`` of ``kb add``,
    ``library import`` and ``eval``): ``company`` (None: no such folder) is company-wide, each of
    ``third_parties`` that third party's, any other folder a product of its name. The defaults
    fit ../shared/data/instructure (``eval``'s defaults); ``kb add`` and ``library import`` name
    no folder unless told (engine/cli/common.py ``folder_scope_args``)."""

    company: str | None = "Instructure"
    third_parties: tuple[str, ...] = ("Amazon Web Services", "Google Cloud Platform")

    def __post_init__(self) -> None:
        if self.company is not None:
            object.__setattr__(self, "company", scope_name(self.company, "company folder"))
        object.__setattr__(
            self, "third_parties", tuple(scope_name(t, "third-party folder") for t in self.third_parties)
        )

    def scope_of(self, path: Path) -> Scope:
        """The scope of a file: its folder's (:meth:`folder_scope`)."""
        return self.folder_scope(Path(path).parent.name)

    def folder_scope(self, folder: str) -> Scope:
        """The scope of the files in a folder of this name."""
        if folder == self.company:
            return COMPANY
        if folder in self.third_parties:
            return Scope(third_party=folder)
        return Scope((folder,))

    def product_of(self, path: Path) -> str | None:
        """The product a file (a questionnaire) is for: its folder's, None for the company's
        folder or a third party's."""
        products = self.scope_of(path).products
        return products[0] if products else None

    def folders(self, files: Iterable[Path]) -> list[tuple[str, Scope, int]]:
        """Each folder holding some of ``files`` (by name, sorted), the scope its files get and
        how many they are: what ``kb add --scope-folders`` and the Knowledge base screen show
        before adding (a file in several product folders then belongs to each)."""
        counts: dict[str, int] = {}
        for f in files:
            counts[Path(f).parent.name] = counts.get(Path(f).parent.name, 0) + 1
        return [(name, self.folder_scope(name), n) for name, n in sorted(counts.items())]

    def of_files(self, files: Iterable[Path]) -> dict[Path, Scope]:
        """Each file's scope, the same for every copy of one content: company-wide when a copy is
        in the company folder, else every product folder holding a copy, else the third party.
        A file that cannot be read gets its own folder's scope (reading it reports the problem)."""
        files = list(files)
        digest = {f: _digest(Path(f)) for f in files}
        by_content: dict[str, list[Scope]] = {}
        for f in sorted(files):
            by_content.setdefault(digest[f], []).append(self.scope_of(f))
        combined = {}
        for key, scopes in by_content.items():
            products = [p for s in scopes for p in s.products]
            combined[key] = (
                COMPANY if any(s.company for s in scopes) else Scope(tuple(products)) if products else scopes[0]
            )
        return {f: combined[digest[f]] for f in files}


def _digest(path: Path) -> str:
    """The SHA-256 of a file's bytes; for a file that cannot be read, a key of its path alone."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return f"unreadable:{path}"
