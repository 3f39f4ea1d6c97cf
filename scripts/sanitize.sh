#!/usr/bin/env bash
# Runs the tests under a sanitizer, in its own build directory so it never invalidates the
# normal build. See docs/RELIABILITY.md.
#
#   scripts/sanitize.sh address|thread [FILTER]
#
# FILTER (a `swift test --filter` regex) defaults to the unit test targets; pass '.' for the
# whole suite (end-to-end included: slow on 2 cores, and the meridian binary the end-to-end
# tests start is then the sanitized one from the same build directory).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
kind=${1:-}
case $kind in
    address|thread) ;;
    *) echo "usage: scripts/sanitize.sh address|thread [FILTER]" >&2; exit 2 ;;
esac
filter=${2:-'InputTests|GesturesTests|GeoTests|TilesTests|RenderTests|WaylandTests|AppTests'}
scratch=.build/sanitize-$kind
unset WAYLAND_DISPLAY DISPLAY WAYLAND_SOCKET
# Sanitizer reports fail the run; the Swift backtracer would only slow a crash down. Leak
# checking is off by default: at exit LeakSanitizer reports fontconfig's caches and XCTest's
# test-case instances with everything they hold (XCTest's weak reference to each case, made in
# awaitUsingExpectation, is the only root and is itself never freed); none of it grows while
# the app runs (the soak measures that). Turn it on with ASAN_OPTIONS=detect_leaks=1 to look.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan-suppressions.txt}
export MERIDIAN_BIN=$PWD/$scratch/debug/meridian
swift build --sanitize="$kind" --scratch-path "$scratch" --build-tests
# Under ASan the soak's memory figures measure the sanitizer: freed memory is held in its
# quarantine (256 MiB) on purpose, so resident memory grows whatever the app does. The soak
# runs without a sanitizer in the normal suite, and under TSan here.
skip=()
[[ $kind == address ]] && skip=(--skip SoakTests)
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --filter "$filter" "${skip[@]}"
