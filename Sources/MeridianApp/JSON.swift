import JSONText

/// A small JSON writer for the state dump: keys keep the order they are written in.
enum JSON {
    indirect case object([(String, JSON)])
    case array([JSON])
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null

    var text: String {
        switch self {
        case .object(let fields):
            return "{" + fields.map { "\(JSON.quote($0.0)): \($0.1.text)" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .string(let s): return JSON.quote(s)
        case .number(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    static func quote(_ s: String) -> String { JSONText.JSONValue.quoted(s) }
}
