import Glibc
import Wayland
import Render
import Style
import Tiles

/// The vector tiles the map shows: the user's `--data` files, or the data shipped with
/// Meridian (Natural Earth for the world, an OpenStreetMap extract of Helsinki over it).
struct MapData {
    let sources: [any VectorTileSource]
    let attributions: [MapAttribution]
    /// The style every tile is drawn with, and the style source each file fills.
    var style: Style = Style(name: "none", schema: nil, sources: [], layers: [], notes: [])
    var styled: [StyledSource] = []

    static let shippedFiles = ["world.mbtiles", "helsinki.mbtiles"]

    /// Where the shipped data is: $MERIDIAN_DATA_DIR, beside the build tree the binary came
    /// from, an installed share/ folder, or ./data.
    static func shippedDirectory() -> String? {
        var candidates: [String] = []
        if let env = getenv("MERIDIAN_DATA_DIR") { candidates.append(String(cString: env)) }
        if let exe = executableDirectory() {
            candidates += ["\(exe)/../../data", "\(exe)/../../../data", "\(exe)/../share/meridian/data"]
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

    /// The map data for `options`: the `--data` files, or else the shipped data, styled by
    /// `--style` or by the shipped style of each file's schema. A style file that cannot be
    /// used is reported (file, line, column) and fails like a bad `--data` file.
    static func load(for options: Options) -> Loading {
        var userStyle: Style?
        if let path = options.style {
            do {
                userStyle = try ShippedStyles.load(path)
            } catch {
                printError("meridian: \(error)")
                return .failed
            }
        }
        var data: MapData?
        // The style's own local sources load as if given with --data.
        let styleFiles = userStyle?.sources.compactMap(\.localPath) ?? []
        if !options.data.isEmpty || !styleFiles.isEmpty {
            do {
                data = try open(styleFiles + options.data)
            } catch {
                printError("meridian: \(error)")
                return .failed
            }
        } else {
            let shipped = shipped()
            if let problem = shipped.problem { printError("meridian: \(problem); showing no map") }
            data = shipped.data
        }
        guard var data else { return .loaded(nil) }
        if let userStyle {
            data.styled = bind(data.sources, to: userStyle, styleFiles: styleFiles.count)
            data.style = userStyle
        } else {
            let auto = AutomaticStyle.make(for: data.sources)
            for n in auto.notices { printError("meridian: \(n)") }
            data.styled = auto.sources
            data.style = auto.style
        }
        if options.verbose {
            for n in data.style.notes { printError("meridian: style \(data.style.name): \(n)") }
        }
        return .loaded(data)
    }

    /// Which style source each file fills: the style's own local files their sources; every
    /// other file the source whose layers it carries most of (a one-source style takes it).
    static func bind(_ sources: [any VectorTileSource], to style: Style, styleFiles: Int) -> [StyledSource] {
        let vector = style.sources.filter { $0.type == "vector" }
        var out: [StyledSource] = []
        for (k, source) in sources.enumerated() {
            let bounds = k > 0 ? AutomaticStyle.bounds(of: source) : nil
            if k < styleFiles, let own = vector.first(where: { $0.localPath != nil && $0.localPath == source.name }) {
                out.append(StyledSource(id: own.id, source: source, bounds: bounds))
                continue
            }
            guard vector.count > 1 else {
                if let only = vector.first { out.append(StyledSource(id: only.id, source: source, bounds: bounds)) }
                continue
            }
            let names = Set(AutomaticStyle.layerNames(of: source))
            let best = vector.max { style.sourceLayers(of: $0.id).intersection(names).count < style.sourceLayers(of: $1.id).intersection(names).count }
            if let best { out.append(StyledSource(id: best.id, source: source, bounds: bounds)) }
        }
        return out
    }

    func renderer(scale: Double) -> MapRenderer {
        let cache = TileCache(rasterizer: TileRasterizer(sources: styled, style: style), scale: scale)
        return MapRenderer(cache: cache, attributions: attributions)
    }
}
