#!/usr/bin/env bash
# Installs Meridian into a temporary prefix (scripts/install.sh, debug build) and checks it is a
# well-formed Linux app that runs from there:
#  - the .desktop file passes desktop-file-validate, the metainfo appstreamcli validate, the
#    man page groff's warnings;
#  - the installed binary, started from / with no MERIDIAN_DATA_DIR, replays a trace headless
#    and its state dump shows the installed sample places and the installed map (no "showing
#    no map"), and a places FILE given to it is edited and saved.
# Run by scripts/test.sh; needs desktop-file-utils and appstream (scripts/install-deps.sh test).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d /tmp/meridian-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
fail() { echo "check-install: $*" >&2; exit 1; }

scripts/install.sh --prefix "$prefix" --configuration debug 2>"$work/install.log" || { cat "$work/install.log" >&2; fail "install.sh failed"; }
share="$prefix/share"
for f in bin/meridian share/meridian/data/world.mbtiles share/meridian/data/sample-places.geojson \
         share/meridian/data/styles/openmaptiles.json \
         share/meridian/data/styles/sprite/meridian.png \
         share/applications/org.meridian.Meridian.desktop share/metainfo/org.meridian.Meridian.metainfo.xml \
         share/icons/hicolor/scalable/apps/org.meridian.Meridian.svg share/man/man1/meridian.1; do
    [[ -e "$prefix/$f" ]] || fail "$f was not installed"
done
desktop-file-validate "$share/applications/org.meridian.Meridian.desktop" || fail "desktop-file-validate refused the .desktop file"
appstreamcli validate --no-net "$share/metainfo/org.meridian.Meridian.metainfo.xml" || fail "appstreamcli refused the metainfo"
warnings=$(groff -man -ww -z "$share/man/man1/meridian.1" 2>&1 || true)
[[ -z "$warnings" ]] || fail "the man page has warnings: $warnings"
# The app id the window sets is the one the desktop file and metainfo are named for.
grep -q 'appID = "org.meridian.Meridian"' Sources/Wayland/WaylandClient.swift || fail "the app id in Sources/Wayland/WaylandClient.swift is not org.meridian.Meridian"

# A tap on the map, replayed by the installed binary from another folder, with no hints where data is.
cat > "$work/tap.trace" <<'TRACE'
meridian-trace 1
0 touch down 0 200 600
0 touch frame
60 touch up 0
60 touch frame
1000 wait
TRACE
(cd / && env -u MERIDIAN_DATA_DIR "$prefix/bin/meridian" --headless --replay "$work/tap.trace" \
    --state-out "$work/state.json" 2>"$work/run.log") || { cat "$work/run.log" >&2; fail "the installed binary failed"; }
! grep -q "showing no map" "$work/run.log" || fail "the installed binary found no map data: $(cat "$work/run.log")"
python3 - "$work/state.json" "$share/meridian/data/sample-places.geojson" <<'PY' || fail "the state dump of the installed binary is not what it should be"
import json, os, sys
dump = json.load(open(sys.argv[1]))
doc = dump["document"]
assert os.path.realpath(doc["path"]) == os.path.realpath(sys.argv[2]), doc["path"]
assert doc["name"] == "Helsinki" and len(doc["places"]) == 8, doc
assert any(e["kind"] == "mapTap" for e in dump["log"]), dump["log"]
style = dump["map"].get("style") or {}
path = style.get("path")
assert path is None or os.path.realpath(path).startswith(os.path.realpath(sys.argv[2].rsplit("/data/", 1)[0])), style
PY
echo "check-install: installed under a temporary prefix; desktop file, metainfo and man page valid; the installed binary runs headless from there"
