# questc: two commands set everything up — `make build` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test bench install clean docs mutate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

build: $(STAMP)
	$(BIN)/questc build content -o build

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

# Mutation testing of the rules core (docs/mutation.md); not part of `make test`.
# MODULES=assemble limits it to some modules (tools/mutate.py list); AGAIN=1 reruns only
# the mutants the last run did not kill, after tests were added.
MUTATE_STAMP := $(VENV)/.installed-mutate
$(MUTATE_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	$(BIN)/python tools/mutate.py run $(if $(AGAIN),--again) $(MODULES)
	$(BIN)/python tools/mutation_report.py

docs: $(STAMP)
	$(BIN)/python -m compiler.diagnostics.docgen > docs/diagnostics.md

clean:
	rm -rf build $(VENV)
