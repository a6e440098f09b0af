"""`.venv/bin/python -m fuzz`: see fuzz/__init__.py and docs/robustness.md."""

import sys

from fuzz.supervisor import main

if __name__ == "__main__":
    sys.exit(main())
