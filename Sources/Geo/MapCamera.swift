#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the map shows: a centre in Web Mercator world units, a zoom level, a bearing and the
/// view size.
///
/// All state is kept in world units (`Double`), never in degrees, because Mercator y is not
/// linear in latitude: panning by adding degree deltas (the usual MapKit snippet) lets the
/// map slip under the finger by over 100 px at z4 (docs/MAP-ENGINE.md, "Geo").
///
/// Invariants, restored after every change:
/// - `center.x` lies in [0, 256): the world repeats east and west.
/// - `center.y` obeys `verticalBounds` (by default the view never shows past the poles).
/// - `zoom` lies in `minZoom…maxZoom`; a non-finite value is ignored.
/// - `bearing` lies in [0, 360); a non-finite value is ignored.
///
/// Every conversion between screen and world honours the bearing: the world is turned
/// counter-clockwise on screen by `bearing` degrees about the view's centre.
public struct MapCamera: Sendable, Equatable {
    /// How far north and south the centre may go.
    public enum VerticalBounds: Sendable, Equatable {
        /// The view stays inside the world (±85.0511° at its top and bottom edges) whenever
        /// the world is taller than the view; otherwise the world is centred vertically.
        case viewInsideWorld
        /// Only the centre is kept inside ±85.0511°; the view may show space past the poles.
        case centerLatitude
    }

    private var storedCenter: WorldPoint
    private var storedZoom: Double
    private var storedSize: ViewSize
    private var storedMinZoom: Double
    private var storedMaxZoom: Double
    private var storedBounds: VerticalBounds
    private var storedBearing = 0.0
    /// cos and sin of the bearing, exact at multiples of 90° so a quarter turn maps whole
    /// pixels to whole pixels.
    private var bearingCos = 1.0
    private var bearingSin = 0.0

    /// A camera looking at `center` at `zoom` (256-px tiles) in a view of `size` logical px.
    public init(
        center: Coordinate, zoom: Double, size: ViewSize,
        minZoom: Double = 0, maxZoom: Double = 22, verticalBounds: VerticalBounds = .viewInsideWorld,
        bearing: Double = 0
    ) {
        storedMinZoom = minZoom.isFinite ? max(minZoom, 0) : 0
        storedMaxZoom = maxZoom.isFinite ? max(maxZoom, storedMinZoom) : max(22, storedMinZoom)
        storedZoom = zoom.isFinite ? zoom : storedMinZoom
        storedSize = size
        storedBounds = verticalBounds
        storedCenter = WebMercator.world(center)
        normalize()
        self.bearing = bearing
    }

    // MARK: State

