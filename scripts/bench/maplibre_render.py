#!/usr/bin/env python3
"""MapLibre Native (PyPI pymgl 0.5.0, software GL through Mesa's llvmpipe) drawing Meridian's
shipped styles over the same files: the render bench's second peer and the reference the
style tests compare pixels with.

Reads one JSON job on stdin:
  {"layers": [[style_json_path, data_path], ...],   # bottom first, as Meridian layers them
   "sizes": [[w, h], ...], "views": [[name, lat, lon, meridian_zoom], ...],
   "mode": "time" | "render", "runs": 3, "out": dir,
   "labels": {"glyphs": "file:///dir/{fontstack}/{range}.pbf", "colors": {text: "#rrggbb"},
              "fallback": "#rrggbb"}}                  # optional, see below
and prints one JSON line per size and view: {"size", "view", "ms"} (time: best of `runs`
cold frames) or {"size", "view", "file"} (render: raw RGBA bytes written to `out`).

The style given to MapLibre is Meridian's layering of the shipped styles: each file's
source points at it with an mbtiles:// URL, symbol layers are left out (no glyph PBFs can be
had here, and labels are compared separately), and only the bottom style keeps its
background (Meridian draws the others' backgrounds within their files' bounds; MapLibre has
no such layer). MapLibre's zoom counts 512-px tiles: Meridian zoom z is MapLibre z - 1.

With "labels" the job draws the opposite: only the symbol layers, as the label-anchor
comparison needs them (docs/MAP-ENGINE.md, "Against MapLibre"). The glyphs come from
`glyphs` (made by the test from the fonts Meridian uses: every glyph a solid box of its
advance and the font's ascent and descent), halos and icons are off, the background is
black, and each label's text picks its colour from `colors` (anything else gets `fallback`),
so each placed label can be found in the pixels by its colour.
"""
import json
import os
import sys
import time

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
os.environ.setdefault("GALLIUM_DRIVER", "llvmpipe")
import pymgl  # noqa: E402


def text_expression(field):
    """A layer's `text-field` as an expression giving the label's string."""
    if isinstance(field, str):
        parts, rest = [], field
        while "{" in rest and "}" in rest.split("{", 1)[1]:
            before, after = rest.split("{", 1)
            key, rest = after.split("}", 1)
            if before:
                parts.append(before)
            parts.append(["to-string", ["coalesce", ["get", key], ""]])
        if rest:
            parts.append(rest)
        return parts[0] if len(parts) == 1 else ["concat", *parts]
    return ["to-string", field]


def label_layer(layer, labels):
    """A symbol layer drawn for finding its labels: no halo, one colour per text, icons placed
    as the style says (they take room and may drop optional text) but not drawn."""
    layout = dict(layer.get("layout", {}))
    paint = {k: v for k, v in layer.get("paint", {}).items() if not k.startswith("icon-")}
    paint["icon-opacity"] = 0
    match = ["match", text_expression(layout.get("text-field", ""))]
    for text, color in labels["colors"].items():
        match += [text, color]
    paint["text-color"] = match + [labels["fallback"]] if len(match) > 2 else labels["fallback"]
    paint["text-halo-width"] = 0
    paint["text-opacity"] = 1
    layer["layout"], layer["paint"] = layout, paint
    return layer


def layered_style(pairs, labels=None):
    sources, layers = {}, []
    if labels:
        layers.append({"id": "black", "type": "background", "paint": {"background-color": "#000000"}})
    for k, (style_path, data_path) in enumerate(pairs):
        with open(style_path) as f:
            style = json.load(f)
        rename = {}
        sprite = style.get("sprite")
        if labels and isinstance(sprite, str) and "sprite" not in labels:
            # A sprite path relative to its style file, as Meridian reads it.
            if "://" not in sprite:
                sprite = "file://" + os.path.join(os.path.dirname(os.path.abspath(style_path)), sprite)
            labels["sprite"] = sprite
        for sid, spec in style.get("sources", {}).items():
            new = f"{k}:{sid}"
            rename[sid] = new
            spec = dict(spec)
            spec["url"] = "mbtiles://" + os.path.abspath(data_path)
            spec.pop("tiles", None)
            sources[new] = spec
        for layer in style["layers"]:
            if (layer["type"] == "symbol") != bool(labels):
                continue
            if layer["type"] == "background" and k > 0:
                continue
            layer = dict(layer)
            if labels:
                layer = label_layer(layer, labels)
            layer["id"] = f"{k}:{layer['id']}"
            if "source" in layer:
                layer["source"] = rename[layer["source"]]
            layers.append(layer)
    style = {"version": 8, "sources": sources, "layers": layers}
    if labels:
        style["glyphs"] = labels["glyphs"]
        if "sprite" in labels:
            style["sprite"] = labels["sprite"]
    return style


def main():
    job = json.load(sys.stdin)
    style = json.dumps(layered_style(job["layers"], job.get("labels")))
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
