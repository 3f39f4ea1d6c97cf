import Style
import Tiles

/// A source that knows its layer names without reading a tile (test fixtures; files say it
/// through `TileFile.layerNames()`).
public protocol DescribesLayers {
    var layerNames: [String] { get }
}

/// Picks each source's shipped style from its layer names and layers them into one style:
/// the map a user gets without `--style`.
public enum AutomaticStyle {
    /// The layer names a source carries: a file's `vector_layers` metadata (else the layers
    /// of one tile), else the layers of its first tile.
    public static func layerNames(of source: any VectorTileSource) -> [String] {
        if let file = source as? any TileFile { return file.layerNames() }
        if let described = source as? any DescribesLayers { return described.layerNames }
        for z in [source.minZoom, 0] {
            if let t = try? source.tile(TileID(z: z, x: 0, y: 0)), !t.layers.isEmpty { return t.layers.map(\.name) }
        }
        return []
    }

    /// The area a source covers: its metadata `bounds`, else (an MBTiles file without them)
    /// the box around the tiles it holds (`MBTilesSource.coveredBounds`); nil for none.
    public static func bounds(of source: any VectorTileSource) -> (west: Double, south: Double, east: Double, north: Double)? {
        guard let b = (source as? any TileFile)?.metadata.bounds ?? (source as? MBTilesSource)?.coveredBounds() else { return nil }
        return (b.west, b.south, b.east, b.north)
    }

    /// The styled sources and the layered style for `sources`; `notices` says which file got
    /// the generic style and why, and any style that could not be read.
    public static func make(for sources: [any VectorTileSource], directory: String? = ShippedStyles.directory())
        -> (sources: [StyledSource], style: Style, notices: [String]) {
        var styles: [Style] = []
        var styled: [StyledSource] = []
        var notices: [String] = []
        guard let directory else {
            notices.append("the shipped styles (data/styles) were not found; set MERIDIAN_STYLE_DIR or pass --style")
            return (sources.enumerated().map { StyledSource(id: "\($0.offset)", source: $0.element) },
                    Style(name: "none", schema: nil, sources: [], layers: [], notes: []), notices)
        }
        for (k, source) in sources.enumerated() {
            let names = layerNames(of: source)
            let schema = Schema.detect(layerNames: names)
            if schema == .generic {
                notices.append("\(source.name): its layers (\(names.joined(separator: ", "))) match no schema Meridian has a style for "
                               + "(OpenMapTiles, Shortbread, Protomaps); showing its polygons, lines and names with a generic style")
            }
            do {
                let style = try ShippedStyles.style(for: schema, layerNames: names, directory: directory)
                styles.append(style)
                let id = style.sources.first?.id ?? "data"
                styled.append(StyledSource(id: "\(styles.count - 1):\(id)", source: source, bounds: k > 0 ? bounds(of: source) : nil))
            } catch {
                notices.append("\(error)")
            }
        }
        let name = styles.map { $0.schema ?? $0.name }.joined(separator: "+")
        return (styled, Style.layered(styles, name: name), notices)
    }
}
