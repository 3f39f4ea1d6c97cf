import CCairo
import Geo
import Style
import Tiles
import Foundation

/// A credit the map must show while its data is on screen ("© OpenStreetMap contributors"
/// for OSM data, as the ODbL requires).
public struct MapAttribution: Sendable, Equatable {
    /// Plain text; HTML from MBTiles metadata is reduced with `plainText(fromHTML:)`.
    public var text: String
    /// Where the data is (west, south, east, north in degrees); nil means the whole world.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)?
    /// Below this zoom the data is not drawn, so its credit is not shown either.
    public var minZoom: Double

    public init(text: String, bounds: (west: Double, south: Double, east: Double, north: Double)? = nil, minZoom: Double = 0) {
        self.text = text
        self.bounds = bounds
        self.minZoom = minZoom
    }

    public static func == (a: MapAttribution, b: MapAttribution) -> Bool {
        a.text == b.text && a.minZoom == b.minZoom && a.bounds.map { [$0.west, $0.south, $0.east, $0.north] } == b.bounds.map { [$0.west, $0.south, $0.east, $0.north] }
    }

    /// The credit for OpenStreetMap data.
    public static let openStreetMap = "© OpenStreetMap contributors"

    /// Whether any of the data lies in the view of `camera`.
    public func isVisible(in camera: MapCamera) -> Bool {
        guard camera.zoom >= minZoom else { return false }
        guard let b = bounds else { return true }
        let nw = WebMercator.world(Coordinate(latitude: b.north, longitude: b.west))
        let se = WebMercator.world(Coordinate(latitude: b.south, longitude: b.east))
        // The box around the view, which is the view itself when it is not rotated.
        let extent = camera.worldExtent, c = camera.center
        let viewTopLeft = WorldPoint(x: c.x - extent.width / 2, y: c.y - extent.height / 2)
        let viewBottomRight = WorldPoint(x: c.x + extent.width / 2, y: c.y + extent.height / 2)
        guard nw.y < viewBottomRight.y, se.y > viewTopLeft.y else { return false }
        // Try the data's box on the world copies either side too (the view may cross ±180°).
        let world = WebMercator.tileSize
        let east = se.x >= nw.x ? se.x : se.x + world
        return [-world, 0, world].contains { shift in nw.x + shift < viewBottomRight.x && east + shift > viewTopLeft.x }
    }

    /// The distinct credits to show for `camera`, in the order given.
    public static func visible(_ all: [MapAttribution], camera: MapCamera) -> [String] {
        var out: [String] = []
        for a in all where a.isVisible(in: camera) && !a.text.isEmpty && !out.contains(a.text) { out.append(a.text) }
        return out
    }

    /// MBTiles `attribution` metadata is often HTML (`<a href=…>&copy; OpenStreetMap</a>`):
    /// the text a person reads, with tags dropped and the common entities decoded.
    public static func plainText(fromHTML html: String) -> String {
        var out = "", inTag = false
        for ch in html {
            if ch == "<" { inTag = true } else if ch == ">" { inTag = false } else if !inTag { out.append(ch) }
        }
        for (entity, ch) in [("&copy;", "©"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&nbsp;", " ")] {
            out = out.replacingOccurrences(of: entity, with: ch)
        }
        return out.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}

/// The attribution line in the bottom-right corner, on a pale strip so it reads over any map.
enum AttributionOverlay {
    static let fontSize = 10.0

    static func draw(_ credits: [String], size: ViewSize, into cr: OpaquePointer, scale: Double, cache: OverlayCache) {
        guard !credits.isEmpty else { return }
        let text = credits.joined(separator: " · ")
        let textWidth = OverlayText.width(text, size: fontSize, in: cr)
        let width = (textWidth + 10).rounded(.up), height = fontSize + 6
        guard let image = cache.image(key: "attribution|\(text)", width: width, height: height, scale: scale, draw: { cr in
            cairo_set_source_rgba(cr, 1, 1, 1, 0.7)
            cairo_rectangle(cr, 0, 0, width, height)
            cairo_fill(cr)
            OverlayText.draw(text, x: 4, baseline: height - 5, size: fontSize, into: cr)
        }) else { return }
        OverlayCache.blit(image, x: size.width - width - 2, y: size.height - height, into: cr)
    }
}

extension MapAttribution {
    /// True when `layers` are those of a schema only OpenStreetMap data fills: OpenMapTiles,
    /// Shortbread or the Protomaps basemap (told apart as the style picker does, by
    /// `Schema.detect`).
    public static func isOpenStreetMapSchema(_ layers: [String]) -> Bool {
        [.openmaptiles, .shortbread, .protomaps].contains(Schema.detect(layerNames: layers))
    }

    /// The credits a source asks for. An MBTiles file's are placed by its bounds (below);
    /// other sources (a layered source, a test fixture) know no bounds, so their credit
    /// shows whenever the map does.
    public static func of(_ source: any VectorTileSource) -> [MapAttribution] {
        if let file = source as? any TileFile { return of(file) }
        guard let text = source.attribution.map(plainText(fromHTML:)), !text.isEmpty else { return [] }
        return [MapAttribution(text: text)]
    }

    /// The credits a tile file (MBTiles or PMTiles) asks for: its `attribution` metadata,
    /// shown while its `bounds` are in view. OpenStreetMap-derived data (an OSM credit in the
    /// text, or a schema only OSM data fills: OpenMapTiles, Shortbread, Protomaps, told by
    /// `vector_layers` or the tiles' layer names) always carries "© OpenStreetMap
    /// contributors", as the ODbL requires, even when the file forgot it.
    public static func of(_ source: any TileFile) -> [MapAttribution] {
        let m = source.metadata
        let bounds = m.bounds.map { (west: $0.west, south: $0.south, east: $0.east, north: $0.north) }
        let minZoom = Double(m.minZoom)
        var credits: [MapAttribution] = []
        let text = m.attribution.map(plainText(fromHTML:)) ?? ""
        if !text.isEmpty { credits.append(MapAttribution(text: text, bounds: bounds, minZoom: minZoom)) }
        let fromOSM = text.localizedCaseInsensitiveContains("openstreetmap") || isOpenStreetMapSchema(source.layerNames())
        if fromOSM && !text.contains(openStreetMap) {
            credits.append(MapAttribution(text: openStreetMap, bounds: bounds, minZoom: minZoom))
        }
        return credits
    }
}
