#!/usr/bin/env bash
# CI smoke check of `meridian-bench latency` (docs/LATENCY.md): runs the suite once on the debug
# build at 60 Hz with two rounds (weston left out), prints every figure, and fails only when the
# pipeline is broken (the bench exits non-zero, or no input-to-present figure came out). No timing
# is judged: speed is read from the figures by people, on a quiet machine, in release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
unset WAYLAND_DISPLAY DISPLAY WAYLAND_SOCKET
out=$(mktemp)
trap 'rm -f "$out"' EXIT
MERIDIAN_LATENCY_REFRESH=60 MERIDIAN_LATENCY_ROUNDS=2 MERIDIAN_LATENCY_WESTON=0 swift run meridian-bench latency > "$out"
cat "$out"
for metric in pan_input_to_present_ms scroll_input_to_present_ms pinch_input_to_present_ms fling_input_to_present_ms; do
    if ! grep -q "\"metric\": *\"$metric\"" "$out"; then
        echo "latency-smoke: no $metric figure: the compositor run or presentation feedback is broken" >&2
        exit 1
    fi
done
echo "latency-smoke: figures printed (not judged)" >&2
