/// One thing the user's input did that a person would notice (contracts.md section 3).
public struct LogEntry: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case number(Double)
        case text(String)
    }

    public var time: Double
    public var kind: String
    /// Extra fields in order (`x`, `y`, `lat`, `lon`, `id`, `zoom`).
    public var fields: [(String, Value)]

    public init(time: Double, kind: String, fields: [(String, Value)] = []) {
        self.time = time
        self.kind = kind
        self.fields = fields
    }

    public static func == (a: LogEntry, b: LogEntry) -> Bool {
        a.time == b.time && a.kind == b.kind && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
    }

    public func number(_ key: String) -> Double? {
        for (k, v) in fields where k == key { if case .number(let d) = v { return d } }
        return nil
    }

    public func text(_ key: String) -> String? {
        for (k, v) in fields where k == key { if case .text(let s) = v { return s } }
        return nil
    }
}
