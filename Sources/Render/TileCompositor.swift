import CCairo
import Style
import Geo
import Tiles

/// Puts raster tiles on screen each frame; the part of `MapRenderer` that runs at 60–120 Hz.
///
/// Every tile lands on a whole-device-pixel rectangle, so neighbours abut without seams and an
/// unscaled tile is a plain copy (pixman's fastest path, about 0.2 ms for a 1920x1200 screen).
/// The two modes differ in how a scaled tile is sampled:
/// - moving: nearest pixel (`CAIRO_FILTER_FAST`), because a bilinear downscale of a full
///   screen costs 8–15 ms (docs/MAP-ENGINE.md, "Render");
/// - settled: the exact sub-pixel position and bilinear filtering for fractional zoom. At an
///   integer zoom the offset stays snapped: a sub-pixel bilinear shift would blur every line
///   to move the map by less than half a device pixel.
struct TileCompositor {
    let cr: OpaquePointer
    /// Device pixels per logical pixel.
    let scale: Double
    /// The view's top-left corner in device pixels.
    let deviceOrigin: (x: Double, y: Double)
    let moving: Bool
    /// The frame's pixels, when tiles drawn at their own size can be copied straight into them
    /// (`FramePixels`); nil: everything through cairo.
    var pixels: FramePixels? = nil

    /// Draws `image` so that it covers the logical rectangle at `origin` with side `size`
    /// (view coordinates), clipped to `clip` when given (also logical, view coordinates).
    func draw(_ image: RasterImage, origin: ScreenPoint, size: Double, clip: (origin: ScreenPoint, size: Double)? = nil) {
        let x = deviceOrigin.x + origin.x * scale, y = deviceOrigin.y + origin.y * scale
        let side = size * scale
        let exactScale = abs(side - Double(image.width)) < 1e-6
        if clip == nil, let pixels, let at = copyPlace(image, origin: origin, size: size), pixels.copy(image, x: at.x, y: at.y) {
            return
        }
        // cairo draws next: it must know of the pixels copied so far.
        pixels?.markDirty()
        cairo_save(cr)
        if let clip {
            let r = snapped(x: deviceOrigin.x + clip.origin.x * scale, y: deviceOrigin.y + clip.origin.y * scale, side: clip.size * scale)
            cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0)
            cairo_clip(cr)
        }
        let pattern = cairo_pattern_create_for_surface(image.surface)
        var m = cairo_matrix_t()
        let r = snapped(x: x, y: y, side: side)
        if moving || exactScale {
            // Whole-pixel placement: the image is stretched onto the snapped rectangle.
            cairo_matrix_init_scale(&m, Double(image.width) / (r.x1 - r.x0), Double(image.height) / (r.y1 - r.y0))
            cairo_matrix_translate(&m, -r.x0, -r.y0)
            cairo_pattern_set_filter(pattern, exactScale ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_FAST)
            cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0)
        } else {
            // Exact placement; the covered pixels are widened to whole ones and the tile's edge
            // pixels padded outwards, so neighbours meet without a see-through seam.
            cairo_matrix_init_scale(&m, Double(image.width) / side, Double(image.height) / side)
            cairo_matrix_translate(&m, -x, -y)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_rectangle(cr, x.rounded(.down), y.rounded(.down),
                            (x + side).rounded(.up) - x.rounded(.down), (y + side).rounded(.up) - y.rounded(.down))
        }
        cairo_pattern_set_matrix(pattern, &m)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        cairo_pattern_destroy(pattern)
        cairo_restore(cr)
    }

    /// Where a tile at its own size lands, on whole device pixels, when `draw` (with no clip)
    /// would copy it as it is: nil when it is scaled.
    func copyPlace(_ image: RasterImage, origin: ScreenPoint, size: Double) -> (x: Double, y: Double)? {
        Self.copyPlace(image, origin: origin, size: size, scale: scale, deviceOrigin: deviceOrigin)
    }

    static func copyPlace(_ image: RasterImage, origin: ScreenPoint, size: Double, scale: Double,
                          deviceOrigin: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        let side = size * scale
        guard abs(side - Double(image.width)) < 1e-6 else { return nil }
        let r = snapped(x: deviceOrigin.x + origin.x * scale, y: deviceOrigin.y + origin.y * scale, side: side)
        guard r.x1 - r.x0 == Double(image.width), r.y1 - r.y0 == Double(image.height) else { return nil }
        return (r.x0, r.y0)
    }

    /// Fills a logical rectangle (view coordinates) with a flat colour, snapped like the tiles.
    func fill(origin: ScreenPoint, size: Double, color: StyleColor) {
        let r = snapped(x: deviceOrigin.x + origin.x * scale, y: deviceOrigin.y + origin.y * scale, side: size * scale)
        pixels?.markDirty()
        cairo_set_source_rgb(cr, color.r, color.g, color.b)
        cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0)
        cairo_fill(cr)
    }

    /// The parts of the frame (device px, whole) that a complete grid of `coverage`'s tiles,
    /// each drawn at its own size over its snapped rectangle, leaves uncovered: the bands
    /// around the grid's box. Nil when a fill of them may differ from a paint of the whole clip
    /// under the tiles: the frame's clip is not one whole-pixel rectangle (cairo blends partly
    /// covered pixels), or the tiles do not form one full grid.
    func uncovered(by coverage: [TileCoverage]) -> [(x0: Double, y0: Double, x1: Double, y1: Double)]? {
        guard let pixels, pixels.clipIsOneRectangle, let first = coverage.first else { return nil }
        var box = snapped(x: deviceOrigin.x + first.origin.x * scale, y: deviceOrigin.y + first.origin.y * scale, side: first.size * scale)
        var columns = (first.unwrappedX, first.unwrappedX), rows = (first.y, first.y)
        for c in coverage {
            guard c.zoom == first.zoom, c.size == first.size else { return nil }
            let r = snapped(x: deviceOrigin.x + c.origin.x * scale, y: deviceOrigin.y + c.origin.y * scale, side: c.size * scale)
            box = (min(box.x0, r.x0), min(box.y0, r.y0), max(box.x1, r.x1), max(box.y1, r.y1))
            columns = (min(columns.0, c.unwrappedX), max(columns.1, c.unwrappedX))
            rows = (min(rows.0, c.y), max(rows.1, c.y))
        }
        // One full grid: every column of every row once (so the tiles abut over the whole box).
        guard coverage.count == (columns.1 - columns.0 + 1) * (rows.1 - rows.0 + 1),
              Set(coverage.map { TilePlace(column: $0.unwrappedX, row: $0.y) }).count == coverage.count else { return nil }
        let far = 1e6  // past any frame, within cairo's fixed-point range
        return [(-far, -far, far, box.y0), (-far, box.y1, far, far), (-far, box.y0, box.x0, box.y1), (box.x1, box.y0, far, box.y1)]
            .filter { $0.x1 > $0.x0 && $0.y1 > $0.y0 }
    }

    private func snapped(x: Double, y: Double, side: Double) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        Self.snapped(x: x, y: y, side: side)
    }

    private static func snapped(x: Double, y: Double, side: Double) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        (x.rounded(), y.rounded(), (x + side).rounded(), (y + side).rounded())
    }
}
