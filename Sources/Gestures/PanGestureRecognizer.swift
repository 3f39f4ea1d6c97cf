import Input

/// Recognizes a drag by one or more fingers (or the mouse): scrolling, map panning, dragging a pin.
///
/// It begins once the centroid of its touches has moved more than `slop` px with between
/// `minimumNumberOfTouches` and `maximumNumberOfTouches` fingers down ("exactly two fingers" is
/// `minimum = maximum = 2`). It fails when more fingers land than `maximumNumberOfTouches`
/// before it began (after that it ignores them), when the view's `canScroll` says it cannot
/// follow the drag's direction, or when every finger lifts before it began. It ends when
/// fewer than `minimumNumberOfTouches` remain.
///
/// With `removesSlopFromTranslation` (the default) the translation starts from the slop circle,
/// so content follows the finger from where the drag was recognized instead of jumping by the
/// slop. Fingers landing or lifting mid-drag do not make the translation jump either, and
/// while it has fewer fingers than `minimumNumberOfTouches` it gathers no translation: a
/// two-finger pan measures from the moment its second finger lands, however far the first one
/// had moved or drifted (no jump by the first finger's travel).
///
/// The slop depends on what drags: `slop` for fingers, `mouseSlop` (much smaller) for the mouse.
public final class PanGestureRecognizer: GestureRecognizer {
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max
    public var slop = GestureConstants.touchSlop
    public var mouseSlop = GestureConstants.mouseSlop
    public var removesSlopFromTranslation = true
    /// Keep the fingers left when the drag ends (fewer than the minimum) for the next drag: a
    /// finger lifting and landing again while the others stay down (a re-grip) continues at
    /// once, without a new slop, and the fingers left meanwhile go to nobody else.
    public var keepsTouchesForRegrip = false

    /// The direction of the drag when it failed because its view's `canScroll` said no (a
    /// sideways drag on a page that scrolls only up and down); nil otherwise. Read it in the
    /// `failed` action.
    public private(set) var refusedDirection: DragDirection?

    /// Called on every state change (`began`, `changed`, `ended`, `cancelled`, `failed`).
    public var action: ((PanGestureRecognizer) -> Void)?

    /// Where the centroid would be had the set of fingers never changed (window px).
    private var accumulated = Point.zero
    private var anchor = Point.zero
    private var lastCentroid = Point.zero
    /// Subtracted from the accumulated movement: the slop taken off, and `setTranslation`.
    private var origin = Point.zero
    private var moved = false
    /// Began with fingers kept from the last drag: continue without a slop.
    private var regripping = false
    private var tracker = VelocityTracker()

    public init(name: String = "", minimumTouches: Int = 1, maximumTouches: Int = .max) {
        minimumNumberOfTouches = max(minimumTouches, 1)
        maximumNumberOfTouches = max(maximumTouches, minimumNumberOfTouches)
        super.init(name: name)
    }

    private var position: Point { accumulated + lastCentroid - anchor }

    /// The movement since the drag began, in `view`'s coordinates (views have no scale or
    /// rotation, so this is the same vector in every view; the parameter keeps call sites
    /// honest about the space they mean).
    public func translation(in view: GestureView?) -> Point { position - origin }

    /// Makes `translation(in:)` return `translation` now; a dragged view that moves itself by the
    /// translation and then sets it to zero follows the finger exactly.
    public func setTranslation(_ translation: Point, in view: GestureView?) {
        origin = position - translation
    }

    /// The velocity in px/s in `view`'s coordinates; zero when the fingers rested before lifting.
    public func velocity(in view: GestureView?) -> Point { tracker.velocity(at: now) }

    override func accepts(_ touch: Touch) -> Bool {
        !(state.isActive && touches.count >= maximumNumberOfTouches)
    }

    override func touchBegan(_ touch: Touch, time: Double) {
        if state == .possible && touches.count > maximumNumberOfTouches {
            fail()
            return
        }
        rebase()
        if state == .possible && touches.count <= minimumNumberOfTouches {
            // Too few fingers until now: what they did is no drag of this recognizer.
            accumulated = .zero
            origin = .zero
            tracker.reset()
            tracker.add(position, at: time)
        }
        if keepsTouchesForRegrip && touch.startTime < time { regripping = true }
    }

    override func touchMoved(_ touch: Touch, time: Double) {
        moved = true
        if let c = touches.centroid { lastCentroid = c }
    }

    override func touchEnded(_ touch: Touch, time: Double) {
        rebase()
        if touches.count < minimumNumberOfTouches {
            if pending == .began { decideWithoutGrace() }
            if state.isActive {
                finish()
                if keepsTouchesForRegrip { keepTouchesForNextGesture() }
            } else if touches.isEmpty || pending != nil {
                fail()
            }
        }
    }

    override func frameEnded(time: Double) {
        if moved { tracker.add(position, at: time) }
        defer { moved = false }
        if state.isActive {
            if moved { update() }
            return
        }
        guard state == .possible, pending == nil,
              touches.count >= minimumNumberOfTouches, touches.count <= maximumNumberOfTouches else { return }
        let d = position
        let distance = d.length
        let slop = regripping ? 0 : (touches.allSatisfy { $0.kind == .mouse } ? mouseSlop : self.slop)
        guard distance > slop else { return }
        if let canScroll = view?.canScroll, !canScroll(DragDirection(of: d)) {
            refusedDirection = DragDirection(of: d)
            fail()
            return
        }
        if removesSlopFromTranslation && slop > 0 { origin = d * (slop / distance) }
        requestBegin()
    }

    /// The set of fingers changed: keep the position continuous across the change.
    private func rebase() {
        accumulated = position
        let c = touches.centroid ?? lastCentroid
        anchor = c
        lastCentroid = c
    }

    override func resetState() {
        accumulated = .zero
        anchor = .zero
        lastCentroid = .zero
        origin = .zero
        moved = false
        regripping = false
        refusedDirection = nil
        tracker.reset()
    }

    override var wantsMoreTouches: Bool { !touches.isEmpty && touches.count < minimumNumberOfTouches }
    override func performAction() { action?(self) }
}
