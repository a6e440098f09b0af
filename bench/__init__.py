"""Benchmarks: one module per topic, each with a `main()` that prints figures and a baseline
measured in the same run. `python -m bench` runs them all; `python -m bench.<name>` runs one."""
