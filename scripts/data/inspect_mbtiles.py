#!/usr/bin/python3
"""Decodes every tile of a vector MBTiles file and prints what a reader would find in it.

Usage: inspect_mbtiles.py FILE.mbtiles [--tile Z/X/Y] [--expect-layers a,b,c] [--points LAYER]

Prints tile count and bytes per zoom, every layer with its feature count, geometry types and
property keys over the whole file, the same for one sample tile (XYZ numbering, as a map asks
for it), and, with --points, each point feature of LAYER with its properties and lon/lat.
Exits non-zero when a tile does not decode, a required metadata key is missing, or the layer
names (--expect-layers) or attribution (--expect-attribution) differ. A self-contained protobuf decoder (the MVT 2.1 schema) so that no PyPI package is needed.
"""

import argparse
import gzip
import math
import sqlite3
import sys
import zlib
from collections import Counter, defaultdict

GEOMETRY_TYPES = {0: "unknown", 1: "point", 2: "line", 3: "polygon"}


class DecodeError(Exception):
    """A tile whose bytes are not a valid MVT message."""


def varint(data, pos):
    """Reads a base-128 varint; returns (value, next position)."""
    result = shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise DecodeError("varint too long")


def fields(data):
    """Yields (field number, wire type, value) of a protobuf message; bytes for wire type 2."""
    pos = 0
    while pos < len(data):
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = varint(data, pos)
            if pos + length > len(data):
                raise DecodeError("truncated field")
            value, pos = data[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise DecodeError(f"wire type {wire}")
        yield number, wire, value


def packed(data):
    """Decodes a packed repeated uint32 field."""
    out, pos = [], 0
    while pos < len(data):
        value, pos = varint(data, pos)
        out.append(value)
    return out


def decode_value(data):
    """Decodes an MVT Value message into a Python value."""
    import struct
    for number, _, value in fields(data):
        if number == 1:
            return value.decode("utf-8")
        if number == 2:
            return struct.unpack("<f", value)[0]
        if number == 3:
            return struct.unpack("<d", value)[0]
        if number in (4, 5):
            return value if number == 5 or value < 1 << 63 else value - (1 << 64)
        if number == 6:
            return (value >> 1) ^ -(value & 1)
        if number == 7:
            return bool(value)
    return None


def first_point(geometry):
    """The first MoveTo of a geometry command stream, in tile units."""
    if len(geometry) >= 3 and geometry[0] & 7 == 1:
        zig = lambda v: (v >> 1) ^ -(v & 1)
        return zig(geometry[1]), zig(geometry[2])
    return None


def decode_tile(raw):
    """Returns [(layer name, extent, [(type, {props}, geometry commands)])]."""
    layers = []
    for number, _, layer_bytes in fields(raw):
        if number != 3:
            continue
        name, extent, keys, values, features = "", 4096, [], [], []
        for n, _, v in fields(layer_bytes):
            if n == 1:
                name = v.decode("utf-8")
            elif n == 3:
                keys.append(v.decode("utf-8"))
            elif n == 4:
                values.append(decode_value(v))
            elif n == 5:
                extent = v
            elif n == 2:
                features.append(v)
        decoded = []
        for feature in features:
            kind, tags, geometry = 0, [], []
            for n, _, v in fields(feature):
                if n == 3:
                    kind = v
                elif n == 2:
                    tags = packed(v)
                elif n == 4:
                    geometry = packed(v)
            props = {keys[tags[i]]: values[tags[i + 1]] for i in range(0, len(tags) - 1, 2)}
            decoded.append((GEOMETRY_TYPES.get(kind, "?"), props, geometry))
        layers.append((name, extent, decoded))
    return layers


def lonlat(z, x, y_xyz, extent, point):
    """Converts a tile-local point to longitude/latitude."""
    n = 2 ** z
    fx = (x + point[0] / extent) / n
    fy = (y_xyz + point[1] / extent) / n
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * fy))))
    return fx * 360 - 180, lat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--tile", help="sample tile Z/X/Y (XYZ rows)")
    parser.add_argument("--expect-layers")
    parser.add_argument("--expect-attribution")
    parser.add_argument("--points", help="list the point features of this layer (deepest zoom)")
    args = parser.parse_args()

    db = sqlite3.connect(f"file:{args.file}?mode=ro", uri=True)
    db.text_factory = bytes  # a damaged file may hold tile_data as TEXT; judge the bytes
    print(f"== {args.file}")
    metadata = {name.decode("utf-8", "replace"): value.decode("utf-8", "replace")
                for name, value in db.execute("SELECT name, value FROM metadata")}
    failures = 0
    for key in ("name", "format", "minzoom", "maxzoom", "bounds", "center", "attribution", "json"):
        if key not in metadata:
            print(f"MISSING metadata {key}")
            failures += 1
    if args.expect_attribution and metadata.get("attribution") != args.expect_attribution:
        print(f"ATTRIBUTION MISMATCH: {metadata.get('attribution')!r}")
        failures += 1
    for name, value in sorted(metadata.items()):
        print(f"metadata {name} = {value if len(value) < 120 else value[:117] + '...'}")
    per_zoom = defaultdict(lambda: [0, 0])
    layer_features = Counter()
    layer_types = defaultdict(Counter)
    layer_keys = defaultdict(set)
    decoded_tiles = {}
    for z, x, tms_y, blob in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        per_zoom[z][0] += 1
        per_zoom[z][1] += len(blob)
        y = (1 << z) - 1 - tms_y
        try:
            layers = decode_tile(gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob)
        except (DecodeError, OSError, EOFError, UnicodeDecodeError, zlib.error) as error:
            print(f"BAD tile {z}/{x}/{y}: {error}")
            failures += 1
            continue
        decoded_tiles[(z, x, y)] = layers
        for name, _, features in layers:
            layer_features[name] += len(features)
            for kind, props, _ in features:
                layer_types[name][kind] += 1
                layer_keys[name].update(props)

    print("zoom  tiles  bytes")
    for z in sorted(per_zoom):
        print(f"{z:4d} {per_zoom[z][0]:6d} {per_zoom[z][1]:8d}")
    print(f"total {sum(c for c, _ in per_zoom.values())} tiles, {sum(b for _, b in per_zoom.values())} bytes")
    print("layer (all tiles): features, geometry types, properties")
    for name in sorted(layer_features):
        types = ", ".join(f"{k} {c}" for k, c in sorted(layer_types[name].items()))
        print(f"  {name}: {layer_features[name]} ({types}) keys: {sorted(layer_keys[name])}")

    if args.tile:
        z, x, y = (int(v) for v in args.tile.split("/"))
        layers = decoded_tiles.get((z, x, y))
        print(f"sample tile {z}/{x}/{y}: " + ("missing" if layers is None else ""))
        for name, extent, features in layers or []:
            types = Counter(kind for kind, _, _ in features)
            example = features[0][1] if features else {}
            print(f"  {name}: {len(features)} features {dict(types)} extent {extent}; first: {example}")

    if args.points:
        deepest = max(per_zoom)
        seen = set()
        for (z, x, y), layers in sorted(decoded_tiles.items()):
            if z != deepest:
                continue
            for name, extent, features in layers:
                if name != args.points:
                    continue
                for kind, props, geometry in features:
                    point = first_point(geometry)
                    if kind != "point" or point is None or not (0 <= point[0] < extent and 0 <= point[1] < extent):
                        continue  # buffer copies belong to the neighbouring tile
                    lon, lat = lonlat(z, x, y, extent, point)
                    key = (props.get("name"), round(lon, 4), round(lat, 4))
                    if key not in seen:
                        seen.add(key)
                        print(f"  point {lat:.5f},{lon:.5f} {props}")

    if args.expect_layers:
        expected = set(args.expect_layers.split(","))
        if set(layer_features) != expected:
            print(f"LAYER MISMATCH: have {sorted(layer_features)}, expected {sorted(expected)}")
            failures += 1
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
