import Geo
import Gestures
import Input

/// Meridian's page: a scrolling page with a header, some text, an embedded map with pins and
/// zoom buttons, a list of places and more content below — and every gesture that moves them.
///
/// It composes one part per concern, each with a narrow interface: `PageScroller` (the page's
/// offset and its glide), `MapViewport` (the map's view, buttons, camera, pins and their
/// motion), `PlacesList` (the places, their rows, the selection) and `PageFocus` (keyboard
/// focus). It owns the gesture tree, binds the recognizers' actions to the parts
/// (PageGestures.swift, DesktopInput.swift), keeps the log and turns the parts' changes into
/// damage. It never draws from an input handler: `PageRenderer` draws it when the runner asks.
/// Targets are named by `TargetID`, whose `name` is the state dump's and the log's spelling.
public final class MeridianPage {
    public private(set) var layout: PageLayout
    let window: GestureView
    let scroller: PageScroller
    let viewport: MapViewport
    let list: PlacesList
    var focus = PageFocus()
    public let gestures: GestureSystem
    /// Adding, renaming and deleting places (PlaceEditing.swift).
    public let editing: PlaceEditing

    public internal(set) var log: [LogEntry] = []
    /// The single tap the user made last on the map, shown as a callout until `calloutUntil`.
    public internal(set) var callout: (coordinate: Coordinate, until: Double)? {
        didSet { layoutEditing() }
    }
    /// "Use two fingers to move the map" is shown until this time.
    public internal(set) var hintUntil: Double?
    public let showHitAreas: Bool
    /// False with `--no-rotate`: nothing turns the map and the bearing stays 0.
    public let allowsRotation: Bool
    /// Taps the map's observer saw: proof that watching never takes a touch away.
    public internal(set) var observedMapTaps = 0

    // What fingers, the mouse and the touchpad are doing to the map (PageGestures.swift,
    // DesktopInput.swift).
    /// While fingers move the map: the world point that must stay under their centroid.
    var mapAnchor: WorldPoint?
    /// While fingers move the map: which fingers (count and serial sum) the anchor was set for,
    /// and the zoom, pinch scale, bearing and rotation then. A change of fingers re-bases them.
    var mapFingers: (count: Int, serials: UInt64, zoom: Double, scale: Double, bearing: Double, rotation: Double)?
    /// Where the map's fingers were at the last change (window px), to carry the motion of the
    /// fingers that stay through a frame in which others land or lift.
    var mapFingerPositions: [(serial: UInt64, location: Point)] = []
    /// Touch ids (−1: the mouse) whose touch-down caught a glide or a fling: they are no tap.
    var caughtTouchIDs: Set<Int32> = []
    /// The camera as each running gesture (fingers, mouse drag, double-tap-and-drag) last set
    /// it, and the fingers' pinch scale and rotation then: when keys or the wheel changed the
    /// camera since, the gesture goes on from the camera as it is instead of undoing the change.
    var fingerGestureCamera: MapCamera?
    var fingerScaleAndRotation = (scale: 1.0, rotation: 0.0)
    var mouseDragCamera: MapCamera?
    var mouseDragLocation = Point.zero
    var quickZoomCamera: MapCamera?
    var zoomAtGestureStart = 0.0
    /// Where (map y) the double-tap-and-drag began.
    var quickZoomStartY = 0.0
    /// A right-button drag turning the map: the bearing and pointer x when it started.
    var mouseRotation: (bearing: Double, x: Double)?
    var modifiers: Modifiers = []
    var pointerPosition: Point?
    var touchpadPinch: (anchor: WorldPoint, zoom: Double, at: Point, bearing: Double, twist: Double)?

    public private(set) var now = 0.0
    private var dirty = true
    /// What changed since the last frame: nil while everything must be redrawn. After a page
    /// scroll, what changed besides the scroll (window px after it).
    private var dirtyRect: Rect?
    /// The page scrolled since the last frame (`drawnScrollY` says from where).
    private var scrolled = false
    /// The scroll position the last frame showed; nil before the first frame.
    private var drawnScrollY: Double?

