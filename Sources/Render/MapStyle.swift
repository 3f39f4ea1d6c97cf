import Tiles

/// An sRGB colour, 0…1 per channel.
public struct RGB: Sendable, Equatable {
    public var r: Double, g: Double, b: Double
    /// A colour from 0xRRGGBB.
    public init(hex: UInt32) {
        r = Double((hex >> 16) & 0xFF) / 255
        g = Double((hex >> 8) & 0xFF) / 255
        b = Double(hex & 0xFF) / 255
    }
    /// The colour as 0xRRGGBB, as an opaque pixel stores it.
    public var hex: UInt32 {
        func c(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return c(r) << 16 | c(g) << 8 | c(b)
    }
}

/// A width (logical px) that follows the zoom: linear between stops, flat outside them.
public struct ZoomCurve: Sendable {
    public var stops: [(zoom: Double, value: Double)]
    public init(_ stops: [(Double, Double)]) { self.stops = stops.map { (zoom: $0.0, value: $0.1) } }

    public func value(at zoom: Double) -> Double {
        guard let first = stops.first, let last = stops.last else { return 0 }
        if zoom <= first.zoom { return first.value }
        if zoom >= last.zoom { return last.value }
        for (a, b) in zip(stops, stops.dropFirst()) where zoom <= b.zoom {
            let t = (zoom - a.zoom) / (b.zoom - a.zoom)
            return a.value + (b.value - a.value) * t
        }
        return last.value
    }
}

/// Colours and widths of the map: a calm tablet map, pale land, soft blue water, roads in
/// white and warm tints so pins and labels stay the loudest thing on screen.
///
/// One palette serves both shipped schemas: Natural Earth layers (land, ocean, countries,
/// boundaries, coastline, lakes, places) and OpenMapTiles (water, landuse, landcover, park,
/// transportation, building, place, waterway). A layer a tile does not have is simply skipped.
public enum MapStyle {
    public static let water = RGB(hex: 0xA8CBE0)
    public static let land = RGB(hex: 0xF2EFE9)
    public static let park = RGB(hex: 0xCFE5C0)
    public static let wood = RGB(hex: 0xC2DCB0)
    public static let residential = RGB(hex: 0xEAE6E1)
    public static let industrial = RGB(hex: 0xE8E1E6)
    public static let building = RGB(hex: 0xDBD2CA)
    public static let buildingOutline = RGB(hex: 0xC7BBB0)
    public static let border = RGB(hex: 0xA390B5)
    public static let coastline = RGB(hex: 0x86AFC9)
    public static let waterway = RGB(hex: 0x98C0DA)
    public static let roadCasing = RGB(hex: 0xC9C2B8)
    public static let motorway = RGB(hex: 0xF7CC8F)
    public static let primary = RGB(hex: 0xFCE6B0)
    public static let minorRoad = RGB(hex: 0xFFFFFF)
    public static let path = RGB(hex: 0xB8AFA5)
    public static let rail = RGB(hex: 0xA8A29C)
    public static let label = RGB(hex: 0x3A3A3A)
    public static let labelHalo = RGB(hex: 0xFFFFFF)
    /// Where no tile has any data yet (and open sea when a source has no ocean layer).
    public static let background = water

    /// Country borders, thin at world scale, firmer when zoomed in.
    public static let borderWidth = ZoomCurve([(0, 0.5), (4, 0.8), (8, 1.4), (14, 2.0)])
    public static let coastlineWidth = ZoomCurve([(0, 0.5), (5, 0.8), (10, 1.2)])
    public static let waterwayWidth = ZoomCurve([(10, 0.5), (14, 1.5), (18, 6)])
    /// Buildings appear from this zoom: below it they are noise at tablet pixel densities.
    public static let buildingMinZoom = 14.0

    /// How a road class is drawn: the fill width curve, its colour, and whether it gets a casing.
    public struct RoadClass: Sendable {
        public var width: ZoomCurve
        public var color: RGB
        public var cased: Bool
        public var dashed: Bool
        public var minZoom: Double
    }

