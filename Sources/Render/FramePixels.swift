import CCairo

/// A frame's pixels written straight through pixman, past cairo: what a warm pan frame is made
/// of (tile copies and label blits), when the frame is a plain image surface drawn through an
/// identity matrix with no device offset or scale, the OVER operator and a clip of one
/// whole-pixel rectangle (otherwise `init` gives nil and the caller draws through cairo).
///
/// Each call ends in the same pixman operation cairo's own drawing of it ends in, so the pixels
/// are the same (RenderTests compare the two frame by frame), without cairo's state, path, clip
/// and compositor work per call:
/// - `over`: a label image (premultiplied ARGB) with OVER;
/// - `copy`: an opaque image (RGB24, a tile or a kept turned frame) at whole pixels, which
///   cairo's OVER reduces to pixman's SRC copy.
///
/// Call `markDirty()` before cairo draws into the frame again, and `finish()` when done.
final class FramePixels {
    /// A whole-pixel box, device px, ends exclusive.
    struct Box: Sendable, Equatable {
        var x0: Int32, y0: Int32, x1: Int32, y1: Int32
        func meets(_ b: Box) -> Bool { x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1 }
        func contains(_ b: Box) -> Bool { x0 <= b.x0 && y0 <= b.y0 && b.x1 <= x1 && b.y1 <= y1 }
    }

    /// What a caller knows of a clip cairo cannot list as rectangles (the live window's map,
    /// clipped by its rounded corners): inside `inside` and outside every box of `avoiding`
    /// the clip covers every pixel wholly. A copy or blit whose part within the clip's extents
    /// lies there goes straight into the pixels; any other is left to cairo (`copy` and `over`
    /// return false), which draws it under the real clip.
    struct Trust: Sendable {
        var inside: Box
        var avoiding: [Box]
        /// Whether straight writes may go to `box` (within the clip's extents).
        func allows(_ box: Box) -> Bool { inside.contains(box) && !avoiding.contains(where: { $0.meets(box) }) }
    }

    private let surface: OpaquePointer
    private let image: OpaquePointer
    private let data: UnsafeMutablePointer<UInt32>
    private let width: Int32, height: Int32, stride: Int32
    private let format: pixman_format_code_t
    /// The clip, device px (whole), inside the image.
    private let clip: Box
    /// With a `Trust`: where straight writes may go (nil: all of `clip`).
    private let trust: Trust?
    private var dirty = false
    /// The clip is one whole-pixel rectangle (no `Trust`): every pixel is wholly in or out.
    var clipIsOneRectangle: Bool { trust == nil }
    /// How many copies went straight into the pixels (tests: the frame went this way).
    private(set) var copyCount = 0