    // The parts, as the renderer, the state dump and the app read them.
    /// The open document's places (`showPlaces` keeps pins and rows in step with it).
    public var places: [Place] { list.places }
    /// The map camera; its size is the map view's.
    public var camera: MapCamera { viewport.camera }
    /// The selected place's pin id (`pin-<place id>`), as the state dump names it.
    public var selectedPin: String? { list.selected.map { TargetID.pin($0).name } }
    /// The selected place's id.
    public var selectedPlace: String? { list.selected }
    /// The focused target, and whether the focus ring shows.
    /// The focused target (nil while it is the compass and the compass is hidden).
    public var focusedTarget: TargetID? { focus.current == .compass && viewport.compass.isHidden ? nil : focus.current }
    public var focusVisible: Bool { focus.visible }
    /// Buffer pixels per logical pixel, so a settled zoom can be made crisp for the renderer.
    public var renderScale: Double {
        get { viewport.renderScale }
        set {
            viewport.renderScale = newValue
            scroller.pixelScale = newValue
        }
    }
    var page: GestureView { scroller.view }
    var map: GestureView { viewport.view }

    /// The gesture graph (PageGestureGraph.swift); the recognizers by what they do.
    public let graph: PageGestureGraph
    var pageScroll: PanGestureRecognizer { graph.pageScroll }
    var mapPan: PanGestureRecognizer { graph.mapPan }
    var mapPinch: PinchGestureRecognizer { graph.mapPinch }
    var mapMouseDrag: PanGestureRecognizer { graph.mapMouseDrag }
    var mapDoubleTap: TapGestureRecognizer { graph.mapDoubleTap }
    var mapQuickZoom: LongPressGestureRecognizer { graph.mapQuickZoom }
    var mapTap: TapGestureRecognizer { graph.mapTap }
    var mapTwoFingerTap: TapGestureRecognizer { graph.mapTwoFingerTap }
    var mapObserver: TapGestureRecognizer { graph.mapObserver }
    var mapRotate: RotationGestureRecognizer { graph.mapRotate }

    /// Pixels of vertical drag per zoom level in double-tap-and-drag.
    public static let quickZoomPixelsPerLevel = PageGestureGraph.quickZoomPixelsPerLevel
    /// How long the two-finger hint and a tap's callout stay up, in ms.
    public static let hintDuration = 1500.0
    public static let calloutDuration = 4000.0
    /// Animated zooms (double tap, buttons, keys) take this long, in ms.
    public static let zoomAnimationDuration = 250.0
    /// The compass's turn back to north takes this long, in ms.
    public static let northUpAnimationDuration = 300.0
    /// Shift+Left/Right turn the map by this many degrees (MapLibre GL JS's bearing step).
    public static let keyRotationStep = 15.0
    /// A right-button drag turns the map this many degrees per px moved sideways.
    public static let mouseRotationPerPixel = 0.5

    public struct Configuration: Sendable {
        public var width: Double
        public var height: Double
        public var center: Coordinate?
        public var zoom: Double?
        public var showHitAreas: Bool
        /// Two-finger twists, touchpad rotation, Shift+arrows and right-button drags turn the map.
        public var allowsRotation: Bool
        /// The page is drawn at its scroll offset rounded to whole buffer pixels (`PageScroller`);
        /// false draws it at the exact offset (`MERIDIAN_EXACT_SCROLL=1`, to compare).
        public var scrollOnPixelGrid = true

        public init(width: Double, height: Double, center: Coordinate? = nil, zoom: Double? = nil, showHitAreas: Bool = false,
                    allowsRotation: Bool = true) {
            self.width = width
            self.height = height
            self.center = center
            self.zoom = zoom
            self.showHitAreas = showHitAreas
            self.allowsRotation = allowsRotation
        }
    }

