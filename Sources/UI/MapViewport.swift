import Geo
import Gestures
import Input
import Render

/// The map on the page: its view and buttons, the camera, the pins that follow it, and the
/// camera's motion without fingers (animated zooms and turns, the fling). Gestures and keys
/// ask it to move (`setCamera`, `animateZoom`, …); it reports every visible change through
/// `onChange`, and the page turns that into damage.
final class MapViewport {
    let view: GestureView
    let zoomIn: GestureView
    let zoomOut: GestureView
    /// Shown while the map is rotated; a tap turns north up.
    let compass: GestureView
    /// One view per place, in the document's order, and the places they stand for.
    let pins: [GestureView]
    let pinPlaces: [String]

    private(set) var camera: MapCamera
    /// Where each pin stands, by place id.
    private(set) var pinCoordinates: [String: Coordinate] = [:]
    /// `pinCoordinates` in world coordinates, one per pin view: pins follow every camera frame,
    /// and projecting them afresh each frame was the page's largest per-frame cost.
    private var pinWorldPoints: [WorldPoint?] = []

    /// Buffer pixels per logical pixel, so a settled zoom can be made crisp for the renderer.
    var renderScale = 1.0
    private(set) var animation: CameraAnimation?
    private(set) var fling: (momentum: Momentum, start: MapCamera)?
    /// The velocity a map gesture ended with, until the frame is over (`startPendingFling`).
    var pendingFling: Point?
    /// Called after every visible change of the map (camera, pins).
    var onChange: () -> Void = {}
    /// Whether a gesture is moving the map now (the page says): then a zoom or turn that would
    /// animate is made at once, since an animation would fight the gesture frame by frame, and
    /// the gesture goes on from it (keys and the wheel compose with fingers and drags).
    var isHeldByGesture: () -> Bool = { false }

    init(layout: PageLayout, places: [Place], center: Coordinate, zoom: Double) {
        view = GestureView(name: TargetID.map.name, frame: layout.mapFrame)
        view.clipsToBounds = true
        zoomIn = GestureView(name: TargetID.zoomIn.name, frame: layout.zoomInFrame)
        zoomOut = GestureView(name: TargetID.zoomOut.name, frame: layout.zoomOutFrame)
        compass = GestureView(name: TargetID.compass.name, frame: layout.compassFrame)
        compass.isHidden = true
        camera = MapCamera(center: center, zoom: zoom,
                           size: layout.mapFrame.size,
                           minZoom: 1, maxZoom: 19)
        pinPlaces = places.map(\.id)
        pins = places.map { place in
            let pin = GestureView(name: TargetID.pin(place.id).name, frame: .zero)
            pin.hitInsets = EdgeInsets.enlarging(Size(width: PageLayout.pinSize, height: PageLayout.pinSize),
                                                 toAtLeast: PageLayout.minimumTarget)
            return pin
        }
        for pin in pins { view.addChild(pin) }
        // Buttons above the pins: added last, hit first.
        for button in buttons {
            button.hitInsets = EdgeInsets.enlarging(button.frame.size, toAtLeast: PageLayout.minimumTarget)
            view.addChild(button)
        }
        for place in places { pinCoordinates[place.id] = place.coordinate }
        updatePinWorldPoints()
        layoutPins()
    }

    /// The map's buttons, in the order their taps are made.
    var buttons: [GestureView] { [zoomIn, zoomOut, compass] }

    /// The button a target names, if it is one of the map's.
    func button(_ id: TargetID) -> GestureView? {
        switch id {
        case .zoomIn: zoomIn
        case .zoomOut: zoomOut
        case .compass: compass
        default: nil
        }
    }

    /// The pin view of a place.
    func pin(of place: String) -> GestureView? { pinPlaces.firstIndex(of: place).map { pins[$0] } }

    /// A new layout: the map's and the buttons' frames, the camera's size; the centre stays.
    func apply(_ layout: PageLayout) {
        let anchorCenter = camera.centerCoordinate
        view.frame = layout.mapFrame
        zoomIn.frame = layout.zoomInFrame
        zoomOut.frame = layout.zoomOutFrame
        compass.frame = layout.compassFrame
        var c = camera
        c.size = layout.mapFrame.size
        c.center = WebMercator.world(anchorCenter)
        camera = c
        layoutPins()
    }

    // MARK: Pins

    /// Moves a place's pin (a drag, an undo); the pins are laid out again.
    func setPin(_ place: String, at c: Coordinate) {
        pinCoordinates[place] = c
        // In place: a pin drag moves one pin every frame, and rebuilding the list allocated.
        if let i = pinPlaces.firstIndex(of: place), i < pinWorldPoints.count {
            pinWorldPoints[i] = WebMercator.world(c)
        } else {
            updatePinWorldPoints()
        }
        layoutPins()
    }

    /// Moves every pin to its place's coordinate (same places, same order: an undo, a reload).
    func setPins(_ places: [Place]) {
        for p in places { pinCoordinates[p.id] = p.coordinate }
        updatePinWorldPoints()
        layoutPins()
    }

