import Gestures

/// The page's gesture graph, declared once: which recognizer sits on which view, how each is
/// configured, and who waits for, excludes or runs with whom. `MeridianPage` binds the actions
/// (PageGestures.swift); the gesture tests (Tests/GesturesTests/ComposedPage.swift) and
/// `meridian-bench gestures` build their trees with this same type, so what they test and time
/// is what ships.
///
/// ```
/// page     pageScroll  Pan(max 1 finger), fingers only             one finger scrolls, the map included
/// map      mapPan      Pan(2+ fingers)   ┐ the map's multi-finger  two fingers pan …
///          mapPinch    Pinch             │ group: run together     … and zoom, together
///          mapRotate   Rotation          ┘                         … and turn, after a deliberate twist
///          mapMouseDrag Pan(mouse)                                 the mouse drags the map
///          mapDoubleTap Tap(2 taps)                                +1 zoom
///          mapQuickZoom LongPress(1 tap, 0 ms, 40 px up/down), requires doubleTap to fail   tap, then drag to zoom
///          mapTap      Tap, requires doubleTap and quickZoom to fail         the callout
///          mapTwoFingerTap Tap(2 fingers)                          −1 zoom
///          mapObserver Tap, observer                               counts taps, takes nothing
/// pin-N    Pan(max 1 finger) + Tap                                 drag or select the pin
/// button   Tap                                                     zoom buttons, list rows
/// ```
///
/// Cross-view rules (docs/GESTURES.md, "The page's gesture graph"):
/// - One gesture at a time: while the page scrolls, fingers landing on the map do not reach the
///   map's multi-finger group; while a map gesture runs, new fingers do not reach the page
///   scroll, nor do fingers landing on the map while one is left over from a map gesture (a
///   re-grip continues the map gesture).
/// - The map's single tap (and the observer) also wait for every recognizer of the map's group
///   and for the two-finger tap to fail: a tap still waiting out the double-tap window is
///   dropped when two fingers land and make a map gesture (no ghost tap before a pinch).
/// - A touch that caught motion (`catches` says so) is no tap for anyone.
///
/// Extension point: `addToMapGroup(_:)` puts another multi-finger recognizer (a rotation) in
/// the map's group: it runs with pan and pinch, obeys the same page rules, and the single tap
/// waits for it to fail.
public final class PageGestureGraph {
    public let pageScroll = PanGestureRecognizer(name: "pageScroll", maximumTouches: 1)
    public let mapPan = PanGestureRecognizer(name: "mapPan", minimumTouches: 2)
    public let mapPinch = PinchGestureRecognizer(name: "mapPinch")
    public let mapMouseDrag = PanGestureRecognizer(name: "mapMouseDrag", maximumTouches: 1)
    public let mapDoubleTap = TapGestureRecognizer(name: "mapDoubleTap", taps: 2)
    public let mapQuickZoom = LongPressGestureRecognizer(name: "mapQuickZoom", taps: 1, minimumPressDuration: 0)
    public let mapTap = TapGestureRecognizer(name: "mapTap")
    public let mapTwoFingerTap = TapGestureRecognizer(name: "mapTwoFingerTap", touches: 2)
    public let mapObserver = TapGestureRecognizer(name: "mapObserver")
    /// Two-finger rotation, in the map's group; disabled by `--no-rotate`.
    public let mapRotate = RotationGestureRecognizer(name: "mapRotate")
    /// The map's multi-finger recognizers: they run together and move the camera together.
    public private(set) var mapGroup: [GestureRecognizer] = []
    /// Per pin (in the order given): its drag and its tap.
    public private(set) var pinDrags: [PanGestureRecognizer] = []
    public private(set) var pinTaps: [TapGestureRecognizer] = []
    /// Per tap target (buttons, rows, in the order given).
    public private(set) var targetTaps: [TapGestureRecognizer] = []

    /// Whether a touch caught motion (a gliding page, a flinging map) when it landed: such a
    /// touch is no tap. Set by the owner of the motion; nil means nothing ever moves by itself.
    public var catches: ((Touch) -> Bool)?

