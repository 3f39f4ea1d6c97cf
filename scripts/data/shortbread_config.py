#!/usr/bin/python3
"""Derives the Shortbread test config from shortbread-tiles/shortbread-tilemaker's config.json.

Usage: shortbread_config.py CONFIG.json OUT.json

Changes, and why:
  * layers with a "source" key are dropped: they read shapefiles (water polygons from
    osmdata.openstreetmap.de, admin points) that are not on this machine; `ocean` is empty;
  * the name says which city it is; the metadata is otherwise the config's own (it has no
    `attribution`, as many real files lack one).
"""

import json
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: shortbread_config.py CONFIG.json OUT.json\n")
        sys.exit(1)
    with open(argv[1], encoding="utf-8") as source:
        config = json.load(source)
    config["layers"] = {name: layer for name, layer in config["layers"].items() if "source" not in layer}
    config["settings"]["name"] = "Helsinki (Shortbread)"
    with open(argv[2], "w", encoding="utf-8") as out:
        json.dump(config, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv)
