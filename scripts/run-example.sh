#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and runs ccdkit's main job, `ccdkit check`, on its built-in example
# (a crumpling-cloth step); arguments go to `ccdkit check`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release -DCMAKE_BUILD_TYPE=Release -DCCDKIT_BUILD_TESTS=OFF
"$root/build/release/apps/ccdkit/ccdkit" check "$@"
