#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Input

/// Recognizes two or more fingers twisting: the map rotation.
///
/// `rotation` is the angle in degrees the fingers have turned since the gesture began,
/// clockwise on screen positive (y points down). Each frame the fingers that were down in the
/// previous frame and still are give the turn: the rotation that best maps their old offsets
/// from their centroid onto the new ones (for two fingers, exactly the change of the angle of
/// the line between them). A finger landing or lifting only re-bases, so it never turns
/// anything, and `rotation` stays continuous across it.
///
/// It begins only after a deliberate twist: the fingers' net turn since the second finger
/// landed must pass `threshold` degrees *and* `minimumArc` px along their circle (see
/// `GestureConstants.rotationThreshold`). The twist before that is not applied (as MapLibre
/// does), so the map does not jump when the rotation starts; from then on the turn follows the
/// fingers one to one. It ends when fewer than two fingers remain. Pair it with the two-finger
/// pan and the pinch through `recognizeSimultaneously(with:)`.
public final class RotationGestureRecognizer: GestureRecognizer {
    public var threshold = GestureConstants.rotationThreshold
    public var minimumArc = GestureConstants.rotationMinimumArc

    /// Called on every state change.
    public var action: ((RotationGestureRecognizer) -> Void)?

    /// Degrees turned (clockwise positive) since the gesture began; 0 before.
    public private(set) var rotation = 0.0

    /// The net twist while still `possible`, in degrees.
    private var twist = 0.0
    /// Where each finger was at the end of the last frame (window px), by serial.
    private var previous: [(serial: UInt64, location: Point)] = []
    private var changed = false

    public override init(name: String = "") {
        super.init(name: name)
        previous.reserveCapacity(8)
    }

    /// The point between the fingers, in `view`'s coordinates: the point to turn around.
    public func focalPoint(in view: GestureView?) -> Point { location(in: view) }

    override func touchBegan(_ touch: Touch, time: Double) { changed = true }
    override func touchMoved(_ touch: Touch, time: Double) { changed = true }

    override func touchEnded(_ touch: Touch, time: Double) {
        changed = true
        if touches.count < 2 {
            twist = 0
            if state.isActive {
                finish()
            } else if touches.isEmpty {
                fail()
            }
        }
    }

    override func frameEnded(time: Double) {
        guard changed else { return }
        changed = false
        let turn = turnSinceLastFrame()
        snapshot()
        guard touches.count >= 2, turn != 0 else { return }
        if state.isActive || pending != nil {
            rotation += turn
            if state.isActive { update() }
        } else if state == .possible {
            twist += turn
            if abs(twist) > threshold, abs(twist) * .pi / 180 * radius > minimumArc {
                // The twist so far is not applied: the map starts turning from here.
                rotation = 0
                requestBegin()
            }
        }
    }

    /// The mean distance of the fingers from their centroid (half the finger distance for two).
    private var radius: Double {
        guard let c = touches.centroid else { return 0 }
        var sum = 0.0
        for t in touches { sum += t.location.distance(to: c) }
        return sum / Double(touches.count)
    }

    /// The best-fitting turn, in degrees, of the fingers present both at the last frame and
    /// now, about their own centroid (the 2-D Procrustes angle).
    private func turnSinceLastFrame() -> Double {
        var n = 0.0, old = Point.zero, new = Point.zero
        for p in previous {
            guard let i = touches.index(ofSerial: p.serial) else { continue }
            n += 1
            old = old + p.location
            new = new + touches[i].location
        }
        guard n >= 2 else { return 0 }
        old = Point(x: old.x / n, y: old.y / n)
        new = Point(x: new.x / n, y: new.y / n)
        var cross = 0.0, dot = 0.0
        for p in previous {
            guard let i = touches.index(ofSerial: p.serial) else { continue }
            let a = p.location - old, b = touches[i].location - new
            cross += a.x * b.y - a.y * b.x
            dot += a.x * b.x + a.y * b.y
        }
        guard cross != 0 || dot != 0 else { return 0 }
        return atan2(cross, dot) * 180 / .pi
    }

    private func snapshot() {
        previous.removeAll(keepingCapacity: true)
        for t in touches { previous.append((t.serial, t.location)) }
    }

    override func resetState() {
        rotation = 0
        twist = 0
        previous.removeAll(keepingCapacity: true)
        changed = false
    }

    override var wantsMoreTouches: Bool { touches.count == 1 }
    override func performAction() { action?(self) }
}
