import Glibc
import Places

/// A fresh folder under /tmp, removed with everything in it when the test is done.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/meridian-places-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "/tmp/meridian-places-\(getpid())"
    }

    deinit {
        for name in names() { unlink("\(path)/\(name)") }
        rmdir(path)
    }

    /// Every file in the folder (dot files included), sorted.
    func names() -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out.sorted()
    }

    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
        let file = "\(path)/\(name)"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, mode)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        chmod(file, mode)
        return file
    }
}

func readText(_ path: String) -> String? {
    guard let r = try? AtomicFile.read(path) else { return nil }
    return String(decoding: r.bytes, as: UTF8.self)
}

func fileMode(_ path: String) -> mode_t? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return st.st_mode & 0o7777
}

/// A FeatureCollection with a bit of everything a real export carries: foreign members at
/// every level, a bbox, a LineString and a Polygon, a Point with an altitude, numbers in
/// exponent form, nested properties, a feature with null geometry, non-ASCII and escapes.
let richGeoJSON = #"""
{
  "type": "FeatureCollection",
  "name": "Trip",
  "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
  "bbox": [24.9, 60.1, 25.0, 60.2],
  "features": [
    {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [24.9414, 60.1716, 12.50]},
     "properties": {"name": "Rautatientori", "description": "Station square", "marker-color": "#ff0000",
                    "tags": {"amenity": ["cafe", "toilets"], "level": 0}, "visited": true, "rating": 4.5e0,
                    "note": null, "quote": "say \"moi\"\t\u00e4 \ud83d\ude00"},
     "foreign": {"kept": [1, 2, 3]}},
    {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[24.94, 60.17], [24.95, 60.171]]},
     "properties": {"name": "Walk", "stroke-width": 3}},
    {"type": "Feature", "id": "park", "geometry": {"type": "Polygon",
      "coordinates": [[[24.94, 60.16], [24.95, 60.16], [24.95, 60.17], [24.94, 60.16]]]},
     "properties": null},
    {"type": "Feature", "geometry": null, "properties": {"name": "Nowhere"}},
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.5E1, 60.169]},
     "properties": {"name": "Kauppatori"}}
  ]
}
"""#
