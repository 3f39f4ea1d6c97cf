#!/usr/bin/env python3
"""Writes a small synthetic MBTiles file in the Protomaps basemap schema (layers earth, water,
landuse, landcover, roads, buildings), for comparing the shipped Protomaps style with MapLibre
Native where no real Protomaps build can be made (planetiler cannot be fetched here).

  python3 scripts/data/protomaps_fixture.py OUT.mbtiles

3x3 tiles at z14 around tile 9326/4741 (Helsinki), each with the same pattern continued across
tile edges (64 units of buffer): land everywhere but a lake in the middle tile and the sea in
the eastern column, a major road along each tile's middle row, a minor road down each tile's
first quarter, a path, a rail line, buildings in the blocks, a park and a wood. Standard
library only: the vector tiles are encoded here, gzip'd, and stored with a tiles index.
"""

import gzip
import json
import sqlite3
import sys

EXTENT = 4096
BUFFER = 64
Z, X0, Y0 = 14, 9325, 4740


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, wire, payload):
    key = varint((number << 3) | wire)
    if wire == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def geometry(kind, parts):
    """Command integers for points (one part of one point), lines and polygon rings."""
    cmds, x, y = [], 0, 0
    for part in parts:
        first = part[0]
        cmds += [(1 & 7) | (1 << 3), zigzag(first[0] - x), zigzag(first[1] - y)]
        x, y = first
        rest = part[1:]
        if rest:
            cmds.append((2 & 7) | (len(rest) << 3))
            for px, py in rest:
                cmds += [zigzag(px - x), zigzag(py - y)]
                x, y = px, py
        if kind == 3:
            cmds.append((7 & 7) | (1 << 3))
    return cmds


def rect(x0, y0, x1, y1):
    """A ring with positive area by the spec's surveyor's formula (y down): an exterior ring."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def layer(name, features):
    keys, values, encoded = [], [], b""
    for kind, parts, props in features:
        tags = []
        for k, v in props.items():
            if k not in keys:
                keys.append(k)
            if v not in values:
                values.append(v)
            tags += [keys.index(k), values.index(v)]
        body = field(2, 2, b"".join(varint(t) for t in tags)) + field(3, 0, varint(kind))
        body += field(4, 2, b"".join(varint(c) for c in geometry(kind, parts)))
        encoded += field(2, 2, body)
    out = field(15, 0, varint(2)) + field(1, 2, name.encode())
    out += encoded
    out += b"".join(field(3, 2, k.encode()) for k in keys)
    for v in values:
        if isinstance(v, bool):
            out += field(4, 2, field(7, 0, varint(int(v))))
        elif isinstance(v, int):
            out += field(4, 2, field(5, 0, varint(v)))
        else:
            out += field(4, 2, field(1, 2, v.encode()))
    return field(3, 2, out + field(5, 0, varint(EXTENT)))


def tile(dx, dy):
    lo, hi = -BUFFER, EXTENT + BUFFER
    sea = dx == 2
    earth = [] if sea else [(3, [rect(lo, lo, hi, hi)], {"kind": "earth"})]
    water = [(3, [rect(lo, lo, hi, hi)], {"kind": "ocean"})] if sea else []
    if (dx, dy) == (1, 1):
        water.append((3, [rect(2600, 2600, 3600, 3500)], {"kind": "water", "name": "Lake"}))
    landuse = [(3, [rect(200, 200, 900, 1800)], {"kind": "park", "name": "Park"})] if not sea else []
    landcover = [(3, [rect(2400, 300, 3800, 1700)], {"kind": "forest"})] if not sea and dy != 1 else []
    roads = []
    if not sea:
        roads.append((2, [[(lo, 2048), (hi, 2048)]], {"kind": "major_road", "name": "Main Street"}))
        roads.append((2, [[(1024, lo), (1024, hi)]], {"kind": "minor_road"}))
        roads.append((2, [[(lo, 3900), (hi, 3900)]], {"kind": "path"}))
        roads.append((2, [[(3000, lo), (3000, 2400)]], {"kind": "rail"}))
    buildings = []
    if not sea:
        for bx in (1300, 1700, 2100):
            for by in (2300, 2800, 3300):
                buildings.append((3, [rect(bx, by, bx + 300, by + 350)], {"kind": "building"}))
    layers = [("earth", earth), ("water", water), ("landuse", landuse), ("landcover", landcover),
              ("roads", roads), ("buildings", buildings)]
    return b"".join(layer(n, f) for n, f in layers if f)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: protomaps_fixture.py OUT.mbtiles")
    db = sqlite3.connect(argv[1])
    db.executescript("""
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    """)
    names = ["earth", "water", "landuse", "landcover", "roads", "buildings"]
    meta = {"name": "Protomaps fixture", "format": "pbf", "minzoom": str(Z), "maxzoom": str(Z),
            "json": json.dumps({"vector_layers": [{"id": n, "fields": {}} for n in names]})}
    db.executemany("INSERT INTO metadata VALUES (?, ?)", meta.items())
    for dx in range(3):
        for dy in range(3):
            tms = (1 << Z) - 1 - (Y0 + dy)
            db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (Z, X0 + dx, tms, gzip.compress(tile(dx, dy), mtime=0)))
    db.commit()
    db.close()


if __name__ == "__main__":
    main(sys.argv)
