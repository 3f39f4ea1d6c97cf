import Tiles

/// A property at one zoom: a constant, or an expression still reading the feature.
public struct Prop<T: Sendable>: Sendable {
    public let constant: T?
    let expr: Expr?
    let convert: @Sendable (Value) -> T?
    let fallback: T

    init(_ e: Expr?, zoom: Double, default d: T, _ convert: @escaping @Sendable (Value) -> T?) {
        self.convert = convert
        fallback = d
        guard let e else {
            constant = d
            expr = nil
            return
        }
        let s = e.specialized(zoom: zoom)
        if let v = s.constant {
            constant = convert(v) ?? d
            expr = nil
        } else {
            constant = nil
            expr = s
        }
    }

    @inline(__always)
    public func value(_ f: VectorFeature) -> T {
        if let constant { return constant }
        return expr.flatMap { convert($0.evaluate(f)) } ?? fallback
    }
}

let toNumber: @Sendable (Value) -> Double? = { $0.number }
let toColor: @Sendable (Value) -> StyleColor? = { $0.color }
let toString: @Sendable (Value) -> String? = { v in v == .null ? nil : v.text }
let toBool: @Sendable (Value) -> Bool? = { v in if case .bool(let b) = v { return b }; return nil }
let toNumbers: @Sendable (Value) -> [Double]? = { v in
    guard case .array(let a) = v else { return nil }
    let n = a.compactMap(\.number)
    return n.count == a.count ? n : nil
}
let toStrings: @Sendable (Value) -> [String]? = { v in
    guard case .array(let a) = v else { return nil }
    return a.compactMap(\.string)
}

public enum LineCap: String, Sendable { case butt, round, square }
public enum LineJoin: String, Sendable { case miter, round, bevel }

public struct FillPaint: Sendable {
    /// Colour with opacity folded into alpha.
    public let color: Prop<StyleColor>
    /// Drawn only when the style sets `fill-outline-color`.
    public let outline: Prop<StyleColor>?
    /// `fill-pattern`: a sprite image repeated over the polygon instead of the colour.
    public var pattern: SpritePattern? = nil
}

/// A `fill-pattern` or `line-pattern`: the image name per feature and the sprite it is in.
public struct SpritePattern: Sendable {
    public let sprite: Sprite
    public let image: Prop<String>
    /// `fill-opacity` or `line-opacity`.
    public let opacity: Prop<Double>
}

public struct LinePaint: Sendable {
    public let color: Prop<StyleColor>
    /// Logical px.
    public let width: Prop<Double>
    public let offset: Prop<Double>
    /// In multiples of the width, as the spec says; nil for solid.
    public let dash: [Double]?
    public let cap: LineCap
    public let join: LineJoin
    public let miterLimit: Double
    /// `line-gap-width`: when above 0 the line is drawn as two lines of `width`, this far
    /// apart (a casing around the gap), logical px.
    public var gapWidth: Prop<Double> = Prop(nil, zoom: 0, default: 0, toNumber)
    /// `line-pattern`: a sprite image repeated along the line's stroke instead of the colour.
    public var pattern: SpritePattern? = nil
}

public struct CirclePaint: Sendable {
    public let color: Prop<StyleColor>
    public let radius: Prop<Double>
    public let strokeColor: Prop<StyleColor>
    public let strokeWidth: Prop<Double>
}

