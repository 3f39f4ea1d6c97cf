#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser that reads outside data, with libFuzzer through the
# Swift toolchain (swiftc -sanitize=fuzzer,address). See docs/RELIABILITY.md.
#
#   scripts/fuzz.sh TARGET [SECONDS]     TARGET: trace | mvt | inflate | mbtiles | pmtiles | options | geojson | style | all
#
# Each target is one file in Fuzz/, compiled with the sources of the module it exercises (so it
# can call internal API such as MVTDecoder and Inflate) into .build/fuzz/TARGET. The corpus
# grows in .build/fuzz/corpus/TARGET between runs, seeded from Fuzz/seeds/TARGET, demo/*.trace
# and the tests' data; crashes are written to .build/fuzz/crashes/. SECONDS defaults to 25 (the
# CI budget); run longer on demand, e.g. `scripts/fuzz.sh mvt 3600`. Extra libFuzzer flags can be
# passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-jobs=2). Exit status 1 when any target found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# The Swift runtime's backtracer would hold a crashing input for a long symbolication; libFuzzer
# prints its own stack and saves the input.
export SWIFT_BACKTRACE=enable=no

targets=(trace mvt inflate mbtiles pmtiles options geojson style)
target=${1:-}
seconds=${2:-25}
if [[ -z "$target" ]]; then
    echo "usage: scripts/fuzz.sh trace|mvt|inflate|mbtiles|pmtiles|options|geojson|style|all [SECONDS]" >&2
    exit 2
fi

out=.build/fuzz
mkdir -p "$out/modules" "$out/crashes"
SWIFTC=(swiftc -sanitize=fuzzer,address -O -parse-as-library -use-ld=lld -swift-version 6)

