#!/usr/bin/env python3
"""MapLibre Native (PyPI pymgl 0.5.0, software GL through Mesa's llvmpipe) drawing Meridian's
shipped styles over the same files: the render bench's second peer and the reference the
style tests compare pixels with.

Reads one JSON job on stdin:
  {"layers": [[style_json_path, data_path], ...],   # bottom first, as Meridian layers them
   "sizes": [[w, h], ...], "views": [[name, lat, lon, meridian_zoom], ...],
   "mode": "time" | "render", "runs": 3, "out": dir}
and prints one JSON line per size and view: {"size", "view", "ms"} (time: best of `runs`
cold frames) or {"size", "view", "file"} (render: raw RGBA bytes written to `out`).

The style given to MapLibre is Meridian's layering of the shipped styles: each file's
source points at it with an mbtiles:// URL, symbol layers are left out (no glyph PBFs can be
had here, and labels are compared separately), and only the bottom style keeps its
background (Meridian draws the others' backgrounds within their files' bounds; MapLibre has
no such layer). MapLibre's zoom counts 512-px tiles: Meridian zoom z is MapLibre z - 1.
"""
import json
import os
import sys
import time

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
os.environ.setdefault("GALLIUM_DRIVER", "llvmpipe")
import pymgl  # noqa: E402


def layered_style(pairs):
    sources, layers = {}, []
    for k, (style_path, data_path) in enumerate(pairs):
        with open(style_path) as f:
            style = json.load(f)
        rename = {}
        for sid, spec in style.get("sources", {}).items():
            new = f"{k}:{sid}"
            rename[sid] = new
            spec = dict(spec)
            spec["url"] = "mbtiles://" + os.path.abspath(data_path)
            spec.pop("tiles", None)
            sources[new] = spec
        for layer in style["layers"]:
            if layer["type"] == "symbol":
                continue
            if layer["type"] == "background" and k > 0:
                continue
            layer = dict(layer)
            layer["id"] = f"{k}:{layer['id']}"
            if "source" in layer:
                layer["source"] = rename[layer["source"]]
            layers.append(layer)
    return {"version": 8, "sources": sources, "layers": layers}


def main():
    job = json.load(sys.stdin)
    style = json.dumps(layered_style(job["layers"]))
    runs = int(job.get("runs", 3))
    mode = job.get("mode", "time")
    for w, h in job["sizes"]:
        label = f"{w}x{h}"
        for name, lat, lon, zoom in job["views"]:
            z = max(zoom - 1, 0)
            if mode == "render":
                with pymgl.Map(style, w, h, 1, lon, lat, z) as m:
                    buf = m.renderBuffer()
                path = os.path.join(job["out"], f"{label}-{name}.rgba")
                with open(path, "wb") as f:
                    f.write(buf.tobytes())
                print(json.dumps({"size": label, "view": name, "file": path}), flush=True)
                continue
            best = float("inf")
            for _ in range(runs):
                # A new map whose shaders already ran on an unrelated view (the open ocean),
                # then the timed view: every tile read, decoded, laid out, drawn and read back.
                with pymgl.Map(style, w, h, 1, -30, 0, 3) as m:
                    m.renderBuffer()
                    m.setCenter(lon, lat)
                    m.setZoom(z)
                    t0 = time.perf_counter()
                    m.renderBuffer()
                    best = min(best, (time.perf_counter() - t0) * 1000)
            print(json.dumps({"size": label, "view": name, "ms": best}), flush=True)


if __name__ == "__main__":
    main()
