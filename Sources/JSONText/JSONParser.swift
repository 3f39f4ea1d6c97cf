/// Where something is in a text file: 1-based line and column (columns count characters,
/// i.e. Unicode scalars, as editors show them).
public struct TextPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A JSON text that breaks RFC 8259, with where.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var location: TextPosition
    public var message: String
}

/// A parsed JSON text, and the way back to where its values started, so a later check
/// (GeoJSON) can name the line and column of the value it rejects. A value is named by its path
/// of array indices and member indices. Positions are found by reading the text again, only
/// when asked (an error, a warning): the common case pays nothing for them.
public struct ParsedJSON: Sendable {
    public var value: JSONValue
    let bytes: [UInt8]
    let depthLimit: Int

    /// Line number, the offset that line starts at, and the value's own offset: the column is
    /// counted only when asked for, so a long one-line file costs no quadratic scan.
    struct Mark: Sendable {
        var line: Int
        var lineStart: Int
        var offset: Int
    }

    /// Where the value at `path` started.
    public func location(of path: [Int]) -> TextPosition { locations(of: [path])[0] }

    /// Where each value at `paths` started (or its nearest ancestor that exists), in one reread.
    public func locations(of paths: [[Int]]) -> [TextPosition] {
        var targets = Set<[Int]>()
        for p in paths {
            for k in 0...p.count { targets.insert(Array(p.prefix(k))) }
        }
        var parser = JSONParser(bytes: bytes, targets: targets, depthLimit: depthLimit)
        let marks = (try? parser.run()) != nil ? parser.marks : [:]
        return paths.map { path in
            var p = path
            while true {
                if let m = marks[p] { return JSONParser.location(in: bytes, line: m.line, lineStart: m.lineStart, offset: m.offset) }
                if p.isEmpty { return TextPosition(line: 1, column: 1) }
                p.removeLast()
            }
        }
    }
}

