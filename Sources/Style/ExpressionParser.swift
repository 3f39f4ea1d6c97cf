/// Why a property, filter or expression was not understood: reported once (with `--verbose`)
/// and the property skipped.
public struct Unsupported: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ d: String) { description = d }
}

/// Turns style JSON into `Expr`: expressions, legacy filters, legacy `{stops}` functions and
/// plain values.
enum ExprParser {
    /// The operators `expression(_:)` knows; an array starting with one of these is an expression.
    static let operators: Set<String> = [
        "get", "has", "!has", "id", "geometry-type", "zoom", "!", "all", "any", "none", "==", "!=", "<", "<=", ">", ">=",
        "in", "!in", "match", "case", "coalesce", "literal", "step", "interpolate", "to-string", "to-number",
        "to-boolean", "to-color", "concat", "upcase", "downcase", "string", "number", "boolean", "+", "-", "*", "/", "%",
        "^", "min", "max", "abs", "floor", "ceil", "round", "sqrt", "length", "rgb", "rgba", "format", "image",
        "number-format", "collator", "let", "var", "feature-state", "properties", "heatmap-density", "line-progress",
        "interpolate-hcl", "interpolate-lab", "within", "distance", "accumulated", "global-state", "slice", "index-of",
        "at", "typeof", "array", "object", "resolved-locale", "is-supported-script", "e", "pi", "ln2", "ln", "log10",
        "log2", "sin", "cos", "tan", "asin", "acos", "atan", "to-rgba", "object",
    ]

    // MARK: property values

    /// A paint or layout property value: a constant, a legacy function or an expression.
    /// `tokens`: a string constant may hold `{field}` tokens (text-field, icon-image).
    static func property(_ json: StyleJSON, tokens: Bool = false) throws(Unsupported) -> Expr {
        switch json {
        case .object:
            if json["stops"] != nil || json["type"]?.string == "identity" { return try function(json, tokens: tokens) }
            throw Unsupported("an object value that is neither a function nor an expression")
        case .array(let items):
            if case .string(let op)? = items.first, operators.contains(op) { return try expression(json) }
            return .literal(Value(json: json))
        case .string(let s):
            return tokens ? tokenized(s) : .literal(.string(s))
        default:
            return .literal(Value(json: json))
        }
    }

    /// "{name} ({ref})" as concat(get name, " (", get ref, ")").
    static func tokenized(_ s: String) -> Expr {
        guard s.contains("{") else { return .literal(.string(s)) }
        var parts: [Expr] = []
        var literal = ""
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            literal += rest[..<open]
            if !literal.isEmpty { parts.append(.literal(.string(literal))); literal = "" }
            parts.append(.get(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(.string(literal))) }
        return parts.count == 1 && !parts[0].isConstant ? .toString(parts[0]) : .concat(parts)
    }

    /// A legacy function: `{"stops": [[z, v], …], "base": b}` over zoom, or with `"property"`
    /// over a feature property; types exponential (default for numbers and colours), interval,
    /// categorical and identity.
    static func function(_ json: StyleJSON, tokens: Bool) throws(Unsupported) -> Expr {
        let input: Expr = json["property"]?.string.map { Expr.get($0) } ?? .zoom
        let base = json["base"]?.number ?? 1
        let fallback: Expr = json["default"].map { .literal(Value(json: $0)) } ?? .literal(.null)
        if json["type"]?.string == "identity" {
            guard case .get = input else { throw Unsupported("an identity function needs a property") }
            return .coalesce([input, fallback])
        }
        guard let stopsJSON = json["stops"]?.array, !stopsJSON.isEmpty else { throw Unsupported("a function with no stops") }
        var stops: [(StyleJSON, Expr)] = []
        for s in stopsJSON {
            guard let pair = s.array, pair.count == 2 else { throw Unsupported("a function stop that is not [input, output]") }
            if pair[0].object != nil { throw Unsupported("zoom-and-property functions") }
            let out: Expr = tokens ? (pair[1].string.map(tokenized) ?? .literal(Value(json: pair[1]))) : .literal(Value(json: pair[1]))
            stops.append((pair[0], out))
        }
        let numericOutputs = stops.allSatisfy {
            if case .literal(let v) = $0.1 { return v.number != nil || v.color != nil }
            return false
        }
        let type = json["type"]?.string ?? ((numericOutputs && stops.allSatisfy { $0.0.number != nil }) ? "exponential" : "interval")
        switch type {
        case "exponential":
            let numeric = try stops.map { (s) throws(Unsupported) -> (Double, Expr) in
                guard let x = s.0.number else { throw Unsupported("an exponential function with a non-number stop") }
                return (x, s.1)
            }
            return .interpolate(base: base, input, numeric)
        case "interval":
            let numeric = try stops.map { (s) throws(Unsupported) -> (Double, Expr) in
                guard let x = s.0.number else { throw Unsupported("an interval function with a non-number stop") }
                return (x, s.1)
            }
            // Before the first stop an interval function gives the first output.
            return .step(input, numeric[0].1, Array(numeric.dropFirst()))
        case "categorical":
            var labels: [Value: Int] = [:]
            var outs: [Expr] = []
            for (k, out) in stops where labels[Value(json: k)] == nil {
                labels[Value(json: k)] = outs.count
                outs.append(out)
            }
            return .match(input, labels, outs, fallback)
        default:
            throw Unsupported("function type '\(type)'")
        }
    }

