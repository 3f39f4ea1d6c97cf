#!/usr/bin/env bash
# Soak runs (docs/RELIABILITY.md). Prints start/end resident memory, open descriptors and, for
# the headless run, the tile cache's use against its budget.
#
#   scripts/soak.sh headless [FRAMES]    realistic gestures replayed into the app in process
#                                        (default 1 000 000 frames; CI runs 100 000 through
#                                        `swift test --filter SoakTests`)
#   scripts/soak.sh live [MINUTES]       the real meridian under the test compositor, fed
#                                        drags, pinches, taps and wheel turns (default 30 min)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
unset WAYLAND_DISPLAY DISPLAY WAYLAND_SOCKET
mode=${1:-}

case $mode in
headless)
    frames=${2:-1000000}
    swift build --build-tests >/dev/null
    MERIDIAN_SOAK_FRAMES=$frames swift test --skip-build --filter SoakTests 2>&1 \
        | grep -E '^soak:|error:|Executed'
    ;;
live)
    minutes=${2:-30}
    swift build --product meridian >/dev/null
    scripts/build-test-compositor.sh >/dev/null
    runtime=$(mktemp -d)
    export XDG_RUNTIME_DIR=$runtime
    # The compositor reads commands from our coprocess pipe and answers one line each.
    coproc COMP { exec .build/test-compositor/meridian-test-compositor -W 800 -H 1280 -S wl-soak -k 2>"$runtime/compositor.log"; }
    send() {
        echo "$1" >&"${COMP[1]}"
        local line
        while IFS= read -r -t 30 line <&"${COMP[0]}"; do
            [[ $line == event* || $line == ready ]] && continue
            [[ $line == error* ]] && echo "soak: compositor: $line" >&2
            return 0
        done
        echo "soak: the compositor stopped answering" >&2
        exit 1
    }
    while IFS= read -r -t 30 line <&"${COMP[0]}"; do [[ $line == ready ]] && break; done
    WAYLAND_DISPLAY=wl-soak .build/debug/meridian --state-out "$runtime/state.json" 2>"$runtime/meridian.log" &
    app=$!
    send "wait-map 10000"
    send "wait-idle 500 20000"
    rss() { awk '/VmRSS/ {print $2}' "/proc/$app/status"; }
    fds() { ls "/proc/$app/fd" | wc -l; }
    # One gesture of four kinds in turn: drag, pinch (in, then out), tap, wheel turn.
    gesture() {
        local gestures=$1 x y d i
        x=$(( 150 + RANDOM % 500 )) y=$(( 400 + RANDOM % 600 ))
        case $(( gestures % 4 )) in
            0) send "down 0 $x $y"; send "frame"
               for i in 1 2 3 4 5 6 7 8; do send "motion 0 $(( x + i * 12 )) $(( y - i * 9 ))"; send "frame"; send "sleep 16"; done
               send "up 0"; send "frame" ;;
            1) send "down 1 $(( x - 60 )) $y"; send "down 2 $(( x + 60 )) $y"; send "frame"
               for i in 1 2 3 4 5 6 7 8; do
                   d=$(( gestures % 8 < 4 ? i * 8 : -i * 6 ))
                   send "motion 1 $(( x - 60 - d )) $y"; send "motion 2 $(( x + 60 + d )) $y"; send "frame"; send "sleep 16"
               done
               send "up 1"; send "up 2"; send "frame" ;;
            2) send "down 3 $x $y"; send "frame"; send "up 3"; send "frame"; send "sleep 400" ;;
            3) send "pointer-move $x $y"; send "axis vertical $(( gestures % 8 < 4 ? 15 : -15 )) 1" ;;
        esac
    }
    # Warm-up: one of each kind first, so one-time set-up (the cursor theme's buffer, the
    # first tiles) is not counted as growth.
    for n in 0 1 2 3; do gesture $n; done
    send "wait-idle 500 20000"
    start_rss=$(rss) start_fds=$(fds)
    echo "soak: live start rssKiB=$start_rss fds=$start_fds"
    end=$(( $(date +%s) + minutes * 60 ))
    gestures=0
    while (( $(date +%s) < end )); do
        gesture $gestures
        gestures=$(( gestures + 1 ))
        if (( gestures % 500 == 0 )); then echo "soak: $gestures gestures rssKiB=$(rss) fds=$(fds)"; fi
        if ! kill -0 "$app" 2>/dev/null; then echo "soak: meridian died; see $runtime/meridian.log" >&2; exit 1; fi
    done
    send "wait-idle 500 20000"
    end_rss=$(rss) end_fds=$(fds)
    kill -TERM "$app"
    status=0; wait "$app" || status=$?
    # Not `send`: the compositor exits on quit and bash then unsets COMP.
    echo quit >&"${COMP[1]}" 2>/dev/null || true
    echo "soak: live minutes=$minutes gestures=$gestures rssKiB start=$start_rss end=$end_rss fds start=$start_fds end=$end_fds exit=$status"
    echo "soak: tile cache: not observable from outside a live process (see the headless run)"
    [[ $status -eq 0 ]] && rm -rf "$runtime"
    exit $status
    ;;
*)
    echo "usage: scripts/soak.sh headless [FRAMES] | live [MINUTES]" >&2
    exit 2 ;;
esac
