import CCairo

/// Anti-aliased lines of about one device pixel drawn straight into an RGB24 image with
/// Xiaolin Wu's algorithm, bypassing cairo's stroker.
///
/// Thin strokes (borders, coastlines, minor roads at low zoom) are most of a tile's cost in
/// cairo 1.16: its stroker builds a polygon outline for every segment. The reference measured
/// a Wu hairline at a quarter of that cost and visually equivalent; here removing thin strokes
/// halved a cold screen, so drawing them this way keeps most of that. Lines thinner than a
/// pixel are drawn fainter (coverage × width), which is how a thin line looks when cairo
/// draws it.
struct HairlineCanvas {
    private let data: UnsafeMutablePointer<UInt32>
    /// Row length in pixels (cairo's stride / 4).
    private let rowPixels: Int
    let width: Int
    let height: Int
    /// The pixels drawn (an edge tile's visible part; the whole image by default): the others
    /// are left as they are, the ones inside get the same values as without it.
    var area: TileArea

    /// A canvas over `surface`'s pixels; nil unless it is a 32-bit image surface.
    /// Call `cairo_surface_flush` before drawing and `cairo_surface_mark_dirty` after.
    init?(surface: OpaquePointer) {
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32,
              let raw = cairo_image_surface_get_data(surface) else { return nil }
        data = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt32.self)
        rowPixels = Int(cairo_image_surface_get_stride(surface)) / 4
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        area = TileArea(x0: 0, y0: 0, x1: width, y1: height)
    }

    /// Blends `color` (0xRRGGBB) at `alpha` (0…1) into the pixel at column `x`, row `y`.
    @inline(__always)
    private func plot(_ x: Int, _ y: Int, _ color: UInt32, _ alpha: Double) {
        guard x >= area.x0, y >= area.y0, x < area.x1, y < area.y1, alpha > 0 else { return }
        let a = UInt32(min(alpha, 1) * 256)
        let p = data + (y * rowPixels + x)
        let d = p.pointee
        // Per channel: d + (c − d)·a/256, done on red+blue and green in parallel lanes.
        let drb = d & 0xFF00FF, dg = d & 0x00FF00
        let crb = color & 0xFF00FF, cg = color & 0x00FF00
        let rb = (drb &* (256 - a) &+ crb &* a) >> 8 & 0xFF00FF
        let g = (dg &* (256 - a) &+ cg &* a) >> 8 & 0x00FF00
        p.pointee = 0xFF00_0000 | rb | g
    }

    /// One segment in device pixels (cairo's convention: pixel centres at +0.5).
    func segment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, color: UInt32, alpha: Double) {
        // Wu's pixels lie within 2 px of the segment's box: one wholly outside the drawn area
        // plots nothing (NaN ends fail the test and go on, as before).
        if max(ax, bx) < Double(area.x0) - 3 || min(ax, bx) > Double(area.x1) + 3
            || max(ay, by) < Double(area.y0) - 3 || min(ay, by) > Double(area.y1) + 3 { return }
        // Wu's algorithm puts pixel centres on integers.
        var x0 = ax - 0.5, y0 = ay - 0.5, x1 = bx - 0.5, y1 = by - 0.5
        let steep = abs(y1 - y0) > abs(x1 - x0)
        if steep { swap(&x0, &y0); swap(&x1, &y1) }
        if x0 > x1 { swap(&x0, &x1); swap(&y0, &y1) }
        let dx = x1 - x0, dy = y1 - y0
        let gradient = dx < 1e-9 ? 1 : dy / dx
        // The major axis' extent on the canvas; skip what lies outside it.
        let limit = Double((steep ? height : width) + 1)
        guard x1 >= -1, x0 <= limit else { return }
        let xs = max(x0, -1), xe = min(x1, limit)
        let ys = y0 + gradient * (xs - x0)
        // Lines: the cross-axis weights; a pixel gets (1 − frac) above and frac below.
        let first = Int(Self.roundedHalfAway(xs)), last = Int(Self.roundedHalfAway(xe))
        guard first <= last else { return }
        if first == last {
            // A segment shorter than a pixel: one dab weighted by its length.
            let y = ys + gradient * (Double(first) - xs)
            dab(first, y, steep, color, alpha * max(xe - xs, 0))
            return
        }
        // End pixels get the part of the segment that falls in them.
        dab(first, ys + gradient * (Double(first) - xs), steep, color, alpha * (Double(first) + 0.5 - xs))
        dab(last, ys + gradient * (Double(last) - xs), steep, color, alpha * (xe - (Double(last) - 0.5)))
        var y = ys + gradient * (Double(first + 1) - xs)
        var x = first + 1
        while x < last {
            dab(x, y, steep, color, alpha)
            y += gradient
            x += 1
        }
    }

    /// `v.rounded()` (half away from zero) without the C library call it compiles to, which
    /// was a tenth of a segment's cost; exact for |v| < 2^52 (the canvas' few thousand px).
    @inline(__always)
    static func roundedHalfAway(_ v: Double) -> Double {
        let t = v.rounded(.towardZero)
        let d = v - t
        return d >= 0.5 ? t + 1 : d <= -0.5 ? t - 1 : t
    }

    @inline(__always)
    private func dab(_ major: Int, _ minor: Double, _ steep: Bool, _ color: UInt32, _ alpha: Double) {
        let base = minor.rounded(.down)
        let frac = minor - base
        let m = Int(base)
        if steep {
            plot(m, major, color, alpha * (1 - frac))
            plot(m + 1, major, color, alpha * frac)
        } else {
            plot(major, m, color, alpha * (1 - frac))
            plot(major, m + 1, color, alpha * frac)
        }
    }
}
