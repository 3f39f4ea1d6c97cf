#!/usr/bin/python3
"""Draws the render benchmark's viewports with Mapnik (AGG), as the peer figure for
`meridian-bench render`.

It reads the same MBTiles files Meridian reads (SQLite + gzip + a small Mapbox Vector Tile
decoder below, standard library only), turns the tiles each view needs into GeoJSON in
EPSG:3857, and times `mapnik.render` into a `mapnik.Image` with a style close to Meridian's
(same fills, lines and widths, place labels in DejaVu Sans). Loading and decoding are not
timed, only the render: the same split as Meridian's cold figure, which times drawing tiles
from decoded vector data plus compositing.

Input (stdin): one JSON object {"sources": [paths], "sizes": [[w, h]], "views": [[name, lat, lon, zoom]],
"runs": n}. Output (stdout): one JSON line per size and view: {"size": "WxH", "view": name, "ms": best of the runs}.
Needs Debian's python3-mapnik (run with /usr/bin/python3).
"""
import gzip
import json
import math
import os
import sqlite3
import sys
import tempfile
import time

import mapnik

WORLD = 2 * math.pi * 6378137.0  # Web Mercator world width in metres
# EPSG:3857 spelled out: this PROJ build rejects "+init=epsg:…"; map and layers share the same
# string, so Mapnik does not reproject.
MERC = "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs"


# ---------------------------------------------------------------- MVT decoding

def varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def fields(buf):
    """(field number, wire type, value) for each field of a protobuf message."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 2:
            ln, i = varint(buf, i)
            v = buf[i:i + ln]
            i += ln
        elif wt == 5:
            v = buf[i:i + 4]
            i += 4
        elif wt == 1:
            v = buf[i:i + 8]
            i += 8
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v


def packed(buf):
    out, i = [], 0
    while i < len(buf):
        v, i = varint(buf, i)
        out.append(v)
    return out


def zigzag(n):
    return (n >> 1) ^ -(n & 1)


def value(buf):
    import struct
    for num, wt, v in fields(buf):
        if num == 1:
            return bytes(v).decode("utf-8", "replace")
        if num == 2:
            return struct.unpack("<f", v)[0]
        if num == 3:
            return struct.unpack("<d", v)[0]
        if num in (4, 5):
            return v
        if num == 6:
            return zigzag(v)
        if num == 7:
            return bool(v)
    return None


def geometry(cmds):
    parts, cur, x, y, i = [], None, 0, 0, 0
    while i < len(cmds):
        cmd, count = cmds[i] & 7, cmds[i] >> 3
        i += 1
        if cmd == 7:
            if cur:
                cur.append(cur[0])
            continue
        for _ in range(count):
            x += zigzag(cmds[i])
            y += zigzag(cmds[i + 1])
            i += 2
            if cmd == 1:
                cur = [(x, y)]
                parts.append(cur)
            else:
                cur.append((x, y))
    return parts


def decode(data):
    """{layer name: [(type, parts, props)]} with parts in tile units, plus each layer's extent."""
    layers = {}
    for num, _, lbuf in fields(data):
        if num != 3:
            continue
        name, extent, keys, vals, feats = "", 4096, [], [], []
        for n, _, v in fields(lbuf):
            if n == 1:
                name = bytes(v).decode()
            elif n == 5:
                extent = v
            elif n == 3:
                keys.append(bytes(v).decode())
            elif n == 4:
                vals.append(value(v))
            elif n == 2:
                feats.append(v)
        out = []
        for fbuf in feats:
            tags, gtype, geom = [], 0, []
            for n, _, v in fields(fbuf):
                if n == 2:
                    tags = packed(v)
                elif n == 3:
                    gtype = v
                elif n == 4:
                    geom = packed(v)
            props = {keys[tags[k]]: vals[tags[k + 1]] for k in range(0, len(tags) - 1, 2)}
            out.append((gtype, geometry(geom), props))
        layers.setdefault(name, (extent, []))[1].extend(out)
    return layers


# ---------------------------------------------------------------- data for one view

def tile_range(lat, lon, zoom, w, h, tz):
    """Tiles of grid tz covering a w x h view (256-px tiles), as (x, y) with x unwrapped."""
    k = 2 ** zoom
    cx = (lon + 180) / 360 * 256
    s = math.sin(math.radians(max(min(lat, 85.0511287798), -85.0511287798)))
    cy = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * 256
    x0, x1 = cx - w / 2 / k, cx + w / 2 / k
    y0, y1 = cy - h / 2 / k, cy + h / 2 / k
    tw = 256 / 2 ** tz
    return [(x, y) for x in range(math.floor(x0 / tw), math.ceil(x1 / tw))
            for y in range(max(0, math.floor(y0 / tw)), min(2 ** tz, math.ceil(y1 / tw)))], (x0, y0, x1, y1)


