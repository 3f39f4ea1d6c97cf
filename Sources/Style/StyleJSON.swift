import JSONText

/// A parsed JSON value. Objects keep their members' order (a style's `layers` order is in an
/// array, but error messages and reports read better in file order).
public enum StyleJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([StyleJSON])
    case object([(String, StyleJSON)])

    public static func == (a: StyleJSON, b: StyleJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member called `key` of an object (the last one when a key repeats, as JSON.parse does).
    public subscript(key: String) -> StyleJSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var number: Double? { if case .number(let d) = self { return d }; return nil }
    public var array: [StyleJSON]? { if case .array(let a) = self { return a }; return nil }
    public var object: [(String, StyleJSON)]? { if case .object(let o) = self { return o }; return nil }
}

/// Where a parse failed, 1-based, counting characters (not bytes) in a line.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Style JSON is read by the project's one JSON reader (`JSONText.JSONParser`, strict RFC 8259
/// with line and column) and turned into this tree of doubles. Nesting is limited to 256 levels
/// (a hostile file must not exhaust the stack).
extension StyleJSON {
    static let maximumDepth = 256

    public static func parse(_ text: String) throws(JSONParseError) -> StyleJSON {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> StyleJSON {
        try parseLocated(bytes: bytes, recordDepth: 0).value
    }

    /// Parses and also records where each value down to `recordDepth` levels starts, by path
    /// ("/layers/3/paint"), so later checks of the document can name a line and column.
    public static func parseLocated(bytes: [UInt8], recordDepth: Int) throws(JSONParseError) -> (value: StyleJSON, locations: JSONLocations) {
        let parsed: ParsedJSON
        do {
            parsed = try JSONParser.parse(bytes, maximumDepth: maximumDepth)
        } catch {
            throw JSONParseError(line: error.location.line, column: error.location.column, message: error.message)
        }
        var paths: [String: [Int]] = [:]
        var outOfRange: [Int]?
        let value = convert(parsed.value, keyPath: "", indexPath: [], depth: 0, recordDepth: recordDepth, paths: &paths, outOfRange: &outOfRange)
        if let at = outOfRange {
            let where_ = parsed.location(of: at)
            throw JSONParseError(line: where_.line, column: where_.column, message: "number out of range")
        }
        return (value, JSONLocations(parsed: parsed, paths: paths))
    }

    /// The lossless tree as doubles; members keep their order and repeats. Records the index
    /// path of every value down to `recordDepth` under its key path (a repeated key: the last,
    /// which is the one `subscript` reads), and the first number no double can hold.
    private static func convert(_ v: JSONText.JSONValue, keyPath: String, indexPath: [Int], depth: Int, recordDepth: Int,
                                paths: inout [String: [Int]], outOfRange: inout [Int]?) -> StyleJSON {
        if depth <= recordDepth { paths[keyPath] = indexPath }
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let text):
            guard let d = Double(text), d.isFinite else {
                if outOfRange == nil { outOfRange = indexPath }
                return .number(0)
            }
            return .number(d)
        case .array(let items):
            return .array(items.enumerated().map { k, item in
                convert(item, keyPath: depth < recordDepth ? keyPath + "/\(k)" : keyPath, indexPath: indexPath + [k], depth: depth + 1,
                        recordDepth: recordDepth, paths: &paths, outOfRange: &outOfRange)
            })
        case .object(let members):
            return .object(members.enumerated().map { k, m in
                (m.key, convert(m.value, keyPath: depth < recordDepth ? keyPath + "/" + m.key : keyPath, indexPath: indexPath + [k],
                                depth: depth + 1, recordDepth: recordDepth, paths: &paths, outOfRange: &outOfRange))
            })
        }
    }
}

/// Where values of a parsed document start (see `StyleJSON.parseLocated`).
public struct JSONLocations: Sendable {
    let parsed: ParsedJSON
    /// Key path ("/layers/3/paint") → index path into the parsed tree.
    let paths: [String: [Int]]

    /// Line and column of the value at `path`, or of its nearest recorded parent.
    public func position(of path: String) -> (line: Int, column: Int) {
        var p = Substring(path)
        while !p.isEmpty {
            if let at = paths[String(p)] {
                let where_ = parsed.location(of: at)
                return (where_.line, where_.column)
            }
            guard let slash = p.lastIndex(of: "/") else { break }
            p = p[..<slash]
        }
        return (1, 1)
    }
}