    public init(_ configuration: Configuration, places: [Place] = []) {
        layout = PageLayout(windowWidth: configuration.width, windowHeight: configuration.height)
        showHitAreas = configuration.showHitAreas
        allowsRotation = configuration.allowsRotation
        window = GestureView(name: "window", frame: Rect(x: 0, y: 0, width: layout.windowWidth, height: layout.windowHeight))
        scroller = PageScroller(view: GestureView(name: "page", frame: window.frame), windowHeight: layout.windowHeight,
                                contentHeight: layout.contentHeight(rows: places.count))
        viewport = MapViewport(layout: layout, places: places, center: configuration.center ?? HelsinkiPlaces.startCenter,
                               zoom: configuration.zoom ?? HelsinkiPlaces.startZoom)
        list = PlacesList(places: places, layout: layout)
        gestures = GestureSystem(root: window)
        window.addChild(scroller.view)
        scroller.view.addChild(viewport.view)
        for row in list.rows { scroller.view.addChild(row) }
        editing = PlaceEditing(places: places)
        graph = PageGestureGraph(page: scroller.view, map: viewport.view, pins: viewport.pins,
                                 targets: viewport.buttons + list.rows + editing.targets)
        scroller.snapsToPixels = configuration.scrollOnPixelGrid
        scroller.onScroll = { [unowned self] old in pageScrolled(from: old) }
        // The callout's "Add place here" follows the camera; the row controls, the selection.
        viewport.onChange = { [unowned self] in
            layoutEditing()
            invalidateMap()
        }
        list.onSelect = { [unowned self] in layoutEditing() }
        attachEditingViews()
        wireGestures()
    }

    // MARK: Geometry

    /// The scroll offset the page is drawn at, hit-tested at and reported at (the state dump's
    /// `page.scrollY`): the exact offset rounded to the device pixel grid (`PageScroller`).
    public var scrollY: Double { scroller.drawnY }
    /// The exact scroll offset the page's motion keeps (drags, glides, bounces); the drawn one
    /// differs from it by at most half a buffer pixel, under one at an off-grid bottom end (the
    /// dump's `page.exactScrollY`).
    public var exactScrollY: Double { scroller.y }
    public var contentHeight: Double { scroller.contentHeight }
    public var maxScrollY: Double { scroller.maxY }

    /// The page scrolled from `old`: a scroll alone moves what is drawn, so the window can copy
    /// it (`pendingScroll`). What was already damaged this frame moved with the page.
    private func pageScrolled(from old: Double) {
        if !dirty {
            dirty = true
            dirtyRect = .zero
        } else if let r = dirtyRect, !r.isEmpty {
            dirtyRect = r.offsetBy(dy: old - scrollY)
        }
        scrolled = true
    }

    /// The map view's frame in window coordinates (after scrolling).
    public var mapFrameInWindow: Rect {
        let f = layout.mapFrame
        return Rect(x: f.minX, y: f.minY - scrollY, width: f.size.width, height: f.size.height)
    }

    public func resize(width: Double, height: Double) {
        layout = PageLayout(windowWidth: width, windowHeight: height)
        window.frame = Rect(x: 0, y: 0, width: layout.windowWidth, height: layout.windowHeight)
        scroller.view.frame = window.frame
        scroller.windowHeight = layout.windowHeight
        scroller.contentHeight = layout.contentHeight(rows: list.places.count)
        viewport.apply(layout)
        list.apply(layout)
        layoutEditing()
        scroller.clamp()
        invalidate()
    }

    // MARK: Frames and time

    /// Something visible changed: the next frame should show it, all of it.
    public func invalidate() {
        dirty = true
        dirtyRect = nil
    }

    /// Only the map changed (camera, pins, hint, callout): damage just its frame.
    public func invalidateMap() {
        let wasClean = !dirty
        dirty = true
        let m = mapFrameInWindow
        if wasClean {
            dirtyRect = m
        } else if let r = dirtyRect {
            dirtyRect = r.isEmpty ? m : r.union(m)
        }
    }