def ring_area(r):
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(r, r[1:]))


def to_features(layer_feats, extent, z, x, y):
    n = 2 ** z

    def merc(p):
        return [(x + p[0] / extent) / n * WORLD - WORLD / 2, WORLD / 2 - (y + p[1] / extent) / n * WORLD]

    out = []
    for gtype, parts, props in layer_feats:
        props = {k: v for k, v in props.items() if isinstance(v, (str, int, float))}
        if gtype == 1:
            geom = {"type": "MultiPoint", "coordinates": [merc(p) for part in parts for p in part]}
        elif gtype == 2:
            geom = {"type": "MultiLineString", "coordinates": [[merc(p) for p in part] for part in parts if len(part) > 1]}
        elif gtype == 3:
            polys = []
            for ring in parts:
                if len(ring) < 4:
                    continue
                coords = [merc(p) for p in ring]
                if ring_area(ring) > 0 or not polys:
                    polys.append([coords])
                else:
                    polys[-1].append(coords)
            geom = {"type": "MultiPolygon", "coordinates": polys}
        else:
            continue
        out.append({"type": "Feature", "geometry": geom, "properties": props})
    return out


# ---------------------------------------------------------------- style

def zoom_curve(stops, z):
    if z <= stops[0][0]:
        return stops[0][1]
    for (z0, v0), (z1, v1) in zip(stops, stops[1:]):
        if z <= z1:
            return v0 + (v1 - v0) * (z - z0) / (z1 - z0)
    return stops[-1][1]


ROADS = [  # least important first, as Meridian's MapStyle.roadClasses
    (["path", "track", "footway", "cycleway", "steps", "pedestrian", "bridleway", "pier"], [(14, .5), (18, 1.6)], 0xB8AFA5, False, 14),
    (["rail", "transit", "subway", "tram"], [(10, .5), (18, 2)], 0xA8A29C, False, 11),
    (["minor", "service", "street", "residential", "unclassified", "living_street", "road"], [(12, .4), (15, 2.5), (18, 10)], 0xFFFFFF, True, 12),
    (["tertiary", "secondary", "busway"], [(9, .5), (13, 1.5), (15, 3.5), (18, 12)], 0xFFFFFF, True, 9),
    (["primary", "trunk"], [(7, .5), (12, 1.8), (15, 4.5), (18, 14)], 0xFCE6B0, True, 7),
    (["motorway"], [(5, .5), (10, 1.6), (14, 4.5), (18, 16)], 0xF7CC8F, True, 5),
]


def poly(color):
    return '<PolygonSymbolizer fill="#%06x"/>' % color


def line(color, width):
    return ('<LineSymbolizer stroke="#%06x" stroke-width="%.3f" stroke-linecap="round" stroke-linejoin="round"/>'
            % (color, width))


def label():
    return ('<TextSymbolizer face-name="DejaVu Sans Book" size="12" fill="#3a3a3a" halo-fill="#ffffff" '
            'halo-radius="1.5">[name]</TextSymbolizer>')


