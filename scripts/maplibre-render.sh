#!/usr/bin/env bash
# MapLibre Native reference rendering (scripts/maplibre-render.py has the options): installs
# PyPI pymgl 0.5.0 and numpy into .build/maplibre-venv on first use (plus the Debian EGL/Mesa
# libraries it loads, without upgrading what is installed) and renders on the CPU (llvmpipe).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/maplibre-venv
libs=(python3-venv libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libgbm1 libx11-6 libxext6 libsm6 libice6 libcurl4)
missing=()
for p in "${libs[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --no-upgrade "${missing[@]}" >&2
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pymgl" 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pymgl==0.5.0 numpy >&2
fi
export EGL_PLATFORM=surfaceless GALLIUM_DRIVER=${GALLIUM_DRIVER:-llvmpipe}
exec "$venv/bin/python" scripts/maplibre-render.py "$@"
