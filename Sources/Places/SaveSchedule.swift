/// When to save: a moment after the edits stop (so a drag's end and a quick rename are one
/// write), and never later than a second after the first unsaved edit, however busy the user.
public struct SaveSchedule: Sendable, Equatable {
    /// Quiet time after the last edit, in ms.
    public static let quiet = 300.0
    /// The longest an edit waits to be saved, in ms (the "within a second").
    public static let longest = 1000.0

    private var firstChange: Double?
    private var lastChange: Double?

    public init() {}

    /// An edit was made at `time` (ms, the app's clock).
    public mutating func changed(at time: Double) {
        if firstChange == nil { firstChange = time }
        lastChange = time
    }

    /// When the next save is due, or nil with nothing waiting.
    public var deadline: Double? {
        guard let first = firstChange, let last = lastChange else { return nil }
        return min(last + SaveSchedule.quiet, first + SaveSchedule.longest)
    }

    public func isDue(at time: Double) -> Bool { deadline.map { $0 <= time } ?? false }

    /// The save happened (or was given up on until the next edit).
    public mutating func saved() {
        firstChange = nil
        lastChange = nil
    }
}
