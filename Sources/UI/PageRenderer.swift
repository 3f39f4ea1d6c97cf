import CCairo
import Glibc
import Input
import Geo
import Gestures
import Render

/// Draws the page with cairo: page content scrolled by `scrollY`, the map composited from
/// the tile cache, pins, buttons, the hint and callout, the list, and (on request) every hit area.
public final class PageRenderer {
    /// nil when no map data could be opened: the map area then says so instead of drawing tiles.
    public let map: MapRenderer?
    /// Headless runs draw every tile before showing the frame, so screenshots are exact.
    public let synchronousTiles: Bool
    /// Whether the last frame showed every tile exactly (live: draw again when more land).
    public private(set) var lastFrameComplete = true
    /// What the header says the map shows (the `--data` file's name, else the shipped city).
    public var title = "Helsinki"
    /// The open places document's name: the header shows it, when there is one, instead of `title`.
    public var documentName: String?
    /// A line the user must see (read-only file, a conflict, a failed save), or nil.
    public var notice: String?
    /// The window's width while a frame is drawn, for fitting text.
    private var availableWidth = 0.0

    public init(map: MapRenderer?, synchronousTiles: Bool) {
        self.map = map
        self.synchronousTiles = synchronousTiles
    }

    enum Palette {
        static let page = (r: 0.97, g: 0.96, b: 0.94)
        static let header = (r: 0.13, g: 0.20, b: 0.29)
        static let text = (r: 0.20, g: 0.22, b: 0.25)
        static let muted = (r: 0.45, g: 0.47, b: 0.50)
        static let pin = (r: 0.85, g: 0.22, b: 0.16)
        static let pinSelected = (r: 0.10, g: 0.45, b: 0.85)
        static let focus = (r: 0.10, g: 0.45, b: 0.85)
        static let hitArea = (r: 0.85, g: 0.10, b: 0.60)
    }

    /// Draws the whole window with `cr` in logical pixels (the caller applied the buffer scale).
    public func draw(_ page: MeridianPage, into cr: OpaquePointer) {
        let layout = page.layout
        let scroll = page.scrollY
        availableWidth = layout.windowWidth
        set(cr, Palette.page)
        paintBackground(page, cr)
        cairo_save(cr)
        cairo_translate(cr, 0, -scroll)
        // A partial redraw (a map pan, a scroll's strip) clips: what lies wholly outside the
        // clip is skipped, which draws the same pixels at a fraction of the cost.
        let band = clipBand(cr)
        if band.meets(0, PageLayout.headerHeight) { drawHeader(cr, layout) }
        // The intro's room ends where the map begins; its text ends at its last baseline (a map
        // pan's clip met the room and drew the intro for nothing, 4 % of the frame).
        let introText = PageLayout.introTop + Self.introBaseline + Double(max(layout.introLines.count - 1, 0)) * PageText.lineHeight
        if band.meets(PageLayout.introTop, introText) { drawIntro(cr, layout) }
        drawList(cr, page, band)
        let more = layout.moreContentTop(rows: page.places.count)
        if band.meets(more, layout.contentHeight(rows: page.places.count)) { drawMoreContent(cr, page) }
        cairo_restore(cr)
        let f = page.mapFrameInWindow
        if clipBand(cr).meets(f.minY, f.maxY) { drawMap(page, cr) }
        drawFocus(page, cr)
        if page.showHitAreas { drawHitAreas(page, cr) }
        drawNotice(cr, layout)
        drawUndo(page, cr)
        page.frameDrawn()
    }

    /// Tests: true paints the page's background under the map too, as before (the tiles cover it).
    var paintsPageUnderMap = false