# Geometry (points, sizes, rects) is the bottom module: Input and Geo re-export it.
build_geometry() {
    local obj=$out/modules/Geometry.o
    if [[ -f $obj && -z $(find Sources/Geometry -newer "$obj" -name '*.swift') ]]; then return; fi
    "${SWIFTC[@]}" -module-name Geometry -emit-module -emit-module-path "$out/modules/Geometry.swiftmodule" \
        -wmo -c Sources/Geometry/*.swift -o "$obj"
}

# JSONText, the one JSON reader, is a module of its own: Tiles, Places and Style import it.
build_jsontext() {
    local obj=$out/modules/JSONText.o
    if [[ -f $obj && -z $(find Sources/JSONText -newer "$obj" -name '*.swift') ]]; then return; fi
    "${SWIFTC[@]}" -module-name JSONText -emit-module -emit-module-path "$out/modules/JSONText.swiftmodule" \
        -wmo -c Sources/JSONText/*.swift -o "$obj"
}

# Geo is a separate module because Tiles and Places import it.
build_geo() {
    build_geometry
    local obj=$out/modules/Geo.o
    if [[ -f $obj && -z $(find Sources/Geo Sources/Geometry -newer "$obj" -name '*.swift') ]]; then return; fi
    "${SWIFTC[@]}" -module-name Geo -emit-module -emit-module-path "$out/modules/Geo.swiftmodule" \
        -I "$out/modules" -wmo -c Sources/Geo/*.swift -o "$obj"
}

# Tiles as a module of its own too, for Style (which imports it).
tiles_flags=(-I Sources/CSQLite -I Sources/CZlib -I Sources/CLibdeflate -I Sources/CBrotli -I Sources/CZstd -lsqlite3 -lz -ldeflate -lbrotlidec -lzstd)
build_tiles() {
    build_geo
    build_jsontext
    local obj=$out/modules/Tiles.o
    if [[ -f $obj && -z $(find Sources/Tiles Sources/Geo Sources/Geometry Sources/JSONText -newer "$obj" -name '*.swift') ]]; then return; fi
    "${SWIFTC[@]}" -module-name Tiles -emit-module -emit-module-path "$out/modules/Tiles.swiftmodule" \
        -I "$out/modules" -I Sources/CSQLite -I Sources/CZlib -I Sources/CLibdeflate -I Sources/CBrotli -I Sources/CZstd \
        -wmo -c Sources/Tiles/*.swift -o "$obj"
}

# Style as a module too, for the command line (Options checks --language with it).
build_style() {
    build_tiles
    local obj=$out/modules/Style.o
    if [[ -f $obj && -z $(find Sources/Style Sources/Tiles Sources/Geo Sources/Geometry Sources/JSONText -newer "$obj" -name '*.swift') ]]; then return; fi
    "${SWIFTC[@]}" -module-name Style -emit-module -emit-module-path "$out/modules/Style.swiftmodule" \
        -I "$out/modules" "${tiles_flags[@]}" -wmo -c Sources/Style/*.swift -o "$obj"
}

build() {
    local t=$1 exe=$out/$1
    local -a sources flags
    case $t in
        trace)
            build_geometry
            sources=(Sources/Input/*.swift Fuzz/FuzzTrace.swift); flags=(-I "$out/modules" "$out/modules/Geometry.o" -lm) ;;
        mvt|inflate|mbtiles|pmtiles)
            build_geo
            build_jsontext
            local file=Fuzz/FuzzMVT.swift
            [[ $t == inflate ]] && file=Fuzz/FuzzInflate.swift
            [[ $t == mbtiles ]] && file=Fuzz/FuzzMBTiles.swift
            [[ $t == pmtiles ]] && file=Fuzz/FuzzPMTiles.swift
            sources=(Sources/Tiles/*.swift "$file")
            flags=(-I "$out/modules" "$out/modules/Geo.o" "$out/modules/Geometry.o" "$out/modules/JSONText.o" -I Sources/CSQLite -I Sources/CZlib -I Sources/CLibdeflate -I Sources/CBrotli -I Sources/CZstd
                   -lsqlite3 -lz -ldeflate -lbrotlidec -lzstd) ;;
        options)
            build_style
            sources=(Sources/MeridianApp/Options.swift Fuzz/FuzzOptions.swift)
            flags=(-I "$out/modules" "$out/modules/Style.o" "$out/modules/Tiles.o" "$out/modules/Geo.o" "$out/modules/Geometry.o" "$out/modules/JSONText.o" "${tiles_flags[@]}") ;;
        geojson)
            build_geo
            build_jsontext
            sources=(Sources/Places/*.swift Fuzz/FuzzGeoJSON.swift)
            flags=(-I "$out/modules" "$out/modules/Geo.o" "$out/modules/Geometry.o" "$out/modules/JSONText.o") ;;
        style)
            build_tiles
            sources=(Sources/Style/*.swift Fuzz/FuzzStyle.swift)
            flags=(-I "$out/modules" "$out/modules/Tiles.o" "$out/modules/Geo.o" "$out/modules/Geometry.o" "$out/modules/JSONText.o" "${tiles_flags[@]}") ;;
        *) echo "fuzz.sh: unknown target '$t' (${targets[*]} all)" >&2; exit 2 ;;
    esac
    if [[ -x $exe && -z $(find "${sources[@]}" -newer "$exe") ]]; then return; fi
    echo "== building $t"
    "${SWIFTC[@]}" -module-name "Fuzz_$t" "${sources[@]}" "${flags[@]}" -o "$exe"
}

seed() {
    local t=$1 corpus=$out/corpus/$1
    mkdir -p "$corpus"
    cp -n Fuzz/seeds/"$t"/* "$corpus"/ 2>/dev/null || true
    case $t in
        trace) cp -n demo/*.trace "$corpus"/ ;;
        geojson) cp -n data/*.geojson "$corpus"/ ;;
        style) cp -n data/styles/*.json "$corpus"/ ;;
        mbtiles)
            # The shipped small city file is a real seed when it is there (it is not committed here).
            [[ -f data/helsinki.mbtiles ]] && cp -n data/helsinki.mbtiles "$corpus"/ || true ;;
    esac
}

run() {
    local t=$1
    build "$t"
    seed "$t"
    local work=$out/work/$t log=$out/$t.log
    mkdir -p "$work"
    local -a dict=()
    [[ -f Fuzz/$t.dict ]] && dict=(-dict="$PWD/Fuzz/$t.dict")
    local status=0
    # -rss_limit_mb: Inflate allows 64 MiB per tile; anything far past that is a leak.
    (cd "$work" && "../../$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$PWD/../../crashes/$t-" \
        "${dict[@]}" ${FUZZ_FLAGS:-} "../../corpus/$t") >"$log" 2>&1 || status=$?
    local runs crashes
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    crashes=$(grep -c '^artifact_prefix=.*Test unit written' "$log" || true)
    printf '%-8s %8s s  %10s executions  corpus %5s files  crashes %s\n' "$t" "$seconds" "${runs:-?}" \
        "$(ls "$out/corpus/$t" | wc -l)" "$crashes"
    if [[ $status -ne 0 ]]; then
        echo "fuzz.sh: $t failed (status $status); log: $log" >&2
        grep -E 'ERROR|Fatal error|Test unit written' "$log" | head -5 >&2 || true
        return 1
    fi
}

failed=0
if [[ $target == all ]]; then
    for t in "${targets[@]}"; do run "$t" || failed=1; done
else
    run "$target" || failed=1
fi
exit $failed
