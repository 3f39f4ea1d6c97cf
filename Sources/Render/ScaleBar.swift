import CCairo
import Geo
#if canImport(Glibc)
import Glibc
#endif

/// The scale bar in the bottom-left corner: a round distance (1, 2 or 5 × 10ⁿ metres) at most
/// `maxLength` logical px long, measured at the centre latitude.
public enum ScaleBar {
    /// Ground metres per screen pixel at zoom 0 on the equator: 2π · 6 378 137 m / 256 px.
    public static let metresPerPixelAtZoom0 = 2 * Double.pi * 6_378_137 / 256
    public static let maxLength = 100.0
    static let margin = 12.0

    /// Ground metres one logical pixel spans at the view's centre (Web Mercator stretches
    /// distances by 1/cos(latitude)).
    public static func metresPerPixel(_ camera: MapCamera) -> Double {
        metresPerPixelAtZoom0 * cos(camera.centerCoordinate.latitude * Double.pi / 180) / camera.worldScale
    }

    /// The bar's distance in metres and its length in logical px.
    public static func measure(_ camera: MapCamera) -> (metres: Double, length: Double) {
        let mpp = metresPerPixel(camera)
        guard mpp > 0, mpp.isFinite else { return (0, 0) }
        let longest = mpp * maxLength
        let decade = pow(10, (log10(longest)).rounded(.down))
        let metres = [5.0, 2, 1].map { $0 * decade }.first { $0 <= longest } ?? decade
        return (metres, metres / mpp)
    }

    /// "500 m", "2 km", "1000 km".
    public static func label(metres: Double) -> String {
        metres >= 1000 ? "\(Int((metres / 1000).rounded())) km" : "\(Int(metres.rounded())) m"
    }

    /// Draws the bar into `cr` (user space: logical px, view origin at 0,0), from `cache`.
    static func draw(for camera: MapCamera, into cr: OpaquePointer, scale: Double, cache: OverlayCache) {
        let (metres, length) = measure(camera)
        guard length > 1 else { return }
        let text = label(metres: metres)
        // Half-pixel steps of length: a pinch redraws the bar a few times, not every frame.
        let drawnLength = (length * 2).rounded() / 2
        let width = drawnLength + 8, height = 22.0
        guard let image = cache.image(key: "scalebar|\(text)|\(drawnLength)", width: width, height: height, scale: scale, draw: { cr in
            drawBar(text: text, length: drawnLength, x: 3, y: height - 3, into: cr)
        }) else { return }
        OverlayCache.blit(image, x: margin - 3, y: camera.size.height - margin - height + 3, into: cr)
    }

    /// The bar itself: ticks at both ends, a white halo under a dark line, the distance above.
    static func drawBar(text: String, length: Double, x: Double, y: Double, into cr: OpaquePointer) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        for (width, gray) in [(4.0, 1.0), (1.5, 0.25)] {
            cairo_move_to(cr, x, y - 6)
            cairo_line_to(cr, x, y)
            cairo_line_to(cr, x + length, y)
            cairo_line_to(cr, x + length, y - 6)
            cairo_set_line_width(cr, width)
            cairo_set_source_rgb(cr, gray, gray, gray)
            cairo_stroke(cr)
        }
        OverlayText.draw(text, x: x + 4, baseline: y - 5, size: 11, into: cr)
    }
}

/// Small haloed text over the map with cairo's toy text API.
enum OverlayText {
    static func draw(_ text: String, x: Double, baseline: Double, size: Double, into cr: OpaquePointer) {
        cairo_select_font_face(cr, LabelFonts.fallbackFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        cairo_move_to(cr, x, baseline)
        cairo_text_path(cr, text)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, 3)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_stroke_preserve(cr)
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
        cairo_fill(cr)
    }

    static func width(_ text: String, size: Double, in cr: OpaquePointer) -> Double {
        cairo_select_font_face(cr, LabelFonts.fallbackFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, text, &ext)
        return ext.x_advance
    }
}
