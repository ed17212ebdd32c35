#!/usr/bin/env bash
# docs/api-coverage.md is what scripts/api_coverage.py makes of the
# installed headers and library: every declared function is exported,
# every exported acl* function is declared, and the document is current.
#   test_api_coverage.sh <install prefix> <source dir>
set -euo pipefail
prefix=$1
src=$2
python3 "$src/scripts/api_coverage.py" --prefix "$prefix" --root "$src" --out "$src/docs/api-coverage.md" --check
echo "docs/api-coverage.md is current"
