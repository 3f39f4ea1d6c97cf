/// A JSON value as read from a file, kept so that writing it back changes nothing a reader
/// could notice: object members keep their order (duplicates included) and numbers keep the
/// text they were written with, so `1.50` and `1e3` come back as `1.50` and `1e3`.
public indirect enum JSONValue: Equatable, Sendable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// The number's literal text, already checked against RFC 8259's grammar.
    case number(String)
    case bool(Bool)
    case null

    /// A number written as the shortest text that reads back as exactly `value`; nil for
    /// infinities and NaN, which JSON cannot carry.
    public static func number(of value: Double) -> JSONValue? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }

    /// The first member named `key`, as JSON readers that keep the first duplicate do.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// `text` parsed as one whole JSON value (RFC 8259) nesting at most `maximumDepth` levels,
    /// or nil: for readers that only need to know that a value is unusable (tile metadata).
    public static func parse(_ text: String, maximumDepth: Int) -> JSONValue? {
        (try? JSONParser.parse(text, maximumDepth: maximumDepth))?.value
    }

    /// The same object with `key` set to `value`: the first member of that name is replaced in
    /// place, or a new member is appended. Anything but an object is returned unchanged.
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }
}

/// One `"key": value` pair of an object, in file order.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// Indented UTF-8 JSON text ending in a newline. Arrays of plain values (coordinates,
    /// bounding boxes) stay on one line; everything else gets a line per element.
    public var text: String {
        var out = ""
        out.reserveCapacity(1 << 16)
        write(into: &out, indent: 0)
        out += "\n"
        return out
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, m) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                JSONValue.quote(m.key, into: &out)
                out += ": "
                m.value.write(into: &out, indent: indent + 1)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(into: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                item.write(into: &out, indent: indent + 1)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .string(let s): JSONValue.quote(s, into: &out)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// The value as JSON text on one line, without spaces; numbers as they were written.
    public var compactText: String {
        switch self {
        case .object(let members):
            return "{" + members.map { JSONValue.quoted($0.key) + ":" + $0.value.compactText }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.compactText).joined(separator: ",") + "]"
        case .string(let s): return JSONValue.quoted(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }

    /// `s` as a JSON string literal, quotes included (control characters escaped, the rest as is).
    public static func quoted(_ s: String) -> String {
        var out = ""
        quote(s, into: &out)
        return out
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s   // nothing to escape: the common case, copied whole
            out += "\""
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
