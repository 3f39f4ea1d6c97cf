import Tiles

/// A value an expression produces (MapLibre's expression types, without objects).
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([Value])

    public init(_ p: PropertyValue) {
        switch p {
        case .string(let s): self = .string(s)
        case .double(let d): self = .number(d)
        case .int(let i): self = .number(Double(i))
        case .bool(let b): self = .bool(b)
        }
    }

    init(json: StyleJSON) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Value.init(json:)))
        case .object: self = .null
        }
    }

    public var number: Double? { if case .number(let d) = self { return d }; return nil }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var truthy: Bool {
        switch self {
        case .bool(let b): return b
        case .null: return false
        case .number(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        default: return true
        }
    }

    /// `to-string`: numbers as JavaScript prints them (no ".0" on whole numbers).
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .string(let s): return s
        case .color(let c):
            func c255(_ v: Double) -> String { String(Int((v * 255).rounded())) }
            return "rgba(\(c255(c.r)),\(c255(c.g)),\(c255(c.b)),\(Value.number(c.a).text))"
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        }
    }

    /// A colour from a colour value or a CSS colour string.
    public var color: StyleColor? {
        switch self {
        case .color(let c): return c
        case .string(let s): return StyleColor(css: s)
        default: return nil
        }
    }
}

/// The geometry type names expressions compare against.
func geometryTypeName(_ t: GeometryType) -> String {
    switch t {
    case .point: return "Point"
    case .lineString: return "LineString"
    case .polygon: return "Polygon"
    case .unknown: return "Unknown"
    }
}

