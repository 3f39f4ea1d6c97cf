#!/usr/bin/python3
"""Derives Meridian's tilemaker config from the OpenMapTiles example that Debian's tilemaker ships.

Usage: tilemaker_config.py EXAMPLE.json OUT.json

Changes, and why:
  * layers with a "source" key are dropped: they read coastline and Natural Earth shapefiles
    that the example expects beside it and that the city extract does not need (the world
    file carries Natural Earth);
  * zoom 0..14, tiles written at 14 (the reader overzooms past it);
  * the example's "filemetadata" (tile URL of an example server) is replaced by our own;
    prepare-data.sh rewrites the metadata table afterwards anyway.
"""

import json
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: tilemaker_config.py EXAMPLE.json OUT.json\n")
        sys.exit(1)
    try:
        with open(argv[1], encoding="utf-8") as source:
            config = json.load(source)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"tilemaker_config.py: {argv[1]}: {error}\n")
        sys.exit(1)
    config["layers"] = {name: layer for name, layer in config["layers"].items() if "source" not in layer}
    settings = config["settings"]
    settings.update({"minzoom": 0, "maxzoom": 14, "basezoom": 14,
                     "name": "Helsinki (OpenStreetMap)",
                     "description": "Central Helsinki from OpenStreetMap, OpenMapTiles schema"})
    settings["filemetadata"] = {"format": "pbf", "type": "overlay",
                                "attribution": "© OpenStreetMap contributors"}
    with open(argv[2], "w", encoding="utf-8") as out:
        json.dump(config, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv)
