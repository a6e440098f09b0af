"""`python -m compiler` runs the command line, exactly as the `questc` script does."""

from compiler.cli import main

raise SystemExit(main())
