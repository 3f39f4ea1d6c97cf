#!/usr/bin/env bash
# Runs every Meridian test on a fresh Debian 12 machine with only the Swift toolchain:
# installs the Debian packages the build and the tests need, builds the wlroots test
# compositor and Meridian, then runs the whole suite (unit, headless replay, and end-to-end
# tests that start real compositors themselves). No display or running compositor is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/install-deps.sh test
scripts/build-test-compositor.sh
# The shipped map files decode tile by tile, with the layers and credits the app expects.
bash scripts/check-data.sh
# The PMTiles test inputs are what the reference converter (PyPI pmtiles) makes of their sources.
scripts/data/make-test-tiles.sh --check
# Every parser of outside data under coverage-guided fuzzing, 25 s each (docs/RELIABILITY.md);
# before the test suite so that its summary stays the last thing printed.
scripts/fuzz.sh all 25
# The end-to-end tests start their own compositors; never let them talk to the user's.
unset WAYLAND_DISPLAY DISPLAY WAYLAND_SOCKET
# The layering is enforced, not only claimed: an import of a target not declared in Package.swift
# fails (SwiftPM's check accepts one reached through another dependency; check-imports.sh does not).
scripts/check-imports.sh
# MapLibre Native (PyPI pymgl) in a venv: the reference the style tests compare pixels with.
MERIDIAN_MAPLIBRE_PYTHON="$(scripts/maplibre-venv.sh)"
export MERIDIAN_MAPLIBRE_PYTHON
swift build --explicit-target-dependency-import-check error
# The app installs like a Linux app and runs from its prefix (desktop file, metainfo, man page).
scripts/check-install.sh
# The latency bench once, as a smoke check: it prints figures and judges no timing.
scripts/latency-smoke.sh
swift test "$@"
