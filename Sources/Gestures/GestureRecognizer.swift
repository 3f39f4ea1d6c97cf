import Input

/// The common part of every recognizer: its state, its touches, its relations to other
/// recognizers, and the hooks through which the `GestureSystem` feeds it.
///
/// A recognizer only *asks* to begin or to be recognized; the system's arena decides (see
/// Arena.swift). Subclasses override the `touch…`, `frameEnded` and `timerFired` hooks and
/// call `requestBegin()`, `requestRecognition()`, `update()`, `finish()` and `fail()`.
public class GestureRecognizer {
    /// The state; changes are reported through `onStateChange` and each subclass's `action`.
    public internal(set) var state: GestureState = .possible
    /// The view this recognizer is attached to.
    public internal(set) weak var view: GestureView?
    /// A name for debugging and test output.
    public var name: String

    /// Called on every state change, `failed` included; read `state`.
    public var onStateChange: ((GestureRecognizer) -> Void)?

    /// A disabled recognizer receives no touches; disabling a running one cancels it.
    public var isEnabled = true {
        didSet { if !isEnabled { system?.abandon(self) } }
    }

    /// Which touches this recognizer listens to.
    public var allowedTouchKinds: TouchKinds = .all

    /// An observer sees its touches but never takes one: it never makes another recognizer
    /// fail, and none makes it fail. It still obeys `require(toFail:)`.
    public var isObserver = false

    /// Asked when the recognizer is about to leave `possible`; false makes it fail instead.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?

    /// Asked when a touch would be added; false keeps the touch away from this recognizer.
    public var shouldReceive: ((GestureRecognizer, Touch) -> Bool)?

    /// Asked about a pair that would otherwise exclude each other; a yes from either side is enough.
    public var shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?

    /// The touches this recognizer tracks now, in window coordinates.
    public internal(set) var touches: [Touch] = []

    /// The deepest view under the first touch of this gesture (for "which pin", "was it on the map").
    public internal(set) weak var startView: GestureView?

    // MARK: Relations

    var requiredToFail: [GestureRecognizer] = []
    var simultaneousPartners: [GestureRecognizer] = []

    /// This recognizer leaves `possible` only after `other` has failed, and fails if `other`
    /// begins or is recognized (a single tap that waits for the double tap).
    public func require(toFail other: GestureRecognizer) {
        guard other !== self, !requiredToFail.contains(where: { $0 === other }) else { return }
        requiredToFail.append(other)
    }

    /// Lets this recognizer and `other` run at the same time on the same touches (pinch with pan).
    public func recognizeSimultaneously(with other: GestureRecognizer) {
        guard other !== self, !simultaneousPartners.contains(where: { $0 === other }) else { return }
        simultaneousPartners.append(other)
    }

    // MARK: Arena bookkeeping (owned by GestureSystem)

    weak var system: GestureSystem?
    /// A transition the arena has accepted in principle but holds back (`.began` or `.ended`).
    var pending: GestureState?
    /// When the arena's wait for a second finger ends.
    var graceDeadline: Double?
    /// The recognizer's own timer.
    public internal(set) var deadline: Double?
    /// Serials of every touch tracked since the last reset, to tell who competes with whom.
    var seenSerials: [UInt64] = []
    var depth = 0
    /// Set when the gesture's touches lifted while it waited for a second finger: decide now.
    var waivesGrace = false
    /// The deeper gesture this one holds back for during the second-finger grace window.
    var waitingFor: GestureRecognizer?

    public init(name: String = "") {
        self.name = name
        touches.reserveCapacity(8)
        seenSerials.reserveCapacity(8)
    }

    // MARK: Hooks for subclasses

    /// Whether to take this touch at all (checked before `shouldReceive`). Default: yes.
    func accepts(_ touch: Touch) -> Bool { true }
    /// The touch was added to `touches`.
    func touchBegan(_ touch: Touch, time: Double) {}
    /// A tracked touch moved; `touches` holds its new location.
    func touchMoved(_ touch: Touch, time: Double) {}
    /// A tracked touch lifted; it is no longer in `touches`.
    func touchEnded(_ touch: Touch, time: Double) {}
    /// A tracked touch was taken away (mouse left the window); it is no longer in `touches`.
    func touchCancelled(_ touch: Touch, time: Double) {
        if state.isActive { cancelGesture() } else { fail() }
    }
    /// Every change of the frame has been delivered: decide now.
    func frameEnded(time: Double) {}
    /// `deadline` passed.
    func timerFired(time: Double) {}
    /// Back to a fresh `possible`; subclasses forget their per-gesture data.
    func resetState() {}
    /// A recognizer that needs more touches than it has (a two-finger pan with one finger down).
    var wantsMoreTouches: Bool { false }
    /// Between the taps of a multi-tap gesture: a long press must not fire now.
    var isInTapChain: Bool { false }
    /// Keeps per-gesture memory beyond its touches (a tap waiting for its second tap).
    var hasChainState: Bool { false }
    /// Calls the subclass's typed action closure.
    func performAction() {}

