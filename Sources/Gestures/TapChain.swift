import Input

/// How far and how late taps may be, for `TapGestureRecognizer` and the taps before a
/// `LongPressGestureRecognizer`'s press (defaults from `GestureConstants`).
public struct TapTolerances: Sendable, Equatable {
    /// px a finger may move and still tap.
    public var maximumMovement = GestureConstants.touchSlop
    /// px a finger may move in the taps after the first of a chain (a double tap's second
    /// press may slide further: `GestureConstants.quickZoomSlop` on the map).
    public var maximumFollowingTapMovement = GestureConstants.touchSlop
    /// px the mouse may move with the button held and still click (much less than a finger).
    public var maximumMouseMovement = GestureConstants.mouseSlop
    /// ms from a tap's lift to the next tap's touch-down.
    public var maximumInterval = GestureConstants.doubleTapTimeout
    /// ms under which a next touch-down is chatter, not a tap.
    public var minimumInterval = GestureConstants.doubleTapMinTime
    /// px between the touch-downs of two taps of a chain.
    public var maximumDistance = GestureConstants.doubleTapMaxDistance

    public init() {}
}

/// The rules of a chain of taps, shared by `TapGestureRecognizer` (double tap) and
/// `LongPressGestureRecognizer` (tap-then-press, the double-tap-and-drag):
/// - a tap is its fingers down together and all lifted, none moving more than the slop (the
///   touch slop for fingers, the much smaller mouse slop for the mouse);
/// - the next tap must land within `maximumInterval` ms of the last lift (the owner's timer);
/// - a next tap farther than `maximumDistance` from the previous one, or sooner than
///   `minimumInterval` after its lift (touchscreen chatter), breaks the chain: that touch starts
///   a new chain.
struct TapChain {
    var tolerances = TapTolerances()

    /// Taps completed in this chain.
    private(set) var taps = 0
    /// The most touches down at once in the current tap.
    private(set) var mostTouches = 0
    /// Where the current tap's first finger landed.
    private(set) var tapStart = Point.zero
    private var lastLiftTime = 0.0

    /// The first finger of a tap landed. False: it breaks the chain (too far, too soon) and must
    /// start a new one.
    mutating func firstFingerLanded(_ touch: Touch, time: Double) -> Bool {
        if taps > 0, time - lastLiftTime < tolerances.minimumInterval
            || touch.location.distance(to: tapStart) > tolerances.maximumDistance {
            return false
        }
        tapStart = touch.location
        mostTouches = 0
        return true
    }

    mutating func touchesDown(_ count: Int) { mostTouches = max(mostTouches, count) }

    /// How far `touch` may move and still tap.
    func movementLimit(for touch: Touch) -> Double {
        touch.kind == .mouse ? tolerances.maximumMouseMovement
            : taps > 0 ? tolerances.maximumFollowingTapMovement : tolerances.maximumMovement
    }

    func movedTooFar(_ touch: Touch) -> Bool {
        touch.location.distance(to: touch.startLocation) > movementLimit(for: touch)
    }

    /// Every finger of a tap with `touchesRequired` fingers lifted; false when it had a different number.
    mutating func tapLifted(time: Double, touchesRequired: Int) -> Bool {
        guard mostTouches == touchesRequired else { return false }
        taps += 1
        lastLiftTime = time
        return true
    }

    /// The next tap's deadline.
    var nextTapDeadline: Double { lastLiftTime + tolerances.maximumInterval }

    mutating func reset() {
        taps = 0
        mostTouches = 0
    }
}
