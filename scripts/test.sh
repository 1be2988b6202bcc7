#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and runs every test (unit, shared datasets, randomized differential).
# The shared benchmark queries are read from ../shared/ccd-queries (override with CCDKIT_QUERY_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release -DCMAKE_BUILD_TYPE=Release -DCMAKE_COMPILE_WARNING_AS_ERROR=ON
cd "$root/build/release"
ctest --output-on-failure --parallel "$(nproc)" --timeout 1500
