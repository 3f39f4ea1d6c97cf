#!/usr/bin/env python3
"""Draws Meridian's own POI sprite: data/styles/sprite/meridian.{json,png} and @2x.

Written for Meridian (no third-party artwork): each icon is a coloured disc with a white
ring and a white pictogram made of a few shapes (rectangles, discs, triangles, strokes),
rasterized here with 8x8 supersampling and written as PNG with the standard library only.
Run from the repository root:  python3 scripts/data/make-sprite.py
"""
import json, math, os, struct, zlib

SIZE = 17  # logical px per icon
OUT = os.path.join("data", "styles", "sprite")

def disc(cx, cy, r):
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r

def ring(cx, cy, r0, r1):
    return lambda x, y: r0 * r0 <= (x - cx) ** 2 + (y - cy) ** 2 <= r1 * r1

def rect(x0, y0, x1, y1):
    return lambda x, y: x0 <= x <= x1 and y0 <= y <= y1

def tri(ax, ay, bx, by, cx, cy):
    def inside(x, y):
        d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by)
        d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy)
        d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay)
        neg = d1 < 0 or d2 < 0 or d3 < 0
        pos = d1 > 0 or d2 > 0 or d3 > 0
        return not (neg and pos)
    return inside

def union(*shapes):
    return lambda x, y: any(s(x, y) for s in shapes)

def minus(a, b):
    return lambda x, y: a(x, y) and not b(x, y)

C = SIZE / 2
# name: (disc colour, pictogram in logical px on the 17 px icon)
ICONS = {
    "restaurant": ("#E0822A", union(rect(5.5, 4, 6.5, 13), rect(4.5, 4, 5, 7.5), rect(7, 4, 7.5, 7.5), rect(4.5, 7, 7.5, 8),
                                    rect(10, 4, 11.5, 13), disc(10.75, 6, 1.6))),
    "cafe": ("#A0612E", union(rect(4.5, 6, 10.5, 11), minus(disc(10.5, 8.5, 2.5), disc(10.5, 8.5, 1.3)), rect(4, 12, 11, 13))),
    "shop": ("#A23BA2", union(rect(4.5, 7, 12.5, 13), minus(ring(8.5, 7, 2, 3), rect(0, 7, 17, 17)))),
    "park": ("#3F8F3A", union(tri(8.5, 3, 4, 10.5, 13, 10.5), tri(8.5, 5.5, 3.5, 12.5, 13.5, 12.5), rect(7.8, 12, 9.2, 14.5))),
    "school": ("#8A6A3A", union(tri(8.5, 3.5, 3.5, 8, 13.5, 8), rect(5, 8, 12, 13.5))),
    "hospital": ("#D03A3A", union(rect(7.25, 4, 9.75, 13), rect(4, 7.25, 13, 9.75))),
    "bus": ("#2E6DB4", union(minus(rect(4.5, 4, 12.5, 12), rect(5.5, 5, 11.5, 8)), disc(6, 12.5, 1.3), disc(11, 12.5, 1.3))),
    "dot": ("#7A6F66", disc(C, C, 2.5)),
}

def colour(hex_):
    return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))

def draw(shape, base, ratio):
    """One icon at `ratio` px per logical px: RGBA rows."""
    n, ss = SIZE * ratio, 8
    back, white = disc(C, C, 8), ring(C, C, 7.1, 8)
    rows = []
    for py in range(n):
        row = []
        for px in range(n):
            a = w = 0
            for sy in range(ss):
                for sx in range(ss):
                    x = (px + (sx + 0.5) / ss) / ratio
                    y = (py + (sy + 0.5) / ss) / ratio
                    if back(x, y):
                        a += 1
                        if white(x, y) or shape(x, y):
                            w += 1
            k = ss * ss
            if a == 0:
                row.append((0, 0, 0, 0))
                continue
            f = w / a
            rgb = tuple(round(c * (1 - f) + 255 * f) for c in base)
            row.append(rgb + (round(255 * a / k),))
        rows.append(row)
    return rows

def png(path, width, height, pixels):
    raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in pixels)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def sheet(ratio):
    n = SIZE * ratio
    names = sorted(ICONS)
    width, height = n * len(names), n
    pixels = [[(0, 0, 0, 0)] * width for _ in range(height)]
    index = {}
    for k, name in enumerate(names):
        base, shape = ICONS[name]
        for y, row in enumerate(draw(shape, colour(base), ratio)):
            pixels[y][k * n:(k + 1) * n] = row
        index[name] = {"x": k * n, "y": 0, "width": n, "height": n, "pixelRatio": ratio}
    suffix = "" if ratio == 1 else "@%dx" % ratio
    png(os.path.join(OUT, "meridian%s.png" % suffix), width, height, pixels)
    with open(os.path.join(OUT, "meridian%s.json" % suffix), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for r in (1, 2):
        sheet(r)
