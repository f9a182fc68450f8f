"""Command line: ``python -m engine …`` (``--help`` on any command); the commands live in engine/cli/."""

import sys

from engine.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
