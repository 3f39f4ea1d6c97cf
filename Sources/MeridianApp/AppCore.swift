import CCairo
import Glibc
import Geo
import Gestures
import Input
import Places
import Render
import UI
import Wayland

/// The app both runners drive: the page, its renderer, and the touch overlay. Input in,
/// timers advanced, frames drawn on request, the state dump out.
final class AppCore {
    /// A new page replaces the old one only when the document's set of places changes under it
    /// (a reload from disk): pins and rows are made once per place.
    private(set) var page: MeridianPage
    /// The log of pages replaced so far, so the state dump still shows what the user did there.
    private(set) var earlierLog: [LogEntry] = []
    let overlay: TouchOverlay
    /// The open places document; nil when none could be found (no sample installed).
    let session: DocumentSession?
    private let configuration: MeridianPage.Configuration
    let mapData: MapData?
    private let synchronousTiles: Bool
    private(set) var renderer: PageRenderer
    private(set) var scale: Double

    /// `session`: the document to show; when not given (tests, benchmarks), a scratch copy of
    /// the shipped sample that is never saved, so they never touch the user's files.
    /// `scrollOnPixelGrid`: nil asks the environment (`MERIDIAN_EXACT_SCROLL=1` turns it off).
    init(options: Options, mapData: MapData?, synchronousTiles: Bool, scale: Double,
         session: DocumentSession?? = nil, view: ViewState? = nil, scrollOnPixelGrid: Bool? = nil) {
        let session = session ?? DocumentSession.scratchSample()
        self.session = session
        let places = session?.pagePlaces ?? []
        // Where the map first looks: --center/--zoom, else a map file given on the command line
        // (its own centre), else the view saved for this document, else its places framed (when
        // the default view shows none of them), else the shipped map's own start.
        var configuration = MeridianPage.Configuration(
            width: Double(options.width), height: Double(options.height),
            center: options.center.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) },
            zoom: options.zoom, showHitAreas: options.showHitAreas, allowsRotation: !options.noRotate)
        if configuration.center == nil && configuration.zoom == nil {
            if !options.data.isEmpty, let start = mapData?.startCenter {
                configuration.center = start
                configuration.zoom = mapData?.startZoom
            } else if let view {
                configuration.center = view.center
                configuration.zoom = view.zoom
            } else if let framed = AppCore.framing(places.map(\.coordinate), configuration) {
                configuration.center = framed.center
                configuration.zoom = framed.zoom
            } else {
                configuration.center = mapData?.startCenter
                configuration.zoom = mapData?.startZoom
            }
        }
        // To compare: the page drawn at its exact scroll offset (glides then redraw the window).
        configuration.scrollOnPixelGrid = scrollOnPixelGrid ?? (getenv("MERIDIAN_EXACT_SCROLL").map { String(cString: $0) } != "1")
        self.configuration = configuration
        page = MeridianPage(configuration, places: places)
        if let view, configuration.center == view.center {
            page.restoreView(scrollY: view.scrollY, selectedPlace: view.selected?.rawValue)
        }
        overlay = TouchOverlay(visible: options.showTouches)
        self.mapData = mapData
        self.synchronousTiles = synchronousTiles
        self.scale = scale
        renderer = PageRenderer(map: mapData?.renderer(scale: scale), synchronousTiles: synchronousTiles)
        if let title = mapData?.title { renderer.title = title }
        page.renderScale = scale
        showDocument()
        if options.verbose || AppCore.gestureTraceRequested {
            page.gestures.trace = { line in printError("gestures: \(line)") }
        }
    }

    /// Where the map first looks when nothing else says: the default view over central Helsinki
    /// when it shows any of the places (the shipped sample, at every window size), else all the
    /// places framed (a document of somewhere else).
    static func framing(_ places: [Coordinate], _ c: MeridianPage.Configuration) -> (center: Coordinate, zoom: Double)? {
        guard !places.isEmpty else { return nil }
        let layout = PageLayout(windowWidth: c.width, windowHeight: c.height)
        let size = layout.mapFrame.size
        let start = MapCamera(center: HelsinkiPlaces.startCenter, zoom: HelsinkiPlaces.startZoom, size: size, minZoom: 1, maxZoom: 19)
        let inset = PageLayout.minimumTarget
        let shown = places.contains { p in
            let s = start.screenPoint(of: p)
            return s.x >= 0 && s.x <= size.width && s.y >= 0 && s.y <= size.height
        }
        if shown { return nil }
        let lats = places.map(\.latitude), lons = places.map(\.longitude)
        guard let south = lats.min(), let north = lats.max(), let west = lons.min(), let east = lons.max() else { return nil }
        var camera = start
        camera.fit(CoordinateRegion(center: Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2),
                                    latitudeDelta: north - south, longitudeDelta: east - west), padding: inset)
        // One place, or places close together: a street-level view rather than the deepest zoom.
        return (camera.centerCoordinate, min(camera.zoom, HelsinkiPlaces.startZoom))
    }

    private func showDocument() {
        if let session {
            renderer.documentName = session.document.name
            renderer.notice = session.notice
            page.setPlacesEditable(!session.document.isReadOnly)
        }
    }

    /// `MERIDIAN_GESTURE_TRACE=1`: print the arena trace (who asked, waited, won, and why).
    static var gestureTraceRequested: Bool {
        guard let v = getenv("MERIDIAN_GESTURE_TRACE") else { return false }
        return String(cString: v) == "1"
    }

    func handle(_ frame: InputFrame) {
        overlay.handle(frame)
        if case .key(let k) = frame, let session, session.handleKey(k) {
            documentChanged()
            return
        }
        page.handle(frame)
        pageMayHaveEdited(at: frame.time)
    }

    /// Pins dropped and what the page asked of the document (PlaceRequest) go to the document;
    /// the page then shows the result.
    private func pageMayHaveEdited(at time: Double) {
        guard let session else { return }
        let resync = session.pageChanged(page)
        let requests = page.takePlaceRequests()
        let edits = requests.isEmpty ? [] : session.apply(requests, at: time)
        if resync || !requests.isEmpty { documentChanged(after: edits) }
    }

    /// The document changed other than through the page (undo, redo, a reload), or by what the
    /// page asked (`edits`): show it. A new place is selected with its name field focused; a
    /// delete shows the on-screen "Undo".
    func documentChanged(after edits: [PlaceEdit] = []) {
        guard let session else { return }
        let places = session.pagePlaces
        if !page.showPlaces(places) {
            var c = configuration
            c.width = page.layout.windowWidth
            c.height = page.layout.windowHeight
            c.center = page.camera.centerCoordinate
            c.zoom = page.camera.zoom
            let fresh = MeridianPage(c, places: places)
            fresh.renderScale = page.renderScale
            fresh.advance(to: page.now)
            fresh.restoreView(scrollY: page.exactScrollY, selectedPlace: page.selectedPin.flatMap(MeridianPage.placeID(ofPin:)))
            if let until = page.undoShownUntil { fresh.showUndo(until: until) }
            earlierLog += page.log
            page = fresh
            session.pageReplaced()
        }
        showDocument()
        for edit in edits {
            switch edit {
            case .added(let id): page.editName(ofPlace: id.rawValue)
            case .deleted: page.showUndo()
            case .renamed, .moved: break
            }
        }
        page.invalidate()
    }

    /// Saves the document now (at exit) and reports what happened on stderr.
    func finish() {
        session?.save()
    }

    /// Remembers where the map looked, the scroll and the selection for the next start.
    func saveView() {
        guard let session, session.persistent else { return }
        let selected = page.selectedPin.flatMap(MeridianPage.placeID(ofPin:)).map(PlaceID.init)
        let view = ViewState(documentPath: session.document.path, center: page.camera.centerCoordinate,
                             zoom: page.camera.zoom, scrollY: page.exactScrollY, selected: selected)
        do {
            try view.save(paths: .current)
        } catch {
            printError("meridian: the view was not remembered: \(error)")
        }
    }

    func resize(width: Double, height: Double, scale: Double) {
        if scale != self.scale {
            // Tiles are rasterized for one scale; a new scale needs a new cache.
            renderer.map?.cache.shutDown()
            renderer = PageRenderer(map: mapData?.renderer(scale: scale), synchronousTiles: synchronousTiles)
            if let title = mapData?.title { renderer.title = title }
            self.scale = scale
            page.renderScale = scale
            showDocument()
        }
        if width != page.layout.windowWidth || height != page.layout.windowHeight {
            page.resize(width: width, height: height)
        }
        page.invalidate()
    }

    var needsFrame: Bool { page.needsFrame || overlay.needsFrame }
    var nextDeadline: Double? { [page.nextDeadline, session?.nextDeadline].compactMap { $0 }.min() }

    func advance(to time: Double) {
        page.advance(to: time)
        pageMayHaveEdited(at: time)
        if let session, session.advance(to: time) { documentChanged() }
    }

    /// The places file's folder changed (another program may have saved it).
    func documentFileChanged() {
        if let session, session.fileMayHaveChanged() { documentChanged() }
    }

    /// Tiles finished on the workers: draw again.
    func tilesReady() {
        if renderer.map?.cache.takeNewTiles() == true { page.invalidateMap() }
    }

    /// Tiles that could not be read (drawn from an ancestor instead), for `map.errors`.
    var tileFailures: [TileFailure] { renderer.map?.cache.errors ?? [] }

    /// Says each unreadable tile once on stderr, as it is first met: after each frame drawn,
    /// and (headless) at the end of the replay, whose label placements read tiles too.
    func reportTileFailures() {
        for failure in renderer.map?.cache.takeNewErrors() ?? [] {
            printError("meridian: \(failure.description); drawn from a coarser zoom")
        }
    }

    var tileWakeupDescriptor: Int32? { renderer.map?.cache.readyFileDescriptor }

    /// Draws the window into `cr`, already scaled to logical px. Returns the logical region that
    /// changed since the previous frame (nil: all of it), for the compositor's damage.
    /// What the next `draw` will change (nil: everything), in logical px.
    var pendingDamage: Gestures.Rect? {
        // The page's damage, grown to cover the touch markers where they were and are now.
        guard var r = page.pendingDamage else { return nil }
        for m in overlay.damage { r = r.union(m) }
        // Labels placed anew change anywhere on the map: then a change over part of it (the
        // touch markers' boxes) redraws all of it, or the rest would keep the old labels.
        let map = page.mapFrameInWindow
        let meets = !r.isEmpty && r.minX < map.maxX && map.minX < r.maxX && r.minY < map.maxY && map.minY < r.maxY
        let holds = r.minX <= map.minX && r.minY <= map.minY && r.maxX >= map.maxX && r.maxY >= map.maxY
        if meets && !holds && mapWillPlaceLabels { r = r.union(map) }
        return r
    }

    /// When the next draw is a page scroll: the page moved up by `dy` logical px (down when
    /// negative) from the scroll position `from`, and `rects` (logical px, after the scroll) must
    /// be redrawn besides the strip the scroll exposes. nil: no scroll, or not one the window
    /// can copy (`pendingDamage` then says what to redraw).
    var pendingScroll: (from: Double, dy: Double, rects: [Gestures.Rect])? {
        guard !page.showHitAreas, let s = page.pendingScroll else { return nil }
        let dy = s.to - s.from
        var rects = s.rect.isEmpty ? [] : [s.rect]
        // What is drawn fixed over the page must not move with the copied rows: redraw where
        // its pixels went and where it is now.
        var fixed = overlay.shownMarks.map { $0.offsetBy(dy: -dy) } + (overlay.isVisible ? overlay.marks : [])
        for r in renderer.fixedRects(page) { fixed += [r, r.offsetBy(dy: -dy)] }
        rects += fixed
        if mapWillPlaceLabels { rects.append(page.mapFrameInWindow) }
        return (s.from, dy, rects)
    }

    /// The next frame places the map's labels anew (see `MapRenderer.willPlaceLabels`).
    private var mapWillPlaceLabels: Bool {
        renderer.map?.willPlaceLabels(page.camera, moving: page.isMapMoving) ?? false
    }

    @discardableResult
    func draw(_ cr: OpaquePointer) -> Gestures.Rect? {
        let damage = pendingDamage
        renderer.draw(page, into: cr)
        // Labels still fading: the map is drawn again next frame (and not once they are done).
        if renderer.map?.labelsFading == true { page.invalidateMap() }
        overlay.draw(cr)
        reportTileFailures()
        // Live: tiles still missing are queued; their arrival wakes the loop through the pipe.
        return damage
    }
}
