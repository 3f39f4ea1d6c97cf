import Glibc
import Wayland
import Render
import Tiles

/// The vector tiles the map shows: the user's `--data` files, or the data shipped with
/// Meridian (Natural Earth for the world, an OpenStreetMap extract of Helsinki over it).
struct MapData {
    let sources: [any VectorTileSource]
    let attributions: [MapAttribution]

    static let shippedFiles = ["world.mbtiles", "helsinki.mbtiles"]

    /// Where the shipped data is: $MERIDIAN_DATA_DIR, an installed share/ folder beside the
    /// binary's bin/ (scripts/install.sh), beside the build tree the binary came from, or ./data.
    static func shippedDirectory() -> String? {
        var candidates: [String] = []
        if let env = getenv("MERIDIAN_DATA_DIR") { candidates.append(String(cString: env)) }
        if let exe = executableDirectory() {
            candidates += ["\(exe)/../share/meridian/data", "\(exe)/../../data", "\(exe)/../../../data"]
        }
        candidates.append("data")
        return candidates.first { access("\($0)/\(shippedFiles[0])", R_OK) == 0 }
    }

    private static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// Opens `paths` in order (later files draw over earlier ones). A file that cannot be read
    /// is a `TileError` naming it.
    static func open(_ paths: [String]) throws(TileError) -> MapData {
        var sources: [any VectorTileSource] = []
        var attributions: [MapAttribution] = []
        for path in paths {
            let source = try MBTilesSource(path: path)
            sources.append(source)
            if let text = source.attribution.map(MapAttribution.plainText(fromHTML:)), !text.isEmpty {
                let b = source.metadata.bounds
                attributions.append(MapAttribution(text: text, bounds: b.map { ($0.west, $0.south, $0.east, $0.north) },
                                                   minZoom: Double(source.minZoom)))
            }
        }
        return MapData(sources: sources, attributions: attributions)
    }

    /// The shipped data, or nil (with the reason) when it cannot be found or opened.
    static func shipped() -> (data: MapData?, problem: String?) {
        guard let dir = shippedDirectory() else {
            return (nil, "the shipped map data (data/world.mbtiles) was not found; set MERIDIAN_DATA_DIR or pass --data")
        }
        do {
            return (try open(shippedFiles.map { "\(dir)/\($0)" }.filter { access($0, R_OK) == 0 }), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    enum Loading {
        /// The data to show; nil when the shipped data is missing (the app then says so and shows no map).
        case loaded(MapData?)
        /// A `--data` file could not be opened: exit status 2, the reason already printed.
        case failed
    }

    /// The map data for `options`: the `--data` files, or else the shipped data.
    static func load(for options: Options) -> Loading {
        if !options.data.isEmpty {
            do {
                return .loaded(try open(options.data))
            } catch {
                printError("meridian: \(error)")
                return .failed
            }
        }
        let shipped = shipped()
        if let problem = shipped.problem { printError("meridian: \(problem); showing no map") }
        return .loaded(shipped.data)
    }

    func renderer(scale: Double) -> MapRenderer {
        let cache = TileCache(rasterizer: TileRasterizer(sources: sources), scale: scale)
        return MapRenderer(cache: cache, attributions: attributions)
    }
}
