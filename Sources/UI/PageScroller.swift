import Gestures
import Input

/// The page's vertical scrolling: the offset, the glide after a fling, the rubber band past
/// either end and the spring back from it. It knows nothing of what is on the page: the page
/// tells it the window's and the content's heights and the buffer's scale.
///
/// Two offsets: `y`, exact, is what the physics moves (drags, glides, bounces, springs); the
/// page view's bounds origin, `drawnY`, is `y` rounded to the device pixel grid (whole buffer
/// pixels at `pixelScale`). The page is drawn, hit-tested and reported at `drawnY`, so every
/// frame of a glide or a bounce moves the page by whole buffer pixels and the window can copy
/// its rows instead of drawing it anew.
final class PageScroller {
    /// The scrolling view: everything on the page is its child.
    let view: GestureView
    /// The window's height and the content's, in logical px (`MeridianPage` keeps them true).
    var windowHeight: Double
    var contentHeight: Double
    /// The glide or spring running now, if any.
    private(set) var motion: ScrollMotion?
    /// The offset when the finger scrolling the page landed.
    private var atGestureStart = 0.0
    /// Called after every change of the drawn offset, with the drawn offset before it.
    var onScroll: (_ from: Double) -> Void = { _ in }
    /// The exact offset (logical px); `drawnY` follows it on the device pixel grid.
    private(set) var y = 0.0
    /// Buffer pixels per logical pixel: the grid `drawnY` keeps to.
    var pixelScale = 1.0 {
        didSet { if pixelScale != oldValue { snap() } }
    }

    init(view: GestureView, windowHeight: Double, contentHeight: Double) {
        self.view = view
        self.windowHeight = windowHeight
        self.contentHeight = contentHeight
    }

    /// The offset the page is drawn and hit-tested at: `y` on the device pixel grid.
    var drawnY: Double { view.boundsOrigin.y }
    var maxY: Double { max(0, contentHeight - windowHeight) }
    var isGliding: Bool { if case .glide = motion { true } else { false } }

    func set(_ y: Double) {
        guard y.isFinite else { return }
        self.y = y
        snap()
    }

    /// `y` rounded to whole buffer pixels (at scale 1.5, multiples of 2/3 logical px). An exact
    /// offset already on the grid is kept as it is.
    static func onPixelGrid(_ y: Double, scale: Double) -> Double {
        guard scale > 0, scale.isFinite else { return y }
        let device = y * scale, whole = device.rounded()
        return whole == device ? y : whole / scale + 0   // + 0: -0 is 0
    }

    /// False draws the page at the exact offset (`MERIDIAN_EXACT_SCROLL=1`, to compare): then a
    /// glide's fractional offsets cannot be copied and every glide frame redraws the window.
    var snapsToPixels = true

    private func snap() {
        let old = view.boundsOrigin.y
        var drawn = snapsToPixels ? Self.onPixelGrid(y, scale: pixelScale) : y
        // Inside the page the drawn offset stays inside it: a bottom end off the grid is not
        // rounded past (the page would show a sliver below its end while at rest there).
        if snapsToPixels, y <= maxY, drawn > maxY, pixelScale > 0 { drawn = max(0, (y * pixelScale).rounded(.down) / pixelScale) }
        guard drawn != old else { return }
        view.boundsOrigin.y = drawn
        onScroll(old)
    }

    /// Puts the offset inside the page (after a resize, a restore).
    func clamp() { set(min(max(y, 0), maxY)) }

    /// Stops a glide or spring where it is.
    func stop() { motion = nil }

    /// A finger began scrolling: the page follows it from here.
    func beginDrag() {
        motion = nil
        atGestureStart = y
    }

    /// The finger moved `translation` px (down positive) since it began.
    func drag(translation: Double) { set(rubberBand(atGestureStart - translation)) }

    /// Past either end the page follows the finger at half speed, up to a quarter of the window.
    private func rubberBand(_ y: Double) -> Double {
        let limit = windowHeight / 4
        if y < 0 { return -min(limit, -y / 2) }
        if y > maxY { return maxY + min(limit, (y - maxY) / 2) }
        return y
    }

    /// The finger let go with `velocity` (px/ms, content moving up positive): glide on, or spring
    /// back from an overscroll.
    func release(velocity: Double, at now: Double) {
        if y < 0 || y > maxY {
            springBack(at: now)
        } else if let m = Momentum(velocity: Point(x: 0, y: velocity), at: now) {
            motion = .glide(m, from: y)
        }
    }

    private func springBack(at now: Double) {
        motion = .spring(from: y, to: min(max(y, 0), maxY), startTime: now, duration: 300)
    }

    /// Scrolls by `dy` at once (a wheel), inside the page.
    func jump(by dy: Double) {
        motion = nil
        set(min(max(y + dy, 0), maxY))
    }

    /// Scrolls by `dy` with a short spring (keys, revealing the focused target), inside the page.
    func animate(by dy: Double, at now: Double) {
        motion = .spring(from: y, to: min(max(y + dy, 0), maxY), startTime: now, duration: 200)
    }

    /// Moves a running glide or spring to `now`; a glide that hits an end bounces.
    func step(to now: Double) {
        guard let m = motion else { return }
        let (position, finished) = m.position(at: now)
        if case .glide = m, position < 0 || position > maxY {
            // The glide hit an end: a short bounce instead of a hard stop.
            let edge = position < 0 ? 0.0 : maxY
            let overshoot = min(48, abs(position - edge))
            set(edge + (position < 0 ? -overshoot : overshoot))
            springBack(at: now)
        } else {
            set(position)
            if finished { motion = nil }
        }
    }
}
