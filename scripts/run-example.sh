#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and runs ccdkit's main job, `ccdkit check`, on its built-in example
# (a crumpling-cloth step); arguments go to `ccdkit check`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
# The same configuration of build/release as scripts/test.sh's (tests stay configured, so a later `ninja` or
# scripts/test.sh rebuilds them), building the command-line tool only.
CCDKIT_BUILD_TARGET=ccdkit_cli "$root/scripts/build.sh" release -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON
"$root/build/release/apps/ccdkit/ccdkit" check "$@"
