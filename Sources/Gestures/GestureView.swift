import Input

/// A node of the tree the gesture layer hit-tests: the UI builds one `GestureView` per thing a
/// finger can land on (page, scroll content, map, pin, button) and attaches recognizers to it.
///
/// Geometry follows UIKit: `frame` is in the parent's coordinates, `boundsOrigin` is the
/// scroll offset of the content (a page scrolled down by 300 px has `boundsOrigin.y == 300`),
/// so a child's frame is in its parent's content coordinates. There are no transforms.
/// The gesture layer reads the geometry on every hit test and conversion and caches none of it,
/// so the UI may move, resize and scroll views at any time, including from gesture actions.
public final class GestureView {
    /// A name for debugging and test output.
    public var name: String
    /// Position and size in the parent's content coordinates (the window for the root).
    public var frame: Rect
    /// The content offset: what is drawn at this view's top-left corner.
    public var boundsOrigin: Point = .zero
    /// How far the touch target differs from the bounds; negative values enlarge it.
    public var hitInsets: EdgeInsets = .zero
    /// Hidden views and their subtrees are never hit.
    public var isHidden = false
    /// Disabled views and their subtrees are never hit (a dimmed button takes no taps).
    public var isEnabled = true
    /// When false the view and its subtree are transparent to touches; taps go to what is behind.
    public var isUserInteractionEnabled = true
    /// When true, subviews are hit only inside this view's bounds: they are drawn clipped, so a
    /// touch outside must not reach them. Like UIKit, this also cuts enlarged hit areas of
    /// subviews at the edge (see docs/GESTURES.md, "Clipping").
    public var clipsToBounds = false
    /// For scroll containers: whether the content can follow a finger moving in `direction`
    /// right now. A pan on this view that would drag in a direction it cannot scroll fails at
    /// once, so it does not compete with the content for the touch. Nil: always can.
    public var canScroll: ((DragDirection) -> Bool)?

    public private(set) var children: [GestureView] = []
    public private(set) weak var parent: GestureView?
    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    public init(name: String = "", frame: Rect) {
        self.name = name
        self.frame = frame
    }

    /// The view's own coordinate space: its size, at the scroll offset.
    public var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }

    /// Where touches count as landing on this view, in its own coordinates.
    public var hitRect: Rect { bounds.inset(by: hitInsets) }

    /// Adds `child` on top of the existing children, removing it from any previous parent.
    public func addChild(_ child: GestureView) {
        child.removeFromParent()
        child.parent = self
        children.append(child)
    }

    public func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
    }

    /// Attaches a recognizer; touches that land on this view or its subviews reach it.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        recognizer.view = self
        gestureRecognizers.append(recognizer)
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizer.detach()
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }

    /// Number of ancestors: the root has depth 0.
    public var depth: Int {
        var d = 0
        var v = parent
        while let p = v {
            d += 1
            v = p.parent
        }
        return d
    }

    /// Whether `self` is `other` or one of its ancestors.
    public func isAncestor(of other: GestureView) -> Bool {
        var v: GestureView? = other
        while let c = v {
            if c === self { return true }
            v = c.parent
        }
        return false
    }

    /// The offset that takes a window point into this view's coordinates.
    private var windowToLocalOffset: Point {
        var offset = Point.zero
        var v: GestureView? = self
        while let c = v {
            offset = offset + c.boundsOrigin - c.frame.origin
            v = c.parent
        }
        return offset
    }

    /// A point in window coordinates, in this view's coordinates.
    public func convert(fromWindow p: Point) -> Point { p + windowToLocalOffset }

    /// A point in this view's coordinates, in window coordinates.
    public func convert(toWindow p: Point) -> Point { p - windowToLocalOffset }

    /// A point in `other`'s coordinates (the window when nil), in this view's coordinates.
    public func convert(_ p: Point, from other: GestureView?) -> Point {
        convert(fromWindow: other?.convert(toWindow: p) ?? p)
    }

    /// Where the view is drawn, in window coordinates (for the state dump's `frame`).
    public var frameInWindow: Rect {
        Rect(origin: convert(toWindow: boundsOrigin), size: frame.size)
    }

    /// Where touches land on this view, in window coordinates (the state dump's `hitFrame`,
    /// and what `--show-hit-areas` draws). Clipping by ancestors is not applied.
    public var hitFrameInWindow: Rect {
        let r = hitRect
        return Rect(origin: convert(toWindow: r.origin), size: r.size)
    }

    /// Whether touches on this view can ever reach a recognizer in its subtree.
    var isInteractive: Bool { !isHidden && isEnabled && isUserInteractionEnabled }
}

extension GestureView: CustomStringConvertible {
    public var description: String { name.isEmpty ? "GestureView\(frame)" : name }
}
