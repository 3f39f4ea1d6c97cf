import Synchronization
import Tiles

/// A style file that cannot be used: not JSON, or JSON that is not a MapLibre style. Names the
/// file, line and column (1-based).
public struct StyleError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// The layer types of the MapLibre style specification.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, symbol, circle
    case fillExtrusion = "fill-extrusion"
    case raster, hillshade, heatmap
}

/// A style's vector source: its id, and the local file it names, if any.
public struct StyleSource: Sendable, Equatable {
    public var id: String
    public var type: String
    /// The `url` (or first of `tiles`) as written.
    public var url: String?
    /// The local file a `mbtiles://`, `pmtiles://` or `file://` URL (or a plain path) names,
    /// resolved against the style file's folder.
    public var localPath: String?
}

/// One layer as parsed: its properties as expressions over zoom and feature.
public struct StyleLayer: Sendable {
    public var id: String
    public var type: LayerType
    public var source: String?
    public var sourceLayer: String?
    /// In the style's own zoom (512-px tiles).
    public var minZoom: Double
    public var maxZoom: Double
    public var visible: Bool
    public var filter: Expr?
    public var paint: [String: Expr]
    public var layout: [String: Expr]
    /// A background that only covers where this source has tiles (within its bounds): how a
    /// city's own ground hides the world's coarse coastline under it (set when styles are
    /// layered, see `Style.layered`).
    public var groundOfSource: String?
    /// The style's sprite, for `icon-image`, `fill-pattern` and `line-pattern` (nil: none).
    public var sprite: Sprite? = nil
}

/// A MapLibre style, parsed and checked; `at(zoom:)` compiles it for one zoom.
///
/// Zoom: MapLibre counts 512-px tiles, Meridian 256-px ones, so the style's zoom z applies at
/// Meridian zoom z + 1. Every zoom a caller passes here is Meridian's.
public final class Style: Sendable {
    /// The file the style came from, or the shipped style's name.
    public let name: String
    /// The schema a shipped style is written for ("openmaptiles", "shortbread", …), nil for a user's.
    public let schema: String?
    public let sources: [StyleSource]
    public let layers: [StyleLayer]
    /// What was not understood and skipped, one line per property and layer.
    public let notes: [String]
    private let compiled = Mutex<[Double: ZoomStyle]>([:])
    /// Some layer translates in screen space (`*-translate-anchor: viewport` with a
    /// `*-translate`): its tiles look different at every bearing, so they are drawn per bearing.
    public let turnsWithBearing: Bool

    public init(name: String, schema: String?, sources: [StyleSource], layers: [StyleLayer], notes: [String]) {
        self.name = name
        self.schema = schema
        self.sources = sources
        self.layers = layers
        self.notes = notes
        turnsWithBearing = layers.contains { l in
            guard let prefix = ZoomStyle.translatePrefix[l.type], l.paint["\(prefix)-translate"] != nil else { return false }
            return ZoomStyle.anchorsToViewport(l.paint["\(prefix)-translate-anchor"])
        }
    }

    /// The style compiled for Meridian zoom `zoom` (cached: tiles of a screen share it).
    public func at(zoom: Double) -> ZoomStyle {
        let key = (zoom * 1024).rounded() / 1024
        if let hit = compiled.withLock({ $0[key] }) { return hit }
        let z = ZoomStyle(style: self, zoom: key)
        compiled.withLock { c in
            if c.count > 256 { c.removeAll() }
            c[key] = z
        }
        return z
    }

    // MARK: reading

