/// Folds `wl_pointer` events into one `PointerFrame` per `wl_pointer.frame`.
/// (For `wl_pointer` older than version 5, which has no frame event, the caller calls
/// `frame()` after every event.)
public struct PointerFrameAssembler: Sendable {
    private var current = PointerFrame(time: 0)
    private var pendingDiscrete: [AxisOrientation: Int32] = [:]
    private var pendingValue120: [AxisOrientation: Int32] = [:]
    /// Position of the pointer on the surface, or nil while it is outside.
    public private(set) var position: Point?

    public init() {}

    public mutating func enter(at p: Point, time: Double) {
        current.entered = p
        current.left = false
        current.time = time
        position = p
    }

    public mutating func leave(time: Double) {
        // An enter and then a leave in one frame nets out to "outside": keeping both would
        // say the opposite once written to a trace (the writer puts leave before enter).
        current.entered = nil
        current.left = true
        current.time = time
        position = nil
    }

    public mutating func motion(to p: Point, time: Double) {
        current.moved = p
        current.time = time
        position = p
    }

    public mutating func button(_ b: PointerButton, pressed: Bool, time: Double) {
        current.buttons.append((b, pressed))
        current.time = time
    }

    public mutating func axisSource(_ s: AxisSource) { current.axisSource = s }

    /// `axis_discrete` (v5–7) or `axis_value120 / 120` (v8+): attached to the next axis value.
    public mutating func axisDiscrete(_ o: AxisOrientation, steps: Int32) { pendingDiscrete[o] = steps }

    /// `axis_value120` (v8+): attached to the next axis value, fractions of a detent kept.
    public mutating func axisValue120(_ o: AxisOrientation, value120: Int32) { pendingValue120[o] = value120 }

    public mutating func axis(_ o: AxisOrientation, value: Double, time: Double) {
        current.axes.append(AxisEvent(orientation: o, value: value, discrete: pendingDiscrete.removeValue(forKey: o),
                                      value120: pendingValue120.removeValue(forKey: o)))
        current.time = time
    }

    public mutating func axisStop(_ o: AxisOrientation, time: Double) {
        current.axisStops.append(o)
        current.time = time
    }

    /// `wl_pointer.frame`: everything since the last frame, or nil when nothing happened.
    public mutating func frame() -> PointerFrame? {
        pendingDiscrete.removeAll()
        guard !current.isEmpty else { return nil }
        let f = current
        current = PointerFrame(time: f.time)
        return f
    }
}