    private unowned let map: GestureView
    private var tapLike: [GestureRecognizer] = []

    /// Pixels of vertical drag per zoom level in double-tap-and-drag, down = in (MapLibre Native
    /// uses 75–150; 100 keeps a 560 px map's full height within about five levels).
    public static let quickZoomPixelsPerLevel = 100.0

    /// Builds and attaches every recognizer. `scrollsVertically` is the page's `canScroll`
    /// for up and down (the page cannot scroll sideways); by default it always can (past the
    /// ends it rubber-bands).
    public init(page: GestureView, map: GestureView, pins: [GestureView], targets: [GestureView],
                scrollsVertically: @escaping (DragDirection) -> Bool = { _ in true }) {
        self.map = map
        pageScroll.allowedTouchKinds = .finger
        page.canScroll = { direction in (direction == .up || direction == .down) && scrollsVertically(direction) }
        page.addGestureRecognizer(pageScroll)

        for r: GestureRecognizer in [mapPan, mapPinch, mapMouseDrag, mapDoubleTap, mapQuickZoom, mapTap,
                                     mapTwoFingerTap, mapObserver] {
            map.addGestureRecognizer(r)
        }
        for r: GestureRecognizer in [mapPan, mapPinch, mapQuickZoom, mapTwoFingerTap] { r.allowedTouchKinds = .finger }
        mapMouseDrag.allowedTouchKinds = .mouse
        // The place under the fingers stays under them from touch-down on, slop included.
        mapPan.removesSlopFromTranslation = false
        mapMouseDrag.removesSlopFromTranslation = false
        // A finger left over from a pinch waits for its partner to land again (a re-grip).
        mapPan.keepsTouchesForRegrip = true
        mapPinch.keepsTouchesForRegrip = true
        mapTwoFingerTap.tolerances.maximumMovement = GestureConstants.twoFingerTapSlop
        // Two fingers that settle as much as a two-finger tap does are still a tap: the
        // two-finger pan needs the same distance, so a movement is a tap or a drag, never both.
        mapPan.slop = GestureConstants.twoFingerTapSlop
        mapTwoFingerTap.maximumSpreadChange = GestureConstants.scaleSlop
        mapTwoFingerTap.maximumPressDuration = GestureConstants.twoFingerTapMaximumDuration
        // A press held as long as a long press is one, not a tap, whether or not anything
        // took it as a long press.
        mapTap.maximumPressDuration = GestureConstants.longPressDuration
        mapQuickZoom.require(toFail: mapDoubleTap)
        // What people mean: a double tap's second press that slides a little (a slow double
        // tap) is still a double tap; only a deliberate vertical drag is a drag-zoom, and the
        // page does not scroll under a second tap.
        mapDoubleTap.tolerances.maximumFollowingTapMovement = GestureConstants.quickZoomSlop
        mapQuickZoom.minimumVerticalMovement = GestureConstants.quickZoomSlop
        mapQuickZoom.allowableMovement = GestureConstants.quickZoomSlop
        pageScroll.shouldBegin = { [unowned self] _ in !isSecondTapOfMapDoubleTap }
        // A second finger on the map makes it a two-finger gesture, even when the double tap
        // it waited for fails because of that finger.
        mapQuickZoom.shouldBegin = { [unowned self] _ in mapPinch.numberOfTouches <= 1 }
        mapTap.require(toFail: mapDoubleTap)
        mapTap.require(toFail: mapQuickZoom)
        mapObserver.isObserver = true
        mapObserver.require(toFail: mapDoubleTap)
        mapObserver.require(toFail: mapQuickZoom)
        mapTap.require(toFail: mapTwoFingerTap)
        mapObserver.require(toFail: mapTwoFingerTap)
        tapLike = [mapDoubleTap, mapQuickZoom, mapTap, mapTwoFingerTap, mapObserver]
        addToMapGroup(mapPan)
        addToMapGroup(mapPinch)
        addToMapGroup(mapRotate)

        for pin in pins {
            let drag = PanGestureRecognizer(name: "\(pin.name)Drag", maximumTouches: 1)
            drag.removesSlopFromTranslation = false
            let tap = TapGestureRecognizer(name: "\(pin.name)Tap")
            pin.addGestureRecognizer(drag)
            pin.addGestureRecognizer(tap)
            pinDrags.append(drag)
            pinTaps.append(tap)
            tapLike.append(tap)
        }
        for target in targets {
            let tap = TapGestureRecognizer(name: "\(target.name)Tap")
            target.addGestureRecognizer(tap)
            targetTaps.append(tap)
            tapLike.append(tap)
        }

        // A page scroll that already has its finger hears of a second one (and fails: two
        // fingers on the map are the map's). One with no finger takes none while a map gesture
        // runs, nor one landing on the map while a finger of the map's group is down (a re-grip).
        pageScroll.shouldReceive = { [unowned self] scroll, touch in
            guard scroll.touches.isEmpty else { return true }
            if isMapGroupActive { return false }
            return !(map.frameInWindow.contains(touch.startLocation) && mapGroupHoldsFinger(otherThan: touch))
        }
        for r in tapLike {
            r.shouldReceive = { [unowned self] _, touch in !(catches?(touch) ?? false) }
        }
        // Two fingers tapping the map together, one of them on a pin or a button, are a
        // two-finger tap (isdv4-e6-2fg-tap: one finger lands on a pin), not a tap on the pin.
        for tap in pinTaps + targetTaps {
            tap.shouldBegin = { [unowned self] _ in
                !(mapTwoFingerTap.state == .possible && mapTwoFingerTap.touchesInCurrentTap >= 2)
            }
        }
    }

