#!/usr/bin/env bash
# Installs the Debian 12 packages Meridian needs, non-interactively, and only those missing.
# Usage: scripts/install-deps.sh build|run|test ...   (several groups may be named)
#   build: compile Meridian (C libraries and their headers, wayland-scanner, fonts)
#   run:   build + weston, so scripts/run.sh can start a compositor where none is running
#   test:  build + what the test suite starts: weston and the wlroots test compositor's parts,
#          and the validators scripts/check-install.sh runs
set -euo pipefail
build=(pkg-config libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev xkb-data libcairo2-dev
       libsqlite3-dev zlib1g-dev fonts-dejavu-core gcc libc6-dev libbrotli-dev libzstd-dev libfontconfig-dev
       libharfbuzz-dev libfribidi-dev libicu-dev libdeflate-dev)
run=(weston)
test=(weston libwlroots10 libdrm-dev libpixman-1-dev libudev-dev procps python3-venv)
# scripts/check-install.sh validates the installed .desktop file, metainfo and man page.
test+=(desktop-file-utils appstream groff-base python3)
# KWinWindowFitTests run stock KWin (kwin_wayland --virtual, in a dbus-run-session): the one
# compositor in Debian 12 that sends xdg_toplevel.configure_bounds (xdg_wm_base v4).
test+=(kwin-wayland dbus-daemon)
# PhocTests and SwayAndCageTests run the stock wlroots compositors tablets and kiosks run:
# phoc (Phosh), sway and cage (cage needs xwayland), with grim for their screenshots and
# setpriv (util-linux) to run sway and cage as an unprivileged uid.
test+=(phoc sway cage xwayland grim util-linux)
# The label font-fallback test draws Chinese, which DejaVu lacks (a small CJK font, 5 MB).
test+=(fonts-wqy-microhei)
# The shaping tests draw Devanagari conjuncts, which DejaVu lacks (Lohit Devanagari, 0.3 MB).
test+=(fonts-lohit-deva)
wanted=()
for group in "$@"; do
    case "$group" in
        build) wanted+=("${build[@]}") ;;
        run) wanted+=("${build[@]}" "${run[@]}") ;;
        test) wanted+=("${build[@]}" "${test[@]}") ;;
        *) echo "install-deps: unknown group '$group' (build|run|test)" >&2; exit 2 ;;
    esac
done
missing=()
for p in "${wanted[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
# Deduplicate while keeping the order.
readarray -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
echo "install-deps: installing Debian packages: ${missing[*]}" >&2
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -q >&2
as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