    /// Parses style JSON. `path` names the file in errors and resolves relative source URLs.
    public static func parse(_ bytes: [UInt8], path: String, schema: String? = nil) throws(StyleError) -> Style {
        let root: StyleJSON
        let where_: JSONLocations
        do {
            (root, where_) = try StyleJSON.parseLocated(bytes: bytes, recordDepth: 4)
        } catch {
            throw StyleError(file: path, line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
        }
        func fail(_ at: String, _ message: String) -> StyleError {
            let (l, c) = where_.position(of: at)
            return StyleError(file: path, line: l, column: c, message: message)
        }
        guard root.object != nil else { throw fail("", "not a MapLibre style: the top level must be an object") }
        if let v = root["version"], v.number != 8 { throw fail("/version", "not a MapLibre style: \"version\" must be 8") }
        guard let layersJSON = root["layers"]?.array else {
            throw fail(root["layers"] == nil ? "" : "/layers", "not a MapLibre style: it needs a \"layers\" array")
        }
        var notes: [String] = []
        var sources: [StyleSource] = []
        if let s = root["sources"] {
            guard let members = s.object else { throw fail("/sources", "not a MapLibre style: \"sources\" must be an object") }
            for (id, spec) in members {
                guard spec.object != nil, let type = spec["type"]?.string else {
                    throw fail("/sources/\(id)", "source '\(id)' needs a \"type\"")
                }
                let url = spec["url"]?.string ?? spec["tiles"]?.array?.first?.string
                sources.append(StyleSource(id: id, type: type, url: url, localPath: url.flatMap { localFile($0, relativeTo: path) }))
                if type != "vector" { notes.append("source '\(id)': type '\(type)' is not supported; its layers are skipped") }
            }
        }
        var sprite: Sprite?
        if let value = root["sprite"], value != .null {
            let loaded = Sprite.load(value, stylePath: path)
            sprite = loaded.sprite
            if let note = loaded.note { notes.append(note) }
        }
        var layers: [StyleLayer] = []
        var ids = Set<String>()
        for (k, l) in layersJSON.enumerated() {
            let at = "/layers/\(k)"
            guard l.object != nil else { throw fail(at, "layer \(k) is not an object") }
            guard let id = l["id"]?.string else { throw fail(at, "layer \(k) needs a string \"id\"") }
            guard let typeName = l["type"]?.string else { throw fail(at, "layer '\(id)' needs a \"type\"") }
            guard let type = LayerType(rawValue: typeName) else { throw fail("\(at)/type", "layer '\(id)': unknown type '\(typeName)'") }
            if !ids.insert(id).inserted { throw fail("\(at)/id", "layer id '\(id)' is used twice") }
            if l["ref"] != nil { notes.append("layer '\(id)': \"ref\" is not supported; skipped"); continue }
            if [.raster, .hillshade, .heatmap].contains(type) {
                notes.append("layer '\(id)': type '\(typeName)' is not supported; skipped")
                continue
            }
            let source = l["source"]?.string
            if type != .background {
                guard let source else { throw fail(at, "layer '\(id)' needs a \"source\"") }
                if !sources.contains(where: { $0.id == source }) { throw fail("\(at)/source", "layer '\(id)': no source '\(source)'") }
                if let s = sources.first(where: { $0.id == source }), s.type != "vector" { continue }
            }
            var filter: Expr?
            if let f = l["filter"] {
                do { filter = try ExprParser.filter(f) } catch {
                    notes.append("layer '\(id)': filter: \(error); layer skipped")
                    continue
                }
            }
            var visible = true
            var paint: [String: Expr] = [:], layout: [String: Expr] = [:]
            for (group, store) in [("paint", 0), ("layout", 1)] {
                guard let g = l[group] else { continue }
                guard let members = g.object else { throw fail("\(at)/\(group)", "layer '\(id)': \"\(group)\" must be an object") }
                for (prop, value) in members {
                    if prop == "visibility" {
                        visible = value.string != "none"
                        continue
                    }
                    guard let spec = propertySpecs[prop], spec.types.contains(type) else {
                        if !prop.hasSuffix("-transition") { notes.append("layer '\(id)': property '\(prop)' is not supported; skipped") }
                        continue
                    }
                    if !spec.supported { notes.append("layer '\(id)': property '\(prop)' is not supported; skipped"); continue }
                    do {
                        var e = try ExprParser.property(value, tokens: spec.kind == .tokens)
                        if spec.kind == .color { e = e.coercingColors() }
                        if store == 0 { paint[prop] = e } else { layout[prop] = e }
                    } catch {
                        notes.append("layer '\(id)': property '\(prop)': \(error); skipped")
                    }
                }
            }
            layers.append(StyleLayer(id: id, type: type, source: source, sourceLayer: l["source-layer"]?.string,
                                     minZoom: l["minzoom"]?.number ?? 0, maxZoom: l["maxzoom"]?.number ?? 24,
                                     visible: visible, filter: filter, paint: paint, layout: layout, groundOfSource: nil,
                                     sprite: sprite))
        }
        return Style(name: path, schema: schema, sources: sources, layers: layers, notes: notes)
    }

    /// The local file a source URL names, or nil for a network URL.
    static func localFile(_ url: String, relativeTo stylePath: String) -> String? {
        var p: Substring
        if let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") {
            let scheme = url[..<colon]
            guard ["mbtiles", "pmtiles", "file"].contains(scheme) else { return nil }
            p = url[url.index(colon, offsetBy: 3)...]
        } else if url.contains(":") {
            return nil
        } else {
            p = Substring(url)
        }
        // pmtiles://file:///x and mbtiles://./x forms.
        if p.hasPrefix("file://") { p = p.dropFirst(7) }
        guard !p.isEmpty else { return nil }
        if p.hasPrefix("/") { return String(p) }
        let folder = stylePath.lastIndex(of: "/").map { String(stylePath[..<$0]) } ?? "."
        return folder + "/" + (p.hasPrefix("./") ? String(p.dropFirst(2)) : String(p))
    }

    // MARK: composing

    /// Several styles drawn as one, the first at the bottom (the world, then a city): each
    /// style's sources get the id `prefix + index` so they never clash, and the background of
    /// every style after the first covers only where its source has data, so a city's own
    /// ground hides what the world file draws under it.
    public static func layered(_ styles: [Style], name: String) -> Style {
        var sources: [StyleSource] = []
        var layers: [StyleLayer] = []
        var notes: [String] = []
        for (k, style) in styles.enumerated() {
            func renamed(_ id: String?) -> String? { id.map { "\(k):\($0)" } }
            for s in style.sources { var s = s; s.id = "\(k):\(s.id)"; sources.append(s) }
            let only = style.sources.count == 1 ? style.sources[0].id : nil
            for l in style.layers {
                var l = l
                l.source = renamed(l.source)
                if l.type == .background && k > 0 {
                    guard let only else { continue }
                    l.groundOfSource = renamed(only)
                }
                layers.append(l)
            }
            notes += style.notes
        }
        return Style(name: name, schema: styles.compactMap(\.schema).joined(separator: "+"), sources: sources,
                     layers: layers, notes: notes)
    }
}

