#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every build and test dependency of ccdkit from Debian's packages (and nothing else).
# Safe to run repeatedly: apt-get skips what is already there.
# Usage: scripts/install-deps.sh [--peers]
#   --peers  also install FCL and Bullet (libfcl-dev, libbullet-dev, pkg-config) for the optional comparison
#            benchmark bench/ccdkit_bench_rigid_peers (-DCCDKIT_BUILD_PEER_BENCHMARKS=ON)
set -euo pipefail

peers=0
for arg in "$@"; do
  case "$arg" in
    --peers) peers=1 ;;
    *) echo "install-deps.sh: unknown argument '$arg' (usage: install-deps.sh [--peers])" >&2; exit 2 ;;
  esac
done

PACKAGES=(
  build-essential cmake ninja-build ccache clang-format
  libeigen3-dev libgmp-dev libtbb-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libbenchmark-dev
)
if [ "$peers" -eq 1 ]; then
  PACKAGES+=(pkg-config libfcl-dev libbullet-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "ccdkit: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
