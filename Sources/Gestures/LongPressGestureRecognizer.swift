import Input

/// Recognizes a press held still for `minimumPressDuration` ms, optionally after some taps:
/// with `numberOfTapsRequired = 1` and a duration of 0 it is the double-tap-and-drag
/// ("quick zoom") gesture: tap, touch down again, drag.
///
/// Continuous: it begins when the press has lasted long enough, reports `changed` as the
/// finger moves (any distance, once begun) and ends when the finger lifts. It fails when
/// - the finger moves more than `allowableMovement` before it began (or a tap before the press
///   moves more than `maximumTapMovement`),
/// - the finger lifts before the duration,
/// - the next tap does not land within `maximumTapInterval` ms, or lands too far away or too
///   soon (then it starts again with that touch, like `TapGestureRecognizer`),
/// - more touches land than `numberOfTouchesRequired`,
/// - (with no taps required) a multi-tap gesture on the same finger is between taps: holding
///   the second tap of a double tap is not a long press.
public final class LongPressGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired: Int
    public var numberOfTouchesRequired = 1
    public var minimumPressDuration: Double
    /// px the press may move before it begins (the taps before it: `tolerances`).
    public var allowableMovement = GestureConstants.longPressAllowableMovement
    /// px the press must travel up or down, after its duration, before it begins; 0: it begins
    /// with the duration. The double-tap-and-drag uses `GestureConstants.quickZoomSlop`, so a
    /// slow double tap's sliding second press is not a drag-zoom. While it waits, moving more
    /// than `allowableMovement` (any direction) fails it.
    public var minimumVerticalMovement = 0.0
    /// Slops, intervals and distances of the taps before the press.
    public var tolerances: TapTolerances {
        get { chain.tolerances }
        set { chain.tolerances = newValue }
    }

    /// Called on every state change.
    public var action: ((LongPressGestureRecognizer) -> Void)?

    /// Taps completed before the press.
    public var tapsCompleted: Int { chain.taps }

    private var chain = TapChain()
    private var pressing = false
    private var pressStart = Point.zero
    private var readyToBegin = false
    private var moved = false
    private var waitingForVerticalMovement = false

    public init(name: String = "", taps: Int = 0,
                minimumPressDuration: Double = GestureConstants.longPressDuration) {
        numberOfTapsRequired = max(taps, 0)
        self.minimumPressDuration = max(minimumPressDuration, 0)
        super.init(name: name)
    }

    /// Where the press started (the anchor of a quick zoom), in `view`'s coordinates.
    public func pressLocation(in view: GestureView?) -> Point {
        view?.convert(fromWindow: pressStart) ?? pressStart
    }

    override func accepts(_ touch: Touch) -> Bool { !state.isActive }

    override func touchBegan(_ touch: Touch, time: Double) {
        if touches.count == 1 {
            guard chain.firstFingerLanded(touch, time: time) else {
                failAndRestart(with: touch)
                return
            }
            if chain.taps > 0 { cancelTimer() }
        }
        chain.touchesDown(touches.count)
        if touches.count > numberOfTouchesRequired {
            fail()
            return
        }
        if touches.count == numberOfTouchesRequired && chain.taps == numberOfTapsRequired {
            pressing = true
            pressStart = touches.centroid ?? touch.location
            if minimumPressDuration == 0 {
                readyToBegin = minimumVerticalMovement <= 0
                waitingForVerticalMovement = !readyToBegin
            } else {
                setTimer(at: time + minimumPressDuration)
            }
        }
    }

    override func touchMoved(_ touch: Touch, time: Double) {
        moved = true
        if waitingForVerticalMovement, state == .possible, pending == nil {
            let c = touches.centroid ?? touch.location
            if abs(c.y - pressStart.y) > minimumVerticalMovement {
                waitingForVerticalMovement = false
                readyToBegin = true
            } else if c.distance(to: pressStart) > allowableMovement {
                fail()
            }
            return
        }
        guard state == .possible, pending == nil, !readyToBegin else { return }
        let tooFar = pressing ? touch.location.distance(to: touch.startLocation) > allowableMovement : chain.movedTooFar(touch)
        if tooFar { fail() }
    }

    override func touchEnded(_ touch: Touch, time: Double) {
        if state.isActive {
            if touches.count < numberOfTouchesRequired { finish() }
            return
        }
        if pressing || pending != nil || chain.movedTooFar(touch) {
            fail()
            return
        }
        guard touches.isEmpty else { return }
        guard chain.tapLifted(time: time, touchesRequired: numberOfTouchesRequired) else {
            fail()
            return
        }
        setTimer(at: chain.nextTapDeadline)
    }

    override func frameEnded(time: Double) {
        defer { moved = false }
        if state.isActive {
            if moved { update() }
        } else if readyToBegin && state == .possible && pending == nil {
            readyToBegin = false
            requestBegin()
        }
    }

    override func timerFired(time: Double) {
        guard pressing else {
            fail() // the next tap did not come in time
            return
        }
        if numberOfTapsRequired == 0, system?.isTapChainInProgress(sharingTouchWith: self) ?? false {
            fail()
            return
        }
        if minimumVerticalMovement > 0 {
            waitingForVerticalMovement = true
            return
        }
        requestBegin()
    }

    override func resetState() {
        chain.reset()
        pressing = false
        readyToBegin = false
        waitingForVerticalMovement = false
        moved = false
    }

    override var isInTapChain: Bool { numberOfTapsRequired > 0 && chain.taps > 0 }
    override var hasChainState: Bool { chain.taps > 0 }
    override func performAction() { action?(self) }
}
