#!/usr/bin/env bash
# Makes .build/maplibre-venv: PyPI pymgl 0.5.0 (MapLibre Native; the newest build for Debian
# 12's Python 3.11) and numpy, plus the Debian libraries it loads, for the render bench's
# MapLibre peer and the style tests' reference renderings (shared/reference/maplibre-native.md).
# Prints the venv's python on success. --no-upgrade: Mesa is never upgraded under someone
# else's measurement on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/maplibre-venv
if ! "$venv/bin/python" -c "import pymgl, numpy" 2>/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        pkgs="python3-venv libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libgbm1 libx11-6 libxext6 libsm6 libice6 libcurl4"
        missing=$(for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
        if [ -n "$missing" ]; then
            apt-get update -qq >&2
            # shellcheck disable=SC2086
            apt-get install -y -qq --no-install-recommends --no-upgrade $missing >&2
        fi
    fi
    mkdir -p .build
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q "pymgl==0.5.0" numpy >&2
fi
echo "$PWD/$venv/bin/python"
