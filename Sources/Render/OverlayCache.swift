import CCairo
import Synchronization

/// Small pre-drawn overlays (the scale bar, the attribution line), kept as images.
///
/// Text with a halo costs cairo far more than copying its pixels: drawing the two overlays
/// from scratch took 0.3–1 ms a frame, most of a pan frame's budget. Keyed by everything that
/// changes their look, so a frame only redraws an overlay when its text or length changed.
final class OverlayCache: Sendable {
    private let images = Mutex<[String: RasterImage]>([:])
    /// Enough for the overlays of a few views and a pinch's worth of scale-bar lengths.
    static let capacity = 64

    /// The image for `key`, drawn by `draw` (user space: logical px, 0,0 at its top-left) at
    /// buffer `scale` the first time it is asked for; nil when it cannot be allocated.
    func image(key: String, width: Double, height: Double, scale: Double, draw: (OpaquePointer) -> Void) -> RasterImage? {
        let fullKey = "\(key)|\(scale)"
        if let hit = images.withLock({ $0[fullKey] }) { return hit }
        guard let image = RasterImage(width: Int((width * scale).rounded(.up)), height: Int((height * scale).rounded(.up)), opaque: false),
              let cr = cairo_create(image.surface) else { return nil }
        cairo_scale(cr, scale, scale)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(image.surface)
        images.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[fullKey] = image
        }
        return image
    }

    /// Copies `image` with its top-left at logical (x, y) of `cr`, snapped to a device pixel
    /// so the text stays as crisp as it was drawn.
    static func blit(_ image: RasterImage, x: Double, y: Double, into cr: OpaquePointer) {
        var dx = x, dy = y
        cairo_user_to_device(cr, &dx, &dy)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, image.surface, dx.rounded(), dy.rounded())
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
