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
    public var maximumMovement = GestureConstants.touchSlop
    public var maximumTapInterval = GestureConstants.doubleTapTimeout
    public var minimumTapInterval = GestureConstants.doubleTapMinTime
    public var maximumTapDistance = GestureConstants.doubleTapMaxDistance

    /// Called on every state change; `.ended` means recognized.
    public var action: ((TapGestureRecognizer) -> Void)?

    /// Taps completed in the current chain.
    public private(set) var numberOfTaps = 0

    private var mostTouchesInTap = 0
    private var tapStart = Point.zero
    private var lastLiftTime = 0.0
    private var tapLocation = Point.zero
    private var complete = false

    public init(name: String = "", taps: Int = 1, touches: Int = 1) {
        numberOfTapsRequired = max(taps, 1)
        numberOfTouchesRequired = max(touches, 1)
        super.init(name: name)
    }

    override func touchBegan(_ touch: Touch, time: Double) {
        if touches.count == 1 {
            if numberOfTaps > 0 {
                if time - lastLiftTime < minimumTapInterval || touch.location.distance(to: tapStart) > maximumTapDistance {
                    failAndRestart(with: touch)
                    return
                }
                cancelTimer()
            }
            tapStart = touch.location
            mostTouchesInTap = 0
        }
        mostTouchesInTap = max(mostTouchesInTap, touches.count)
        if touches.count == numberOfTouchesRequired, let c = touches.centroid { tapLocation = c }
        if touches.count > numberOfTouchesRequired { fail() }
    }

    override func touchMoved(_ touch: Touch, time: Double) {
        if touch.location.distance(to: touch.startLocation) > maximumMovement { fail() }
    }

    override func touchEnded(_ touch: Touch, time: Double) {
        guard touch.location.distance(to: touch.startLocation) <= maximumMovement else {
            fail()
            return
        }
        guard touches.isEmpty else { return }
        guard mostTouchesInTap == numberOfTouchesRequired else {
            fail()
            return
        }
        numberOfTaps += 1
        lastLiftTime = time
        lastLocation = tapLocation
        if numberOfTaps >= numberOfTapsRequired {
            complete = true
        } else {
            setTimer(at: time + maximumTapInterval)
        }
    }

    override func frameEnded(time: Double) {
        if complete && state == .possible && pending == nil { requestRecognition() }
    }

    override func timerFired(time: Double) { fail() }

    override func resetState() {
        numberOfTaps = 0
        mostTouchesInTap = 0
        complete = false
    }

    override var wantsMoreTouches: Bool { !touches.isEmpty && touches.count < numberOfTouchesRequired }
    override var isInTapChain: Bool { numberOfTapsRequired > 1 && numberOfTaps > 0 }
    override var hasChainState: Bool { numberOfTaps > 0 }
    override func performAction() { action?(self) }
}
