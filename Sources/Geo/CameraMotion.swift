#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moving the camera the way fingers and buttons do: pan, zoom or turn around a point, fit a
/// region. Every move honours the bearing: screen directions are turned into world ones.
extension MapCamera {
    /// Moves the map with a finger that moved by `translation` logical px: the place under the
    /// finger stays under it (content follows the finger), unless the vertical bound stops it.
    public mutating func pan(by translation: ScreenPoint) {
        guard translation.x.isFinite, translation.y.isFinite else { return }
        let d = worldOffset(ofScreen: translation)
        center = WorldPoint(x: center.x - d.x, y: center.y - d.y)
    }

    /// Puts the world point `anchor` at screen point `p` by moving the centre (the vertical
    /// bound may stop it).
    private mutating func place(_ anchor: WorldPoint, at p: ScreenPoint) {
        let d = worldOffset(ofScreen: ScreenPoint(x: p.x - viewWidth / 2, y: p.y - viewHeight / 2))
        center = WorldPoint(x: anchor.x - d.x, y: anchor.y - d.y)
    }

    /// Sets the bearing to `b` degrees (wrapped into [0, 360)) keeping the place under `p`
    /// fixed on screen, unless the vertical bound has to move the centre.
    public mutating func setBearing(_ b: Double, around p: ScreenPoint) {
        guard b.isFinite, p.x.isFinite, p.y.isFinite else { return }
        let anchor = worldPoint(at: p)
        bearing = b
        place(anchor, at: p)
    }

    /// Turns the map clockwise on screen by `degrees` about `p` (the bearing decreases): what
    /// a clockwise twist of two fingers does.
    public mutating func rotate(by degrees: Double, around p: ScreenPoint) {
        guard degrees.isFinite else { return }
        setBearing(bearing - degrees, around: p)
    }

    /// Zooms by `delta` levels (+1 doubles the scale) keeping the place under `p` fixed on screen.
    public mutating func zoom(by delta: Double, around p: ScreenPoint) {
        guard delta.isFinite else { return }
        setZoom(zoom + delta, around: p)
    }

    /// Sets the zoom to `z` (clamped to minZoom…maxZoom) keeping the place under `p` fixed on
    /// screen, unless the vertical bound has to move the centre.
    public mutating func setZoom(_ z: Double, around p: ScreenPoint) {
        guard z.isFinite, p.x.isFinite, p.y.isFinite else { return }
        // Re-anchor in world units: the anchor's world point is zoom independent, so solving
        // screenPoint(anchor) == p for the centre after the zoom keeps it exactly in place.
        let anchor = worldPoint(at: p)
        zoom = z
        place(anchor, at: p)
    }

    /// Centres `region` in the view and picks the largest zoom that shows all of it inside the
    /// view inset by `padding` px on every side (within minZoom…maxZoom).
    ///
    /// The region's latitude extent is clamped to ±85.0511°; a longitude extent that crosses
    /// the antimeridian is fine. When the padding leaves no room it is ignored. At a bearing
    /// the region's box is turned on screen, and the turned box is what has to fit.
    public mutating func fit(_ region: CoordinateRegion, padding: Double) {
        let c = region.center
        guard c.latitude.isFinite, c.longitude.isFinite,
              region.latitudeDelta.isFinite, region.longitudeDelta.isFinite else { return }
        let latDelta = abs(region.latitudeDelta), lonDelta = min(abs(region.longitudeDelta), 360)
        let north = WebMercator.world(Coordinate(latitude: c.latitude + latDelta / 2, longitude: c.longitude))
        let south = WebMercator.world(Coordinate(latitude: c.latitude - latDelta / 2, longitude: c.longitude))
        let worldWidth = lonDelta / 360 * WebMercator.tileSize
        let worldHeight = south.y - north.y

        let pad = padding.isFinite ? max(padding, 0) : 0
        var availableWidth = viewWidth - 2 * pad, availableHeight = viewHeight - 2 * pad
        if availableWidth <= 0 || availableHeight <= 0 {
            availableWidth = viewWidth
            availableHeight = viewHeight
        }
        // A zero-size region (one point) or a zero-size view fits at any zoom: keep the zoom.
        let (cosB, sinB) = Self.cosSin(degrees: bearing)
        let boxWidth = abs(cosB) * worldWidth + abs(sinB) * worldHeight
        let boxHeight = abs(sinB) * worldWidth + abs(cosB) * worldHeight
        var scales: [Double] = []
        if boxWidth > 0, availableWidth > 0 { scales.append(availableWidth / boxWidth) }
        if boxHeight > 0, availableHeight > 0 { scales.append(availableHeight / boxHeight) }
        if let scale = scales.min() { zoom = log2(scale) }
        // Centre on the middle of the projected box, not on region.center: Mercator stretches
        // the northern half of a region more than the southern half.
        center = WorldPoint(x: WebMercator.world(c).x, y: (north.y + south.y) / 2)
    }
}
