import Input

/// Hit testing: which view a touch lands on.
///
/// The rules, in order:
/// 1. Hidden, disabled and non-interactive views and their subtrees are skipped.
/// 2. A view is hit when the point is inside its `hitRect` (its bounds grown by negative
///    `hitInsets`). A hit inside the true bounds is *exact*; one only in the enlargement is *enlarged*.
/// 3. A subview's hit beats its ancestors' (the pin on the map gets the touch, not the map), even
///    when the subview's hit is enlarged and the ancestor's exact: that is what enlarging is for.
/// 4. Among subtrees that do not contain each other (siblings, cousins): an exact hit beats an
///    enlarged one; among exact hits the topmost (last added) wins; among enlarged hits the
///    nearest true bounds win, the topmost on a tie (Compose's rule for expanded targets).
/// 5. A view with `clipsToBounds` passes to its subviews only points inside its bounds. Parts
///    of a subview's enlarged area that stick out of a clipping ancestor are not hit, as in UIKit.
extension GestureView {
    /// The deepest view that the window point `p` lands on, or nil when it misses the tree.
    /// Call it on the root view.
    public func hitTest(windowPoint p: Point) -> GestureView? {
        let local = p - frame.origin + boundsOrigin
        return hitCandidate(at: local)?.view
    }

    /// The best hit in this subtree, `p` in this view's coordinates.
    func hitCandidate(at p: Point) -> HitCandidate? {
        guard isInteractive else { return nil }
        let b = bounds
        let inBounds = b.contains(p)
        var best: HitCandidate?
        if !clipsToBounds || inBounds {
            for child in children.reversed() {
                let childPoint = p - child.frame.origin + child.boundsOrigin
                if let c = child.hitCandidate(at: childPoint), best.map({ c.isBetter(than: $0) }) ?? true {
                    best = c
                }
            }
        }
        if let best { return best }
        if inBounds { return HitCandidate(view: self, exact: true, distance: 0) }
        if hitRect.contains(p) { return HitCandidate(view: self, exact: false, distance: b.distance(to: p)) }
        return nil
    }
}

/// One view a point could belong to, with how well it fits.
struct HitCandidate {
    let view: GestureView
    let exact: Bool
    /// Distance from the point to the view's true bounds (0 when exact).
    let distance: Double

    /// Candidates are compared topmost first, so a tie keeps the earlier one.
    func isBetter(than other: HitCandidate) -> Bool {
        if exact != other.exact { return exact }
        if exact { return false }
        return distance < other.distance
    }
}