    /// Pin views follow the camera: centred on their coordinate.
    private func layoutPins() {
        let center = camera.center, views = pins, worlds = pinWorldPoints
        for i in 0..<min(views.count, worlds.count) {
            guard var w = worlds[i] else { continue }
            let pin = views[i]
            // The copy of the pin nearest the centre, across the antimeridian.
            let dx = w.x - center.x
            w.x = center.x + dx - WebMercator.tileSize * (dx / WebMercator.tileSize).rounded()
            let p = camera.screenPoint(ofWorld: w)
            pin.frame = Rect(x: p.x - PageLayout.pinSize / 2, y: p.y - PageLayout.pinSize / 2,
                             width: PageLayout.pinSize, height: PageLayout.pinSize)
            // A pin scrolled out of the map is neither drawn nor hit (the map clips its children).
            let size = camera.size
            pin.isHidden = pin.frame.maxX < 0 || pin.frame.minX > size.width || pin.frame.maxY < 0 || pin.frame.minY > size.height
        }
    }

    private func updatePinWorldPoints() {
        pinWorldPoints = pinPlaces.map { id in pinCoordinates[id].map(WebMercator.world) }
    }

    // MARK: Camera

    func setCamera(_ c: MapCamera) {
        guard c != camera else { return }
        camera = c
        compass.isHidden = c.bearing == 0
        layoutPins()
        onChange()
    }

    var centre: ScreenPoint { ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2) }

    /// True while the map moves by itself (an animated zoom or turn, a fling).
    var isAnimating: Bool { animation != nil || fling != nil }

    /// The zoom `levels` whole levels on from where the map is going: a running zoom animation's
    /// target, so quick repeated taps and keys add up instead of rounding from half-way.
    func zoomTarget(levels: Double) -> Double {
        let from = animation?.targetZoom ?? camera.zoom
        let z = levels > 0 ? (from + levels).rounded(.down) : (from + levels).rounded(.up)
        return min(max(z, camera.minZoom), camera.maxZoom)
    }

    /// The bearing a running turn goes to, else the bearing now: quick presses add up.
    var bearingTarget: Double { animation?.targetBearing ?? camera.bearing }

    /// After a free zoom (pinch, double-tap-and-drag, wheel) the zoom moves by under 0.005 of a
    /// level to one where tiles span whole device pixels: pan frames are then plain copies
    /// (docs/MAP-ENGINE.md, Render). `p` (map coordinates) stays where it is.
    func settleZoom(around p: Point) {
        let crisp = MapRenderer.crispZoom(camera.zoom, scale: renderScale)
        guard crisp != camera.zoom, crisp.isFinite else { return }
        var c = camera
        c.setZoom(crisp, around: p)
        setCamera(c)
    }

    func animateZoom(to zoom: Double, around p: ScreenPoint, at now: Double) {
        stopMotion()
        let z = min(max(zoom, camera.minZoom), camera.maxZoom)
        start(CameraAnimation(start: camera, startTime: now, duration: MeridianPage.zoomAnimationDuration,
                              targetZoom: z, focus: p, targetCenter: nil))
    }

    private func start(_ a: CameraAnimation) {
        if isHeldByGesture() {
            setCamera(a.camera(at: a.startTime + a.duration))
        } else {
            animation = a
            onChange()
        }
    }

    /// Turns the map to `bearing` about the view's centre, the short way round, animated.
    func animateBearing(to bearing: Double, at now: Double) {
        stopMotion()
        var a = CameraAnimation(start: camera, startTime: now, duration: MeridianPage.northUpAnimationDuration,
                                targetZoom: camera.zoom, focus: centre, targetCenter: nil)
        a.targetBearing = bearing
        start(a)
    }

    /// Glides to `target` at zoom 15 or closer (a row tapped).
    func fly(to target: Coordinate, at now: Double) {
        stopMotion()
        animation = CameraAnimation(start: camera, startTime: now, duration: 300, targetZoom: max(camera.zoom, 15),
                                    focus: centre, targetCenter: WebMercator.world(target))
    }

    func startFling(velocity: Point, at now: Double) {
        guard let m = Momentum(velocity: velocity, at: now) else { return }
        fling = (m, camera)
    }

    /// Stops an animation and a fling where they are.
    func stopMotion() {
        animation = nil
        fling = nil
    }

    /// A finger landed on the map while it flings: the fling stops. Returns whether one did.
    func catchFling() -> Bool {
        guard fling != nil else { return false }
        fling = nil
        return true
    }

    /// Moves the animation and the fling to `now`; finished ones end exactly at their target.
    func step(to now: Double) {
        if let a = animation {
            setCamera(a.camera(at: now))
            if a.isFinished(at: now) { animation = nil }
        }
        if let f = fling {
            var c = f.start
            let o = f.momentum.offset(at: now)
            c.pan(by: o)
            setCamera(c)
            if f.momentum.isFinished(at: now) { fling = nil }
        }
    }
}
