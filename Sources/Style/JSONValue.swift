/// A parsed JSON value. Objects keep their members' order (a style's `layers` order is in an
/// array, but error messages and reports read better in file order).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
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
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var number: Double? { if case .number(let d) = self { return d }; return nil }
    public var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var object: [(String, JSONValue)]? { if case .object(let o) = self { return o }; return nil }
}

/// Where a parse failed, 1-based, counting characters (not bytes) in a line.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes that tracks line and column, so a broken style
/// file is reported where the user can find the mistake. Nesting is limited (a hostile file
/// must not exhaust the stack).
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    static let maxDepth = 256
    private var recordDepth = 0
    private var path = ""
    private var offsets: [String: Int] = [:]

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parseLocated(bytes: bytes, recordDepth: 0).value
    }

    /// Parses and also records where each value down to `recordDepth` levels starts, by path
    /// ("/layers/3/paint"), so later checks of the document can name a line and column.
    public static func parseLocated(bytes: [UInt8], recordDepth: Int) throws(JSONParseError) -> (value: JSONValue, locations: JSONLocations) {
        var p = JSONParser(bytes: bytes)
        p.recordDepth = recordDepth
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        if p.i < bytes.count { throw p.error("unexpected text after the JSON value") }
        return (v, JSONLocations(bytes: bytes, offsets: p.offsets))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Line and column of byte offset `at`.
    fileprivate static func position(_ bytes: [UInt8], _ at: Int) -> (Int, Int) {
        var line = 1, column = 1
        var k = 0
        let end = min(at, bytes.count)
        while k < end {
            let b = bytes[k]
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        return (line, column)
    }

    private func error(_ message: String, at: Int? = nil) -> JSONParseError {
        let (l, c) = Self.position(bytes, at ?? i)
        return JSONParseError(line: l, column: c, message: message)
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of file, a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(Self.show(bytes[i]))', a value was expected")
        }
    }

    private static func show(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    private mutating func word(_ w: String) throws(JSONParseError) {
        let expected = Array(w.utf8)
        let n = expected.count
        guard i + n <= bytes.count, bytes[i..<(i + n)].elementsEqual(expected) else {
            throw error("unknown word, expected '\(w)'")
        }
        i += n
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nested deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an object") }
            guard bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
            i += 1
            skipSpace()
            let saved = path
            if depth <= recordDepth { path += "/" + key; offsets[path] = i }
            members.append((key, try value()))
            path = saved
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            let saved = path
            if depth <= recordDepth { path += "/\(items.count)"; offsets[path] = i }
            items.append(try value())
            path = saved
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("unexpected end of file in a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw error("bad hex digit in a \\u escape")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONParseError) -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw error("control character inside a string (escape it)") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: throw error("unknown escape '\\\(Self.show(e))'", at: i - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count else { throw error("a number ends after '-'") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            throw error("expected a digit")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { throw error("expected a digit after the decimal point") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw error("number out of range", at: start) }
        return d
    }
}

/// Where values of a parsed document start (see `JSONParser.parseLocated`).
public struct JSONLocations: Sendable {
    let bytes: [UInt8]
    let offsets: [String: Int]

    /// Line and column of the value at `path`, or of its nearest recorded parent.
    public func position(of path: String) -> (line: Int, column: Int) {
        var p = Substring(path)
        while !p.isEmpty {
            if let at = offsets[String(p)] { return JSONParser.position(bytes, at) }
            guard let slash = p.lastIndex(of: "/") else { break }
            p = p[..<slash]
        }
        return (1, 1)
    }
}