    /// The page's background, except where the map will cover it: inside the map's frame the
    /// tiles are opaque, so of the map's area only the corner squares (where the rounding shows
    /// the page) and the frame's partly covered edge pixels get it. A whole-map fill that the
    /// tiles then covered was 21 % of a warm pan frame's instructions (LATENCY.md).
    private func paintBackground(_ page: MeridianPage, _ cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let f = page.mapFrameInWindow
        guard !paintsPageUnderMap, m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0, f.size.width > 0, f.size.height > 0 else {
            cairo_paint(cr)
            return
        }
        // Device px: the pixels the map's frame covers wholly, and its corners' squares.
        var x0 = f.minX, y0 = f.minY, x1 = f.maxX, y1 = f.maxY
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        let k = min(Self.mapCornerRadius, f.size.width / 2, f.size.height / 2)
        let kx = (k * m.xx).rounded(.up) + 1, ky = (k * m.yy).rounded(.up) + 1
        let ix0 = x0.rounded(.up), iy0 = y0.rounded(.up), ix1 = x1.rounded(.down), iy1 = y1.rounded(.down)
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        guard ix1 - ix0 > 2 * kx, iy1 - iy0 > 2 * ky, [x0, y0, x1, y1, cx0, cy0, cx1, cy1].allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else {
            cairo_paint(cr)
            cairo_restore(cr)
            return
        }
        cx0 = min(cx0.rounded(.down), ix0); cy0 = min(cy0.rounded(.down), iy0)
        cx1 = max(cx1.rounded(.up), ix1); cy1 = max(cy1.rounded(.up), iy1)
        // Around the map (above, below, left, right), then the four corner squares inside it:
        // whole device px that do not overlap, so cairo fills them as boxes.
        let boxes = [(cx0, cy0, cx1, iy0), (cx0, iy1, cx1, cy1), (cx0, iy0, ix0, iy1), (ix1, iy0, cx1, iy1),
                     (ix0, iy0, ix0 + kx, iy0 + ky), (ix1 - kx, iy0, ix1, iy0 + ky),
                     (ix0, iy1 - ky, ix0 + kx, iy1), (ix1 - kx, iy1 - ky, ix1, iy1)]
        for (a, b, c, d) in boxes where c > a && d > b { cairo_rectangle(cr, a, b, c - a, d - b) }
        cairo_fill(cr)
        cairo_restore(cr)
    }

    // MARK: Page content