    /// - Parameter trust: for a clip that is not one rectangle, what the caller knows of it;
    ///   nil: the clip must be one whole-pixel rectangle.
    init?(_ cr: OpaquePointer, trust: Trust? = nil) {
        guard cairo_get_operator(cr) == CAIRO_OPERATOR_OVER, let target = cairo_get_group_target(cr),
              cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE, cairo_surface_status(target) == CAIRO_STATUS_SUCCESS
        else { return nil }
        let format: pixman_format_code_t
        switch cairo_image_surface_get_format(target) {
        case CAIRO_FORMAT_ARGB32: format = PIXMAN_a8r8g8b8
        case CAIRO_FORMAT_RGB24: format = PIXMAN_x8r8g8b8
        default: return nil
        }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0 == 0, m.y0 == 0 else { return nil }
        var ox = 0.0, oy = 0.0, sx = 0.0, sy = 0.0
        cairo_surface_get_device_offset(target, &ox, &oy)
        cairo_surface_get_device_scale(target, &sx, &sy)
        guard ox == 0, oy == 0, sx == 1, sy == 1 else { return nil }
        var r = cairo_rectangle_t()
        if trust != nil {
            // The pixels the clip may touch at all, whole ones.
            var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
            cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
            guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else { return nil }
            r = cairo_rectangle_t(x: x0.rounded(.down), y: y0.rounded(.down), width: x1.rounded(.up) - x0.rounded(.down),
                                  height: y1.rounded(.up) - y0.rounded(.down))
        } else {
            guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
            defer { cairo_rectangle_list_destroy(list) }
            guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1, let one = list.pointee.rectangles?.pointee,
                  one.x == one.x.rounded(), one.y == one.y.rounded(), one.width == one.width.rounded(), one.height == one.height.rounded(),
                  abs(one.x) < 1e9, abs(one.y) < 1e9, one.width < 1e9, one.height < 1e9
            else { return nil }
            r = one
        }
        let w = cairo_image_surface_get_width(target), h = cairo_image_surface_get_height(target)
        let stride = cairo_image_surface_get_stride(target)
        cairo_surface_flush(target)
        guard let bytes = cairo_image_surface_get_data(target) else { return nil }
        let data = UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: UInt32.self)
        guard let image = pixman_image_create_bits(format, w, h, data, stride) else { return nil }
        surface = target
        self.image = image
        self.data = data
        width = w
        height = h
        self.stride = stride
        self.format = format
        self.trust = trust
        clip = Box(x0: max(Int32(r.x), 0), y0: max(Int32(r.y), 0), x1: min(Int32(r.x + r.width), w), y1: min(Int32(r.y + r.height), h))
    }

    deinit { pixman_image_unref(image) }

    /// The `ink` rectangles of `source` (premultiplied ARGB; outside them every pixel is clear,
    /// which OVER leaves the frame as it is) over the frame with the source's top-left at
    /// (x, y), device px (whole), cut to the clip.
    /// False, and nothing drawn, when part of it lies where a `Trust` does not reach.
    @discardableResult
    func over(_ source: OpaquePointer, ink: [LabelLayer.LabelImage.Ink], x: Double, y: Double) -> Bool {
        let c = (x0: Double(clip.x0), y0: Double(clip.y0), x1: Double(clip.x1), y1: Double(clip.y1))
        if trust != nil {
            for r in ink {
                let x0 = max(x + Double(r.x0), c.x0), y0 = max(y + Double(r.y0), c.y0)
                let x1 = min(x + Double(r.x1), c.x1), y1 = min(y + Double(r.y1), c.y1)
                guard x1 > x0, y1 > y0 else { continue }
                guard trusted(Box(x0: Int32(x0), y0: Int32(y0), x1: Int32(x1), y1: Int32(y1))) else { return false }
            }
        }
        for r in ink {
            let x0 = max(x + Double(r.x0), c.x0), y0 = max(y + Double(r.y0), c.y0)
            let x1 = min(x + Double(r.x1), c.x1), y1 = min(y + Double(r.y1), c.y1)
            guard x1 > x0, y1 > y0 else { continue }
            pixman_image_composite32(PIXMAN_OP_OVER, source, nil, image, Int32(x0 - x), Int32(y0 - y), 0, 0,
                                     Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
            dirty = true
        }
        return true
    }

    /// Whether `box` (within the clip's extents) lies where the `Trust` lets pixels be written.
    private func trusted(_ box: Box) -> Bool { trust?.allows(box) ?? true }

    /// Copies the opaque `source` with its top-left at whole device px (x, y), cut to
    /// the clip: the pixels cairo's fill of that rectangle with the image (nearest pixel, whole
    /// offset, OVER) leaves. False, and nothing queued, when `source` is not opaque RGB24 or the
    /// place is not a whole pixel: draw it through cairo.
    func copy(_ source: RasterImage, x: Double, y: Double) -> Bool {
        guard let wrote = writer.copy(source, x: x, y: y, into: image) else { return false }
        if wrote {
            dirty = true
            copyCount += 1
        }
        return true
    }

    /// The frame's pixels for copies from other threads (`Writer`), while this thread leaves
    /// the frame alone; call `markDirty()` (or `finish()`) after them.
    var writer: Writer { Writer(data: UInt(bitPattern: data), width: width, height: height, stride: stride, format: format, clip: clip, trust: trust) }

    /// Copies of opaque images into the frame's pixels from any thread, as `FramePixels.copy`
    /// makes them: several threads may copy at once into boxes that do not meet. cairo must
    /// not draw into the frame meanwhile.
    struct Writer: Sendable {
        /// The pixels' address (an integer: raw pointers are not Sendable).
        fileprivate let data: UInt
        fileprivate let width: Int32, height: Int32, stride: Int32
        fileprivate let format: pixman_format_code_t
        fileprivate let clip: Box
        fileprivate let trust: Trust?

        /// `FramePixels.copy`'s copy: nil when `source` cannot be copied (not opaque RGB24, not
        /// at a whole pixel, or reaching where a `Trust` does not: draw it through cairo), false
        /// when nothing of it lies in the clip, true when it was copied. Into `frame` (a pixman
        /// image of the pixels) when given, otherwise through one of its own.
        func copy(_ source: RasterImage, x: Double, y: Double, into frame: OpaquePointer? = nil) -> Bool? {
            guard cairo_image_surface_get_format(source.surface) == CAIRO_FORMAT_RGB24, x == x.rounded(), y == y.rounded(),
                  abs(x) < 1e9, abs(y) < 1e9 else { return nil }
            let ix = Int32(x), iy = Int32(y)
            let x0 = max(ix, clip.x0), y0 = max(iy, clip.y0)
            let x1 = min(ix + Int32(source.width), clip.x1), y1 = min(iy + Int32(source.height), clip.y1)
            guard x1 > x0, y1 > y0 else { return false }
            if let trust, !trust.allows(Box(x0: x0, y0: y0, x1: x1, y1: y1)) { return nil }
            cairo_surface_flush(source.surface)
            guard let bytes = cairo_image_surface_get_data(source.surface),
                  let pixels = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(source.width), Int32(source.height),
                                                        UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: UInt32.self),
                                                        cairo_image_surface_get_stride(source.surface))
            else { return nil }
            defer { pixman_image_unref(pixels) }
            if let frame {
                pixman_image_composite32(PIXMAN_OP_SRC, pixels, nil, frame, x0 - ix, y0 - iy, 0, 0, x0, y0, x1 - x0, y1 - y0)
                return true
            }
            guard let address = UnsafeMutablePointer<UInt32>(bitPattern: data),
                  let own = pixman_image_create_bits(format, width, height, address, stride) else { return nil }
            pixman_image_composite32(PIXMAN_OP_SRC, pixels, nil, own, x0 - ix, y0 - iy, 0, 0, x0, y0, x1 - x0, y1 - y0)
            pixman_image_unref(own)
            return true
        }
    }

    /// Tells cairo the pixels changed under it (before it draws into them again).
    func markDirty() {
        guard dirty else { return }
        cairo_surface_mark_dirty(surface)
        dirty = false
    }

    /// Other threads wrote into the pixels through `writer`: tells cairo.
    func wroteElsewhere() {
        dirty = true
        markDirty()
    }

    func finish() { markDirty() }
}