    // MARK: filters

    /// A layer's `filter`, in the legacy form or as an expression (told apart as MapLibre does).
    static func filter(_ json: StyleJSON) throws(Unsupported) -> Expr {
        if case .bool(let b) = json { return .literal(.bool(b)) }
        return isExpressionFilter(json) ? try expression(json) : try legacyFilter(json)
    }

    static func isExpressionFilter(_ json: StyleJSON) -> Bool {
        guard let items = json.array, case .string(let op)? = items.first else {
            if case .bool = json { return true }
            return false
        }
        switch op {
        case "has": return items.count >= 2 && items[1].string != "$id" && items[1].string != "$type"
        case "in": return items.count >= 3 && (items[1].string == nil || items[2].array != nil)
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=": return items.count != 3 || items[1].array != nil || items[2].array != nil
        case "any", "all":
            return items.dropFirst().allSatisfy { if case .bool = $0 { return true }; return isExpressionFilter($0) }
        default: return true
        }
    }

    private static func legacyKey(_ json: StyleJSON) throws(Unsupported) -> Expr {
        guard let key = json.string else { throw Unsupported("a legacy filter key that is not a string") }
        switch key {
        case "$type": return .geometryType
        case "$id": return .id
        default: return .get(key)
        }
    }

    static func legacyFilter(_ json: StyleJSON) throws(Unsupported) -> Expr {
        guard let items = json.array, let op = items.first?.string else { throw Unsupported("a filter that is not an array") }
        let args = Array(items.dropFirst())
        switch op {
        case "all": return .all(try args.map { (a) throws(Unsupported) in try legacyFilter(a) })
        case "any": return .any(try args.map { (a) throws(Unsupported) in try legacyFilter(a) })
        case "none": return .not(.any(try args.map { (a) throws(Unsupported) in try legacyFilter(a) }))
        case "has", "!has":
            guard args.count == 1, let key = args[0].string else { throw Unsupported("'\(op)' wants one key") }
            let e: Expr = key == "$type" || key == "$id" ? .literal(.bool(true)) : .has(key)
            return op == "has" ? e : .not(e)
        case "in", "!in":
            guard !args.isEmpty else { throw Unsupported("'\(op)' wants a key") }
            let e = Expr.inSet(try legacyKey(args[0]), Set(args.dropFirst().map { Value(json: $0) }))
            return op == "in" ? e : .not(e)
        case "==", "!=", "<", "<=", ">", ">=":
            guard args.count == 2 else { throw Unsupported("'\(op)' wants a key and a value") }
            let cmp: Expr.Compare = ["==": .eq, "!=": .ne, "<": .lt, "<=": .le, ">": .gt, ">=": .ge][op] ?? .eq
            return .compare(cmp, try legacyKey(args[0]), .literal(Value(json: args[1])))
        default:
            throw Unsupported("filter operator '\(op)'")
        }
    }

    // MARK: expressions

