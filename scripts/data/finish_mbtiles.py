#!/usr/bin/python3
"""Rewrites a tool's MBTiles output into Meridian's canonical, byte-reproducible MBTiles file.

Usage: finish_mbtiles.py IN.mbtiles OUT.mbtiles --name N --attribution A --description D
                         --bounds=W,S,E,N --center=LON,LAT,ZOOM --type baselayer|overlay
                         [--layer-descriptions FILE.json]

Why: GDAL and tilemaker write the same tiles in a different page layout (and GDAL in a
thread-dependent order) on every run, GDAL adds buffer tiles outside 0..2^z-1, and neither
writes the metadata we need. This copies the tiles in (zoom, column, row) order into a fresh
SQLite file with a fixed schema, drops out-of-range tiles, re-gzips every tile with a fixed
level and a zero timestamp, lists in vector_layers only the layers that tiles hold, and writes the metadata table from the arguments plus the input's
`json` (vector_layers). The same input tiles therefore always give the same output bytes.
"""

import argparse
import gzip
import json
import os
import sqlite3
import sys
import zlib

from inspect_mbtiles import DecodeError, decode_tile


def fail(message):
    """Stops with a message naming what is wrong (no traceback for a bad input)."""
    sys.stderr.write(f"finish_mbtiles.py: {message}\n")
    sys.exit(1)


def gunzip(blob, where):
    """Returns the raw MVT bytes of a tile, which tools store gzip'd (or, rarely, raw)."""
    if blob[:2] != b"\x1f\x8b":
        return bytes(blob)
    try:
        return gzip.decompress(blob)
    except (OSError, EOFError, zlib.error) as error:
        fail(f"tile {where} is not valid gzip: {error}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("target")
    parser.add_argument("--name", required=True)
    parser.add_argument("--attribution", required=True)
    parser.add_argument("--description", required=True)
    parser.add_argument("--bounds", required=True)
    parser.add_argument("--center", required=True)
    parser.add_argument("--type", required=True, choices=("baselayer", "overlay"))
    parser.add_argument("--layer-descriptions", help="JSON file: {layer id: description}")
    args = parser.parse_args()

    try:
        source = sqlite3.connect(f"file:{args.source}?mode=ro", uri=True)
        metadata = dict(source.execute("SELECT name, value FROM metadata"))
        rows = source.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles "
            "ORDER BY zoom_level, tile_column, tile_row").fetchall()
    except sqlite3.Error as error:
        fail(f"{args.source}: {error}")

    kept = [(z, x, y, data) for z, x, y, data in rows if 0 <= x < (1 << z) and 0 <= y < (1 << z)]
    if not kept:
        fail(f"{args.source}: no tiles")
    try:
        layers = json.loads(metadata["json"])["vector_layers"]
    except (KeyError, ValueError) as error:
        fail(f"{args.source}: no usable vector_layers in metadata json ({error})")
    if args.layer_descriptions:
        with open(args.layer_descriptions, encoding="utf-8") as text:
            descriptions = json.load(text)
        for layer in layers:
            layer["description"] = descriptions.get(layer["id"], layer.get("description", ""))
    # tilemaker lists every layer of its config, even those that no tile holds: list only the
    # layers a reader will actually find (decoding every tile also proves that each one decodes).
    present = set()
    for z, x, y, data in kept:
        try:
            present.update(name for name, _, _ in decode_tile(gunzip(data, f"{z}/{x}/{y}")))
        except (DecodeError, UnicodeDecodeError) as error:
            fail(f"tile {z}/{x}/{y} is not a valid vector tile: {error}")
    layers = sorted((layer for layer in layers if layer["id"] in present), key=lambda layer: layer["id"])

    zooms = [z for z, _, _, _ in kept]
    new_metadata = {
        "name": args.name,
        "format": "pbf",
        "type": args.type,
        "version": "1",
        "description": args.description,
        "attribution": args.attribution,
        "minzoom": str(min(zooms)),
        "maxzoom": str(max(zooms)),
        "bounds": args.bounds,
        "center": args.center,
        "json": json.dumps({"vector_layers": layers}, ensure_ascii=False, sort_keys=True,
                           separators=(",", ":")),
    }

    if os.path.exists(args.target):
        os.remove(args.target)
    out = sqlite3.connect(args.target)
    out.executescript("""
        PRAGMA page_size = 4096;
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        CREATE UNIQUE INDEX name ON metadata (name);
    """)
    out.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(new_metadata.items()))
    out.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", [
        (z, x, y, gzip.compress(gunzip(data, f"{z}/{x}/{y}"), compresslevel=9, mtime=0))
        for z, x, y, data in kept])
    out.commit()
    out.execute("VACUUM")
    out.close()
    print(f"{args.target}: {len(kept)} tiles ({len(rows) - len(kept)} out-of-range dropped)")


if __name__ == "__main__":
    main()