/// A strict RFC 8259 reader over UTF-8 bytes: no comments, no trailing commas, no NaN. A UTF-8
/// byte order mark at the start is skipped. Nesting deeper than `maximumDepth` (or the depth a
/// caller asks for) is an error rather than a stack overflow.
///
/// The one JSON reader of the project: the places document (Places), style files and sprite
/// indexes (Style) and tile files' metadata (Tiles) all parse with it, and each turns the
/// lossless tree into what it needs.
public struct JSONParser {
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private let depthLimit: Int
    private var i = 0
    /// Only when looking for positions: the paths wanted, the current path, what was found.
    private let targets: Set<[Int]>?
    private var path: [Int] = []
    fileprivate var marks: [[Int]: ParsedJSON.Mark] = [:]
    /// Line bookkeeping for locations: the current line and the offset it starts at.
    private var line = 1
    private var lineStart = 0

    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONParser.maximumDepth) throws(JSONSyntaxError) -> ParsedJSON {
        var p = JSONParser(bytes: bytes, targets: nil, depthLimit: maximumDepth)
        return ParsedJSON(value: try p.run(), bytes: bytes, depthLimit: maximumDepth)
    }

    fileprivate mutating func run() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3; lineStart = 3 }
        skipWhitespace()
        let v = try value(depth: 0)
        skipWhitespace()
        guard i == bytes.count else { throw error("unexpected text after the JSON value") }
        return v
    }

    public static func parse(_ text: String, maximumDepth: Int = JSONParser.maximumDepth) throws(JSONSyntaxError) -> ParsedJSON {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    fileprivate init(bytes: [UInt8], targets: Set<[Int]>?, depthLimit: Int) {
        self.bytes = bytes
        self.targets = targets
        self.depthLimit = depthLimit
    }

    // MARK: Positions

    private var here: TextPosition { location(at: i) }

    private func location(at offset: Int) -> TextPosition {
        JSONParser.location(in: bytes, line: line, lineStart: lineStart, offset: offset)
    }

    static func location(in bytes: [UInt8], line: Int, lineStart: Int, offset: Int) -> TextPosition {
        var column = 1
        var k = lineStart
        while k < offset && k < bytes.count {
            if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        return TextPosition(line: line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: here, message: message)
    }

    private func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(location: location(at: offset), message: message)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard i < bytes.count else { throw error("the text ends where a value should be") }
        if let targets, targets.contains(path) { marks[path] = ParsedJSON.Mark(line: line, lineStart: lineStart, offset: i) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = i
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in w {
            guard i < bytes.count, bytes[i] == b else { throw error("expected '\(word)'", at: start) }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= depthLimit else { throw error("nested deeper than \(depthLimit) levels") }
        i += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let key = try string()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
            i += 1
            skipWhitespace()
            if targets != nil { path.append(members.count) }
            let v = try value(depth: depth)
            if targets != nil { path.removeLast() }
            members.append(JSONMember(key, v))
            skipWhitespace()
            guard i < bytes.count else { throw error("the text ends inside an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= depthLimit else { throw error("nested deeper than \(depthLimit) levels") }
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            if targets != nil { path.append(items.count) }
            let v = try value(depth: depth)
            if targets != nil { path.removeLast() }
            items.append(v)
            skipWhitespace()
            guard i < bytes.count else { throw error("the text ends inside an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = i
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else {
            throw error("a number needs a digit here")
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                throw error("a number cannot start with 0 followed by digits", at: start)
            }
        } else {
            _ = digits(&self)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        // Only ASCII digits, signs, '.' and 'e' were consumed.
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = i
        i += 1
        var scalars = String.UnicodeScalarView()
        var runStart = i
        func flushRun(_ p: JSONParser, into s: inout String.UnicodeScalarView) throws(JSONSyntaxError) {
            guard runStart < p.i else { return }
            guard let text = String(validating: p.bytes[runStart..<p.i], as: UTF8.self) else {
                throw p.error("a string holds bytes that are not UTF-8", at: runStart)
            }
            s.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard i < bytes.count else { throw error("the string that starts here never ends", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if runStart == start + 1 {
                    // No escapes: the bytes are the string.
                    guard let text = String(validating: bytes[runStart..<i], as: UTF8.self) else {
                        throw error("a string holds bytes that are not UTF-8", at: runStart)
                    }
                    i += 1
                    return text
                }
                try flushRun(self, into: &scalars)
                i += 1
                return String(scalars)
            }
            if b < 0x20 { throw error("a string cannot hold a raw control character (write it as \\u\(hex4(UInt32(b))))") }
            if b != UInt8(ascii: "\\") { i += 1; continue }
            try flushRun(self, into: &scalars)
            let escape = i
            i += 1
            guard i < bytes.count else { throw error("the string that starts here never ends", at: start) }
            switch bytes[i] {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let unit = try hexUnit(escape)
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                        throw error("\\u\(hex4(unit)) is half of a surrogate pair with no second half", at: escape)
                    }
                    i += 2
                    let low = try hexUnit(escape)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("\\u\(hex4(unit)) is half of a surrogate pair with no second half", at: escape)
                    }
                    let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    guard let s = Unicode.Scalar(value) else { throw error("invalid \\u escape", at: escape) }
                    scalars.append(s)
                } else {
                    guard let s = Unicode.Scalar(unit) else {
                        throw error("\\u\(hex4(unit)) is half of a surrogate pair with no first half", at: escape)
                    }
                    scalars.append(s)
                }
            default:
                throw error("unknown escape in a string", at: escape)
            }
            i += 1
            runStart = i
        }
    }

    /// Reads the four hex digits after `\u` (i is on the `u`); leaves i on the last digit.
    private mutating func hexUnit(_ escape: Int) throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            i += 1
            guard i < bytes.count, let d = hexDigit(bytes[i]) else { throw error("\\u needs four hex digits", at: escape) }
            v = v << 4 | d
        }
        return v
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}