    /// Road classes from least to most important, which is also the order they are drawn in,
    /// so motorways sit on top of the streets they cross.
    public static let roadClasses: [(classes: Set<String>, style: RoadClass)] = [
        (["path", "track", "footway", "cycleway", "steps", "pedestrian", "bridleway", "pier"],
         RoadClass(width: ZoomCurve([(14, 0.5), (18, 1.6)]), color: path, cased: false, dashed: true, minZoom: 14)),
        (["rail", "transit", "subway", "tram"],
         RoadClass(width: ZoomCurve([(10, 0.5), (18, 2.0)]), color: rail, cased: false, dashed: false, minZoom: 11)),
        (["minor", "service", "street", "residential", "unclassified", "living_street", "road"],
         RoadClass(width: ZoomCurve([(12, 0.4), (15, 2.5), (18, 10)]), color: minorRoad, cased: true, dashed: false, minZoom: 12)),
        (["tertiary", "secondary", "busway"],
         RoadClass(width: ZoomCurve([(9, 0.5), (13, 1.5), (15, 3.5), (18, 12)]), color: minorRoad, cased: true, dashed: false, minZoom: 9)),
        (["primary", "trunk"],
         RoadClass(width: ZoomCurve([(7, 0.5), (12, 1.8), (15, 4.5), (18, 14)]), color: primary, cased: true, dashed: false, minZoom: 7)),
        (["motorway"],
         RoadClass(width: ZoomCurve([(5, 0.5), (10, 1.6), (14, 4.5), (18, 16)]), color: motorway, cased: true, dashed: false, minZoom: 5)),
    ]

    /// The fill colour of an OpenMapTiles landuse/landcover class, nil where it stays land colour.
    public static func areaColor(layer: String, kind: String?) -> RGB? {
        switch (layer, kind ?? "") {
        case ("park", _): return park
        case ("landcover", "wood"), ("landcover", "forest"): return wood
        case ("landcover", "grass"), ("landcover", "farmland"), ("landcover", "wetland"): return park
        case ("landcover", _): return nil
        case ("landuse", "residential"), ("landuse", "suburb"), ("landuse", "neighbourhood"): return residential
        case ("landuse", "industrial"), ("landuse", "commercial"), ("landuse", "retail"), ("landuse", "railway"): return industrial
        case ("landuse", "cemetery"), ("landuse", "pitch"), ("landuse", "playground"), ("landuse", "stadium"): return park
        default: return nil
        }
    }

    /// Font size (logical px) of a place label, nil when the place is too small to name at `zoom`.
    ///
    /// Natural Earth places carry `rank` (scalerank: 0 the most important) and `capital`;
    /// OpenMapTiles places carry `class` (city, town, suburb, …).
    public static func placeLabelSize(_ feature: VectorFeature, zoom: Double) -> Double? {
        if case .string(let cls)? = feature.properties["class"] {
            switch cls {
            case "city": return zoom >= 4 ? 14 : nil
            case "town": return zoom >= 8 ? 12 : nil
            case "suburb", "quarter": return zoom >= 12 ? 12 : nil
            case "neighbourhood", "village", "hamlet": return zoom >= 14 ? 11 : nil
            default: return nil
            }
        }
        let rank = feature.properties["rank"].flatMap(number) ?? 10
        let capital = feature.properties["capital"].flatMap(number).map { $0 != 0 } ?? false
        // One more rank step per zoom level: world view shows the top cities only.
        if rank > zoom + 1 && !(capital && zoom >= 3) { return nil }
        return capital || rank <= 2 ? 13 : 11.5
    }

    /// A numeric property as a Double (MVT stores numbers as int or double; strings are not numbers).
    public static func number(_ v: PropertyValue) -> Double? {
        switch v {
        case .double(let d): return d
        case .int(let i): return Double(i)
        case .bool(let b): return b ? 1 : 0
        case .string(let s): return Double(s)
        }
    }
}
