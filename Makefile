# questc: two commands set everything up — `make build` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# First-party plugins (docs/plugins.md): each an installable package of its own under
# plugins/, installed beside questc so that `--plugin NAME` finds it.
PLUGINS := $(sort $(dir $(wildcard plugins/*/pyproject.toml)))

.PHONY: build test test-fast lint bench install clean docs mutate chromium mono nodejs fuzz vscode

$(STAMP): pyproject.toml $(addsuffix pyproject.toml,$(PLUGINS))
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' $(addprefix -e ./,$(PLUGINS))
	touch $(STAMP)

install: $(STAMP)

build: $(STAMP)
	$(BIN)/questc build content -o build

test: $(STAMP) chromium mono nodejs lint
	$(BIN)/python -m pytest

# The static checks, part of `make test`: ruff (pyproject.toml [tool.ruff]) over the whole
# tree, mypy --strict (pyproject.toml [tool.mypy]) over compiler/ and plugins/. Both at 0.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The quick loop while editing: everything but the browser, the slow and the plugins'
# tests (markers in pyproject.toml, given by tests/conftest.py). `make test` runs all.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow and not plugins"

# The web player's browser tests drive Debian's Chromium (tests/browser.py). Install it
# when it is missing and we can (root or password-less sudo, with apt-get); otherwise say
# so: those tests then fail with one message naming what is missing.
chromium:
	@if [ -n "$$QUESTC_CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "make: Chromium is missing and apt-get is not available: the browser tests will fail (install Chromium or set QUESTC_CHROMIUM)"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
	  || echo "make: installing Chromium failed: the browser tests will fail"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
	  || echo "make: installing Chromium failed: the browser tests will fail"; \
	else echo "make: Chromium is missing and cannot be installed without root: the browser tests will fail (apt-get install chromium, or set QUESTC_CHROMIUM)"; fi

# The Valkyrie app-loader test (tests/test_valkyrie_app_loader.py) compiles the app's own quest
# loader with mono's C# compiler. Install it when it is missing and we can, as for Chromium;
# otherwise say so: that test then skips, saying what is missing.
mono:
	@if command -v mcs >/dev/null 2>&1 && command -v mono >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "make: mono's compiler (mcs) is missing and apt-get is not available: the Valkyrie app-loader test will skip"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q mono-mcs \
	  || echo "make: installing mono-mcs failed: the Valkyrie app-loader test will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q mono-mcs \
	  || echo "make: installing mono-mcs failed: the Valkyrie app-loader test will skip"; \
	else echo "make: mono's compiler (mcs) is missing and cannot be installed without root: the Valkyrie app-loader test will skip (apt-get install mono-mcs)"; fi

# The web player's modules are tested without a browser too: tests/test_player_node.py runs
# `node --test` on the shared vectors (docs/sight.md, "The web player"). Install Debian's
# nodejs when it is missing and we can, as for Chromium; otherwise say so: those tests then
# skip, saying what is missing.
nodejs:
	@if command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "make: Node.js is missing and apt-get is not available: the player's node tests will skip"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs \
	  || echo "make: installing nodejs failed: the player's node tests will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs \
	  || echo "make: installing nodejs failed: the player's node tests will skip"; \
	else echo "make: Node.js is missing and cannot be installed without root: the player's node tests will skip (apt-get install nodejs)"; fi

bench: $(STAMP)
	$(BIN)/python -m bench

# The whole toolchain fuzzed in-process under a supervisor (fuzz/, docs/robustness.md); not
# part of `make test`. N=100000 random inputs after the directed ones, SEED=… (default:
# random, printed) replays a run; findings and the summary go to build/fuzz/. Exit 1 when
# anything was found. TARGETS=quest,tmj and FUZZ_ARGS="--timeout 20" pass through.
N ?= 100000
fuzz: $(STAMP)
	$(BIN)/python -m fuzz -n $(N) $(if $(SEED),--seed $(SEED)) $(if $(TARGETS),--targets $(TARGETS)) $(FUZZ_ARGS)

# Mutation testing of the rules core (docs/mutation.md); not part of `make test`.
# MODULES=assemble limits it to some modules (tools/mutate.py list); AGAIN=1 reruns only
# the mutants the last run did not kill, after tests were added.
MUTATE_STAMP := $(VENV)/.installed-mutate
$(MUTATE_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	$(BIN)/python tools/mutate.py run $(if $(AGAIN),--again) $(if $(JOBS),--jobs $(JOBS)) $(MODULES)
	$(BIN)/python tools/mutation_report.py

docs: $(STAMP)
	$(BIN)/python -m compiler.diagnostics.docgen > docs/diagnostics.md

# The VS Code package (docs/editors.md): the pinned tools of editors/vscode/package-lock.json
# (@vscode/vsce 2.32.0 runs on Debian's nodejs 18), a bundled extension, no warning allowed.
vscode:
	cd editors/vscode && npm ci --no-audit --no-fund && npx vsce package 2>&1 | tee /dev/stderr | (! grep -i warning)

clean:
	rm -rf build $(VENV)
