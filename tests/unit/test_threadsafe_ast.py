"""Four threads parse at once, as the app's threads do (Streamlit compiling a screen, numpy
reading an ``.npy`` header with ``ast.literal_eval``, pydantic reading a signature), with garbage
collections in between that hand the GIL over mid-parse. On Python 3.11 without
engine/core/threadsafe_ast.py this raises ``SystemError: AST constructor recursion depth
mismatch`` within the first 30 parses (measured: 6-29 of 200); with it, none of the 200 fails.
Run in a fresh interpreter so that the test sees exactly what ``import engine`` installs."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from engine.core import threadsafe_ast

HAMMER = textwrap.dedent(
    """
    import ast, threading
    import engine  # installs the lock, as every entry point does by importing the engine
    source = open(ast.__file__).read()
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 384), }"
    errors = []

    class Cycle:
        def __del__(self):  # collected in a later GC, which may switch threads inside a parse
            pass

    def work():
        for _ in range(50):
            try:
                ast.literal_eval(header)
                ast.parse(source)
            except SystemError as exc:
                errors.append(exc)
                return
            cycles = [Cycle() for _ in range(100)]
            for c in cycles:
                c.me = c

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(ast.parse.serialised if hasattr(ast.parse, "serialised") else "plain", errors[:1])
    """
)


def test_threads_parse_at_once_without_a_system_error():
    done = subprocess.run([sys.executable, "-c", HAMMER], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    expected = "True" if threadsafe_ast.needed() else "plain"
    assert done.stdout.split() == [expected, "[]"], done.stdout


def test_installing_twice_wraps_once():
    import ast

    first = ast.parse
    threadsafe_ast.install()
    assert ast.parse is first
    assert ast.parse("x = 1").body[0].targets[0].id == "x"