/// A layer ready to draw at one zoom.
public struct DrawLayer: Sendable {
    public enum Kind: Sendable {
        case background(StyleColor)
        /// A background that covers only where `source` has data.
        case ground(StyleColor, source: String)
        case fill(FillPaint)
        case line(LinePaint)
        case circle(CirclePaint)
        case symbol(SymbolLayout)
    }
    public let id: String
    /// The layer's position in the whole style.
    public let index: Int
    public let source: String?
    public let sourceLayer: String?
    public let kind: Kind
    /// `fill-sort-key`, `line-sort-key` or `circle-sort-key` when it varies by feature:
    /// features are drawn in ascending key within the layer.
    public var sortKey: Prop<Double>? = nil
    /// `fill-translate`, `line-translate` or `circle-translate`, logical px (x right, y down).
    public var translate: (x: Double, y: Double)? = nil
    /// `*-translate-anchor: viewport`: `translate` is along the screen's axes, not the map's
    /// (the painter turns it by the bearing the tile is drawn for).
    public var translatesInViewport = false
    let filter: Expr?
    /// A condition every feature the filter passes meets: property `key` is one of `values`
    /// (from a top-level `in`, `==` or `match`-free `all` of them). A painter may visit only
    /// the features with those values (an index per tile), then apply the whole filter.
    public let prefilter: (key: String, values: Set<Value>)?

    /// Whether the layer draws `f` (its filter, and the geometry its type takes).
    @inline(__always)
    public func matches(_ f: VectorFeature) -> Bool {
        guard let filter else { return true }
        return filter.evaluate(f).truthy
    }
}

/// A style compiled for one Meridian zoom: the layers in range and visible, their constant
/// properties folded.
public struct ZoomStyle: Sendable {
    /// Meridian's zoom (256-px tiles).
    public let zoom: Double
    /// The style's zoom: one less (512-px tiles), at least 0.
    public let styleZoom: Double
    public let layers: [DrawLayer]
    /// The first background's colour (open sea, where no tile has data).
    public let background: StyleColor

    init(style: Style, zoom: Double) {
        self.zoom = zoom
        // MapLibre has no zoom below 0: a Meridian zoom under 1 shows the style's zoom 0.
        let z = max(zoom - 1, 0)
        styleZoom = z
        var out: [DrawLayer] = []
        for (index, l) in style.layers.enumerated() where l.visible && z >= l.minZoom && z < l.maxZoom {
            func num(_ name: String, _ d: Double) -> Prop<Double> { Prop(l.paint[name] ?? l.layout[name], zoom: z, default: d, toNumber) }
            func col(_ name: String, _ d: StyleColor) -> Prop<StyleColor> { Prop(l.paint[name], zoom: z, default: d, toColor) }
            func str(_ name: String, _ d: String) -> String {
                Prop(l.layout[name] ?? l.paint[name], zoom: z, default: d, toString).constant ?? d
            }
            let filter = l.filter.map { $0.specialized(zoom: z) }
            if case .literal(let v)? = filter, !v.truthy { continue }
            func pattern(_ name: String, opacity: String) -> SpritePattern? {
                guard let sprite = l.sprite, let e = l.paint[name] else { return nil }
                return SpritePattern(sprite: sprite, image: Prop(e, zoom: z, default: "", toString), opacity: num(opacity, 1))
            }
            let kind: DrawLayer.Kind
            switch l.type {
            case .background:
                let c = col("background-color", .black).constant ?? .black
                let o = num("background-opacity", 1).constant ?? 1
                var color = c
                color.a *= o
                kind = l.groundOfSource.map { .ground(color, source: $0) } ?? .background(color)
            case .fill, .fillExtrusion:
                let prefix = l.type == .fill ? "fill" : "fill-extrusion"
                let color = Self.withOpacity(col("\(prefix)-color", .black), num("\(prefix)-opacity", 1))
                let outline = l.paint["fill-outline-color"] != nil ? Self.withOpacity(col("fill-outline-color", .black), num("fill-opacity", 1)) : nil
                var fill = FillPaint(color: color, outline: outline)
                if l.type == .fill { fill.pattern = pattern("fill-pattern", opacity: "fill-opacity") }
                kind = .fill(fill)
            case .line:
                let dash = Prop(l.paint["line-dasharray"], zoom: z, default: [], toNumbers).constant ?? []
                var line = LinePaint(color: Self.withOpacity(col("line-color", .black), num("line-opacity", 1)),
                                     width: num("line-width", 1), offset: num("line-offset", 0),
                                     dash: dash.isEmpty || dash.allSatisfy({ $0 == 0 }) ? nil : dash,
                                     cap: LineCap(rawValue: str("line-cap", "butt")) ?? .butt,
                                     join: LineJoin(rawValue: str("line-join", "miter")) ?? .miter,
                                     miterLimit: num("line-miter-limit", 2).constant ?? 2)
                line.gapWidth = num("line-gap-width", 0)
                line.pattern = pattern("line-pattern", opacity: "line-opacity")
                kind = .line(line)
            case .circle:
                kind = .circle(CirclePaint(color: Self.withOpacity(col("circle-color", .black), num("circle-opacity", 1)),
                                           radius: num("circle-radius", 5),
                                           strokeColor: Self.withOpacity(col("circle-stroke-color", .black), num("circle-stroke-opacity", 1)),
                                           strokeWidth: num("circle-stroke-width", 0)))
            case .symbol:
                kind = .symbol(SymbolLayout(layer: l, index: index, zoom: z))
            case .raster, .hillshade, .heatmap:
                continue
            }
            var layer = DrawLayer(id: l.id, index: index, source: l.source, sourceLayer: l.sourceLayer, kind: kind, filter: filter,
                                  prefilter: filter.flatMap(Self.prefilter))
            if let prefix = Self.translatePrefix[l.type] {
                if let e = l.layout["\(prefix)-sort-key"] ?? l.paint["\(prefix)-sort-key"] {
                    let key = Prop(e, zoom: z, default: 0, toNumber)
                    if key.constant == nil { layer.sortKey = key }
                }
                if let t = Prop(l.paint["\(prefix)-translate"], zoom: z, default: [0, 0], toNumbers).constant,
                   t.count == 2, t[0].isFinite, t[1].isFinite, t[0] != 0 || t[1] != 0 {
                    layer.translate = (t[0], t[1])
                    layer.translatesInViewport = Self.anchorsToViewport(l.paint["\(prefix)-translate-anchor"])
                }
            }
            out.append(layer)
        }
        layers = out
        background = out.lazy.compactMap { if case .background(let c) = $0.kind { return c }; return nil }.first ?? .white
    }

