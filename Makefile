# questc: two commands set everything up — `make build` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# First-party plugins (docs/plugins.md): each an installable package of its own under
# plugins/, installed beside questc so that `--plugin NAME` finds it.
PLUGINS := $(sort $(dir $(wildcard plugins/*/pyproject.toml)))

.PHONY: build test bench install clean docs

$(STAMP): pyproject.toml $(addsuffix pyproject.toml,$(PLUGINS))
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' $(addprefix -e ./,$(PLUGINS))
	touch $(STAMP)

install: $(STAMP)

build: $(STAMP)
	$(BIN)/questc build content -o build

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

docs: $(STAMP)
	$(BIN)/python -m compiler.diagnostics.docgen > docs/diagnostics.md

clean:
	rm -rf build $(VENV)
