import Geo
import Gestures

/// What the state dump reports of the page (contracts.md section 3): every value in window
/// coordinates after scrolling, as a user would measure it on the screen.
public struct PageSnapshot: Sendable {
    public struct Target: Sendable {
        public var id: String
        public var frame: Rect
        public var hitFrame: Rect
        public var coordinate: Coordinate?
    }

    /// The offset the page is drawn and hit-tested at (on the device pixel grid); every frame
    /// below is measured against it.
    public var scrollY: Double
    /// The exact offset the page's motion keeps, within half a buffer pixel of `scrollY` (one at
    /// an off-grid bottom end).
    public var exactScrollY = 0.0
    public var contentHeight: Double
    public var mapFrame: Rect
    public var center: Coordinate
    public var zoom: Double
    public var span: (latitudeDelta: Double, longitudeDelta: Double)
    public var pins: [Target]
    public var targets: [Target]
    public var log: [LogEntry]
    public var selectedPin: String?
    public var focused: String?
    public var observedMapTaps: Int
    public var hintVisible: Bool
    /// The compass direction that points up, degrees clockwise from north in [0, 360).
    public var bearing = 0.0
}

extension MeridianPage {
    private func windowRect(_ v: GestureView, _ r: Rect) -> Rect {
        let o = v.convert(toWindow: r.origin)
        return Rect(origin: o, size: r.size)
    }

    public var snapshot: PageSnapshot {
        let pins = zip(viewport.pinPlaces, viewport.pins).map { place, v in
            PageSnapshot.Target(id: TargetID.pin(place).name, frame: windowRect(map, v.frame),
                                hitFrame: windowRect(map, v.frame.inset(by: v.hitInsets)), coordinate: viewport.pinCoordinates[place])
        }
        var targets: [PageSnapshot.Target] = []
        for (id, v) in [(TargetID.zoomIn, viewport.zoomIn), (.zoomOut, viewport.zoomOut), (.compass, viewport.compass)] where !v.isHidden {
            targets.append(.init(id: id.name, frame: windowRect(map, v.frame), hitFrame: windowRect(map, v.frame.inset(by: v.hitInsets))))
        }
        for (place, v) in zip(list.places, list.rows) {
            targets.append(.init(id: TargetID.row(place.id).name, frame: windowRect(page, v.frame),
                                 hitFrame: windowRect(page, v.frame.inset(by: v.hitInsets))))
        }
        for v in editingTargets {
            let parent = v.parent ?? page
            targets.append(.init(id: v.name, frame: windowRect(parent, v.frame), hitFrame: windowRect(parent, v.frame.inset(by: v.hitInsets))))
        }
        var snapshot = PageSnapshot(scrollY: scrollY, contentHeight: contentHeight, mapFrame: mapFrameInWindow,
                            center: camera.centerCoordinate, zoom: camera.zoom, span: camera.span, pins: pins,
                            targets: targets, log: log, selectedPin: selectedPin, focused: focusedTarget?.name,
                            observedMapTaps: observedMapTaps, hintVisible: hintUntil != nil)
        snapshot.bearing = camera.bearing
        snapshot.exactScrollY = exactScrollY
        return snapshot
    }
}