    /// The window region the next frame changes, in logical px; nil means all of it (a scroll
    /// changes all of it). Read it before drawing: drawing the frame clears it.
    public var pendingDamage: Rect? { dirty ? (scrolled ? nil : dirtyRect) : Rect.zero }

    /// When the next frame differs from the last one by a page scroll (from the scroll position
    /// `from` to `to`) and, besides that, only in `rect` (window px after the scroll, may be
    /// empty). nil when there was no scroll or more changed.
    public var pendingScroll: (from: Double, to: Double, rect: Rect)? {
        guard dirty, scrolled, let from = drawnScrollY, let r = dirtyRect else { return nil }
        return (from, scrollY, r)
    }

    /// True while the page or the map is moving by itself (a glide, a bounce, an animated zoom).
    public var isAnimating: Bool { scroller.motion != nil || viewport.isAnimating }

    /// True while a finger or the mouse is moving the map, or the map moves by itself: the renderer
    /// may then show whole-pixel tile offsets instead of exact positions.
    public var isMapMoving: Bool {
        isAnimating || [mapPan, mapPinch, mapRotate, mapMouseDrag, mapQuickZoom].contains { $0.state.isActive } || touchpadPinch != nil
            || mouseRotation != nil
    }

    public var needsFrame: Bool { dirty || isAnimating }

    /// Called by the renderer once a frame has been drawn.
    public func frameDrawn() {
        dirty = false
        dirtyRect = nil
        scrolled = false
        drawnScrollY = scrollY
    }

    /// The next time something happens without input: a gesture timer, the hint or callout going away.
    public var nextDeadline: Double? {
        [gestures.nextDeadline, hintUntil, callout?.until, editing.undoUntil].compactMap { $0 }.min()
    }

    /// Runs timers and animations up to `time`.
    public func advance(to time: Double) {
        now = max(now, time)
        gestures.advance(to: now)
        stepAnimations()
        if let h = hintUntil, h <= now {
            hintUntil = nil
            invalidateMap()
        }
        if let c = callout, c.until <= now {
            callout = nil
            invalidateMap()
        }
        advanceEditing()
    }

    public func handle(_ frame: InputFrame) {
        now = max(now, frame.time)
        switch frame {
        case .touch(let f):
            if focus.visible {
                focus.visible = false
                invalidate()
            }
            for change in f.changes {
                if case .down(let id, let p) = change {
                    catchMotion(touchID: id, at: p)
                    editingPointerDown(at: p)
                }
            }
            gestures.handle(frame)
            startPendingMapFling()
            if !caughtTouchIDs.isEmpty {
                for change in f.changes {
                    if case .up(let id, _) = change { caughtTouchIDs.remove(id) }
                }
            }
        case .touchCancel:
            caughtTouchIDs.removeAll()
            gestures.handle(frame)
        case .pointer(let f):
            if let p = f.entered ?? f.moved { pointerPosition = p }
            if f.left { pointerPosition = nil }
            let press = f.buttons.contains { $0.button == .left && $0.pressed }
            if press, let p = pointerPosition {
                catchMotion(touchID: -1, at: p)
                editingPointerDown(at: p)
            }
            gestures.handle(frame)
            if !caughtTouchIDs.isEmpty, f.left || f.buttons.contains(where: { $0.button == .left && !$0.pressed }) {
                caughtTouchIDs.remove(-1)
            }
            handleScroll(f)
            handleRightDrag(f)
        case .key(let k):
            if !handleEditingKey(k) { handleKey(k) }
        case .textInput(_, let e):
            handleTextInput(e)
        case .keyboardFocus(_, let entered):
            // Focus gone: no key or modifier is held any more (Ctrl+wheel stops zooming).
            if !entered { modifiers = [] }
        case .touchpad(_, let g):
            handleTouchpad(g)
        }
        stepAnimations()
    }

    // MARK: Log

    func record(_ kind: String, _ fields: [(String, LogEntry.Value)] = []) {
        log.append(LogEntry(time: now, kind: kind, fields: fields))
    }
}
