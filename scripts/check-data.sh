#!/usr/bin/env bash
# Checks the committed map data without rebuilding it (seconds; needs only Python 3 and its sqlite3):
# every tile decodes as gzip'd MVT, the metadata keys readers need are there, the layer names are
# exactly the ones the renderer asks for, and the attribution is right. Prints the figures that
# data/SOURCES.md quotes. To check that the files are reproducible, run prepare-data.sh --check.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/data/inspect_mbtiles.py data/world.mbtiles --tile 5/18/9 \
    --expect-layers boundaries,coastline,countries,lakes,land,places --expect-attribution "Natural Earth"
python3 scripts/data/inspect_mbtiles.py data/helsinki.mbtiles --tile 14/9326/4741 \
    --expect-layers boundary,building,housenumber,landcover,landuse,place,poi,transportation,transportation_name,water,water_name,waterway \
    --expect-attribution "© OpenStreetMap contributors"
echo "map data: 2 passed, 0 failed"
