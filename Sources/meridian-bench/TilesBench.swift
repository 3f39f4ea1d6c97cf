import Dispatch
import Glibc
import Tiles

/// `meridian-bench tiles`: how fast the MBTiles and PMTiles readers turn the shipped files
/// (and the city file converted to PMTiles by the reference tool) into vector tiles (read +
/// inflate + decode), on one thread and on two, how fast overzoomed tiles past the city
/// file's deepest level are cut, and what opening a file costs. The reference page's C reader (sqlite3 +
/// zlib + protobuf-c) needed 26 ms for the 3,207 NE-50m tiles; that figure is quoted, not
/// measured in this run.
enum TilesBench {
    static let files = ["data/world.mbtiles", "data/helsinki.mbtiles", "data/test/helsinki.pmtiles"]
    static let runs = 5

    static func run() {
        // MERIDIAN_TILES_ONCE=1: read every tile once on one thread and stop, a fixed workload
        // for instruction counts (`valgrind --tool=callgrind`) without the timed repeats.
        let once = getenv("MERIDIAN_TILES_ONCE").map { String(cString: $0) == "1" } ?? false
        for path in files {
            let source: any TileFile
            let ids: [TileID]
            do {
                source = try TileFiles.open(path)
                ids = try source.storedTileIDs()
            } catch {
                Bench.progress("tiles: skipping \(error)")
                continue
            }
            let file = path.split(separator: "/").last.map(String.init) ?? path
            Bench.progress("tiles: \(file): \(ids.count) tiles")
            var features = 0, vertices = 0, damaged = 0
            for id in ids {
                guard let tile = try? source.tile(id) else { damaged += 1; continue }
                for layer in tile.layers {
                    features += layer.features.count
                    for feature in layer.features { vertices += feature.parts.reduce(0) { $0 + $1.count } }
                }
            }
            if damaged > 0 { Bench.progress("tiles: \(file): \(damaged) tiles could not be read") }
            if once {
                Bench.emit([("suite", "tiles"), ("metric", "read_once"), ("file", file), ("tiles", ids.count),
                            ("features", features), ("vertices", vertices)])
                continue
            }

            let opening = time { _ = try? TileFiles.open(path) }.map { $0 * 1000 }
            Bench.emit([("suite", "tiles"), ("metric", "open_us"), ("file", file), ("format", source.formatName),
                        ("median", Bench.quantile(opening, 0.5)), ("p90", Bench.quantile(opening, 0.9)), ("runs", runs)])

            let serial = time { for id in ids { _ = try? source.tile(id) } }
            Bench.emit([("suite", "tiles"), ("metric", "decode_all_ms"), ("file", file), ("tiles", ids.count),
                        ("features", features), ("vertices", vertices), ("threads", 1),
                        ("median", Bench.quantile(serial, 0.5)), ("p90", Bench.quantile(serial, 0.9)), ("runs", runs)])

            let parallel = time {
                DispatchQueue.concurrentPerform(iterations: 2) { half in
                    for (i, id) in ids.enumerated() where i % 2 == half { _ = try? source.tile(id) }
                }
            }
            Bench.emit([("suite", "tiles"), ("metric", "decode_all_ms"), ("file", file), ("tiles", ids.count), ("threads", 2),
                        ("median", Bench.quantile(parallel, 0.5)), ("p90", Bench.quantile(parallel, 0.9)), ("runs", runs)])

            // Two levels past the deepest zoom: the 16 children of every deepest tile.
            let deepest = ids.filter { $0.z == source.maxZoom }
            let children = deepest.flatMap { id in
                (0..<4).flatMap { dx in (0..<4).map { dy in TileID(z: id.z + 2, x: id.x * 4 + dx, y: id.y * 4 + dy) } }
            }
            guard !children.isEmpty else { continue }
            let overzoom = time { for id in children { _ = try? source.tile(id) } }.map { $0 * 1000 / Double(children.count) }
            Bench.emit([("suite", "tiles"), ("metric", "overzoom_tile_us"), ("file", file), ("tiles", children.count),
                        ("median", Bench.quantile(overzoom, 0.5)), ("p90", Bench.quantile(overzoom, 0.9)), ("runs", runs)])
        }
    }

    /// Milliseconds for each of `runs` timed calls of `body`, after one untimed warm-up.
    static func time(_ body: () -> Void) -> [Double] {
        body()
        return (0..<runs).map { _ in
            let start = Bench.now()
            body()
            return Double(Bench.now() - start) / 1e6
        }
    }
}