// MARK: properties

enum PropertyKind: Sendable { case color, number, string, tokens, array, bool }

struct PropertySpec: Sendable {
    var types: Set<LayerType>
    var kind: PropertyKind
    var supported = true
}

/// The paint and layout properties Meridian knows: those it draws, and those it knows but
/// leaves out (reported, never guessed at).
let propertySpecs: [String: PropertySpec] = {
    var t: [String: PropertySpec] = [:]
    func add(_ names: [String], _ types: Set<LayerType>, _ kind: PropertyKind, supported: Bool = true) {
        for n in names { t[n] = PropertySpec(types: types, kind: kind, supported: supported) }
    }
    add(["background-color"], [.background], .color)
    add(["background-opacity"], [.background], .number)
    add(["background-pattern"], [.background], .string, supported: false)
    add(["fill-color", "fill-outline-color"], [.fill], .color)
    add(["fill-opacity"], [.fill], .number)
    add(["fill-antialias"], [.fill], .bool)
    add(["fill-sort-key"], [.fill], .number)
    add(["fill-pattern"], [.fill], .tokens)
    add(["fill-translate"], [.fill], .array)
    add(["fill-translate-anchor"], [.fill], .string)
    add(["fill-extrusion-color"], [.fillExtrusion], .color)
    add(["fill-extrusion-opacity"], [.fillExtrusion], .number)
    // Drawn flat: height and base are known and deliberately unused.
    add(["fill-extrusion-height", "fill-extrusion-base"], [.fillExtrusion], .number)
    add(["fill-extrusion-vertical-gradient"], [.fillExtrusion], .bool)
    add(["fill-extrusion-pattern", "fill-extrusion-translate", "fill-extrusion-translate-anchor"], [.fillExtrusion], .array, supported: false)
    add(["line-color"], [.line], .color)
    add(["line-opacity", "line-width", "line-offset", "line-miter-limit", "line-round-limit", "line-sort-key"], [.line], .number)
    add(["line-dasharray"], [.line], .array)
    add(["line-cap", "line-join"], [.line], .string)
    add(["line-blur"], [.line], .number)
    add(["line-gap-width"], [.line], .number)
    add(["line-pattern"], [.line], .tokens)
    add(["line-translate"], [.line], .array)
    add(["line-translate-anchor"], [.line], .string)
    add(["line-gradient"], [.line], .array, supported: false)
    add(["circle-color", "circle-stroke-color"], [.circle], .color)
    add(["circle-radius", "circle-opacity", "circle-stroke-width", "circle-stroke-opacity", "circle-sort-key"], [.circle], .number)
    add(["circle-blur"], [.circle], .number)
    add(["circle-translate"], [.circle], .array)
    add(["circle-translate-anchor"], [.circle], .string)
    add(["circle-pitch-scale", "circle-pitch-alignment"], [.circle], .array, supported: false)
    add(["text-color", "text-halo-color"], [.symbol], .color)
    add(["text-opacity", "text-halo-width", "text-halo-blur", "text-size", "text-max-width", "text-letter-spacing",
         "text-line-height", "text-rotate", "text-padding", "text-max-angle", "symbol-spacing", "symbol-sort-key",
         "icon-size", "icon-opacity", "icon-rotate", "icon-padding"], [.symbol], .number)
    add(["text-field", "icon-image"], [.symbol], .tokens)
    add(["text-font", "text-offset", "icon-offset", "text-variable-anchor"], [.symbol], .array)
    add(["text-transform", "text-anchor", "text-justify", "symbol-placement", "icon-anchor", "symbol-z-order",
         "text-rotation-alignment", "text-pitch-alignment", "icon-rotation-alignment", "icon-pitch-alignment"], [.symbol], .string)
    add(["text-allow-overlap", "text-ignore-placement", "text-optional", "text-keep-upright", "icon-allow-overlap",
         "icon-ignore-placement", "icon-optional", "symbol-avoid-edges"], [.symbol], .bool)
    add(["icon-color", "icon-halo-color"], [.symbol], .color)
    add(["icon-halo-width", "icon-halo-blur"], [.symbol], .number)
    add(["icon-text-fit"], [.symbol], .string)
    add(["icon-text-fit-padding"], [.symbol], .array)
    add(["icon-keep-upright"], [.symbol], .bool)
    add(["text-translate", "icon-translate"], [.symbol], .array)
    add(["text-translate-anchor", "icon-translate-anchor"], [.symbol], .string)
    add(["text-writing-mode", "text-radial-offset", "text-variable-anchor-offset"], [.symbol], .array, supported: false)
    return t
}()
