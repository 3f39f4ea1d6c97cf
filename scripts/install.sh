#!/usr/bin/env bash
# Installs Meridian like a Linux app under a prefix:
#
#   scripts/install.sh --prefix DIR [--configuration release|debug]
#
#   DIR/bin/meridian                                     the program (built here unless already built)
#   DIR/share/meridian/data/                             shipped maps and sample-places.geojson
#   DIR/share/meridian/data/styles/                      the shipped map styles (data/styles, sprite/ included)
#   DIR/share/applications/org.meridian.Meridian.desktop opens application/geo+json
#   DIR/share/metainfo/org.meridian.Meridian.metainfo.xml
#   DIR/share/icons/hicolor/scalable/apps/org.meridian.Meridian.svg
#   DIR/share/man/man1/meridian.1
#
# The installed binary finds its data as DIR/bin/../share/meridian/data (MapData.swift).
# --configuration debug installs the debug build (what scripts/check-install.sh tests, since
# scripts/test.sh has built it already); the default is a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

prefix=""
configuration=release
while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) prefix=${2:-}; shift 2 ;;
        --configuration) configuration=${2:-}; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (--prefix DIR [--configuration release|debug])" >&2; exit 2 ;;
    esac
done
if [[ -z "$prefix" ]]; then
    echo "install.sh: --prefix DIR is required" >&2
    exit 2
fi
case "$configuration" in release|debug) ;; *) echo "install.sh: --configuration is release or debug" >&2; exit 2 ;; esac

swift build -c "$configuration" --product meridian >&2
binary="$(swift build -c "$configuration" --show-bin-path)/meridian"

share="$prefix/share"
install -d "$prefix/bin" "$share/meridian/data" "$share/applications" "$share/metainfo" \
    "$share/icons/hicolor/scalable/apps" "$share/man/man1"
install -m 0755 "$binary" "$prefix/bin/meridian"
install -m 0644 data/*.mbtiles data/*.geojson data/SOURCES.md "$share/meridian/data/"
if [[ -d data/styles ]]; then
    install -d "$share/meridian/data/styles"
    install -m 0644 data/styles/*.json "$share/meridian/data/styles/"
    # The POI icons the shipped styles name (`"sprite": "sprite/meridian"`).
    install -d "$share/meridian/data/styles/sprite"
    install -m 0644 data/styles/sprite/*.json data/styles/sprite/*.png "$share/meridian/data/styles/sprite/"
fi
install -m 0644 dist/linux/org.meridian.Meridian.desktop "$share/applications/"
install -m 0644 dist/linux/org.meridian.Meridian.metainfo.xml "$share/metainfo/"
install -m 0644 dist/linux/org.meridian.Meridian.svg "$share/icons/hicolor/scalable/apps/"
install -m 0644 dist/linux/meridian.1 "$share/man/man1/"
echo "install.sh: installed Meridian under $prefix" >&2
