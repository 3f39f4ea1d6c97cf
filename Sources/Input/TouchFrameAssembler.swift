/// Folds `wl_touch` events into one `TouchFrame` per `wl_touch.frame`.
///
/// Compositors differ (shared/reference/wayland-client.md): old wlroots sends a frame after
/// every event, weston and GNOME send none after the last `up`, and a `cancel` comes without a
/// frame. So a frame is also emitted as soon as the last active point lifts, empty frames are
/// never emitted, motion for an id that is not down is dropped, and ids are reusable.
public struct TouchFrameAssembler: Sendable {
    /// Last known position of every point that is down.
    public private(set) var active: [Int32: Point] = [:]
    private var pending: [TouchChange] = []
    private var pendingTime: Double = 0
    /// Events that made no sense (motion/up for an unknown id); counted, never fatal.
    public private(set) var droppedEvents = 0

    public init() {}

    public mutating func down(id: Int32, at point: Point, time: Double) {
        if let old = active[id] {
            // A second down for an id that never went up: end the old point first so that
            // nothing downstream sees one id owned twice.
            pending.append(.up(id: id, at: old))
        }
        active[id] = point
        pendingTime = time
        pending.append(.down(id: id, at: point))
    }

    public mutating func motion(id: Int32, to point: Point, time: Double) {
        guard active[id] != nil else {
            droppedEvents += 1
            return
        }
        active[id] = point
        pendingTime = time
        if let i = pending.lastIndex(where: { $0.id == id }), case .moved = pending[i] {
            pending[i] = .moved(id: id, to: point)
        } else {
            pending.append(.moved(id: id, to: point))
        }
    }

    /// Returns a frame when this was the last point down (some compositors send no frame then).
    public mutating func up(id: Int32, time: Double) -> TouchFrame? {
        guard let last = active.removeValue(forKey: id) else {
            droppedEvents += 1
            return nil
        }
        pendingTime = time
        pending.append(.up(id: id, at: last))
        return active.isEmpty ? frame() : nil
    }

    /// `wl_touch.frame`: everything since the previous frame, or nil when nothing happened.
    public mutating func frame() -> TouchFrame? {
        guard !pending.isEmpty else { return nil }
        let f = TouchFrame(time: pendingTime, changes: pending)
        pending.removeAll(keepingCapacity: true)
        return f
    }

    /// Whether changes are waiting for a `wl_touch.frame`.
    public var hasPending: Bool { !pending.isEmpty }

    /// `wl_touch.cancel`: every point is cancelled and its id forgotten, pending changes included.
    public mutating func cancel() {
        pending.removeAll(keepingCapacity: true)
        active.removeAll()
    }

    /// The seat lost its touch capability: the same as a cancel.
    public mutating func reset() { cancel() }
}
