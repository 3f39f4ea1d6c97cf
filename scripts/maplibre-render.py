#!/usr/bin/env python3
"""Renders a MapLibre style and local tile data with MapLibre Native (PyPI pymgl 0.5.0) to a
PNG: the reference rendering the style engine and the render bench compare Meridian with
(shared/reference/maplibre-native.md).

  scripts/maplibre-render.sh --style data/styles/openmaptiles.json --data data/helsinki.mbtiles \
      --center 60.1716,24.9443 --zoom 15 --size 768x560 --out /tmp/maplibre.png [--no-labels]

--zoom is Meridian's zoom (256-px tiles); MapLibre is given zoom - 1 (its tiles are 512 px), so
the same ground lands on the same pixels. --data fills a vector source that names no data:
`--data FILE` the first such source, `--data ID=FILE` the source ID (repeatable). MBTiles only:
pymgl 0.5.0's MapLibre Native predates its PMTiles support (convert with pmtiles-convert).
--no-labels drops symbol layers (no glyph PBFs are available offline). scripts/maplibre-render.sh
sets up the venv and EGL environment and runs this.
"""

import argparse
import json
import os
import sys


def parse_args(argv):
    p = argparse.ArgumentParser(description="Render a MapLibre style with MapLibre Native (pymgl) to PNG")
    p.add_argument("--style", required=True)
    p.add_argument("--data", action="append", default=[])
    p.add_argument("--center", required=True, help="LAT,LON")
    p.add_argument("--zoom", required=True, type=float, help="Meridian zoom (256-px tiles)")
    p.add_argument("--size", default="768x560", help="WIDTHxHEIGHT in px")
    p.add_argument("--ratio", default=1.0, type=float, help="pixel ratio (buffer scale)")
    p.add_argument("--out", required=True)
    p.add_argument("--no-labels", action="store_true")
    return p.parse_args(argv)


def local_url(path):
    absolute = os.path.abspath(path)
    if not os.path.isfile(absolute):
        sys.exit(f"maplibre-render: {path}: no such file")
    with open(absolute, "rb") as f:
        if f.read(16) != b"SQLite format 3\0":
            sys.exit(f"maplibre-render: {path}: not an MBTiles file (pymgl 0.5.0 reads MBTiles only)")
    return "mbtiles://" + absolute


def prepared_style(args):
    style_dir = os.path.dirname(os.path.abspath(args.style))
    try:
        with open(args.style, encoding="utf-8") as f:
            style = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit(f"maplibre-render: {args.style}: {error}")
    sources = style.get("sources", {})
    vector = [sid for sid, s in sources.items() if s.get("type") == "vector"]
    # Local URLs relative to the style file become absolute.
    for s in sources.values():
        url = s.get("url", "")
        for scheme in ("mbtiles://", "file://"):
            if url.startswith(scheme) and not url[len(scheme):].startswith("/"):
                s["url"] = "mbtiles://" + os.path.join(style_dir, url[len(scheme):])
    unnamed = [sid for sid in vector if "url" not in sources[sid] and "tiles" not in sources[sid]]
    for item in args.data:
        sid, _, path = item.rpartition("=") if "=" in item else ("", "", item)
        if not sid:
            if not unnamed:
                sys.exit("maplibre-render: --data FILE given but every vector source already has data; use ID=FILE")
            sid = unnamed.pop(0)
        if sid not in sources:
            sys.exit(f"maplibre-render: the style has no source '{sid}'")
        sources[sid].pop("tiles", None)
        sources[sid]["url"] = local_url(path)
    if args.no_labels:
        style["layers"] = [l for l in style.get("layers", []) if l.get("type") != "symbol"]
    # Fonts and sprites cannot be fetched here; MapLibre must not try.
    style.pop("sprite", None)
    style.setdefault("glyphs", "file:///nonexistent/{fontstack}/{range}.pbf")
    return style


def main(argv):
    args = parse_args(argv)
    try:
        lat, lon = (float(v) for v in args.center.split(","))
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        sys.exit("maplibre-render: --center wants LAT,LON and --size WIDTHxHEIGHT")
    style = prepared_style(args)
    os.environ.setdefault("EGL_PLATFORM", "surfaceless")
    import pymgl  # after EGL_PLATFORM: EGL reads it when the first map is made
    with pymgl.Map(json.dumps(style), width, height, args.ratio, lon, lat, args.zoom - 1) as m:
        png = m.renderPNG()
    with open(args.out, "wb") as f:
        f.write(png)
    print(f"maplibre-render: {args.out}: {width}x{height} at {lat},{lon} Meridian zoom {args.zoom} (MapLibre {args.zoom - 1})",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
