import Input

/// Sees every touch that lands in its view — down, move, lift, cancel — and never takes one:
/// it is an observer, so it never makes another recognizer fail, no winner makes it fail, and
/// it never changes state (it stays `possible`).
///
/// To observe *taps* without stealing them, use a `TapGestureRecognizer` with `isObserver = true`
/// instead (and `require(toFail:)` the view's double tap if a double tap should not also count
/// as two single taps).
public final class ObserverGestureRecognizer: GestureRecognizer {
    /// What happened to an observed touch.
    public enum Phase: Sendable, Equatable { case began, moved, ended, cancelled }

    /// Called for every change of every touch in the view.
    public var onTouch: ((ObserverGestureRecognizer, Phase, Touch) -> Void)?

    public override init(name: String = "") {
        super.init(name: name)
        isObserver = true
    }

    override func touchBegan(_ touch: Touch, time: Double) { onTouch?(self, .began, touch) }
    override func touchMoved(_ touch: Touch, time: Double) { onTouch?(self, .moved, touch) }
    override func touchEnded(_ touch: Touch, time: Double) { onTouch?(self, .ended, touch) }
    override func touchCancelled(_ touch: Touch, time: Double) { onTouch?(self, .cancelled, touch) }
}