/// A compiled expression: a small tree evaluated per feature. `specialized(zoom:)` replaces
/// `["zoom"]` by its value and folds every part that no longer depends on the feature, so at a
/// given zoom most paint properties become constants.
public indirect enum Expr: Sendable {
    public enum Compare: Sendable { case eq, ne, lt, le, gt, ge }
    public enum Math: String, Sendable {
        case add = "+", sub = "-", mul = "*", div = "/", mod = "%", pow = "^", min, max, abs, floor, ceil, round, sqrt
    }

    case literal(Value)
    case get(String)
    case has(String)
    case id
    case geometryType
    case zoom
    case not(Expr)
    case all([Expr])
    case any([Expr])
    /// `strict`: the legacy filter form, where values of different types never compare.
    case compare(Compare, Expr, Expr)
    case inArray(Expr, Expr)
    /// Legacy `in`: the property's value among literal values.
    case inSet(Expr, Set<Value>)
    case match(Expr, [Value: Int], [Expr], Expr)
    case cases([(Expr, Expr)], Expr)
    case coalesce([Expr])
    case step(Expr, Expr, [(Double, Expr)])
    /// `base` 1 is linear.
    case interpolate(base: Double, Expr, [(Double, Expr)])
    case toString(Expr)
    case toNumber([Expr])
    case toBoolean(Expr)
    case toColor([Expr])
    case concat([Expr])
    case upcase(Expr)
    case downcase(Expr)
    case math(Math, [Expr])
    case length(Expr)
    case rgba([Expr])
    /// A colour with its alpha multiplied by a number (a colour and its opacity property).
    case rgbaScaled(Expr, Expr)

    public var isConstant: Bool { if case .literal = self { return true }; return false }
    public var constant: Value? { if case .literal(let v) = self { return v }; return nil }

    // MARK: evaluation

    public func evaluate(_ f: VectorFeature, zoom: Double = 0) -> Value {
        switch self {
        case .literal(let v): return v
        case .get(let key): return f.properties[key].map(Value.init) ?? .null
        case .has(let key): return .bool(f.properties[key] != nil)
        case .id: return f.id.map { .number(Double($0)) } ?? .null
        case .geometryType: return .string(geometryTypeName(f.type))
        case .zoom: return .number(zoom)
        case .not(let e): return .bool(!e.evaluate(f, zoom: zoom).truthy)
        case .all(let es):
            for e in es where !e.evaluate(f, zoom: zoom).truthy { return .bool(false) }
            return .bool(true)
        case .any(let es):
            for e in es where e.evaluate(f, zoom: zoom).truthy { return .bool(true) }
            return .bool(false)
        case .compare(let op, let a, let b):
            return .bool(Self.compare(op, a.evaluate(f, zoom: zoom), b.evaluate(f, zoom: zoom)))
        case .inArray(let needle, let haystack):
            let n = needle.evaluate(f, zoom: zoom)
            switch haystack.evaluate(f, zoom: zoom) {
            case .array(let items): return .bool(items.contains(n))
            case .string(let s): return .bool(n.string.map { s.contains($0) } ?? (n.number.map { s.contains(Value.number($0).text) } ?? false))
            default: return .bool(false)
            }
        case .inSet(let e, let set): return .bool(set.contains(e.evaluate(f, zoom: zoom)))
        case .match(let input, let labels, let outputs, let fallback):
            if let k = labels[input.evaluate(f, zoom: zoom)] { return outputs[k].evaluate(f, zoom: zoom) }
            return fallback.evaluate(f, zoom: zoom)
        case .cases(let branches, let fallback):
            for (cond, out) in branches where cond.evaluate(f, zoom: zoom).truthy { return out.evaluate(f, zoom: zoom) }
            return fallback.evaluate(f, zoom: zoom)
        case .coalesce(let es):
            for e in es {
                let v = e.evaluate(f, zoom: zoom)
                if v != .null { return v }
            }
            return .null
        case .step(let input, let first, let stops):
            guard let x = input.evaluate(f, zoom: zoom).number else { return first.evaluate(f, zoom: zoom) }
            var out = first
            for (at, e) in stops { if x >= at { out = e } else { break } }
            return out.evaluate(f, zoom: zoom)
        case .interpolate(let base, let input, let stops):
            guard let x = input.evaluate(f, zoom: zoom).number, let firstStop = stops.first, let lastStop = stops.last else {
                return stops.first?.1.evaluate(f, zoom: zoom) ?? .null
            }
            if x <= firstStop.0 { return firstStop.1.evaluate(f, zoom: zoom) }
            if x >= lastStop.0 { return lastStop.1.evaluate(f, zoom: zoom) }
            var k = 1
            while k < stops.count && stops[k].0 <= x { k += 1 }
            let (x0, e0) = stops[k - 1], (x1, e1) = stops[k]
            return Self.blend(e0.evaluate(f, zoom: zoom), e1.evaluate(f, zoom: zoom), Self.factor(x, x0, x1, base))
        case .toString(let e): return .string(e.evaluate(f, zoom: zoom).text)
        case .toNumber(let es):
            for e in es {
                switch e.evaluate(f, zoom: zoom) {
                case .number(let d): return .number(d)
                case .string(let s): if let d = Double(s.trimmingSpaces()) { return .number(d) }
                case .bool(let b): return .number(b ? 1 : 0)
                case .null: return .number(0)
                default: continue
                }
            }
            return .null
        case .toBoolean(let e): return .bool(e.evaluate(f, zoom: zoom).truthy)
        case .toColor(let es):
            for e in es { if let c = e.evaluate(f, zoom: zoom).color { return .color(c) } }
            return .null
        case .concat(let es): return .string(es.map { $0.evaluate(f, zoom: zoom).text }.joined())
        case .upcase(let e): return .string(e.evaluate(f, zoom: zoom).text.uppercased())
        case .downcase(let e): return .string(e.evaluate(f, zoom: zoom).text.lowercased())
        case .math(let op, let es): return Self.math(op, es.map { $0.evaluate(f, zoom: zoom).number })
        case .length(let e):
            switch e.evaluate(f, zoom: zoom) {
            case .string(let s): return .number(Double(s.count))
            case .array(let a): return .number(Double(a.count))
            default: return .null
            }
        case .rgba(let es):
            let v = es.map { $0.evaluate(f, zoom: zoom).number }
            guard v.count >= 3, let r = v[0], let g = v[1], let b = v[2] else { return .null }
            let a = v.count > 3 ? (v[3] ?? 1) : 1
            return .color(StyleColor(r: r / 255, g: g / 255, b: b / 255, a: a))
        case .rgbaScaled(let c, let o):
            guard var color = c.evaluate(f, zoom: zoom).color else { return .null }
            color.a *= min(max(o.evaluate(f, zoom: zoom).number ?? 1, 0), 1)
            return .color(color)
        }
    }

    static func compare(_ op: Compare, _ a: Value, _ b: Value) -> Bool {
        switch op {
        case .eq: return a == b
        case .ne: return a != b
        default: break
        }
        let order: Int?
        switch (a, b) {
        case (.number(let x), .number(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
        default: order = nil
        }
        guard let order else { return false }
        switch op {
        case .lt: return order < 0
        case .le: return order <= 0
        case .gt: return order > 0
        case .ge: return order >= 0
        default: return false
        }
    }

    /// Where `x` lies between stops `x0` and `x1` (0…1), exponentially for base ≠ 1.
    static func factor(_ x: Double, _ x0: Double, _ x1: Double, _ base: Double) -> Double {
        let d = x1 - x0
        guard d > 0 else { return 0 }
        let p = x - x0
        if base == 1 { return p / d }
        return (pow(base, p) - 1) / (pow(base, d) - 1)
    }

    static func blend(_ a: Value, _ b: Value, _ t: Double) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.color(let x), .color(let y)): return .color(x.mixed(with: y, t))
        case (.array(let x), .array(let y)) where x.count == y.count:
            return .array(zip(x, y).map { blend($0, $1, t) })
        default:
            if let x = a.color, let y = b.color { return .color(x.mixed(with: y, t)) }
            return t < 1 ? a : b
        }
    }

    static func math(_ op: Math, _ v: [Double?]) -> Value {
        let xs = v.compactMap { $0 }
        guard xs.count == v.count, let first = xs.first else { return .null }
        switch op {
        case .add: return .number(xs.reduce(0, +))
        case .mul: return .number(xs.reduce(1, *))
        case .sub: return .number(xs.count == 1 ? -first : first - xs[1])
        case .div: return xs.count == 2 ? .number(first / xs[1]) : .null
        case .mod: return xs.count == 2 ? .number(first.truncatingRemainder(dividingBy: xs[1])) : .null
        case .pow: return xs.count == 2 ? .number(pow(first, xs[1])) : .null
        case .min: return .number(xs.min() ?? first)
        case .max: return .number(xs.max() ?? first)
        case .abs: return .number(Swift.abs(first))
        case .floor: return .number(first.rounded(.down))
        case .ceil: return .number(first.rounded(.up))
        case .round: return .number(first.rounded(.toNearestOrAwayFromZero))
        case .sqrt: return .number(first.squareRoot())
        }
    }

    // MARK: folding

    /// Whether the value depends on the feature (after zoom is known).
    public var readsFeature: Bool {
        switch self {
        case .literal, .zoom: return false
        case .get, .has, .id, .geometryType: return true
        default: return children.contains { $0.readsFeature }
        }
    }

    public var readsZoom: Bool {
        if case .zoom = self { return true }
        return children.contains { $0.readsZoom }
    }

    private var children: [Expr] {
        switch self {
        case .literal, .get, .has, .id, .geometryType, .zoom: return []
        case .not(let e), .toString(let e), .toBoolean(let e), .upcase(let e), .downcase(let e), .length(let e), .inSet(let e, _): return [e]
        case .all(let es), .any(let es), .coalesce(let es), .toNumber(let es), .toColor(let es), .concat(let es), .math(_, let es), .rgba(let es): return es
        case .compare(_, let a, let b), .inArray(let a, let b), .rgbaScaled(let a, let b): return [a, b]
        case .match(let i, _, let outs, let fb): return [i] + outs + [fb]
        case .cases(let bs, let fb): return bs.flatMap { [$0.0, $0.1] } + [fb]
        case .step(let i, let first, let stops): return [i, first] + stops.map(\.1)
        case .interpolate(_, let i, let stops): return [i] + stops.map(\.1)
        }
    }

    /// The feature properties `get` reads, in the order the expression tries them (a
    /// `coalesce`'s first choice first), each once.
    public var propertiesRead: [String] {
        var out: [String] = []
        func walk(_ e: Expr) {
            if case .get(let key) = e, !out.contains(key) { out.append(key) }
            for c in e.children { walk(c) }
        }
        walk(self)
        return out
    }

    /// The expression with each `get` of a property that `replace` maps replaced by what it
    /// gives (nil: the `get` stays).
    public func replacingGets(_ replace: (String) -> Expr?) -> Expr {
        func r(_ e: Expr) -> Expr { e.replacingGets(replace) }
        switch self {
        case .get(let key): return replace(key) ?? self
        case .literal, .has, .id, .geometryType, .zoom: return self
        case .not(let e): return .not(r(e))
        case .all(let es): return .all(es.map(r))
        case .any(let es): return .any(es.map(r))
        case .compare(let op, let a, let b): return .compare(op, r(a), r(b))
        case .inArray(let a, let b): return .inArray(r(a), r(b))
        case .inSet(let e, let set): return .inSet(r(e), set)
        case .match(let i, let labels, let outs, let fb): return .match(r(i), labels, outs.map(r), r(fb))
        case .cases(let bs, let fb): return .cases(bs.map { (r($0.0), r($0.1)) }, r(fb))
        case .coalesce(let es): return .coalesce(es.map(r))
        case .step(let i, let first, let stops): return .step(r(i), r(first), stops.map { ($0.0, r($0.1)) })
        case .interpolate(let base, let i, let stops): return .interpolate(base: base, r(i), stops.map { ($0.0, r($0.1)) })
        case .toString(let e): return .toString(r(e))
        case .toNumber(let es): return .toNumber(es.map(r))
        case .toBoolean(let e): return .toBoolean(r(e))
        case .toColor(let es): return .toColor(es.map(r))
        case .concat(let es): return .concat(es.map(r))
        case .upcase(let e): return .upcase(r(e))
        case .downcase(let e): return .downcase(r(e))
        case .math(let op, let es): return .math(op, es.map(r))
        case .length(let e): return .length(r(e))
        case .rgba(let es): return .rgba(es.map(r))
        case .rgbaScaled(let c, let o): return .rgbaScaled(r(c), r(o))
        }
    }

    /// The expression at `zoom` with every feature-independent part folded to a literal.
    public func specialized(zoom: Double) -> Expr {
        if !readsFeature { return .literal(evaluate(Self.noFeature, zoom: zoom)) }
        switch self {
        case .not(let e): return .not(e.specialized(zoom: zoom))
        case .all(let es): return .all(es.map { $0.specialized(zoom: zoom) })
        case .any(let es): return .any(es.map { $0.specialized(zoom: zoom) })
        case .compare(let op, let a, let b): return .compare(op, a.specialized(zoom: zoom), b.specialized(zoom: zoom))
        case .inArray(let a, let b): return .inArray(a.specialized(zoom: zoom), b.specialized(zoom: zoom))
        case .inSet(let e, let s): return .inSet(e.specialized(zoom: zoom), s)
        case .match(let i, let labels, let outs, let fb):
            return .match(i.specialized(zoom: zoom), labels, outs.map { $0.specialized(zoom: zoom) }, fb.specialized(zoom: zoom))
        case .cases(let bs, let fb):
            return .cases(bs.map { ($0.0.specialized(zoom: zoom), $0.1.specialized(zoom: zoom)) }, fb.specialized(zoom: zoom))
        case .coalesce(let es): return .coalesce(es.map { $0.specialized(zoom: zoom) })
        case .step(let i, let first, let stops):
            // A zoom step picks its branch now.
            if !i.readsFeature, let x = i.evaluate(Self.noFeature, zoom: zoom).number {
                var out = first
                for (at, e) in stops { if x >= at { out = e } else { break } }
                return out.specialized(zoom: zoom)
            }
            return .step(i.specialized(zoom: zoom), first.specialized(zoom: zoom), stops.map { ($0.0, $0.1.specialized(zoom: zoom)) })
        case .interpolate(let base, let i, let stops):
            // Outside a zoom curve's stops only the end output is left.
            if !i.readsFeature, let x = i.evaluate(Self.noFeature, zoom: zoom).number, let first = stops.first, let last = stops.last {
                if x <= first.0 { return first.1.specialized(zoom: zoom) }
                if x >= last.0 { return last.1.specialized(zoom: zoom) }
            }
            return .interpolate(base: base, i.specialized(zoom: zoom), stops.map { ($0.0, $0.1.specialized(zoom: zoom)) })
        case .toString(let e): return .toString(e.specialized(zoom: zoom))
        case .toNumber(let es): return .toNumber(es.map { $0.specialized(zoom: zoom) })
        case .toBoolean(let e): return .toBoolean(e.specialized(zoom: zoom))
        case .toColor(let es): return .toColor(es.map { $0.specialized(zoom: zoom) })
        case .concat(let es): return .concat(es.map { $0.specialized(zoom: zoom) })
        case .upcase(let e): return .upcase(e.specialized(zoom: zoom))
        case .downcase(let e): return .downcase(e.specialized(zoom: zoom))
        case .math(let op, let es): return .math(op, es.map { $0.specialized(zoom: zoom) })
        case .length(let e): return .length(e.specialized(zoom: zoom))
        case .rgba(let es): return .rgba(es.map { $0.specialized(zoom: zoom) })
        case .rgbaScaled(let c, let o): return .rgbaScaled(c.specialized(zoom: zoom), o.specialized(zoom: zoom))
        default: return self
        }
    }

    static let noFeature = VectorFeature(type: .unknown, parts: [])

    /// Turns literal strings in output positions into colours, so per-feature evaluation
    /// never parses CSS.
    func coercingColors() -> Expr {
        switch self {
        case .literal(let v): return .literal(v.color.map(Value.color) ?? v)
        case .match(let i, let l, let outs, let fb): return .match(i, l, outs.map { $0.coercingColors() }, fb.coercingColors())
        case .cases(let bs, let fb): return .cases(bs.map { ($0.0, $0.1.coercingColors()) }, fb.coercingColors())
        case .coalesce(let es): return .coalesce(es.map { $0.coercingColors() })
        case .step(let i, let first, let stops): return .step(i, first.coercingColors(), stops.map { ($0.0, $0.1.coercingColors()) })
        case .interpolate(let b, let i, let stops): return .interpolate(base: b, i, stops.map { ($0.0, $0.1.coercingColors()) })
        default: return self
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