    /// The point of the world at the view's centre; x is wrapped into [0, 256).
    public var center: WorldPoint {
        get { storedCenter }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            storedCenter = newValue
            normalize()
        }
    }

    /// The zoom level: the world is `256 · 2^zoom` logical px wide.
    public var zoom: Double {
        get { storedZoom }
        set {
            guard newValue.isFinite else { return }
            storedZoom = newValue
            normalize()
        }
    }

    /// The view size in logical px; negative or non-finite sides count as 0.
    public var size: ViewSize {
        get { storedSize }
        set {
            storedSize = newValue
            normalize()
        }
    }

    /// The smallest zoom the camera accepts (at least 0).
    public var minZoom: Double {
        get { storedMinZoom }
        set {
            guard newValue.isFinite else { return }
            storedMinZoom = max(newValue, 0)
            storedMaxZoom = max(storedMaxZoom, storedMinZoom)
            normalize()
        }
    }

    /// The largest zoom the camera accepts (never below `minZoom`).
    public var maxZoom: Double {
        get { storedMaxZoom }
        set {
            guard newValue.isFinite else { return }
            storedMaxZoom = max(newValue, storedMinZoom)
            normalize()
        }
    }

    /// How far north and south the centre may go.
    public var verticalBounds: VerticalBounds {
        get { storedBounds }
        set {
            storedBounds = newValue
            normalize()
        }
    }

    /// The compass direction that points up on screen, in degrees clockwise from north, in
    /// [0, 360) (MapLibre's `bearing`; 90: east is up). Setting it turns the map about the view's
    /// centre; `setBearing(_:around:)` turns it about another point.
    public var bearing: Double {
        get { storedBearing }
        set {
            guard newValue.isFinite else { return }
            var b = newValue.truncatingRemainder(dividingBy: 360)
            if b < 0 { b += 360 }
            if b >= 360 { b = 0 }
            storedBearing = b
            (bearingCos, bearingSin) = Self.cosSin(degrees: b)
            normalize()
        }
    }

    /// cos and sin of `degrees` in [0, 360), exact at the four quarter turns.
    static func cosSin(degrees: Double) -> (Double, Double) {
        switch degrees {
        case 0: return (1, 0)
        case 90: return (0, 1)
        case 180: return (-1, 0)
        case 270: return (0, -1)
        default:
            let r = degrees * .pi / 180
            return (cos(r), sin(r))
        }
    }

    /// A screen vector (px) turned into world axes and divided by the scale: the world offset
    /// from the view's centre of the point `v` px away from it on screen.
    func worldOffset(ofScreen v: ScreenPoint) -> WorldPoint {
        let k = worldScale
        return WorldPoint(x: (bearingCos * v.x - bearingSin * v.y) / k, y: (bearingSin * v.x + bearingCos * v.y) / k)
    }

    /// A world offset turned into screen axes and scaled to px (the inverse of `worldOffset`).
    func screenOffset(ofWorld d: WorldPoint) -> ScreenPoint {
        let k = worldScale
        return ScreenPoint(x: (bearingCos * d.x + bearingSin * d.y) * k, y: (bearingCos * d.y - bearingSin * d.x) * k)
    }

    /// The coordinate at the view's centre.
    public var centerCoordinate: Coordinate { WebMercator.coordinate(storedCenter) }

    /// Screen px per zoom-0 world unit: `2^zoom`.
    public var worldScale: Double { exp2(storedZoom) }

    /// The world's width (and height) in logical px at the current zoom.
    public var worldPixelSize: Double { WebMercator.tileSize * worldScale }

    // MARK: Conversions

    /// Where `w` appears on screen, taken literally: no world copy is chosen for you.
    public func screenPoint(ofWorld w: WorldPoint) -> ScreenPoint {
        let d = screenOffset(ofWorld: WorldPoint(x: w.x - storedCenter.x, y: w.y - storedCenter.y))
        return ScreenPoint(x: d.x + viewWidth / 2, y: d.y + viewHeight / 2)
    }

    /// Where `c` appears on screen, on the copy of the world whose `c` is nearest the view's
    /// centre (so a place just across the antimeridian is drawn next to the view, not 360° away).
    public func screenPoint(of c: Coordinate) -> ScreenPoint {
        var w = WebMercator.world(c)
        let half = WebMercator.tileSize / 2
        w.x = storedCenter.x + WebMercator.wrap(w.x - storedCenter.x + half, period: WebMercator.tileSize) - half
        return screenPoint(ofWorld: w)
    }

    /// The world point under `p`, unwrapped: x may lie outside 0…256 on a neighbouring copy.
    public func worldPoint(at p: ScreenPoint) -> WorldPoint {
        let d = worldOffset(ofScreen: ScreenPoint(x: p.x - viewWidth / 2, y: p.y - viewHeight / 2))
        return WorldPoint(x: storedCenter.x + d.x, y: storedCenter.y + d.y)
    }

    /// The coordinate under `p`: longitude wrapped into [-180, 180), latitude clamped to ±85.0511°.
    public func coordinate(at p: ScreenPoint) -> Coordinate {
        WebMercator.coordinate(worldPoint(at: p))
    }

    /// The view's extent in degrees, for the state dump: the north-to-south extent of the
    /// visible rectangle (clamped to the world) and its west-to-east extent (at most 360).
    /// Unrotated that is latitude from the bottom to the top edge and longitude across the
    /// width; rotated it is the box around the turned rectangle.
    public var span: (latitudeDelta: Double, longitudeDelta: Double) {
        let extent = worldExtent
        let top = WebMercator.coordinate(WorldPoint(x: storedCenter.x, y: storedCenter.y - extent.height / 2)).latitude
        let bottom = WebMercator.coordinate(WorldPoint(x: storedCenter.x, y: storedCenter.y + extent.height / 2)).latitude
        let longitudeDelta = min(extent.width / WebMercator.tileSize * 360, 360)
        return (top - bottom, longitudeDelta)
    }

    /// The width and height, in world units, of the axis-aligned box around the visible
    /// rectangle (the view itself when unrotated).
    public var worldExtent: (width: Double, height: Double) {
        let c = abs(bearingCos), s = abs(bearingSin), k = worldScale
        return ((c * viewWidth + s * viewHeight) / k, (s * viewWidth + c * viewHeight) / k)
    }

    // MARK: Normalization

    /// The view width in px, 0 when the stored size is negative or not finite.
    var viewWidth: Double { Self.sanitized(storedSize.width) }
    /// The view height in px, 0 when the stored size is negative or not finite.
    var viewHeight: Double { Self.sanitized(storedSize.height) }

    private static func sanitized(_ length: Double) -> Double {
        length.isFinite ? max(length, 0) : 0
    }

    /// Restores the invariants listed on the type.
    private mutating func normalize() {
        storedZoom = min(max(storedZoom, storedMinZoom), storedMaxZoom)
        storedCenter.x = WebMercator.wrappedWorldX(storedCenter.x)
        storedCenter.y = clampedCenterY(storedCenter.y)
    }

    /// `y` limited as `verticalBounds` says, at the current zoom and size.
    func clampedCenterY(_ y: Double) -> Double {
        let world = WebMercator.tileSize
        switch storedBounds {
        case .centerLatitude:
            return min(max(y, 0), world)
        case .viewInsideWorld:
            // The rotated view's vertical reach: its box, so no corner shows past a pole.
            let halfView = (abs(bearingSin) * viewWidth + abs(bearingCos) * viewHeight) / 2 / worldScale
            if halfView * 2 >= world { return world / 2 }
            return min(max(y, halfView), world - halfView)
        }
    }
}
