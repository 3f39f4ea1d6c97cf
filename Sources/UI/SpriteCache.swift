import CCairo
import Gestures

/// Small images drawn once and then composited at whole device pixels, for what the page draws
/// over the map on every frame (pins, zoom buttons): cairo's antialiased fills under the map's
/// rounded clip cost far more than copying an image (LATENCY.md, "Cheaper warm pan frames").
/// `Key` names a look, the buffer scale and the sub-pixel phase the image was drawn at, so that
/// compositing it at a whole pixel puts the drawing where it belongs to the phase's precision.
/// The cache is emptied when it holds `limit` images (a key per phase keeps it small).
final class SpriteCache<Key: Hashable> {
    private struct Sprite {
        let surface: OpaquePointer
        let margin: Int
    }

    private var sprites: [Key: Sprite] = [:]
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    deinit { removeAll() }

    private func removeAll() {
        for s in sprites.values { cairo_surface_destroy(s.surface) }
        sprites.removeAll()
    }

    /// Composites `key`'s image with its top left corner `margin` device pixels up and left of
    /// the device pixel (`x`, `y`). A new key's image (`width` x `height` device pixels) is drawn
    /// first: `draw` gets a context whose user space is the caller's at `scale`, with its origin
    /// `margin` pixels in from the image's corner plus `phase` (device pixels). False when the
    /// image cannot be made (the caller draws the thing itself).
    func composite(_ key: Key, into cr: OpaquePointer, x: Int, y: Int, width: Int, height: Int, margin: Int,
                   phase: (x: Double, y: Double), scale: Double, draw: (OpaquePointer) -> Void) -> Bool {
        guard let sprite = sprites[key] ?? make(key, width: width, height: height, margin: margin, phase: phase,
                                                scale: scale, draw: draw) else { return false }
        let w = Double(cairo_image_surface_get_width(sprite.surface)), h = Double(cairo_image_surface_get_height(sprite.surface))
        cairo_save(cr)
        cairo_identity_matrix(cr)
        let left = Double(x - sprite.margin), top = Double(y - sprite.margin)
        cairo_set_source_surface(cr, sprite.surface, left, top)
        cairo_rectangle(cr, left, top, w, h)
        cairo_fill(cr)
        cairo_restore(cr)
        return true
    }

    private func make(_ key: Key, width: Int, height: Int, margin: Int, phase: (x: Double, y: Double), scale: Double,
                      draw: (OpaquePointer) -> Void) -> Sprite? {
        if sprites.count >= limit { removeAll() }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let sc = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_translate(sc, Double(margin) + phase.x, Double(margin) + phase.y)
        cairo_scale(sc, scale, scale)
        draw(sc)
        cairo_destroy(sc)
        cairo_surface_flush(surface)
        let sprite = Sprite(surface: surface, margin: margin)
        sprites[key] = sprite
        return sprite
    }
}

/// Where a sprite goes: a cairo context's device pixels, when its transform allows a sprite.
enum DeviceSpace {
    /// The scale from user space to device pixels when `cr`'s transform is a plain scale (up to
    /// 8) and translation; nil otherwise, and then the caller draws the thing itself.
    static func scale(_ cr: OpaquePointer) -> Double? {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.xx == m.yy, m.xx <= 8 else { return nil }
        return m.xx
    }

    /// `p` (user space) in device pixels; nil when it is not finite or is far outside any buffer.
    static func point(_ cr: OpaquePointer, _ p: Point) -> (x: Double, y: Double)? {
        var x = p.x, y = p.y
        cairo_user_to_device(cr, &x, &y)
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return nil }
        return (x, y)
    }
}
