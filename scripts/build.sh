#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds ccdkit into build/<name>. Usage: scripts/build.sh NAME [extra cmake arguments...]
# CCDKIT_BUILD_TARGET=T builds target T only (the configuration is the same either way).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
name="$1"
shift
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$root/build/$name" -G Ninja "${launcher[@]}" "$@" >/dev/null
target=()
if [[ -n "${CCDKIT_BUILD_TARGET:-}" ]]; then
  target=(--target "$CCDKIT_BUILD_TARGET")
fi
cmake --build "$root/build/$name" --parallel "$(nproc)" "${target[@]}"
