import Input

/// Recognizes two or more fingers moving apart or together: the map zoom.
///
/// `scale` is the fingers' spread now divided by their spread at touch-down (the spread is
/// twice the mean distance of the fingers from their centroid: the finger distance for two).
/// It begins once the spread has changed by more than `scaleSlop` px, keeps `scale` continuous
/// when a finger lands or lifts mid-pinch, and ends when fewer than two fingers remain.
/// `focalPoint(in:)` is the centroid, the point to zoom around. Pair it with a two-finger
/// `PanGestureRecognizer` through `recognizeSimultaneously(with:)` to pan while pinching.
public final class PinchGestureRecognizer: GestureRecognizer {
    public var scaleSlop = GestureConstants.scaleSlop

    /// Called on every state change.
    public var action: ((PinchGestureRecognizer) -> Void)?

    /// The spread now relative to the spread when the second finger landed.
    public private(set) var scale = 1.0

    private var initialSpread = 0.0
    private var scaleAtAnchor = 1.0
    private var spreadAtAnchor = 0.0
    private var moved = false

    public override init(name: String = "") {
        super.init(name: name)
    }

    /// The point between the fingers, in `view`'s coordinates.
    public func focalPoint(in view: GestureView?) -> Point { location(in: view) }

    private var spread: Double { touches.spread }

    /// Keep the fingers left when the pinch ends for the next one (a re-grip: a finger lifts
    /// and lands again while the other stays down); see `PanGestureRecognizer`.
    public var keepsTouchesForRegrip = false

    override func touchBegan(_ touch: Touch, time: Double) { rebase() }

    override func touchMoved(_ touch: Touch, time: Double) { moved = true }

    override func touchEnded(_ touch: Touch, time: Double) {
        rebase()
        if touches.count < 2 {
            if state.isActive {
                finish()
                if keepsTouchesForRegrip { keepTouchesForNextGesture() }
            } else if touches.isEmpty {
                fail()
            }
        }
    }

    override func frameEnded(time: Double) {
        defer { moved = false }
        guard moved, touches.count >= 2 else { return }
        let s = spread
        if spreadAtAnchor > 0.5 { scale = scaleAtAnchor * s / spreadAtAnchor }
        if state.isActive {
            update()
        } else if state == .possible, pending == nil, abs(s - initialSpread) > scaleSlop {
            requestBegin()
        }
    }

    /// The set of fingers changed: the scale continues from where it was.
    private func rebase() {
        let s = spread
        if touches.count >= 2 && initialSpread == 0 { initialSpread = s }
        if touches.count < 2 {
            initialSpread = 0
            if !state.isActive { scale = 1 }
        }
        scaleAtAnchor = scale
        spreadAtAnchor = s
    }

    override func resetState() {
        scale = 1
        initialSpread = 0
        scaleAtAnchor = 1
        spreadAtAnchor = 0
        moved = false
    }

    override var wantsMoreTouches: Bool { touches.count == 1 }
    override func performAction() { action?(self) }
}