    /// The layer types with a `*-translate` (and `*-sort-key`), by their properties' prefix.
    static let translatePrefix: [LayerType: String] = [.fill: "fill", .line: "line", .circle: "circle"]

    /// Whether a `*-translate-anchor` value is `viewport` (at any zoom: it is not zoom-dependent in the spec).
    static func anchorsToViewport(_ e: Expr?) -> Bool {
        Prop(e, zoom: 0, default: "map", toString).constant == "viewport"
    }

    /// The property membership a filter requires of every feature it passes, if it has one.
    static func prefilter(_ e: Expr) -> (key: String, values: Set<Value>)? {
        switch e {
        case .inArray(.get(let k), .literal(.array(let values))): return (k, Set(values))
        case .inSet(.get(let k), let set): return (k, set)
        case .compare(.eq, .get(let k), .literal(let v)) where v != .null: return (k, [v])
        case .all(let es):
            for e in es { if let p = prefilter(e) { return p } }
            return nil
        default: return nil
        }
    }

    /// A colour property with an opacity property folded into its alpha.
    static func withOpacity(_ c: Prop<StyleColor>, _ o: Prop<Double>) -> Prop<StyleColor> {
        if var cc = c.constant, let oc = o.constant {
            cc.a *= min(max(oc, 0), 1)
            return Prop(.literal(.color(cc)), zoom: 0, default: cc, toColor)
        }
        let ce = c.expr ?? .literal(.color(c.constant ?? .black))
        let oe = o.expr ?? .literal(.number(o.constant ?? 1))
        // alpha × opacity, evaluated per feature.
        return Prop(.rgbaScaled(ce, oe), zoom: 0, default: c.fallback, toColor)
    }
}
