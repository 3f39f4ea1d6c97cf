import Geo
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
    /// The `--data` files' own name for the map (the topmost file's metadata `name`), shown in
    /// the page header; nil for the shipped data.
    var title: String?
    /// Where the map opens without `--center`/`--zoom`: the topmost `--data` file's metadata
    /// centre, else the middle of its bounds; nil for the shipped data (the Helsinki start).
    var startCenter: Coordinate?
    var startZoom: Double?
    /// Said once with `--verbose` (e.g. an MBTiles file whose lookups scan the table).
    var notices: [String] = []

    static let shippedFiles = ["world.mbtiles", "helsinki.mbtiles"]

    /// Where the shipped data is: the first of `ShippedStyles.dataDirectoryCandidates()` that
    /// holds it.
    static func shippedDirectory() -> String? {
        let candidates = ShippedStyles.dataDirectoryCandidates()
        return candidates.first { access("\($0)/\(shippedFiles[0])", R_OK) == 0 }
    }


    /// Opens `paths` in order (later files draw over earlier ones), each as MBTiles or PMTiles
    /// by its first bytes. A file that cannot be read is a `TileError` naming it.
    static func open(_ paths: [String]) throws(TileError) -> MapData {
        var files: [any TileFile] = []
        var attributions: [MapAttribution] = []
        var notices: [String] = []
        for path in paths {
            let file = try TileFiles.open(path)
            files.append(file)
            for credit in MapAttribution.of(file) where !attributions.contains(where: { $0.text == credit.text }) {
                attributions.append(credit)
            }
            if let mbtiles = file as? MBTilesSource, mbtiles.lookupsScanTable {
                notices.append("\(path): the tiles table has no index on (zoom_level, tile_column, tile_row); every tile lookup scans the table and will be slow")
            }
        }
        var data = MapData(sources: files, attributions: attributions, notices: notices)
        // The topmost file that says where it is decides the start and the title.
        if let top = files.last(where: { $0.metadata.center != nil || $0.metadata.bounds != nil }) ?? files.last {
            (data.startCenter, data.startZoom) = startCamera(top.metadata)
        }
        data.title = files.last(where: { !($0.metadata.name ?? "").trimmingSpaces.isEmpty })?.metadata.name?.trimmingSpaces
        return data
    }

    /// The file's metadata centre (zoom from the centre, else one that fits its bounds), else
    /// the middle of its bounds; nil when the metadata has neither.
    static func startCamera(_ m: MBTilesMetadata) -> (Coordinate?, Double?) {
        var fitZoom: Double?
        if let b = m.bounds {
            // About the 768-px-wide map view: 3 tiles across hold the bounds' width.
            let span = max(b.east - b.west, 1e-6)
            fitZoom = min(max(log2(360 / span * 3), Double(m.minZoom)), Double(m.maxZoom) + 2)
        }
        if let c = m.center {
            return (Coordinate(latitude: c.latitude, longitude: c.longitude), c.zoom ?? fitZoom)
        }
        guard let b = m.bounds else { return (nil, nil) }
        let mid = WebMercator.coordinate(WorldPoint(
            x: (WebMercator.world(Coordinate(latitude: b.north, longitude: b.west)).x + WebMercator.world(Coordinate(latitude: b.south, longitude: b.east)).x) / 2,
            y: (WebMercator.world(Coordinate(latitude: b.north, longitude: b.west)).y + WebMercator.world(Coordinate(latitude: b.south, longitude: b.east)).y) / 2))
        return (mid, fitZoom)
    }

    /// The shipped data, or nil (with the reason) when it cannot be found or opened.
    static func shipped() -> (data: MapData?, problem: String?) {
        guard let dir = shippedDirectory() else {
            return (nil, "the shipped map data (data/world.mbtiles) was not found; set MERIDIAN_DATA_DIR or pass --data")
        }
        do {
            // The page's own Helsinki start and title, not the files' metadata.
            var data = try open(shippedFiles.map { "\(dir)/\($0)" }.filter { access($0, R_OK) == 0 })
            (data.title, data.startCenter, data.startZoom) = (nil, nil, nil)
            return (data, nil)
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
                if options.verbose { for notice in data?.notices ?? [] { printError("meridian: \(notice)") } }
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
        if let language = options.language { data.style = data.style.preferringLanguage(language) }
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

extension String {
    /// Without leading and trailing white space.
    var trimmingSpaces: String {
        let scalars = unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
