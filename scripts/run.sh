#!/usr/bin/env bash
# Builds and runs Meridian on a fresh Debian 12 machine with only the Swift toolchain.
# Installs the Debian packages it needs first. Then:
#  - under a running Wayland compositor (WAYLAND_DISPLAY set): opens Meridian there;
#  - under X11 (DISPLAY set): starts weston in a window and opens Meridian inside it;
#  - with no display at all: replays the built-in demo headless and writes its screenshots.
# Any arguments are passed to meridian (see `meridian --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/install-deps.sh run
swift build -c release --product meridian >&2
bin=$(swift build -c release --show-bin-path)/meridian

runtime_dir() {
    if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
        XDG_RUNTIME_DIR=$(mktemp -d /tmp/meridian-runtime-XXXXXX)
        chmod 0700 "$XDG_RUNTIME_DIR"
        export XDG_RUNTIME_DIR
    fi
}

if [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin" "$@"
elif [ -n "${DISPLAY:-}" ]; then
    runtime_dir
    socket="meridian-$$"
    echo "run: no Wayland compositor running; starting weston in an X11 window" >&2
    weston --backend=x11-backend.so --socket="$socket" --width=820 --height=1340 --idle-time=0 &
    weston_pid=$!
    trap 'kill $weston_pid 2>/dev/null || true' EXIT
    for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/$socket" ] && break; sleep 0.05; done
    WAYLAND_DISPLAY="$socket" "$bin" "$@"
else
    out=out/demo
    mkdir -p "$out"
    echo "run: no display and no Wayland compositor: replaying the built-in demo headless" >&2
    for trace in demo/*.trace; do
        name=$(basename "$trace" .trace)
        "$bin" --headless --replay "$trace" --screenshot "$out/$name.png" --state-out "$out/$name.json" "$@"
        echo "run: wrote $out/$name.png and $out/$name.json (from $trace)"
    done
fi
