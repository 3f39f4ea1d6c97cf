#!/usr/bin/env bash
# MapLibre Native reference rendering of one view to PNG (scripts/maplibre-render.py has the
# options), in the venv scripts/maplibre-venv.sh makes (PyPI pymgl 0.5.0 on llvmpipe).
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(scripts/maplibre-venv.sh)
export EGL_PLATFORM=surfaceless GALLIUM_DRIVER=${GALLIUM_DRIVER:-llvmpipe}
exec "$python" scripts/maplibre-render.py "$@"
