#!/usr/bin/env bash
# Builds tests/compositor into .build/test-compositor/meridian-test-compositor.
#
# The end-to-end tests run it (Tests/EndToEndTests/Support/TestCompositor.swift calls this script when
# needed). On a fresh Debian 12 it installs what it needs without asking (the "lean" set of
# docs/TEST-COMPOSITOR.md: libwlroots10 and the wlroots headers unpacked from `apt-get download
# libwlroots-dev`, which avoids that package's ~170 MiB of mesa/LLVM dev dependencies), plus weston for
# its reference clients. It is quiet and quick when the binary is already newer than its sources.
#
# Usage: scripts/build-test-compositor.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
src=tests/compositor
out=.build/test-compositor
bin=$out/meridian-test-compositor
mkdir -p "$out"

# Several test processes may call this at once; one builds, the others wait for it.
exec 9>"$out/.lock"
flock 9

up_to_date() {
    [ -x "$bin" ] || return 1
    [ -n "$(find "$src" scripts/build-test-compositor.sh -newer "$bin" -type f)" ] && return 1
    return 0
}
if [ "${1:-}" != "--force" ] && up_to_date; then
    exit 0
fi

# Debian packages: what the compiler and the tests need. dpkg-query is fast; apt only runs if
# something is missing, and `apt-get update` only if installing fails without it.
packages=(libwlroots10 libdrm-dev libpixman-1-dev libudev-dev libwayland-dev wayland-protocols
          libwayland-bin libxkbcommon-dev libcairo2-dev pkg-config gcc libc6-dev xkb-data weston)
missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
if [ ${#missing[@]} -gt 0 ]; then
    echo "build-test-compositor: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Wait for another apt run (a parallel build, another test) instead of failing on its lock.
    install=(apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}")
    if ! as_root "${install[@]}" >&2; then
        as_root apt-get update -o DPkg::Lock::Timeout=300 >&2
        as_root "${install[@]}" >&2
    fi
fi

# wlroots headers without libwlroots-dev: unpack the -dev package (60 KB) into the build folder.
wlr_include=$out/wlroots-dev/usr/include
if [ ! -f "$wlr_include/wlr/version.h" ]; then
    version=$(dpkg-query -W -f='${Version}' libwlroots10)
    tmp=$(mktemp -d)
    # apt's _apt user cannot write into root-owned temporary folders; it then downloads as root.
    ( cd "$tmp" && apt-get download "libwlroots-dev=$version" >/dev/null 2>&1 ) \
        || ( as_root apt-get update >&2 && cd "$tmp" && apt-get download "libwlroots-dev=$version" >&2 )
    rm -rf "$out/wlroots-dev"
    dpkg-deb -x "$tmp"/libwlroots-dev_*.deb "$out/wlroots-dev"
    rm -rf "$tmp"
fi

# wlr/types/wlr_xdg_shell.h includes the xdg-shell *server* header, which no package ships.
gen=$out/gen
mkdir -p "$gen"
protocols=$(pkg-config --variable=pkgdatadir wayland-protocols)
wayland-scanner server-header "$protocols/stable/xdg-shell/xdg-shell.xml" "$gen/xdg-shell-protocol.h"
# wlr/types/wlr_text_input_v3.h likewise includes the text-input-v3 server header.
wayland-scanner server-header "$protocols/unstable/text-input/text-input-unstable-v3.xml" "$gen/text-input-unstable-v3-protocol.h"
# Touch times to the nanosecond (input-timestamps.c), which wlroots 0.15 does not offer.
wayland-scanner server-header "$protocols/unstable/input-timestamps/input-timestamps-unstable-v1.xml" "$gen/input-timestamps-unstable-v1-protocol.h"
wayland-scanner private-code "$protocols/unstable/input-timestamps/input-timestamps-unstable-v1.xml" "$gen/input-timestamps-unstable-v1-protocol.c"

sources=("$src"/*.c "$gen/input-timestamps-unstable-v1-protocol.c")
# -l:libwlroots.so.10 because the unversioned .so symlink comes with the -dev package we avoid.
gcc -std=c11 -Wall -Wextra -Wno-unused-parameter -Werror -O1 -g -DWLR_USE_UNSTABLE \
    -I"$gen" -I"$wlr_include" -I"$src" \
    $(pkg-config --cflags wayland-server xkbcommon pixman-1 cairo libdrm) \
    -o "$bin.tmp" "${sources[@]}" \
    -l:libwlroots.so.10 $(pkg-config --libs wayland-server xkbcommon pixman-1 cairo)
mv "$bin.tmp" "$bin"
echo "build-test-compositor: built $root/$bin" >&2
