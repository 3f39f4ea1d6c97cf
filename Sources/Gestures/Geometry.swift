// Views, frames and hit areas use the shared geometry (module Geometry: `Point`, `Size`,
// `Rect`, `EdgeInsets`); every importer of Gestures sees it as before.
@_exported import Geometry

/// The direction a finger moves on screen; used to ask scroll containers whether they can follow it.
public enum DragDirection: Sendable, Hashable {
    case up, down, left, right

    /// The dominant direction of a movement (vertical wins ties: pages scroll vertically).
    public init(of delta: Point) {
        if abs(delta.y) >= abs(delta.x) {
            self = delta.y < 0 ? .up : .down
        } else {
            self = delta.x < 0 ? .left : .right
        }
    }
}

extension Point {
    /// The length of the vector from the origin to this point.
    var length: Double { (x * x + y * y).squareRoot() }
}
