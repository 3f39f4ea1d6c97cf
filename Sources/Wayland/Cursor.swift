import CWaylandClient
import CWaylandCursor
import Glibc

/// The arrow cursor from the user's cursor theme (libwayland-cursor), at the output scale.
final class Cursor {
    private let compositor: OpaquePointer
    private let shm: OpaquePointer
    private var theme: OpaquePointer?
    private var surface: OpaquePointer?
    private var loadedScale: Int32 = 0
    private var image: UnsafeMutablePointer<wl_cursor_image>?

    init(compositor: OpaquePointer, shm: OpaquePointer) {
        self.compositor = compositor
        self.shm = shm
    }

    private func load(scale: Int32) {
        guard scale != loadedScale else { return }
        if let theme { wl_cursor_theme_destroy(theme) }
        loadedScale = scale
        let size = Int32(getenv("XCURSOR_SIZE").flatMap { Int32(String(cString: $0)) } ?? 24)
        theme = wl_cursor_theme_load(getenv("XCURSOR_THEME"), max(8, min(size, 256)) * scale, shm)
        image = nil
        guard let theme else { return }
        for name in ["left_ptr", "default", "arrow"] {
            if let cursor = wl_cursor_theme_get_cursor(theme, name), cursor.pointee.image_count > 0,
               let first = cursor.pointee.images?[0] {
                image = first
                break
            }
        }
        if surface == nil { surface = wl_compositor_create_surface(compositor) }
    }

    /// Sets the cursor on `pointer` (to be called on every enter, with its serial).
    func apply(to pointer: OpaquePointer, serial: UInt32, scale: Int32 = 1) {
        load(scale: scale)
        guard let image, let surface, let buffer = wl_cursor_image_get_buffer(image) else {
            // No theme installed: leave the compositor's default rather than show nothing.
            return
        }
        wl_pointer_set_cursor(pointer, serial, surface, Int32(image.pointee.hotspot_x) / scale,
                              Int32(image.pointee.hotspot_y) / scale)
        wl_surface_set_buffer_scale(surface, scale)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface)
    }

    func destroy() {
        if let surface { wl_surface_destroy(surface) }
        if let theme { wl_cursor_theme_destroy(theme) }
    }
}
