import Geo
import Places
#if canImport(Glibc)
import Glibc
#endif

/// `meridian-bench places`: the places document with 10 000 places (each with a few properties,
/// as an export from another program carries): reading the GeoJSON, writing it back, and one
/// edit saved atomically (temporary file, fsync, rename, folder fsync) — the cost behind the
/// "saved within a second" promise. Figures in ms; the save includes the disk's fsync.
enum PlacesBench {
    static let placeCount = 10_000
    static let runs = 15

    static func sampleText() -> String {
        var features: [String] = []
        for i in 0..<placeCount {
            let lat = 60.0 + Double(i % 100) * 0.001, lon = 24.0 + Double(i / 100) * 0.001
            features.append(#"{"type": "Feature", "id": "p\#(i)", "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}, "properties": {"name": "Place \#(i)", "description": "Bench place number \#(i)", "visited": \#(i % 2 == 0), "tags": ["a", "b"]}}"#)
        }
        return #"{"type": "FeatureCollection", "name": "Bench", "features": ["# + features.joined(separator: ",\n") + "]}\n"
    }

    static func measure(_ body: () -> Void) -> [Double] {
        (0..<runs).map { _ in
            let t0 = Bench.now()
            body()
            return Double(Bench.now() - t0) / 1e6
        }
    }

    static func report(_ metric: String, _ ms: [Double], bytes: Int) {
        Bench.emit([("suite", "places"), ("metric", metric), ("places", placeCount), ("bytes", bytes),
                    ("median", Bench.quantile(ms, 0.5)), ("p90", Bench.quantile(ms, 0.9)), ("runs", ms.count)])
    }

    static func run() {
        Bench.progress("places: \(placeCount) places, \(runs) runs each")
        let bytes = Array(sampleText().utf8)
        var collection = PlacesCollection()
        report("read_ms", measure {
            if let c = try? PlacesCollection(parsing: bytes) { collection = c }
        }, bytes: bytes.count)
        guard collection.places.count == placeCount else {
            Bench.progress("places: the bench file did not read back (\(collection.places.count) places)")
            return
        }
        var written = ""
        report("write_ms", measure { written = collection.text }, bytes: bytes.count)

        var template = Array("/tmp/meridian-bench-places-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return }
        let folder = String(cString: made)
        let path = folder + "/bench.geojson"
        defer {
            unlink(path)
            rmdir(folder)
        }
        do {
            try AtomicFile.write(Array(written.utf8), to: path, mode: 0o644)
            let document = try PlacesDocument(path: path)
            let id = document.places[placeCount / 2].id
            var k = 0.0
            report("edit_and_save_ms", measure {
                k += 1
                document.move(id, to: Coordinate(latitude: 60.5 + k * 1e-6, longitude: 24.5))
                _ = document.save()
            }, bytes: written.utf8.count)
        } catch {
            Bench.progress("places: \(error)")
        }
    }
}