    // MARK: Requests to the arena

    /// Asks to go from `possible` to `began` (continuous gestures).
    func requestBegin() {
        guard state == .possible, pending == nil else { return }
        system?.request(self, .began)
    }

    /// Asks to go from `possible` to recognized (`ended`, discrete gestures).
    func requestRecognition() {
        guard state == .possible, pending == nil else { return }
        system?.request(self, .ended)
    }

    /// Reports new values of a running gesture (`changed`).
    func update() {
        guard state.isActive else { return }
        setState(.changed)
    }

    /// Ends a running gesture; a gesture still waiting to begin fails instead.
    func finish() {
        if state.isActive { setState(.ended) } else { fail() }
    }

    /// Cancels a running gesture; a gesture still waiting to begin fails instead.
    func cancelGesture() {
        if state.isActive { setState(.cancelled) } else { fail() }
    }

    /// Gives up: from `possible` (or a held-back transition) to `failed`.
    func fail() {
        guard state == .possible else { return }
        if let system, !system.arenaFailing, system.trace != nil {
            system.note("\(self) fails by its own rule\(pending == nil ? "" : " while waiting")")
        }
        pending = nil
        graceDeadline = nil
        setState(.failed)
        system?.recognizerFailed(self)
    }

    /// Gives up on the gesture so far and starts again with `touch` as its first touch,
    /// once the arena has reset it (a second tap too far away is a new first tap).
    func failAndRestart(with touch: Touch) {
        fail()
        system?.offerLater(touch, to: self)
    }

    /// The gesture ended with fingers still down: once reset, it gets them back, so a finger
    /// landing again continues with them (a re-grip) instead of starting elsewhere.
    func keepTouchesForNextGesture() {
        for t in touches { system?.offerLater(t, to: self) }
    }

    /// Asks the arena to decide a held-back begin now instead of waiting for a second finger
    /// (the fingers lifted, so none can come).
    func decideWithoutGrace() {
        guard pending == .began else { return }
        waivesGrace = true
        _ = system?.decide(self)
    }

    /// Starts the recognizer's timer (one per recognizer; a new one replaces the old).
    func setTimer(at time: Double) { deadline = time }
    func cancelTimer() { deadline = nil }

    func setState(_ s: GestureState) {
        state = s
        performAction()
        onStateChange?(self)
    }

    /// Back to `possible` with no touches; called by the arena only.
    func reset() {
        state = .possible
        pending = nil
        graceDeadline = nil
        deadline = nil
        touches.removeAll(keepingCapacity: true)
        seenSerials.removeAll(keepingCapacity: true)
        startView = nil
        waivesGrace = false
        waitingFor = nil
        resetState()
    }

    /// Nothing to remember: the arena can forget this recognizer until a touch reaches it.
    var isIdle: Bool {
        state == .possible && pending == nil && touches.isEmpty && deadline == nil && graceDeadline == nil
            && !hasChainState
    }

    /// Removed from its view: the arena lets go of it.
    func detach() { system?.abandon(self) }

    // MARK: Geometry helpers for subclasses and callers

    /// The time of the arena now (the last frame or timer), in ms.
    var now: Double { system?.now ?? 0 }

    /// The time of the frame or timer being handled (ms, the InputFrame clock): when a
    /// momentum that starts in an action starts.
    public var currentTime: Double { now }

    /// The first touch-down time of the touches tracked now.
    var firstTouchTime: Double? {
        var first: Double?
        for t in touches where first.map({ t.startTime < $0 }) ?? true { first = t.startTime }
        return first
    }

    /// The centroid of the current touches in `view`'s coordinates (the window when nil).
    public func location(in view: GestureView?) -> Point {
        let p = touches.centroid ?? lastLocation
        return view?.convert(fromWindow: p) ?? p
    }

    /// Where the last touch was when it lifted; keeps `location(in:)` meaningful in `ended`.
    var lastLocation = Point.zero

    public var numberOfTouches: Int { touches.count }
}

extension GestureRecognizer: CustomStringConvertible {
    public var description: String { name.isEmpty ? "\(type(of: self))" : name }
}
