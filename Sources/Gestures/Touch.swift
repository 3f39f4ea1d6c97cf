import Input

/// What produced a touch: a finger on the touchscreen, or the mouse with its left button held.
public enum TouchKind: Sendable, Hashable {
    case finger
    case mouse
}

/// The kinds of touch a recognizer listens to.
public struct TouchKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let finger = TouchKinds(rawValue: 1)
    public static let mouse = TouchKinds(rawValue: 2)
    public static let all: TouchKinds = [.finger, .mouse]

    public func contains(_ kind: TouchKind) -> Bool {
        contains(kind == .finger ? TouchKinds.finger : TouchKinds.mouse)
    }
}

/// One finger (or the held mouse button) from touch-down to lift, as recognizers see it.
/// Locations are in window coordinates; convert with `GestureView.convert(fromWindow:)`.
public struct Touch: Sendable, Equatable {
    /// Unique for the life of the `GestureSystem`: a reused `wl_touch` id gets a new serial.
    public let serial: UInt64
    /// The `wl_touch` id, or -1 for the mouse.
    public let id: Int32
    public let kind: TouchKind
    public let startLocation: Point
    /// ms (the InputFrame clock) of the touch-down.
    public let startTime: Double
    public internal(set) var location: Point
    /// ms of the last change.
    public internal(set) var time: Double

    init(serial: UInt64, id: Int32, kind: TouchKind, location: Point, time: Double) {
        self.serial = serial
        self.id = id
        self.kind = kind
        self.startLocation = location
        self.startTime = time
        self.location = location
        self.time = time
    }
}

extension Array where Element == Touch {
    /// The mean location, or nil when empty.
    var centroid: Point? {
        guard !isEmpty else { return nil }
        var sx = 0.0, sy = 0.0
        for t in self {
            sx += t.location.x
            sy += t.location.y
        }
        return Point(x: sx / Double(count), y: sy / Double(count))
    }

    /// Twice the mean distance of the touches from their centroid (for two: their distance);
    /// zero with fewer than two.
    var spread: Double {
        guard count >= 2, let c = centroid else { return 0 }
        var sum = 0.0
        for t in self { sum += t.location.distance(to: c) }
        return 2 * sum / Double(count)
    }

    func index(ofSerial serial: UInt64) -> Int? {
        firstIndex { $0.serial == serial }
    }
}
