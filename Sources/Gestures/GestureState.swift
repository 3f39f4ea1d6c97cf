/// Where a recognizer is in its life, as in UIKit.
///
/// Continuous gestures (pan, pinch, long press): `possible → began → changed* → ended | cancelled`.
/// Discrete gestures (tap): `possible → ended` (recognized) or `possible → failed`.
/// Every recognizer returns to `possible` after a terminal state, at the end of the frame or
/// timer in which it got there.
public enum GestureState: Sendable, Equatable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed

    /// The discrete gestures' "recognized" is UIKit's `.ended`.
    public static var recognized: GestureState { .ended }

    /// True while a continuous gesture runs (`began` or `changed`).
    public var isActive: Bool { self == .began || self == .changed }

    /// True for the states a recognizer leaves only by being reset.
    public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }

    public var description: String {
        switch self {
        case .possible: return "possible"
        case .began: return "began"
        case .changed: return "changed"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .failed: return "failed"
        }
    }
}
