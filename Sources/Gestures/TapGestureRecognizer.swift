import Input

/// Recognizes one or more taps with a given number of fingers: a single tap, a double tap,
/// a two-finger tap (`numberOfTouchesRequired = 2`), or a double click with the mouse.
///
/// A tap is: the required number of touches down together (they may land in different
/// frames), none moving more than `maximumMovement` from where it landed, all lifted.
/// It gives up (fails) when
/// - a touch moves too far (that is a drag: no ghost tap after a pan),
/// - more touches land than required (two overlapping one-finger taps are not a double tap),
/// - the next tap does not start within `maximumTapInterval` ms of the previous lift.
/// A next tap that lands farther than `maximumTapDistance` from the previous one, or sooner than
/// `minimumTapInterval` ms after its lift (touchscreen chatter), is not a second tap: the chain
/// fails and that touch starts a new chain. Once the last tap has landed there is no time limit
/// (holding the second tap of a double tap still counts). The same rules hold for mouse clicks.
public final class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired: Int
    public var numberOfTouchesRequired: Int
    /// Slops, intervals and distances of its taps.
    public var tolerances: TapTolerances {
        get { chain.tolerances }
        set { chain.tolerances = newValue }
    }
    /// With several fingers: px their spread (the distance between two fingers) may change and
    /// still tap; nil for no limit. A quick pinch is then never a two-finger tap.
    public var maximumSpreadChange: Double?
    /// ms from the first finger landing to the last lifting that a tap may last; nil for no
    /// limit. Two fingers resting on the map for seconds are not a two-finger tap.
    public var maximumPressDuration: Double?

    /// Called on every state change; `.ended` means recognized.
    public var action: ((TapGestureRecognizer) -> Void)?

    /// Taps completed in the current chain.
    public var numberOfTaps: Int { chain.taps }
    /// The most fingers down at once in the tap under way (a two-finger tap: 2 once both landed).
    public var touchesInCurrentTap: Int { chain.mostTouches }

    private var chain = TapChain()
    private var tapLocation = Point.zero
    private var spreadAtDown = 0.0
    private var complete = false

    public init(name: String = "", taps: Int = 1, touches: Int = 1) {
        numberOfTapsRequired = max(taps, 1)
        numberOfTouchesRequired = max(touches, 1)
        super.init(name: name)
    }

    override func touchBegan(_ touch: Touch, time: Double) {
        if touches.count == 1 {
            guard chain.firstFingerLanded(touch, time: time) else {
                failAndRestart(with: touch)
                return
            }
            cancelTimer()
            if let limit = maximumPressDuration { setTimer(at: time + limit) }
        }
        chain.touchesDown(touches.count)
        if touches.count == numberOfTouchesRequired, let c = touches.centroid {
            tapLocation = c
            spreadAtDown = touches.spread
        }
        if touches.count > numberOfTouchesRequired { fail() }
    }

    override func touchMoved(_ touch: Touch, time: Double) {
        if chain.movedTooFar(touch) {
            fail()
        } else if let limit = maximumSpreadChange, touches.count >= 2, abs(touches.spread - spreadAtDown) > limit {
            fail()
        }
    }

    override func touchEnded(_ touch: Touch, time: Double) {
        guard !chain.movedTooFar(touch) else {
            fail()
            return
        }
        guard touches.isEmpty else { return }
        cancelTimer()
        guard chain.tapLifted(time: time, touchesRequired: numberOfTouchesRequired) else {
            fail()
            return
        }
        lastLocation = tapLocation
        if chain.taps >= numberOfTapsRequired {
            complete = true
        } else {
            setTimer(at: chain.nextTapDeadline)
        }
    }

    override func frameEnded(time: Double) {
        if complete && state == .possible && pending == nil { requestRecognition() }
    }

    override func timerFired(time: Double) { fail() }

    override func resetState() {
        chain.reset()
        complete = false
    }

    override var wantsMoreTouches: Bool { !touches.isEmpty && touches.count < numberOfTouchesRequired }
    override var isInTapChain: Bool { numberOfTapsRequired > 1 && chain.taps > 0 }
    override var hasChainState: Bool { chain.taps > 0 }
    override func performAction() { action?(self) }
}