    private func drawHeader(_ cr: OpaquePointer, _ layout: PageLayout) {
        set(cr, Palette.header)
        cairo_rectangle(cr, 0, 0, layout.windowWidth, PageLayout.headerHeight)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        text(cr, "Meridian", x: PageLayout.margin, y: 46, size: 28, bold: true)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.75)
        text(cr, documentName ?? "\(title), offline", x: PageLayout.margin + 150, y: 46, size: 16)
    }

    /// What is drawn fixed to the window over the page (the notice band, the undo button), in
    /// window px: a scroll copy must redraw it where its moved pixels went and where it is.
    public func fixedRects(_ page: MeridianPage) -> [Rect] {
        let undo = page.editing.undo
        return [noticeBand(page.layout)?.band, undo.isHidden ? nil : undo.frame].compactMap { $0 }
    }

    private static let noticeFont = PageFont(size: 15), noticeLineHeight = 20.0

    /// Where the notice band is drawn (fixed to the window, over the page) and its lines, nil
    /// when there is no notice. The notice wraps to the width, so the band grows on a narrow
    /// window.
    func noticeBand(_ layout: PageLayout) -> (band: Rect, lines: [String])? {
        guard let notice else { return nil }
        let lines = PageText.measuring { cr in
            PageText.wrap(notice, Self.noticeFont, width: layout.windowWidth - 2 * PageLayout.margin, cr)
        }
        let height = 20 + Double(lines.count) * Self.noticeLineHeight
        return (Rect(x: 0, y: layout.windowHeight - height, width: layout.windowWidth, height: height), lines)
    }

    /// A dark band along the bottom of the window, over the page, so it shows wherever it scrolled.
    private func drawNotice(_ cr: OpaquePointer, _ layout: PageLayout) {
        guard let (band, lines) = noticeBand(layout) else { return }
        cairo_set_source_rgba(cr, 0.13, 0.13, 0.13, 0.92)
        cairo_rectangle(cr, band.minX, band.minY, band.size.width, band.size.height)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        for (i, line) in lines.enumerated() {
            text(cr, line, x: PageLayout.margin, y: band.minY + 25 + Double(i) * Self.noticeLineHeight, size: Self.noticeFont.size)
        }
    }

    private func drawIntro(_ cr: OpaquePointer, _ layout: PageLayout) {
        set(cr, Palette.text)
        for (i, line) in layout.introLines.enumerated() {
            text(cr, line, x: PageLayout.margin, y: PageLayout.introTop + Self.introBaseline + Double(i) * PageText.lineHeight,
                 size: PageText.introFont.size)
        }
    }

    /// The intro's first baseline below `PageLayout.introTop`.
    static let introBaseline = 22.0

    /// The rows (user space) the current clip lets through, a few px wider for text that
    /// reaches past its line.
    struct Band {
        var minY: Double, maxY: Double
        func meets(_ top: Double, _ bottom: Double) -> Bool { bottom + 8 > minY && top - 8 < maxY }
    }

    private func clipBand(_ cr: OpaquePointer) -> Band {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return Band(minY: y0, maxY: y1)
    }

    private func drawList(_ cr: OpaquePointer, _ page: MeridianPage, _ band: Band) {
        let layout = page.layout
        set(cr, Palette.text)
        if band.meets(layout.listTop, layout.listTop + PageLayout.listTitleHeight) {
            text(cr, "Places", x: PageLayout.margin, y: layout.listTop + 32, size: 22, bold: true)
        }
        for (i, place) in page.places.enumerated() {
            let f = layout.rowFrame(i)
            guard band.meets(f.minY, f.maxY) else { continue }
            if page.selectedPlace == place.id {
                cairo_set_source_rgba(cr, 0.10, 0.45, 0.85, 0.10)
                cairo_rectangle(cr, f.minX, f.minY, f.size.width, f.size.height)
                cairo_fill(cr)
            }
            set(cr, Palette.pin)
            cairo_arc(cr, PageLayout.margin + 10, f.minY + f.size.height / 2, 7, 0, 2 * Double.pi)
            cairo_fill(cr)
            // The row's text ends before its Delete button, when it shows one.
            let delete = i < page.editing.deleteViews.count ? page.editing.deleteViews[i] : nil
            let textEnd = delete.flatMap { $0.isHidden ? nil : f.minX + $0.frame.minX - 8 }
            if !drawNameField(page, row: i, place: place, cr) {
                set(cr, Palette.text)
                text(cr, place.name, x: PageLayout.margin + 32, y: f.minY + 30, size: 18, maxX: textEnd)
            }
            drawDeleteButton(page, row: i, cr)
            set(cr, Palette.muted)
            text(cr, place.detail, x: PageLayout.margin + 32, y: f.minY + 53, size: 14, maxX: textEnd)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.08)
            cairo_rectangle(cr, PageLayout.margin, f.maxY - 1, f.size.width - 2 * PageLayout.margin, 1)
            cairo_fill(cr)
        }
    }

    private func drawMoreContent(_ cr: OpaquePointer, _ page: MeridianPage) {
        let top = page.layout.moreContentTop(rows: page.places.count)
        set(cr, Palette.text)
        text(cr, "About the data", x: PageLayout.margin, y: top + 32, size: 22, bold: true)
        set(cr, Palette.muted)
        for (i, line) in page.layout.aboutLines.enumerated() {
            text(cr, line, x: PageLayout.margin, y: top + 64 + Double(i) * PageText.lineHeight, size: PageText.aboutFont.size)
        }
    }

    // MARK: Map

    private func drawMap(_ page: MeridianPage, _ cr: OpaquePointer) {
        let f = page.mapFrameInWindow
        guard f.maxY > 0, f.minY < page.layout.windowHeight else { return }
        cairo_save(cr)
        // The clip before the rounding, for the map to copy its tiles straight into the pixels
        // wherever the rounded clip covers them wholly (MapFrameClip).
        let outer = tellsMapItsClip ? Self.deviceClipRectangle(cr) : nil
        roundedRect(cr, f, radius: Self.mapCornerRadius)
        cairo_clip(cr)
        if let map {
            let origin = f.origin
            let frameClip = outer.map { MapFrameClip(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1, cornerRadius: Self.mapCornerRadius) }
            let report = synchronousTiles
                ? map.drawSynchronously(page.camera, into: cr, at: origin, frameClip: frameClip)
                : map.draw(page.camera, into: cr, at: origin, moving: page.isMapMoving, time: MapRenderer.fadeClock(),
                           frameClip: frameClip)
            lastFrameComplete = report.isComplete
        } else {
            cairo_set_source_rgb(cr, 0.80, 0.86, 0.90)
            cairo_paint(cr)
            set(cr, Palette.muted)
            text(cr, "No map data", x: f.minX + 20, y: f.minY + 40, size: 18)
        }
        // What is drawn over the map stays inside its rounded clip. (Clipping the pins by the plain
        // rectangle where that looked the same was tried: the live window then drifted 2911 px
        // from the headless replay in MeridianUnderCompositorTests.)
        cairo_translate(cr, f.minX, f.minY)
        drawPins(page, cr)
        drawCallout(page, cr)
        drawEditingOnMap(page, cr)
        drawButtons(page, cr)
        drawCompass(page, cr)
        if page.hintUntil != nil { drawHint(page, cr) }
        cairo_restore(cr)
    }

    static let mapCornerRadius = 12.0

    /// False draws the map under its rounded clip through cairo alone, as before: for the tests,
    /// and `MERIDIAN_MAP_THROUGH_CAIRO=1` for an A/B of the live window in one binary.
    var tellsMapItsClip = getenv("MERIDIAN_MAP_THROUGH_CAIRO") == nil

    /// `cr`'s clip as one rectangle in device px, or nil when it is none or not one.
    static func deviceClipRectangle(_ cr: OpaquePointer) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        defer { cairo_restore(cr) }
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1, let r = list.pointee.rectangles?.pointee
        else { return nil }
        return (r.x, r.y, r.x + r.width, r.y + r.height)
    }

    private func drawPins(_ page: MeridianPage, _ cr: OpaquePointer) {
        for (place, pin) in zip(page.viewport.pinPlaces, page.viewport.pins) where !pin.isHidden {
            let selected = page.selectedPlace == place
            if drawsPinsAsSprites, drawPinSprite(cr, at: pin.frame.center, selected: selected) { continue }
            drawPin(cr, at: pin.frame.center, selected: selected)
        }
    }

    /// One pin: a shadow, a white disc and a coloured one, centred on `c` (user space).
    private func drawPin(_ cr: OpaquePointer, at c: Point, selected: Bool) {
        let r = PageLayout.pinSize / 2 + (selected ? 3 : 0)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.25)
        cairo_arc(cr, c.x + 1, c.y + 2, r, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_arc(cr, c.x, c.y, r, 0, 2 * Double.pi)
        cairo_fill(cr)
        set(cr, selected ? Palette.pinSelected : Palette.pin)
        cairo_arc(cr, c.x, c.y, r - 3, 0, 2 * Double.pi)
        cairo_fill(cr)
    }

    /// Tests: false draws every pin as three fills, as before the sprites.
    var drawsPinsAsSprites = true
    /// A pin drawn once into a small image per look, buffer scale and quarter-pixel phase of its
    /// centre, then composited at whole device pixels: three antialiased fills under the map's
    /// rounded clip cost cairo about 49k instructions each, and 15 pins were 47% of a warm pan
    /// frame's instructions (callgrind, LATENCY.md).
    private struct PinSpriteKey: Hashable {
        var selected: Bool
        var scale: Double
        var phaseX: Int, phaseY: Int
    }
    private let pinSprites = SpriteCache<PinSpriteKey>(limit: 128)

    /// Composites the pin centred on `c` (user space) from its sprite: its centre is placed to a
    /// quarter of a device pixel (at most 1/8 px from the exact one). False when the transform is
    /// not a plain scale and translation (the caller draws the pin itself).
    private func drawPinSprite(_ cr: OpaquePointer, at c: Point, selected: Bool) -> Bool {
        guard let scale = DeviceSpace.scale(cr), let d = DeviceSpace.point(cr, c) else { return false }
        let qx = (d.x * 4).rounded(), qy = (d.y * 4).rounded()
        let ix = Int((qx / 4).rounded(.down)), iy = Int((qy / 4).rounded(.down))
        let key = PinSpriteKey(selected: selected, scale: scale, phaseX: Int(qx) - 4 * ix, phaseY: Int(qy) - 4 * iy)
        // The disc, its shadow 1,2 px off and a pixel of antialiasing, in device pixels.
        let r = PageLayout.pinSize / 2 + (selected ? 3 : 0)
        let margin = Int(((r + 4) * scale).rounded(.up)) + 1
        return pinSprites.composite(key, into: cr, x: ix, y: iy, width: 2 * margin, height: 2 * margin, margin: margin,
                                    phase: (Double(key.phaseX) / 4, Double(key.phaseY) / 4), scale: scale) { sc in
            drawPin(sc, at: .zero, selected: selected)
        }
    }

    /// Tests: false draws the zoom buttons with cairo every frame, as before the sprites.
    var drawsButtonsAsSprites = true

    private func drawButtons(_ page: MeridianPage, _ cr: OpaquePointer) {
        for (view, plus) in [(page.viewport.zoomIn, true), (page.viewport.zoomOut, false)] {
            if drawsButtonsAsSprites, drawButtonSprite(cr, frame: view.frame, plus: plus) { continue }
            drawButton(cr, frame: view.frame, plus: plus)
        }
    }

    /// A zoom button: its shadow, the white rounded square and the "+" or "-", in `f` (user space).
    private func drawButton(_ cr: OpaquePointer, frame f: Rect, plus: Bool) {
        drawButtonBackground(cr, f)
        set(cr, Palette.text)
        cairo_set_line_width(cr, 2.5)
        let c = f.center
        cairo_move_to(cr, c.x - 8, c.y)
        cairo_line_to(cr, c.x + 8, c.y)
        if plus {
            cairo_move_to(cr, c.x, c.y - 8)
            cairo_line_to(cr, c.x, c.y + 8)
        }
        cairo_stroke(cr)
    }

    /// A map button's shadow and white rounded square.
    private func drawButtonBackground(_ cr: OpaquePointer, _ f: Rect) {
        cairo_set_source_rgba(cr, 0, 0, 0, 0.2)
        roundedRect(cr, Rect(x: f.minX, y: f.minY + 1, width: f.size.width, height: f.size.height), radius: 6)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        roundedRect(cr, f, radius: 6)
        cairo_fill(cr)
    }

    /// A zoom button drawn once per sign, size, buffer scale and sub-pixel phase of its corner
    /// into a small image, composited at whole device pixels: the same place to the pixel's
    /// fraction, so it moves with the page exactly. Its fills and strokes under the map's rounded
    /// clip were 19 % of a warm pan frame's instructions (LATENCY.md).
    private struct ButtonSpriteKey: Hashable {
        var plus: Bool
        var scale: Double
        var width: Double, height: Double
        var phaseX: Double, phaseY: Double
    }
    private let buttonSprites = SpriteCache<ButtonSpriteKey>(limit: 32)

    /// False when the transform is not a plain scale and translation (the caller draws the button).
    private func drawButtonSprite(_ cr: OpaquePointer, frame f: Rect, plus: Bool) -> Bool {
        guard f.size.width > 0, f.size.height > 0, f.size.width < 1000, f.size.height < 1000,
              let scale = DeviceSpace.scale(cr),
              let d = DeviceSpace.point(cr, Point(x: f.minX, y: f.minY)) else { return false }
        let ix = d.x.rounded(.down), iy = d.y.rounded(.down)
        let key = ButtonSpriteKey(plus: plus, scale: scale, width: f.size.width, height: f.size.height, phaseX: d.x - ix, phaseY: d.y - iy)
        // The shadow reaches 1 px below; a pixel of antialiasing on every side.
        let margin = Int((2 * scale).rounded(.up)) + 1
        let width = Int((f.size.width * scale).rounded(.up)) + 2 * margin + 1
        let height = Int((f.size.height * scale).rounded(.up)) + 2 * margin + 1
        return buttonSprites.composite(key, into: cr, x: Int(ix), y: Int(iy), width: width, height: height, margin: margin,
                                       phase: (key.phaseX, key.phaseY), scale: scale) { sc in
            drawButton(sc, frame: Rect(x: 0, y: 0, width: f.size.width, height: f.size.height), plus: plus)
        }
    }

    /// A needle whose red half points north, on a white button, while the map is rotated.
    private func drawCompass(_ page: MeridianPage, _ cr: OpaquePointer) {
        let compass = page.viewport.compass
        guard !compass.isHidden else { return }
        let f = compass.frame, c = f.center
        drawButtonBackground(cr, f)
        // North on screen is (-sin b, -cos b); the needle is a thin diamond along it.
        let b = page.camera.bearing * Double.pi / 180
        let north = Point(x: -sin(b), y: -cos(b)), across = Point(x: -north.y, y: north.x)
        let length = 11.0, width = 4.0
        for (sign, color) in [(1.0, (r: 0.85, g: 0.20, b: 0.18)), (-1.0, Palette.muted)] {
            set(cr, color)
            cairo_move_to(cr, c.x + sign * north.x * length, c.y + sign * north.y * length)
            cairo_line_to(cr, c.x + across.x * width, c.y + across.y * width)
            cairo_line_to(cr, c.x - across.x * width, c.y - across.y * width)
            cairo_close_path(cr)
            cairo_fill(cr)
        }
    }

    private func drawCallout(_ page: MeridianPage, _ cr: OpaquePointer) {
        guard let callout = page.callout else { return }
        let p = page.camera.screenPoint(of: callout.coordinate)
        let label = formatCoordinate(callout.coordinate)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 14)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, label, &extents)
        let box = Rect(x: p.x - extents.x_advance / 2 - 10, y: p.y - 44, width: extents.x_advance + 20, height: 30)
        cairo_set_source_rgba(cr, 0.13, 0.20, 0.29, 0.92)
        roundedRect(cr, box, radius: 8)
        cairo_fill(cr)
        cairo_move_to(cr, p.x - 7, box.maxY)
        cairo_line_to(cr, p.x, p.y - 4)
        cairo_line_to(cr, p.x + 7, box.maxY)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_move_to(cr, box.minX + 10, box.minY + 20)
        cairo_show_text(cr, label)
    }

    private func drawHint(_ page: MeridianPage, _ cr: OpaquePointer) {
        let size = page.camera.size
        cairo_set_source_rgba(cr, 0, 0, 0, 0.45)
        cairo_rectangle(cr, 0, 0, size.width, size.height)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        // Centred, wrapped to the map's width at one size.
        let font = PageFont(size: 22, bold: true), lineHeight = 30.0
        let lines = PageText.wrap("Use two fingers to move the map", font, width: size.width - 2 * PageLayout.margin, cr)
        let top = size.height / 2 - Double(lines.count - 1) * lineHeight / 2
        for (i, line) in lines.enumerated() {
            cairo_move_to(cr, (size.width - PageText.width(line, font, cr)) / 2, top + Double(i) * lineHeight)
            cairo_show_text(cr, line)
        }
    }

    // MARK: Focus and hit areas

    private func drawFocus(_ page: MeridianPage, _ cr: OpaquePointer) {
        guard page.focusVisible, let id = page.focusedTarget, let f = page.targetFrameInPage(id) else { return }
        set(cr, Palette.focus)
        cairo_set_line_width(cr, 3)
        roundedRect(cr, Rect(x: f.minX - 3, y: f.minY - 3 - page.scrollY, width: f.size.width + 6, height: f.size.height + 6), radius: 6)
        cairo_stroke(cr)
    }

    private func drawHitAreas(_ page: MeridianPage, _ cr: OpaquePointer) {
        let snapshot = page.snapshot
        let visiblePins = zip(snapshot.pins, page.viewport.pins).filter { !$1.isHidden }.map(\.0)
        for t in visiblePins + snapshot.targets {
            let h = t.hitFrame
            cairo_set_source_rgba(cr, Palette.hitArea.r, Palette.hitArea.g, Palette.hitArea.b, 0.18)
            cairo_rectangle(cr, h.minX, h.minY, h.size.width, h.size.height)
            cairo_fill(cr)
            cairo_set_source_rgba(cr, Palette.hitArea.r, Palette.hitArea.g, Palette.hitArea.b, 0.9)
            cairo_set_line_width(cr, 1)
            cairo_rectangle(cr, h.minX + 0.5, h.minY + 0.5, h.size.width - 1, h.size.height - 1)
            cairo_stroke(cr)
        }
    }

    // MARK: Helpers

    func set(_ cr: OpaquePointer, _ c: (r: Double, g: Double, b: Double)) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }

    /// Draws one line of text at `size`; one that would run past `maxX` (default: the window's
    /// right margin) is cut and ends in "…" (never shrunk: paragraphs come wrapped, `PageLayout`).
    func text(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, size: Double, bold: Bool = false, maxX: Double? = nil) {
        let font = PageFont(size: size, bold: bold)
        let end = maxX ?? availableWidth - PageLayout.margin
        let shown = availableWidth > 0 ? PageText.fit(s, font, width: end - x, cr) : s
        font.select(cr)
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, shown)
        cairo_new_path(cr)
    }

    func roundedRect(_ cr: OpaquePointer, _ r: Rect, radius: Double) {
        let k = min(radius, r.size.width / 2, r.size.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - k, r.minY + k, k, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
        cairo_arc(cr, r.minX + k, r.maxY - k, k, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.minX + k, r.minY + k, k, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}

/// "60.17030° N, 24.95220° E", to five decimals (about a metre).
public func formatCoordinate(_ c: Coordinate) -> String {
    func f(_ v: Double) -> String {
        let scaled = (abs(v) * 100_000).rounded()
        let whole = Int(scaled) / 100_000, frac = Int(scaled) % 100_000
        let fracText = String(frac)
        return "\(whole).\(String(repeating: "0", count: 5 - fracText.count))\(fracText)"
    }
    return "\(f(c.latitude))° \(c.latitude >= 0 ? "N" : "S"), \(f(c.longitude))° \(c.longitude >= 0 ? "E" : "W")"
}
