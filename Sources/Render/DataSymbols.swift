import Style
import Tiles

/// The symbols of the shipped data's label layers, chosen the way the built-in palette
/// (`MapStyle`) would: a stand-in for the compiled MapLibre style until it hands the placer
/// its own `SymbolFeature`s.
///
/// Layers, bottom (placed last) to top (placed first), as an OpenMapTiles style orders them:
/// house numbers (`housenumber`, z ≥ 17), points of interest (`poi`, z ≥ 15 by rank), street
/// names along their roads (`transportation_name`, major roads from z13, minor from z15),
/// water names (`water_name`), OpenMapTiles places (`place` by class) and Natural Earth places
/// (`places` by rank). Zooms are Meridian's (256-px tiles).
public struct DataSymbols: SymbolSource {
    public init() {}

    static let layers = ["housenumber", "poi", "transportation_name", "water_name", "place", "places"]

    public func symbols(in tile: VectorTile, zoom: Double) -> [SymbolFeature] {
        var out: [SymbolFeature] = []
        for (index, name) in Self.layers.enumerated() {
            guard let layer = tile.layer(named: name) else { continue }
            for (i, f) in layer.features.enumerated() {
                guard let s = symbol(f, layer: name, index: index, featureIndex: i, zoom: zoom, extent: layer.extent) else { continue }
                out.append(contentsOf: s)
            }
        }
        return out
    }

    static func style(size: Double, color: UInt32 = 0x3A3A3A, halo: Double = 1.5, bold: Bool = false, italic: Bool = false) -> TextStyle {
        var t = TextStyle()
        t.size = size
        let c = RGB(hex: color)
        t.color = StyleColor(r: c.r, g: c.g, b: c.b)
        t.haloColor = .white
        t.haloWidth = halo
        t.bold = bold
        t.italic = italic
        t.maxWidth = 8
        t.padding = 2
        return t
    }

    private func symbol(_ f: VectorFeature, layer: String, index: Int, featureIndex: Int, zoom: Double, extent: UInt32) -> [SymbolFeature]? {
        let text: String
        var style: TextStyle
        var placement = SymbolPlacement.point
        var sortKey: Double?
        switch layer {
        case "places", "place":
            guard let name = Self.name(f), let size = MapStyle.placeLabelSize(f, zoom: zoom) else { return nil }
            text = name
            style = Self.style(size: size, bold: size >= 14)
            if layer == "places" {
                // Natural Earth: capitals before other cities of the same rank.
                let capital = f.properties["capital"].flatMap(MapStyle.number).map { $0 != 0 } ?? false
                sortKey = (f.properties["rank"].flatMap(MapStyle.number) ?? 10) - (capital ? 0.5 : 0)
            } else {
                let order = ["city": 0.0, "town": 1, "suburb": 2, "quarter": 3, "village": 4, "neighbourhood": 5, "hamlet": 6]
                sortKey = Self.string(f, "class").flatMap { order[$0] } ?? 9
            }
        case "water_name":
            guard zoom >= 13, let name = Self.name(f) else { return nil }
            text = name
            style = Self.style(size: 12, color: 0x3F6E8C, italic: true)
            if f.type == .lineString { placement = .line }
        case "transportation_name":
            guard f.type == .lineString, let name = Self.name(f) else { return nil }
            let cls = Self.string(f, "class") ?? ""
            let major = ["motorway", "trunk", "primary", "secondary", "tertiary"].contains(cls)
            guard zoom >= (major ? 13 : 15) else { return nil }
            text = name
            style = Self.style(size: zoom >= 17 ? 13 : 11.5, color: 0x4A4640)
            placement = .line
            let order = ["motorway": 0.0, "trunk": 1, "primary": 2, "secondary": 3, "tertiary": 4]
            sortKey = order[cls] ?? 6
        case "poi":
            guard let name = Self.name(f) else { return nil }
            let rank = f.properties["rank"].flatMap(MapStyle.number) ?? 30
            // The most important points first, more of them as the map zooms in.
            guard zoom >= 15 + min(max((rank - 1) / 10, 0), 2) else { return nil }
            text = name
            style = Self.style(size: 11, color: 0x6B5A45)
            style.anchor = .top
            style.optional = true
            sortKey = rank
        case "housenumber":
            guard zoom >= 17, case .string(let number)? = f.properties["housenumber"], !number.isEmpty else { return nil }
            text = number
            style = Self.style(size: 10, color: 0x8A7F74, halo: 1)
            style.padding = 1
        default:
            return nil
        }
        let geometries: [SymbolGeometry]
        switch (f.type, placement) {
        case (.point, _):
            geometries = f.parts.flatMap { $0.map { SymbolGeometry.point($0) } }
        case (.lineString, .line), (.lineString, .lineCenter):
            geometries = f.parts.filter { $0.count >= 2 }.map { .line($0) }
        case (.lineString, .point):
            geometries = f.parts.compactMap { $0.isEmpty ? nil : .point($0[$0.count / 2]) }
        case (.polygon, _):
            // A polygon named at its outer ring's centre of area, when that lies inside it.
            geometries = f.parts.first.flatMap(Self.centroid).map { [.point($0)] } ?? []
            placement = .point
        default:
            geometries = []
        }
        return geometries.map {
            SymbolFeature(layerID: layer, layerIndex: index, text: text, textStyle: style, placement: placement,
                          spacing: 250, sortKey: sortKey, featureIndex: featureIndex,
                          featureID: f.id, geometry: $0, extent: extent)
        }
    }

    static func centroid(_ ring: [TilePoint]) -> TilePoint? {
        guard ring.count >= 3 else { return nil }
        var a = 0.0, cx = 0.0, cy = 0.0
        for (p, q) in zip(ring, ring.dropFirst() + [ring[0]]) {
            let cross = Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            a += cross
            cx += (Double(p.x) + Double(q.x)) * cross
            cy += (Double(p.y) + Double(q.y)) * cross
        }
        guard abs(a) > 1e-9 else { return nil }
        let x = cx / (3 * a), y = cy / (3 * a)
        guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return TilePoint(x: Int32(x.rounded()), y: Int32(y.rounded()))
    }

    static func name(_ f: VectorFeature) -> String? {
        for key in ["name", "name:latin", "name_en", "NAME"] {
            if case .string(let s)? = f.properties[key], !s.isEmpty { return s }
        }
        return nil
    }

    static func string(_ f: VectorFeature, _ key: String) -> String? {
        if case .string(let s)? = f.properties[key] { return s }
        return nil
    }
}
