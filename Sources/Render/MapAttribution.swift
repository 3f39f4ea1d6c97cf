import CCairo
import Geo
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
        let viewTopLeft = camera.worldPoint(at: .zero)
        let viewBottomRight = camera.worldPoint(at: ScreenPoint(x: camera.size.width, y: camera.size.height))
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
    static func draw(_ credits: [String], size: ViewSize, into cr: OpaquePointer) {
        guard !credits.isEmpty else { return }
        let text = credits.joined(separator: " · ")
        let fontSize = 10.0
        let width = OverlayText.width(text, size: fontSize, in: cr)
        let x = size.width - width - 6, y = size.height - 4
        cairo_set_source_rgba(cr, 1, 1, 1, 0.7)
        cairo_rectangle(cr, x - 4, y - fontSize - 2, width + 10, fontSize + 6)
        cairo_fill(cr)
        OverlayText.draw(text, x: x, baseline: y - 1, size: fontSize, into: cr)
    }
}