def build_map(w, h, files, z):
    """A mapnik.Map drawing the GeoJSON files {layer: path} in Meridian's order and colours.

    Written as Mapnik XML: this python3-mapnik build cannot set TextSymbolizer properties from
    Python ("no key found for 'name'")."""
    from xml.sax.saxutils import quoteattr, escape
    plan = []  # (layer, symbolizers, filter)
    plan += [("land", [poly(0xF2EFE9)], None), ("countries", [poly(0xF2EFE9)], None),
             ("ocean", [poly(0xA8CBE0)], None), ("lakes", [poly(0xA8CBE0)], None),
             ("landcover", [poly(0xC2DCB0)], "[class]='wood' or [class]='forest'"),
             ("landcover", [poly(0xCFE5C0)], "[class]='grass' or [class]='farmland' or [class]='wetland'"),
             ("landuse", [poly(0xEAE6E1)], "[class]='residential' or [class]='suburb' or [class]='neighbourhood'"),
             ("landuse", [poly(0xE8E1E6)], "[class]='industrial' or [class]='commercial' or [class]='retail' or [class]='railway'"),
             ("park", [poly(0xCFE5C0)], None), ("water", [poly(0xA8CBE0)], None)]
    if z >= 9:
        plan.append(("waterway", [line(0x98C0DA, zoom_curve([(10, .5), (14, 1.5), (18, 6)], z))], None))
    if z >= 14:
        plan.append(("building", [poly(0xDBD2CA)], None))
    if z >= 13:
        for classes, stops, _, cased, minz in ROADS:
            if cased and z >= minz:
                wdt = zoom_curve(stops, z)
                plan.append(("transportation", [line(0xC9C2B8, wdt + max(1, wdt * .25))],
                             " or ".join("[class]='%s'" % c for c in classes)))
    for classes, stops, color, _, minz in ROADS:
        if z >= minz:
            plan.append(("transportation", [line(color, zoom_curve(stops, z))],
                         " or ".join("[class]='%s'" % c for c in classes)))
    plan += [("boundaries", [line(0xA390B5, zoom_curve([(0, .5), (4, .8), (8, 1.4), (14, 2)], z))], None),
             ("coastline", [line(0x86AFC9, zoom_curve([(0, .5), (5, .8), (10, 1.2)], z))], None),
             ("places", [label()], None), ("place", [label()], None)]
    styles, layers = [], []
    for i, (layer, syms, filt) in enumerate(plan):
        if layer not in files:
            continue
        rule = ("<Filter>%s</Filter>" % escape(filt) if filt else "") + "".join(syms)
        styles.append('<Style name="s%d"><Rule>%s</Rule></Style>' % (i, rule))
        layers.append('<Layer name="l%d" srs=%s><StyleName>s%d</StyleName>'
                      '<Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">%s</Parameter>'
                      '</Datasource></Layer>' % (i, quoteattr(MERC), i, escape(files[layer])))
    xml = ('<?xml version="1.0" encoding="utf-8"?><Map srs=%s background-color="#a8cbe0">%s%s</Map>'
           % (quoteattr(MERC), "".join(styles), "".join(layers)))
    m = mapnik.Map(w, h)
    mapnik.load_map_from_string(m, xml)
    return m


def main():
    job = json.load(sys.stdin)
    mapnik.register_fonts("/usr/share/fonts/truetype/dejavu")
    dbs = []
    for path in job["sources"]:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        meta = dict(db.execute("select name, value from metadata"))
        dbs.append((db, int(meta.get("minzoom", 0)), int(meta.get("maxzoom", 14))))
    runs = int(job.get("runs", 3))
    with tempfile.TemporaryDirectory() as tmp:
        for w, h in job["sizes"]:
            for name, lat, lon, zoom in job["views"]:
                tz = max(0, min(24, int(math.floor(zoom + 0.5))))
                per_layer = {}
                for db, minz, maxz in dbs:
                    if tz < minz:
                        continue
                    sz = min(tz, maxz)
                    tiles, _ = tile_range(lat, lon, zoom, w, h, sz)
                    n = 2 ** sz
                    for ux, y in tiles:
                        x = ux % n
                        row = db.execute("select tile_data from tiles where zoom_level=? and tile_column=? and tile_row=?",
                                         (sz, x, n - 1 - y)).fetchone()
                        if not row:
                            continue
                        data = bytes(row[0])
                        if data[:2] == b"\x1f\x8b":
                            data = gzip.decompress(data)
                        for lname, (extent, feats) in decode(data).items():
                            per_layer.setdefault(lname, []).extend(to_features(feats, extent, sz, ux, y))
                files = {}
                for lname, feats in per_layer.items():
                    p = os.path.join(tmp, "%s-%s.geojson" % (name, lname))
                    with open(p, "w") as f:
                        json.dump({"type": "FeatureCollection", "features": feats}, f)
                    files[lname] = p
                m = build_map(w, h, files, zoom)
                _, (x0, y0, x1, y1) = tile_range(lat, lon, zoom, w, h, 0)
                # World units (0..256, y down) to EPSG:3857 metres.
                f = WORLD / 256
                m.zoom_to_box(mapnik.Box2d(x0 * f - WORLD / 2, WORLD / 2 - y1 * f, x1 * f - WORLD / 2, WORLD / 2 - y0 * f))
                img = mapnik.Image(w, h)
                mapnik.render(m, img)  # warm-up: loads the datasources and the fonts
                times = []
                for _ in range(runs):
                    img = mapnik.Image(w, h)
                    t = time.perf_counter()
                    mapnik.render(m, img)
                    times.append((time.perf_counter() - t) * 1000)
                if os.environ.get("MERIDIAN_MAPNIK_PNG_DIR"):
                    img.save(os.path.join(os.environ["MERIDIAN_MAPNIK_PNG_DIR"], "%s-%dx%d.png" % (name, w, h)))
                # Best of the runs, as meridian-bench takes its own cold figure.
                print(json.dumps({"size": "%dx%d" % (w, h), "view": name, "ms": min(times)}), flush=True)


if __name__ == "__main__":
    main()
