import JSONText

/// A JSON value, as tile files store metadata (a PMTiles file's metadata block, the MBTiles
/// `json` row with `vector_layers`), read with the JSONText parser: bounded depth, every input
/// either parses or returns nil, so a damaged file cannot crash or loop.
public indirect enum MetadataJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([MetadataJSON])
    /// Members in file order (a repeated key keeps both; `member(_:)` takes the first).
    case object([(String, MetadataJSON)])

    public static func == (a: MetadataJSON, b: MetadataJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of `key` when this is an object that has it.
    public func member(_ key: String) -> MetadataJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var arrayValue: [MetadataJSON]? { if case .array(let a) = self { return a } else { return nil } }

    /// Parses `text`; nil when it is not one whole JSON value (RFC 8259, read by the project's
    /// one JSON reader, `JSONText.JSONParser`), nests deeper than 64 levels or holds a number
    /// no double can carry.
    public static func parse(_ text: String) -> MetadataJSON? {
        guard let parsed = try? JSONParser.parse(text, maximumDepth: 64) else { return nil }
        return MetadataJSON(parsed.value)
    }

    private init?(_ v: JSONValue) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        case .number(let text):
            guard let d = Double(text), d.isFinite else { return nil }
            self = .number(d)
        case .array(let items):
            var out: [MetadataJSON] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let m = MetadataJSON(item) else { return nil }
                out.append(m)
            }
            self = .array(out)
        case .object(let members):
            var out: [(String, MetadataJSON)] = []
            out.reserveCapacity(members.count)
            for member in members {
                guard let m = MetadataJSON(member.value) else { return nil }
                out.append((member.key, m))
            }
            self = .object(out)
        }
    }

    /// The text of this value as JSON (strings escaped), for keys kept as raw text.
    public var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return Self.quoted(s)
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }

    /// `s` as a JSON string literal, with quotes, backslashes and control characters escaped.
    public static func quoted(_ s: String) -> String { JSONValue.quoted(s) }
}