    /// Adds a multi-finger recognizer to the map's group (see the type's comment): it is
    /// attached to the map, runs together with every member, takes fingers only, and begins
    /// under the group's rules.
    public func addToMapGroup(_ r: GestureRecognizer) {
        guard !mapGroup.contains(where: { $0 === r }) else { return }
        if r.view == nil { map.addGestureRecognizer(r) }
        r.allowedTouchKinds = .finger
        for other in mapGroup { r.recognizeSimultaneously(with: other) }
        mapGroup.append(r)
        mapTap.require(toFail: r)
        mapObserver.require(toFail: r)
        // While the page scrolls, fingers landing on the map do not move the map.
        r.shouldReceive = { [unowned self] _, _ in !pageScroll.state.isActive }
    }

    /// Whether a finger of the map's group other than `touch` is down: a map gesture is running,
    /// or one is waiting for its fingers (two landing, a re-grip).
    private func mapGroupHoldsFinger(otherThan touch: Touch) -> Bool {
        mapGroup.contains { r in r.touches.contains { $0.serial != touch.serial } }
    }

    /// Whether the map's double tap has a tap and a finger down: the finger is its second press
    /// (a double tap or a drag-zoom, never a page scroll).
    private var isSecondTapOfMapDoubleTap: Bool {
        mapDoubleTap.state == .possible && mapDoubleTap.numberOfTaps > 0 && !mapDoubleTap.touches.isEmpty
    }

    /// Every recognizer of the graph.
    public var all: [GestureRecognizer] {
        [pageScroll] + [mapPan, mapPinch, mapMouseDrag, mapDoubleTap, mapQuickZoom, mapTap, mapTwoFingerTap, mapObserver]
            + mapGroup.filter { g in ![mapPan, mapPinch].contains { $0 === g } }
            + zip(pinDrags, pinTaps).flatMap { [$0 as GestureRecognizer, $1] } + targetTaps
    }

    /// Removes every action (the benchmark's "graph alone" figure); the relations stay.
    public func unbindActions() {
        for r in all {
            r.onStateChange = nil
            (r as? PanGestureRecognizer)?.action = nil
            (r as? PinchGestureRecognizer)?.action = nil
            (r as? TapGestureRecognizer)?.action = nil
            (r as? LongPressGestureRecognizer)?.action = nil
        }
    }

    /// Whether a map gesture of the multi-finger group is running.
    public var isMapGroupActive: Bool { mapGroup.contains { $0.state.isActive } }
}
