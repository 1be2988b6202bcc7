#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every build and test dependency of ccdkit from Debian's packages (and nothing else).
# Safe to run repeatedly: apt-get skips what is already there.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache clang-format
  libeigen3-dev libgmp-dev libtbb-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libbenchmark-dev
)

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
