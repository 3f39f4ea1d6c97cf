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
        viewport.isHeldByGesture = { [unowned self] in
            graph.isMapGroupActive || mapMouseDrag.state.isActive || mapQuickZoom.state.isActive
        }
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
            let target = viewport.zoomTarget(levels: 1)
            viewport.animateZoom(to: target, around: p, at: now)
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
            let target = viewport.zoomTarget(levels: -1)
            viewport.animateZoom(to: target, around: p, at: now)
            record("twoFingerTapZoom", [("zoom", .number(target))])
        }
        mapObserver.action = { [unowned self] tap in
            if tap.state == .recognized { observedMapTaps += 1 }
        }

        for (place, (drag, tap)) in zip(viewport.pinPlaces, zip(graph.pinDrags, graph.pinTaps)) {
            wirePin(place, drag: drag, tap: tap)
        }
        wireEditing()
        let targets: [TargetID] = [.zoomIn, .zoomOut, .compass] + list.places.map { .row($0.id) }
        for (target, tap) in zip(targets, graph.targetTaps) {
            tap.action = { [unowned self] tap in
                if tap.state == .recognized { activate(target) }
            }
        }
    }

    /// A touch (or the left button, id −1) landed at `p` (window): a gliding page or a flinging
    /// map under it stops where it is, and the touch is no tap (every touch platform does this).
    /// An animated zoom is not caught: taps on it add to its target.
    func catchMotion(touchID: Int32, at p: Point) {
        var caught = false
        if scroller.isGliding {
            scroller.stop()
            caught = true
        }
        if mapFrameInWindow.contains(p), viewport.catchFling() { caught = true }
        if caught {
            caughtTouchIDs.insert(touchID)
            invalidate()
        }
    }

    private func wirePin(_ place: String, drag: PanGestureRecognizer, tap: TapGestureRecognizer) {
        var grabOffset = Point.zero
        drag.action = { [unowned self] pan in
            switch pan.state {
            case .began:
                viewport.stopMotion()
                // Keep the finger where it grabbed the pin, slop included.
                let centre = camera.screenPoint(of: viewport.pinCoordinates[place] ?? camera.centerCoordinate)
                let start = pan.location(in: map) - pan.translation(in: map)
                grabOffset = centre - start
                fallthrough
            case .changed:
                let p = pan.location(in: map) + grabOffset
                viewport.setPin(place, at: camera.coordinate(at: p))
                invalidateMap()
            case .ended:
                if let c = viewport.pinCoordinates[place] {
                    record("pinDragEnded", [("id", .text(TargetID.pin(place).name)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
                }
                invalidateMap()
            default:
                break
            }
        }
        tap.action = { [unowned self] tap in
            if tap.state == .recognized { activate(.pin(place)) }
        }
    }

    // MARK: Actions

    private func pageScrolled(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            scroller.beginDrag()
            if let v = pan.startView, v === map || map.isAncestor(of: v) { showCooperativeHint() }
            fallthrough
        case .changed:
            scroller.drag(translation: pan.translation(in: page).y)
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

    /// The finger let go of the page: glide on, or spring back from an overscroll. Nothing on
    /// screen changes by that alone: the glide or the spring moves the page frame by frame, each
    /// move a scroll the window can copy (a whole-window invalidation here made the next frames
    /// redraw everything instead).
    func releaseScroll(velocity: Double) {
        scroller.release(velocity: velocity, at: now)
    }

    /// Fingers on the map: zoom follows the pinch, and the world point that was under the
    /// fingers' centroid is kept under the centroid — whichever recognizer reports first, the
    /// result is the same; the bearing follows the rotation's angle once it has begun. When a
    /// finger lands or lifts, the anchor, the zoom, the pinch scale, the bearing and the
    /// rotation are re-based on the fingers now down, so changing fingers never moves the map.
    private func mapMovedByFingers() {
        guard graph.isMapGroupActive else {
            if mapFingers != nil {
                viewport.settleZoom(around: mapPinch.location(in: map))
                // Flings once the frame is over, unless a finger stays on the map (it holds it).
                if mapPan.state == .ended { viewport.pendingFling = mapPan.velocity(in: map) }
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
            mapAnchor = camera.worldPoint(at: centroid)
            mapFingers = (count, serials, camera.zoom, mapPinch.scale, camera.bearing, mapRotate.rotation)
        } else if mapFingers == nil {
            viewport.stopMotion()
            // From where these fingers were when they all were down, slop included.
            let sameFingers = mapPan.state.isActive && mapPan.numberOfTouches == count
            let start = sameFingers ? centroid - mapPan.translation(in: map) : centroid
            mapAnchor = camera.worldPoint(at: start)
            // A rotation counts from its own begin (its threshold is not applied), like the pinch from 1.
            mapFingers = (count, serials, camera.zoom, mapPinch.state.isActive ? 1 : mapPinch.scale, camera.bearing, 0)
        }
        rememberFingerPositions(of: lead)
        defer { fingerGestureCamera = camera; fingerScaleAndRotation = (mapPinch.scale, mapRotate.rotation) }
        guard let f = mapFingers else { return }
        var c = camera
        if mapPinch.state.isActive, mapPinch.scale > 0, mapPinch.scale.isFinite, f.scale > 0 {
            c.setZoom(f.zoom + log2(mapPinch.scale / f.scale), around: centroid)
        }
        if mapRotate.state.isActive {
            // A clockwise twist turns the map clockwise: the bearing decreases.
            c.setBearing(f.bearing - (mapRotate.rotation - f.rotation), around: centroid)
        }
        if let anchor = mapAnchor {
            let s = c.screenPoint(ofWorld: anchor)
            c.pan(by: centroid - s)
        }
        viewport.setCamera(c)
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
        let place = c.worldPoint(at: from)
        let s = c.screenPoint(ofWorld: place)
        c.pan(by: to - s)
        viewport.setCamera(c)
    }

    private func mapDragged(_ drag: PanGestureRecognizer) {
        switch drag.state {
        case .began:
            viewport.stopMotion()
            let p = drag.location(in: map) - drag.translation(in: map)
            mapAnchor = camera.worldPoint(at: p)
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
            c.pan(by: p - s)
            viewport.setCamera(c)
            mouseDragCamera = camera
            mouseDragLocation = p
        case .ended:
            mapAnchor = nil
            mouseDragCamera = nil
            viewport.startFling(velocity: drag.velocity(in: map), at: now)
        default:
            mapAnchor = nil
            mouseDragCamera = nil
        }
    }

    private func quickZoom(_ press: LongPressGestureRecognizer) {
        switch press.state {
        case .began:
            viewport.stopMotion()
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
            c.setZoom(zoomAtGestureStart + dy / MeridianPage.quickZoomPixelsPerLevel, around: anchor)
            viewport.setCamera(c)
            quickZoomCamera = camera
        case .ended, .cancelled:
            quickZoomCamera = nil
            viewport.settleZoom(around: press.pressLocation(in: map))
        default:
            break
        }
    }

    private func mapTapped(at p: Point) {
        let c = camera.coordinate(at: p)
        let w = map.convert(toWindow: p)
        record("mapTap", [("x", .number(w.x)), ("y", .number(w.y)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
        callout = (c, now + MeridianPage.calloutDuration)
        let hadSelectionOrFocus = list.selected != nil || focus.current != .map
        list.selected = nil
        focus.set(.map)
        if hadSelectionOrFocus { invalidate() } else { invalidateMap() }
    }

    /// What a tap on a target (or Return on the focused one) does.
    func activate(_ target: TargetID) {
        switch target {
        case .zoomIn, .zoomOut:
            record("targetTap", [("id", .text(target.name))])
            viewport.animateZoom(to: viewport.zoomTarget(levels: target == .zoomIn ? 1 : -1), around: viewport.centre, at: now)
        case .compass:
            // North up again, turning about the map's centre.
            record("targetTap", [("id", .text(target.name))])
            viewport.animateBearing(to: 0, at: now)
        case .pin(let place):
            list.selected = place
            record("pinTap", [("id", .text(target.name))])
            invalidate()
        case .row(let id):
            guard let place = list.place(id) else { return }
            record("targetTap", [("id", .text(target.name))])
            list.selected = id
            viewport.fly(to: viewport.pinCoordinates[id] ?? place.coordinate, at: now)
            invalidate()
        case .addPlace, .delete, .undo, .nameField:
            activateEditing(target)
        case .map:
            break
        }
    }

    // MARK: Motion

    /// After a touch frame: the fling a map gesture ended with starts if no finger of the map's
    /// group is left on the map (a finger kept for a re-grip holds the map still).
    func startPendingMapFling() {
        guard let v = viewport.pendingFling else { return }
        viewport.pendingFling = nil
        if !graph.mapGroup.contains(where: { $0.numberOfTouches > 0 }) { viewport.startFling(velocity: v, at: now) }
    }

    /// Moves every animation to `now`; finished ones end exactly at their target.
    func stepAnimations() {
        scroller.step(to: now)
        viewport.step(to: now)
    }
}
