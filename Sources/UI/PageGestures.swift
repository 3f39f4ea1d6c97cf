import Glibc
import Geo
import Gestures
import Input
import Render

/// What each recognizer of the page's gesture graph (PageGestureGraph.swift) does. The rules:
/// - One finger anywhere scrolls the page, the map included (a cooperative map, with a hint);
///   two fingers on the map pan, pinch and (after a deliberate twist) rotate it together; the
///   mouse drags the map.
/// - The map's single tap waits for the double tap and the double-tap-and-drag to fail, so a
///   double tap never also reports a tap; the observer sees taps and never takes them.
/// - Pins and buttons sit deeper than the map and the page, so a drag that starts on a pin
///   moves the pin, and a tap on a button is the button's.
/// - A touch-down catches motion: it stops a gliding page and a flinging map, and that touch is
///   no tap (`catchMotion`).
extension MeridianPage {
    func wireGestures() {
        graph.catches = { [unowned self] touch in caughtTouchIDs.contains(touch.kind == .mouse ? -1 : touch.id) }
        pageScroll.action = { [unowned self] pan in pageScrolled(pan) }
        mapRotate.isEnabled = allowsRotation
        mapRotate.action = { [unowned self] _ in mapMovedByFingers() }
        mapPan.action = { [unowned self] _ in mapMovedByFingers() }
        mapPinch.action = { [unowned self] _ in mapMovedByFingers() }
        mapMouseDrag.action = { [unowned self] drag in mapDragged(drag) }
        mapDoubleTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            let p = tap.location(in: map)
            let target = zoomTarget(levels: 1)
            animateZoom(to: target, around: ScreenPoint(x: p.x, y: p.y))
            record("doubleTapZoom", [("zoom", .number(target))])
        }
        mapQuickZoom.action = { [unowned self] press in quickZoom(press) }
        mapTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapTapped(at: tap.location(in: map))
        }
        mapTwoFingerTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            let p = tap.location(in: map)
            let target = zoomTarget(levels: -1)
            animateZoom(to: target, around: ScreenPoint(x: p.x, y: p.y))
            record("twoFingerTapZoom", [("zoom", .number(target))])
        }
        mapObserver.action = { [unowned self] tap in
            if tap.state == .recognized { observedMapTaps += 1 }
        }

        for (pin, (drag, tap)) in zip(pinViews, zip(graph.pinDrags, graph.pinTaps)) { wirePin(pin, drag: drag, tap: tap) }
        let targets = [zoomIn, zoomOut, compass] + rowViews
        for (target, tap) in zip(targets, graph.targetTaps) {
            if target === zoomIn || target === zoomOut {
                let delta = target === zoomIn ? 1.0 : -1.0
                tap.action = { [unowned self, unowned target] tap in
                    guard tap.state == .recognized else { return }
                    activateZoomButton(target.name, delta: delta)
                }
            } else if target === compass {
                tap.action = { [unowned self] tap in
                    guard tap.state == .recognized else { return }
                    activateCompass()
                }
            } else if let i = rowViews.firstIndex(where: { $0 === target }) {
                let place = places[i]
                tap.action = { [unowned self] tap in
                    guard tap.state == .recognized else { return }
                    activatePlace(place)
                }
            }
        }
    }

    /// A touch (or the left button, id −1) landed at `p` (window): a gliding page or a flinging
    /// map under it stops where it is, and the touch is no tap (every touch platform does this).
    /// An animated zoom is not caught: taps on it add to its target.
    func catchMotion(touchID: Int32, at p: Point) {
        var caught = false
        if case .glide = scrollMotion {
            scrollMotion = nil
            caught = true
        }
        if mapFling != nil, mapFrameInWindow.contains(p) {
            mapFling = nil
            caught = true
        }
        if caught {
            caughtTouchIDs.insert(touchID)
            invalidate()
        }
    }

    /// The zoom `levels` whole levels on from where the map is going: a running zoom animation's
    /// target, so quick repeated taps and keys add up instead of rounding from half-way.
    func zoomTarget(levels: Double) -> Double {
        let from = cameraAnimation?.targetZoom ?? camera.zoom
        let z = levels > 0 ? (from + levels).rounded(.down) : (from + levels).rounded(.up)
        return min(max(z, camera.minZoom), camera.maxZoom)
    }

    private func wirePin(_ pin: GestureView, drag: PanGestureRecognizer, tap: TapGestureRecognizer) {
        var grabOffset = Point.zero
        drag.action = { [unowned self, unowned pin] pan in
            switch pan.state {
            case .began:
                stopMapMotion()
                // Keep the finger where it grabbed the pin, slop included.
                let centre = camera.screenPoint(of: pinCoordinates[pin.name] ?? camera.centerCoordinate)
                let start = pan.location(in: map) - pan.translation(in: map)
                grabOffset = Point(x: centre.x, y: centre.y) - start
                fallthrough
            case .changed:
                let p = pan.location(in: map) + grabOffset
                pinCoordinates[pin.name] = camera.coordinate(at: ScreenPoint(x: p.x, y: p.y))
                layoutPins()
                invalidateMap()
            case .ended:
                if let c = pinCoordinates[pin.name] {
                    record("pinDragEnded", [("id", .text(pin.name)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
                }
                invalidateMap()
            default:
                break
            }
        }
        tap.action = { [unowned self, unowned pin] tap in
            guard tap.state == .recognized else { return }
            selectPin(pin.name)
        }
    }

    // MARK: Actions

    private func pageScrolled(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            scrollMotion = nil
            scrollAtGestureStart = scrollY
            if let v = pan.startView, v === map || map.isAncestor(of: v) { showCooperativeHint() }
            fallthrough
        case .changed:
            let wanted = scrollAtGestureStart - pan.translation(in: page).y
            setScroll(rubberBand(wanted))
        case .ended:
            let v = pan.velocity(in: page)
            releaseScroll(velocity: -v.y)
        case .failed:
            // A sideways drag on the map: the page cannot follow it and the map needs two
            // fingers, so the hint is the only answer the finger gets.
            let sideways = pan.refusedDirection == .left || pan.refusedDirection == .right
            if sideways, pan.startView === map, !graph.isMapGroupActive { showCooperativeHint() }
        case .cancelled:
            releaseScroll(velocity: 0)
        default:
            break
        }
    }

    private func showCooperativeHint() {
        hintUntil = now + MeridianPage.hintDuration
        record("cooperativeHint")
        invalidateMap()
    }

    /// Past either end the page follows the finger at half speed, up to a quarter of the window.
    private func rubberBand(_ y: Double) -> Double {
        let limit = layout.windowHeight / 4
        if y < 0 { return -min(limit, -y / 2) }
        if y > maxScrollY { return maxScrollY + min(limit, (y - maxScrollY) / 2) }
        return y
    }

    /// The finger let go: glide on, or spring back from an overscroll.
    func releaseScroll(velocity: Double) {
        if scrollY < 0 || scrollY > maxScrollY {
            springBack()
        } else if let m = Momentum(velocity: Point(x: 0, y: velocity), at: now) {
            scrollMotion = .glide(m, from: scrollY)
        }
        invalidate()
    }

    private func springBack() {
        let target = min(max(scrollY, 0), maxScrollY)
        scrollMotion = .spring(from: scrollY, to: target, startTime: now, duration: 300)
    }

    /// Fingers on the map: zoom follows the pinch, and the world point that was under the
    /// fingers' centroid is kept under the centroid — whichever recognizer reports first, the
    /// result is the same; the bearing follows the rotation's angle once it has begun. When a
    /// finger lands or lifts, the anchor, the zoom, the pinch scale, the bearing and the
    /// rotation are re-based on the fingers now down, so changing fingers never moves the map.
    private func mapMovedByFingers() {
        guard graph.isMapGroupActive else {
            if mapFingers != nil {
                settleZoom(around: mapPinch.location(in: map))
                // Flings once the frame is over, unless a finger stays on the map (it holds it).
                if mapPan.state == .ended { pendingMapFling = mapPan.velocity(in: map) }
            }
            mapFingers = nil
            mapAnchor = nil
            fingerGestureCamera = nil
            return
        }
        // The fingers: the pinch's once it has two (both take every finger; after a re-grip
        // one of them may hold fewer), else the pan's.
        let lead: GestureRecognizer = mapPinch.numberOfTouches >= max(2, mapPan.numberOfTouches) ? mapPinch : mapPan
        let centroid = lead.location(in: map)
        var serials: UInt64 = 0
        for t in lead.touches { serials &+= t.serial }
        let count = lead.numberOfTouches
        if let f = mapFingers, let seen = fingerGestureCamera, seen != camera {
            // Keys or the wheel changed the camera since the fingers' last frame: the gesture
            // goes on from the camera as it is, with the place under the fingers where they were.
            var before = Point.zero
            for p in mapFingerPositions { before = before + p.location }
            let from = map.convert(fromWindow: before * (1 / Double(max(1, mapFingerPositions.count))))
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: from.x, y: from.y))
            let (scale, rotation) = fingerScaleAndRotation
            // (Fingers that landed or lifted meanwhile are handled next, from this camera.)
            mapFingers = (f.count, f.serials, camera.zoom, scale, camera.bearing, rotation)
        }
        if let f = mapFingers, f.count != count || f.serials != serials {
            // Fingers landed or lifted: the fingers that stay moved the map this frame as
            // they did before; then everything is re-based on the fingers down now.
            followStayingFingers(of: lead)
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: centroid.x, y: centroid.y))
            mapFingers = (count, serials, camera.zoom, mapPinch.scale, camera.bearing, mapRotate.rotation)
        } else if mapFingers == nil {
            stopMapMotion()
            // From where these fingers were when they all were down, slop included.
            let sameFingers = mapPan.state.isActive && mapPan.numberOfTouches == count
            let start = sameFingers ? centroid - mapPan.translation(in: map) : centroid
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: start.x, y: start.y))
            // A rotation counts from its own begin (its threshold is not applied), like the pinch from 1.
            mapFingers = (count, serials, camera.zoom, mapPinch.state.isActive ? 1 : mapPinch.scale, camera.bearing, 0)
        }
        rememberFingerPositions(of: lead)
        defer { fingerGestureCamera = camera; fingerScaleAndRotation = (mapPinch.scale, mapRotate.rotation) }
        guard let f = mapFingers else { return }
        var c = camera
        if mapPinch.state.isActive, mapPinch.scale > 0, mapPinch.scale.isFinite, f.scale > 0 {
            c.setZoom(f.zoom + log2(mapPinch.scale / f.scale), around: ScreenPoint(x: centroid.x, y: centroid.y))
        }
        if mapRotate.state.isActive {
            // A clockwise twist turns the map clockwise: the bearing decreases.
            c.setBearing(f.bearing - (mapRotate.rotation - f.rotation), around: ScreenPoint(x: centroid.x, y: centroid.y))
        }
        if let anchor = mapAnchor {
            let s = c.screenPoint(ofWorld: anchor)
            c.pan(by: ScreenPoint(x: centroid.x - s.x, y: centroid.y - s.y))
        }
        setCamera(c)
    }

    /// The compass: north up again, turning about the map's centre.
    func activateCompass() {
        record("targetTap", [("id", .text(compass.name))])
        animateBearing(to: 0)
    }

    private func rememberFingerPositions(of r: GestureRecognizer) {
        mapFingerPositions.removeAll(keepingCapacity: true)
        for t in r.touches { mapFingerPositions.append((t.serial, t.location)) }
    }

    /// Pans so that the place under the centroid of the fingers still down since the last
    /// report is under their centroid now.
    private func followStayingFingers(of r: GestureRecognizer) {
        var before = Point.zero, after = Point.zero, n = 0.0
        for t in r.touches {
            guard let old = mapFingerPositions.first(where: { $0.serial == t.serial }) else { continue }
            before = before + old.location
            after = after + t.location
            n += 1
        }
        guard n > 0 else { return }
        let from = map.convert(fromWindow: before * (1 / n)), to = map.convert(fromWindow: after * (1 / n))
        var c = camera
        let place = c.worldPoint(at: ScreenPoint(x: from.x, y: from.y))
        let s = c.screenPoint(ofWorld: place)
        c.pan(by: ScreenPoint(x: to.x - s.x, y: to.y - s.y))
        setCamera(c)
    }

    private func mapDragged(_ drag: PanGestureRecognizer) {
        switch drag.state {
        case .began:
            stopMapMotion()
            let p = drag.location(in: map) - drag.translation(in: map)
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: p.x, y: p.y))
            mouseDragCamera = nil
            fallthrough
        case .changed:
            if let seen = mouseDragCamera, seen != camera {
                // Keys or the wheel changed the camera: drag on from it.
                mapAnchor = camera.worldPoint(at: ScreenPoint(x: mouseDragLocation.x, y: mouseDragLocation.y))
            }
            guard let anchor = mapAnchor else { return }
            let p = drag.location(in: map)
            var c = camera
            let s = c.screenPoint(ofWorld: anchor)
            c.pan(by: ScreenPoint(x: p.x - s.x, y: p.y - s.y))
            setCamera(c)
            mouseDragCamera = camera
            mouseDragLocation = p
        case .ended:
            mapAnchor = nil
            mouseDragCamera = nil
            startFling(velocity: drag.velocity(in: map))
        default:
            mapAnchor = nil
            mouseDragCamera = nil
        }
    }

    private func quickZoom(_ press: LongPressGestureRecognizer) {
        switch press.state {
        case .began:
            stopMapMotion()
            zoomAtGestureStart = camera.zoom
            // Measured from where it began (it may wait for the double tap to fail while the
            // finger moves a little), so it never jumps.
            quickZoomStartY = press.location(in: map).y
            quickZoomCamera = nil
            fallthrough
        case .changed:
            if let seen = quickZoomCamera, seen != camera {
                // Keys or the wheel changed the camera: the drag zooms on from it.
                zoomAtGestureStart += camera.zoom - seen.zoom
            }
            // Down zooms in, up zooms out, anchored where the second tap landed.
            let anchor = press.pressLocation(in: map)
            let dy = press.location(in: map).y - quickZoomStartY
            var c = camera
            c.setZoom(zoomAtGestureStart + dy / MeridianPage.quickZoomPixelsPerLevel, around: ScreenPoint(x: anchor.x, y: anchor.y))
            setCamera(c)
            quickZoomCamera = camera
        case .ended, .cancelled:
            quickZoomCamera = nil
            settleZoom(around: press.pressLocation(in: map))
        default:
            break
        }
    }

    /// After a free zoom (pinch, double-tap-and-drag, wheel) the zoom moves by under 0.005 of a
    /// level to one where tiles span whole device pixels: pan frames are then plain copies
    /// (docs/MAP-ENGINE.md, Render). `p` (map coordinates) stays where it is.
    func settleZoom(around p: Point) {
        let crisp = MapRenderer.crispZoom(camera.zoom, scale: renderScale)
        guard crisp != camera.zoom, crisp.isFinite else { return }
        var c = camera
        c.setZoom(crisp, around: ScreenPoint(x: p.x, y: p.y))
        setCamera(c)
    }

    private func mapTapped(at p: Point) {
        let c = camera.coordinate(at: ScreenPoint(x: p.x, y: p.y))
        let w = map.convert(toWindow: p)
        record("mapTap", [("x", .number(w.x)), ("y", .number(w.y)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
        callout = (c, now + MeridianPage.calloutDuration)
        let hadSelectionOrFocus = selectedPin != nil || focusID != "map"
        selectedPin = nil
        focusID = "map"
        if hadSelectionOrFocus { invalidate() } else { invalidateMap() }
    }

    func selectPin(_ id: String) {
        selectedPin = id
        record("pinTap", [("id", .text(id))])
        invalidate()
    }

    func activateZoomButton(_ id: String, delta: Double) {
        record("targetTap", [("id", .text(id))])
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        animateZoom(to: zoomTarget(levels: delta), around: centre)
    }

    func activatePlace(_ place: Place) {
        record("targetTap", [("id", .text("place-\(place.id)"))])
        selectedPin = "pin-\(place.id)"
        let target = pinCoordinates["pin-\(place.id)"] ?? place.coordinate
        stopMapMotion()
        cameraAnimation = CameraAnimation(start: camera, startTime: now, duration: 300, targetZoom: max(camera.zoom, 15),
                                          focus: ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2),
                                          targetCenter: WebMercator.world(target))
        invalidate()
    }

    // MARK: Motion

    func animateZoom(to zoom: Double, around p: ScreenPoint) {
        stopMapMotion()
        let z = min(max(zoom, camera.minZoom), camera.maxZoom)
        startCameraAnimation(CameraAnimation(start: camera, startTime: now, duration: MeridianPage.zoomAnimationDuration,
                                             targetZoom: z, focus: p, targetCenter: nil))
    }

    /// Starts `a`, unless a gesture is moving the map: an animation would fight it frame by
    /// frame, so the change is made at once and the gesture goes on from it (keys and the
    /// wheel compose with fingers and drags).
    private func startCameraAnimation(_ a: CameraAnimation) {
        if graph.isMapGroupActive || mapMouseDrag.state.isActive || mapQuickZoom.state.isActive {
            setCamera(a.camera(at: a.startTime + a.duration))
        } else {
            cameraAnimation = a
        }
        invalidateMap()
    }

    /// Turns the map to `bearing` about the view's centre, the short way round, animated.
    func animateBearing(to bearing: Double) {
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        stopMapMotion()
        var a = CameraAnimation(start: camera, startTime: now, duration: MeridianPage.northUpAnimationDuration,
                                targetZoom: camera.zoom, focus: centre, targetCenter: nil)
        a.targetBearing = bearing
        startCameraAnimation(a)
    }

    /// After a touch frame: the fling a map gesture ended with starts if no finger of the map's
    /// group is left on the map (a finger kept for a re-grip holds the map still).
    func startPendingMapFling() {
        guard let v = pendingMapFling else { return }
        pendingMapFling = nil
        if !graph.mapGroup.contains(where: { $0.numberOfTouches > 0 }) { startFling(velocity: v) }
    }

    private func startFling(velocity: Point) {
        guard let m = Momentum(velocity: velocity, at: now) else { return }
        mapFling = (m, camera)
    }

    func stopMapMotion() {
        cameraAnimation = nil
        mapFling = nil
    }

    /// Moves every animation to `now`; finished ones end exactly at their target.
    func stepAnimations() {
        if let motion = scrollMotion {
            let (y, finished) = motion.position(at: now)
            if case .glide = motion, y < 0 || y > maxScrollY {
                // The glide hit an end: a short bounce instead of a hard stop.
                let edge = y < 0 ? 0.0 : maxScrollY
                let overshoot = min(48, abs(y - edge))
                setScroll(edge + (y < 0 ? -overshoot : overshoot))
                springBack()
            } else {
                setScroll(y)
                if finished { scrollMotion = nil }
            }
        }
        if let a = cameraAnimation {
            setCamera(a.camera(at: now))
            if a.isFinished(at: now) { cameraAnimation = nil }
        }
        if let f = mapFling {
            var c = f.start
            let o = f.momentum.offset(at: now)
            c.pan(by: ScreenPoint(x: o.x, y: o.y))
            setCamera(c)
            if f.momentum.isFinished(at: now) { mapFling = nil }
        }
    }
}
