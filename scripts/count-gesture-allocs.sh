#!/bin/sh
# Runs the gestures benchmark with a malloc counter preloaded, so it also reports heap
# allocations per input frame (see scripts/malloc-count.c). Builds the release bench if needed.
set -eu
cd "$(dirname "$0")/.."
mkdir -p .build
cc -O2 -shared -fPIC -o .build/malloc-count.so scripts/malloc-count.c
swift build -c release --product meridian-bench
LD_PRELOAD="$PWD/.build/malloc-count.so" .build/release/meridian-bench gestures