    static func expression(_ json: StyleJSON) throws(Unsupported) -> Expr {
        guard let items = json.array else { return .literal(Value(json: json)) }
        guard let op = items.first?.string else {
            throw Unsupported("an array where an expression was expected (wrap literal arrays in [\"literal\", …])")
        }
        let args = Array(items.dropFirst())
        func sub(_ k: Int) throws(Unsupported) -> Expr {
            guard k < args.count else { throw Unsupported("'\(op)' is missing an argument") }
            return try value(args[k])
        }
        func all() throws(Unsupported) -> [Expr] { try args.map { (a) throws(Unsupported) in try value(a) } }
        func count(_ n: ClosedRange<Int>) throws(Unsupported) {
            guard n.contains(args.count) else { throw Unsupported("'\(op)' takes \(n.lowerBound)…\(n.upperBound) arguments, got \(args.count)") }
        }
        switch op {
        case "get":
            try count(1...2)
            if args.count == 2 { throw Unsupported("'get' from an object") }
            guard let key = args[0].string else { return try .coalesce([sub(0)]) }
            return .get(key)
        case "has", "!has":
            try count(1...2)
            guard args.count == 1, let key = args[0].string else { throw Unsupported("'\(op)' with a computed key or an object") }
            return op == "has" ? .has(key) : .not(.has(key))
        case "id": return .id
        case "geometry-type": return .geometryType
        case "zoom": return .zoom
        case "!": try count(1...1); return .not(try sub(0))
        case "all": return .all(try all())
        case "any": return .any(try all())
        case "none": return .not(.any(try all()))
        case "==", "!=", "<", "<=", ">", ">=":
            try count(2...3)
            let cmp: Expr.Compare = ["==": .eq, "!=": .ne, "<": .lt, "<=": .le, ">": .gt, ">=": .ge][op] ?? .eq
            return .compare(cmp, try sub(0), try sub(1))
        case "in", "!in":
            try count(2...2)
            let e = Expr.inArray(try sub(0), try sub(1))
            return op == "in" ? e : .not(e)
        case "match":
            guard args.count >= 4, args.count % 2 == 0 else { throw Unsupported("'match' wants input, label/output pairs and a fallback") }
            let input = try sub(0)
            var labels: [Value: Int] = [:]
            var outputs: [Expr] = []
            var k = 1
            while k + 1 < args.count {
                let labelValues: [Value]
                if let list = args[k].array { labelValues = list.map { Value(json: $0) } } else { labelValues = [Value(json: args[k])] }
                for l in labelValues where labels[l] == nil { labels[l] = outputs.count }
                outputs.append(try sub(k + 1))
                k += 2
            }
            return .match(input, labels, outputs, try sub(args.count - 1))
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else { throw Unsupported("'case' wants condition/output pairs and a fallback") }
            var branches: [(Expr, Expr)] = []
            var k = 0
            while k + 1 < args.count {
                branches.append((try sub(k), try sub(k + 1)))
                k += 2
            }
            return .cases(branches, try sub(args.count - 1))
        case "coalesce": return .coalesce(try all())
        case "literal":
            try count(1...1)
            return .literal(Value(json: args[0]))
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else { throw Unsupported("'step' wants input, a first output and stop/output pairs") }
            var stops: [(Double, Expr)] = []
            var k = 2
            while k + 1 < args.count {
                guard let at = args[k].number else { throw Unsupported("'step' stop that is not a number") }
                stops.append((at, try sub(k + 1)))
                k += 2
            }
            return .step(try sub(0), try sub(1), stops)
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            guard args.count >= 4, args.count % 2 == 0, let kind = args[0].array, let name = kind.first?.string else {
                throw Unsupported("'interpolate' wants [type], input and stop/output pairs")
            }
            let base: Double
            switch name {
            case "linear": base = 1
            case "exponential":
                guard kind.count == 2, let b = kind[1].number else { throw Unsupported("['exponential', base] wants a number") }
                base = b
            default: throw Unsupported("interpolation '\(name)'")
            }
            var stops: [(Double, Expr)] = []
            var k = 2
            while k + 1 < args.count {
                guard let at = args[k].number else { throw Unsupported("'interpolate' stop that is not a number") }
                stops.append((at, try sub(k + 1)))
                k += 2
            }
            return .interpolate(base: base, try sub(1), stops)
        case "to-string": try count(1...1); return .toString(try sub(0))
        case "to-number": return .toNumber(try all())
        case "to-boolean": try count(1...1); return .toBoolean(try sub(0))
        case "to-color": return .toColor(try all())
        case "string", "number", "boolean":
            // Type assertions: the first argument of the right type.
            return .coalesce(try all())
        case "concat": return .concat(try all())
        case "upcase": try count(1...1); return .upcase(try sub(0))
        case "downcase": try count(1...1); return .downcase(try sub(0))
        case "+", "-", "*", "/", "%", "^", "min", "max", "abs", "floor", "ceil", "round", "sqrt":
            guard let m = Expr.Math(rawValue: op) else { throw Unsupported("operator '\(op)'") }
            return .math(m, try all())
        case "length": try count(1...1); return .length(try sub(0))
        case "rgb", "rgba": try count(3...4); return .rgba(try all())
        case "format":
            // Rich text: the sections' text concatenated, their options left out.
            var parts: [Expr] = []
            for a in args where a.object == nil { parts.append(try value(a)) }
            return .concat(parts)
        case "image": try count(1...1); return try sub(0)
        default:
            throw Unsupported("expression operator '\(op)'")
        }
    }

    /// An argument inside an expression: a nested expression or a literal.
    private static func value(_ json: StyleJSON) throws(Unsupported) -> Expr {
        if json.array != nil { return try expression(json) }
        if json.object != nil { throw Unsupported("an object literal outside ['literal', …]") }
        return .literal(Value(json: json))
    }
}
