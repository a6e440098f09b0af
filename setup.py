"""Ship the top-level `content/` and `schemas/` folders inside the installed tool.

pyproject.toml holds all metadata; this file only copies the two data folders into the
built package as `compiler/_shipped/{content,schemas}` (see compiler/resources.py), so a
plain `pip install` finds the shipped packs and schemas without the source tree.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithData(build_py):
    def run(self):
        super().run()
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "compiler" / "_shipped"
        for folder in ("content", "schemas"):
            dest = target / folder
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(here / folder, dest, ignore=shutil.ignore_patterns("__pycache__", ".*"))


setup(cmdclass={"build_py": BuildWithData})
