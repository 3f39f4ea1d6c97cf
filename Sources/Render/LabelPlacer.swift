import Foundation
import Geo
import Style

/// A rectangle in logical px.
struct LabelBox: Sendable, Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double
    func offset(_ dx: Double, _ dy: Double) -> LabelBox { LabelBox(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy) }
    func inset(_ d: Double) -> LabelBox { LabelBox(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d) }
    func union(_ o: LabelBox) -> LabelBox {
        LabelBox(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
    func overlaps(_ o: LabelBox) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
}

/// A label the placer kept: its glyphs laid out around the anchor, in logical px at the zoom
/// it was placed at, screen-aligned (x right, y down).
struct PlacedLabel: Sendable {
    struct Glyph: Sendable, Equatable {
        var index: UInt
        /// Which font of the style's fallback list it is from (`LabelFonts`).
        var font: Int
        /// The glyph's origin (on its baseline) from the anchor.
        var x: Double
        var y: Double
        /// Radians clockwise; 0 for point labels.
        var angle: Double
    }
    var identity: Int
    var layerID: String
    var text: String
    var style: TextStyle
    var anchor: WorldPoint
    var glyphs: [Glyph]
    /// The text's ink box from the anchor (without padding or halo).
    var box: LabelBox
    /// What the label occupies for collisions (padding included), from the anchor: one box for
    /// a point label, one per glyph along a line.
    var collision: [LabelBox]
    /// Degrees, 0 = horizontal: for text along a line the mean glyph angle.
    var angle: Double
    var isLine: Bool
    /// Text along a line: each glyph cluster's direction (radians clockwise), one per
    /// collision box; empty for point labels.
    var clusterAngles: [Double] = []
    /// The sprite icon drawn at the anchor (point labels only); `glyphs` is empty when the
    /// text gave way and the icon stayed (`text-optional`), or when there is no text.
    var icon: PlacedIcon? = nil
    /// A point label's text turned about the anchor (radians clockwise: `text-rotate`, plus the
    /// map's turn when `text-rotation-alignment` is `map`); `glyphs` are before the turn.
    var textTurn = 0.0
    /// Where the text is drawn from where it was placed (`text-translate`, px): `box` includes
    /// it, `collision` does not (MapLibre translates symbols when drawing, not when placing).
    var textShift: (x: Double, y: Double) = (0, 0)
    /// Its image depends on the map's bearing (turned or translated with the map), so it is
    /// drawn anew when the map turns, as labels along lines are.
    var turnsWithMap = false

    /// What is drawn, from the anchor: the text's box and the icon's.
    var extent: LabelBox { icon.map { glyphs.isEmpty ? $0.box : box.union($0.box) } ?? box }

    /// The label with only its icon (the text could not be placed); `text` still names it.
    func iconOnly() -> PlacedLabel {
        var l = self
        l.glyphs = []
        if let icon { l.box = icon.box }
        l.collision = []
        return l
    }
}

/// An icon as placed: where its image goes around the anchor (logical px, before its turn)
/// and what it covers.
struct PlacedIcon: Sendable {
    var style: IconStyle
    /// The unturned image's rectangle from the anchor (the turn is about the anchor).
    var rect: LabelBox
    /// The turned image's axis-aligned box from the anchor.
    var box: LabelBox
    /// `box` grown by `icon-padding`: what it keeps others out of.
    var collision: LabelBox
    /// Fitted to its text (`icon-text-fit`): drawn in pieces, only the image's stretch spans
    /// stretched (`LabelLayer.drawStretched`).
    var fitted = false
    /// Where it is drawn from where it was placed (`icon-translate`, px): in `box`, not in
    /// `rect` (before the turn) or `collision`.
    var shift: (x: Double, y: Double) = (0, 0)
}

/// Places the candidates of every visible tile on one screen.
///
/// In priority order (`LabelPriority`; labels placed last time first, see `place`), each
/// candidate is laid out at the view's zoom and kept when its boxes lie inside the view (and
/// its margin) and clear every box kept before it, looked up in a grid of `cell`-px buckets. Everything is
/// measured from world anchors, so a pan moves the whole result without changing it.
struct LabelPlacer {
    let camera: MapCamera
    static let cell = 32.0
    /// Labels are placed this far (px) past the view's edges too, and shown only while wholly
    /// inside it: a label about to scroll in already holds its place, so a pan of less than
    /// this never makes it push out one that is shown (no swapping, even with nothing placed
    /// before to keep).
    static let margin = 128.0

    /// The collision grid, flat: every kept box once in `boxes`; each cell a linked list of
    /// entries (`head` per cell, then `next` per entry, -1 ending it), each entry naming its
    /// box. No array per cell, nothing allocated per test.
    private var boxes: [LabelBox] = []
    private var head: [Int32]
    private var next: [Int32] = []
    private var entryBox: [Int32] = []
    private let columns: Int
    private let rows: Int
    /// The point labels placed so far with text, by text: where, and from which source.
    private var named: [String: [(anchor: WorldPoint, source: String)]] = [:]
    /// Two files layered (a city over the world) often both name a place, a few hundred
    /// metres apart: a point label whose text another source already placed within this many
    /// metres is left out, whatever the zoom, so the place is named once (by the file placed
    /// first: the higher one). Different places of one name from different files lie further apart.
    static let sameName = 3000.0
    private let worldScale: Double
    private let size: ViewSize
    /// Degrees clockwise from the screen's x-axis to the map's east: how far map-aligned
    /// symbols and translates turn (minus the bearing, whatever sign the camera keeps it in).
    let mapAngle: Double

    init(camera: MapCamera) {
        self.camera = camera
        size = camera.size
        worldScale = exp2(camera.zoom)
        let east = LabelLayer.basis(camera)
        mapAngle = east.x == 0 && east.y == 0 ? 0 : atan2(east.y, east.x) * 180 / Double.pi
        columns = max(1, Int(((camera.size.width + 2 * Self.margin) / Self.cell).rounded(.up)))
        rows = max(1, Int(((camera.size.height + 2 * Self.margin) / Self.cell).rounded(.up)))
        head = Array(repeating: -1, count: columns * rows)
    }

    /// The labels to show. `previous` holds the identities shown before: those are placed
    /// first, so a pan or a new tile never makes a shown label give way to a newcomer (no
    /// swapping), and after a zoom the old labels stay where they still fit. Duplicates
    /// (the same identity twice) are placed once.
    mutating func place(_ candidates: [LabelCandidate], previous: Set<Int>) -> [PlacedLabel] {
        place([candidates], previous: previous)
    }

    /// The same for the candidates of several tiles, taken where they are (not copied into one
    /// array: a candidate is a few hundred bytes).
    mutating func place(_ groups: [[LabelCandidate]], previous: Set<Int>) -> [PlacedLabel] {
        // Each candidate's rank worked out once, not at every comparison of the sort.
        let count = groups.reduce(0) { $0 + $1.count }
        var ids: [(group: Int32, index: Int32)] = []
        var wasShown: [Bool] = []
        var priorities: [LabelPriority] = []
        ids.reserveCapacity(count)
        wasShown.reserveCapacity(count)
        priorities.reserveCapacity(count)
        // (Indexed, not enumerated: enumerating copies each candidate out of its array.)
        for g in groups.indices {
            for i in groups[g].indices {
                ids.append((Int32(g), Int32(i)))
                wasShown.append(previous.contains(groups[g][i].identity))
                priorities.append(groups[g][i].priority)
            }
        }
        var order = Array(0..<count)
        order.sort { a, b in
            let pa = wasShown[a], pb = wasShown[b]
            if pa != pb { return pa }
            return priorities[a] < priorities[b]
        }
        var seen = Set<Int>()
        seen.reserveCapacity(count)
        var out: [PlacedLabel] = []
        out.reserveCapacity(min(count, 512))
        let view = LabelBox(minX: -Self.margin, minY: -Self.margin, maxX: size.width + Self.margin, maxY: size.height + Self.margin)
        boxes.reserveCapacity(4 * count)
        // Each candidate read in place through its tile's buffer (a candidate taken from the
        // nested arrays was copied first, then released: a sixth of a placement).
        var buffers: [UnsafeBufferPointer<LabelCandidate>] = []
        buffers.reserveCapacity(groups.count)
        Self.withBuffers(groups[...], &buffers) { buffers in
            // (A name repeated along a street's pieces is thinned when the tile is laid out, as
            // MapLibre does: `LabelExtraction.candidates`.)
            for k in order {
                let id = ids[k]
                if let label = place(buffers[Int(id.group)][Int(id.index)], view: view, seen: &seen) { out.append(label) }
            }
        }
        return out
    }

    /// `body` given a buffer over each of `groups` (and those in `buffers` before them).
    private static func withBuffers(_ groups: ArraySlice<[LabelCandidate]>, _ buffers: inout [UnsafeBufferPointer<LabelCandidate>],
                                    _ body: ([UnsafeBufferPointer<LabelCandidate>]) -> Void) {
        guard let first = groups.first else { return body(buffers) }
        first.withUnsafeBufferPointer { buffer in
            buffers.append(buffer)
            withBuffers(groups.dropFirst(), &buffers, body)
        }
    }

    /// One candidate placed or not: its boxes are worked out and tested first, and only a
    /// label that is kept gets its glyphs laid out (most candidates of a dense view collide).
    private mutating func place(_ c: LabelCandidate, view: LabelBox, seen: inout Set<Int>) -> PlacedLabel? {
        guard seen.insert(c.identity).inserted else { return nil }
        let anchor = camera.screenPoint(ofWorld: c.anchor)
        // Far outside the view: not worth laying out.
        guard anchor.x > -size.width, anchor.x < 2 * size.width, anchor.y > -size.height, anchor.y < 2 * size.height else { return nil }
        if c.path.isEmpty {
            if !c.text.isEmpty, let others = named[c.text],
               others.contains(where: { $0.source != c.source && Self.metres($0.anchor, c.anchor) < Self.sameName }) { return nil }
            let t = textFrame(c)
            let icon = pointIconFrame(c, t)
            let kept = admit(c, at: anchor, view: view, text: c.shaped.glyphs.isEmpty ? nil : t.box.offset(t.shift.x, t.shift.y),
                             collision: CollectionOfOne(t.box.inset(-c.style.padding)), icon: icon.map { ($0.box, $0.collision) })
            guard kept.text || kept.icon else { return nil }
            var label = textLabel(c, t, glyphs: kept.text)
            attach(icon, of: c, to: &label)
            if !kept.icon { label.icon = nil }
            if !kept.text { label = label.iconOnly() }
            if kept.text { named[c.text, default: []].append((c.anchor, c.source)) }
            return label
        }
        guard let laid = lineLayout(c) else { return nil }
        var label = laid.0
        let kept = admit(c, at: anchor, view: view, text: laid.1 == nil ? nil : label.box, collision: label.collision,
                         icon: label.icon.map { ($0.box, $0.collision) })
        guard kept.text || kept.icon else { return nil }
        if !kept.icon { label.icon = nil }
        if kept.text, let pending = laid.1 { label.glyphs = glyphs(of: c, pending) } else { label = label.iconOnly() }
        return label
    }

    /// The ground distance between two zoom-0 world points, metres (the Mercator scale at
    /// their mean latitude; exact enough for a few kilometres).
    static func metres(_ a: WorldPoint, _ b: WorldPoint) -> Double {
        let metresPerUnit = 40_075_016.686 / WebMercator.tileSize
        let lat = WebMercator.coordinate(WorldPoint(x: 0, y: (a.y + b.y) / 2)).latitude * Double.pi / 180
        return hypot(a.x - b.x, a.y - b.y) * metresPerUnit * cos(lat)
    }

    /// Which of a laid-out symbol's parts are placed (its text with its `text` box and
    /// `collision` boxes, nil without text; its icon's drawn box and collision box, nil
    /// without one), from the anchor on screen; their boxes go into the grid.
    private mutating func admit<Boxes: Collection>(_ c: LabelCandidate, at anchor: ScreenPoint, view: LabelBox, text: LabelBox?,
                                                   collision: Boxes, icon: (box: LabelBox, collision: LabelBox)?) -> (text: Bool, icon: Bool)
        where Boxes.Element == LabelBox {
        func inView(_ b: LabelBox) -> Bool {
            let ink = b.offset(anchor.x, anchor.y)
            return ink.minX >= view.minX && ink.minY >= view.minY && ink.maxX <= view.maxX && ink.maxY <= view.maxY
        }
        let hasText = text != nil
        var placeText = text.map(inView) ?? false
            && (c.style.allowOverlap || !collision.contains { collides($0.offset(anchor.x, anchor.y)) })
        var placeIcon = false
        // (Only `icon-rotate` differs between the candidate's icon style and the laid-out one's.)
        if let icon {
            placeIcon = inView(icon.box) && (c.icon?.allowOverlap == true || !collides(icon.collision.offset(anchor.x, anchor.y)))
            if hasText {
                // MapLibre's rule: each part needs the other unless the other is optional.
                let iconAlone = c.style.optional, textAlone = c.icon?.optional == true
                if !iconAlone && !textAlone {
                    placeText = placeText && placeIcon
                    placeIcon = placeText
                } else if !textAlone {
                    placeText = placeText && placeIcon
                } else if !iconAlone {
                    placeIcon = placeIcon && placeText
                }
            }
        }
        if placeText && !c.style.ignorePlacement { for b in collision { insert(b.offset(anchor.x, anchor.y)) } }
        if placeIcon, let icon, c.icon?.ignorePlacement == false { insert(icon.collision.offset(anchor.x, anchor.y)) }
        return (placeText, placeIcon)
    }

    // MARK: collision grid

    private func cells(_ b: LabelBox) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        func clampX(_ v: Double) -> Int { min(max(Int(((v + Self.margin) / Self.cell).rounded(.down)), 0), columns - 1) }
        func clampY(_ v: Double) -> Int { min(max(Int(((v + Self.margin) / Self.cell).rounded(.down)), 0), rows - 1) }
        return (clampX(b.minX), clampY(b.minY), clampX(b.maxX), clampY(b.maxY))
    }

    private func collides(_ b: LabelBox) -> Bool {
        let c = cells(b)
        for y in c.y0...c.y1 {
            for x in c.x0...c.x1 {
                var e = head[y * columns + x]
                while e >= 0 {
                    if boxes[Int(entryBox[Int(e)])].overlaps(b) { return true }
                    e = next[Int(e)]
                }
            }
        }
        return false
    }

    private mutating func insert(_ b: LabelBox) {
        let index = Int32(boxes.count)
        boxes.append(b)
        let c = cells(b)
        for y in c.y0...c.y1 {
            for x in c.x0...c.x1 {
                let cell = y * columns + x
                next.append(head[cell])
                entryBox.append(index)
                head[cell] = Int32(next.count - 1)
            }
        }
    }

    // MARK: layout

    /// The candidate laid out at the camera's zoom, nil when it cannot be (a line too short or
    /// too bent for its text).
    func layout(_ c: LabelCandidate) -> PlacedLabel? {
        guard let laid = frame(c) else { return nil }
        var label = laid.0
        if let pending = laid.1 { label.glyphs = glyphs(of: c, pending) }
        return label
    }

    /// Where a laid-out label's glyphs go, worked out only for a label that is kept: a point
    /// label's text origin from the anchor, or each glyph cluster's place and direction along
    /// its line (`clusters` as `textAlongLine` cut them).
    enum PendingGlyphs {
        case point(x: Double, y: Double)
        case line(points: [(x: Double, y: Double, angle: Double)], clusters: [(first: Int, end: Int, mid: Double, width: Double)])
    }

    /// The candidate laid out without its glyphs (everything placing decides on: boxes,
    /// collision boxes, icon), and how to lay the glyphs out (nil: no text). Nil when it
    /// cannot be laid out.
    func frame(_ c: LabelCandidate) -> (PlacedLabel, PendingGlyphs?)? {
        c.path.isEmpty ? pointLayout(c) : lineLayout(c)
    }

    /// The glyphs of a label `frame` laid out.
    func glyphs(of c: LabelCandidate, _ pending: PendingGlyphs) -> [PlacedLabel.Glyph] {
        let s = c.shaped
        switch pending {
        case let .point(ox, oy):
            return s.glyphs.map { PlacedLabel.Glyph(index: $0.index, font: $0.font, x: $0.x + ox, y: $0.y + oy, angle: 0) }
        case let .line(points, clusters):
            // Baseline a third of the text size below the line, so the letters straddle it.
            let drop = c.style.size * 0.35
            // (`viewport-glyph`: each glyph level on screen at its place along the line.)
            let level = c.style.rotationAlignment == .viewportGlyph
            var glyphs: [PlacedLabel.Glyph] = []
            glyphs.reserveCapacity(s.glyphs.count)
            for (k, p) in zip(clusters, points) {
                let dx = cos(p.angle), dy = sin(p.angle)
                // Each glyph's origin: where it lies from the cluster's middle along the baseline
                // (and its shaped height across it), turned to the line, `drop` below it.
                for g in s.glyphs[k.first..<k.end] {
                    let u = g.x - k.mid, v = g.y + drop
                    glyphs.append(level ? PlacedLabel.Glyph(index: g.index, font: g.font, x: p.x + u, y: p.y + v, angle: 0)
                                        : PlacedLabel.Glyph(index: g.index, font: g.font, x: p.x + dx * u - dy * v, y: p.y + dy * u + dx * v,
                                                            angle: p.angle))
                }
            }
            return glyphs
        }
    }

    private func pointLayout(_ c: LabelCandidate) -> (PlacedLabel, PendingGlyphs?)? {
        let t = textFrame(c)
        var label = textLabel(c, t, glyphs: false)
        attach(pointIconFrame(c, t), of: c, to: &label)
        return (label, c.shaped.glyphs.isEmpty ? nil : .point(x: t.origin.x, y: t.origin.y))
    }

    /// A point symbol's icon laid out around its anchor (as `PlacedIcon`, but for its style).
    private struct IconFrame {
        var rect: LabelBox
        /// Where it is drawn (after `icon-translate`) and what it keeps others out of (before).
        var box: LabelBox
        var collision: LabelBox
        var fitted: Bool
        var shift: (x: Double, y: Double)
        /// Degrees: `icon-rotate`, and the map's turn for a map-aligned icon.
        var rotate: Double
    }

    /// A point symbol's icon laid out around its anchor (fitted to the text `t` with
    /// `icon-text-fit`), nil without one.
    private func pointIconFrame(_ c: LabelCandidate, _ t: TextFrame) -> IconFrame? {
        guard let icon = c.icon else { return nil }
        let rotate = icon.rotationAlignment == .map ? icon.rotate + mapAngle : icon.rotate
        guard let f = Self.iconFrame(icon, rotate: rotate, text: c.text.isEmpty ? nil : fitBox(c, t)) else { return nil }
        // `icon-translate` moves what is drawn, not where it collides (as `translated`).
        let shift = screenOffset(icon.translate, inViewport: icon.translateInViewport)
        let moved = shift.x != 0 || shift.y != 0
        return IconFrame(rect: f.rect, box: moved ? f.box.offset(shift.x, shift.y) : f.box, collision: f.box.inset(-icon.padding),
                         fitted: f.fitted, shift: moved ? shift : (0, 0), rotate: rotate)
    }

    /// The icon of `f` given to a point label (its image then turns with the map when the icon does).
    private func attach(_ f: IconFrame?, of c: LabelCandidate, to label: inout PlacedLabel) {
        guard let f, var style = c.icon else { label.icon = nil; return }
        style.rotate = f.rotate
        label.icon = PlacedIcon(style: style, rect: f.rect, box: f.box, collision: f.collision, fitted: f.fitted, shift: f.shift)
        label.turnsWithMap = label.turnsWithMap || style.rotationAlignment == .map || movesWithMap(style)
    }

    /// The text's box as MapLibre fits an icon to it (`icon-text-fit`): as wide as the text, and
    /// as tall as its lines at `text-line-height` (not the font's ascent and descent), hung from
    /// the anchor by `text-anchor` and moved by `text-offset` as the text is. (Measured with
    /// pymgl 0.5.0: 12-px text fitted with no padding makes a 14.4-px box, with line height 2 a
    /// 24-px one.) A turned text keeps its own box.
    private func fitBox(_ c: LabelCandidate, _ t: TextFrame) -> LabelBox {
        let st = c.style, s = c.shaped
        guard t.turn.truncatingRemainder(dividingBy: 360) == 0, st.size > 0, st.lineHeight > 0, st.size.isFinite, st.lineHeight.isFinite
        else { return t.box.offset(t.shift.x, t.shift.y).offset(-t.shift.x, -t.shift.y) }
        let line = st.lineHeight * st.size
        // Lines: the shaped height is (lines − 1) line heights plus about 1.16 em of ascent and descent.
        let lines = max(1, ((s.height - 1.16 * st.size) / line).rounded() + 1)
        let h = lines * line
        var (x, y) = Self.corner(st.anchor, width: s.width, height: h)
        x += st.offset.x * st.size
        y += st.offset.y * st.size
        return LabelBox(minX: x, minY: y, maxX: x + s.width, maxY: y + h)
    }

    /// `icon-translate` turned into screen px (with the map unless anchored to the viewport).
    private func screenOffset(_ t: (x: Double, y: Double), inViewport: Bool) -> (x: Double, y: Double) {
        guard !inViewport, t.x != 0 || t.y != 0 else { return t }
        let a = mapAngle * Double.pi / 180, cs = cos(a), sn = sin(a)
        return (t.x * cs - t.y * sn, t.x * sn + t.y * cs)
    }

    private func movesWithMap(_ icon: IconStyle) -> Bool {
        !icon.translateInViewport && (icon.translate.x != 0 || icon.translate.y != 0)
    }

    /// The icon moved by its `icon-translate` where it is drawn (its collision box stays).
    private func translated(_ icon: PlacedIcon) -> PlacedIcon {
        let t = screenOffset(icon.style.translate, inViewport: icon.style.translateInViewport)
        guard t.x != 0 || t.y != 0 else { return icon }
        var icon = icon
        icon.shift = t
        icon.box = icon.box.offset(t.x, t.y)
        return icon
    }

    /// Where an icon goes: its image `icon-size` times the sprite's, hung from the anchor by
    /// `icon-anchor`, moved by `icon-offset` (in px times `icon-size`), turned by
    /// `icon-rotate` about the anchor. Nil for an empty image.
    ///
    /// With `icon-text-fit` and a `text` box (from the anchor), MapLibre's rule instead: the
    /// icon is centred on the text (moved by `icon-offset`), and the fitted sides span the
    /// text plus `icon-text-fit-padding`; that box is the image's `content` area when the
    /// sprite gives one (the parts outside it keep their size and lie outside the box), else
    /// the whole image.
    static func iconLayout(_ icon: IconStyle, text: LabelBox? = nil) -> PlacedIcon? {
        guard let f = iconFrame(icon, rotate: icon.rotate, text: text) else { return nil }
        return PlacedIcon(style: icon, rect: f.rect, box: f.box, collision: f.box.inset(-icon.padding), fitted: f.fitted)
    }

    /// `iconLayout`'s rectangles, with the icon turned by `rotate` (degrees) instead of its
    /// `icon-rotate`, without a copy of its style.
    static func iconFrame(_ icon: IconStyle, rotate: Double, text: LabelBox?) -> (rect: LabelBox, box: LabelBox, fitted: Bool)? {
        let w = icon.width * icon.size, h = icon.height * icon.size
        guard w > 0, h > 0, w.isFinite, h.isFinite, w < 4096, h < 4096 else { return nil }
        var rect: LabelBox
        var fitted = false
        if icon.textFit != .none, let t = text, let image = icon.sprite?.image(icon.image) {
            let ox = icon.offset.x * icon.size, oy = icon.offset.y * icon.size
            let p = icon.textFitPadding
            var fit = LabelBox(minX: ox + (t.minX + t.maxX - w) / 2, minY: oy + (t.minY + t.maxY - h) / 2, maxX: 0, maxY: 0)
            fit.maxX = fit.minX + w
            fit.maxY = fit.minY + h
            let c = image.content
            // The side not fitted: as MapLibre does, the image's own size centred on the text is
            // where its content goes, so an image with a content box grows by the parts outside it
            // (measured with pymgl 0.5.0: the 20-px shield with a 14-px content, fitted to width
            // only, is 26 px tall).
            if let c {
                (fit.minX, fit.maxX) = stretchedExtent(image.stretchSpans(vertical: false), length: Double(image.width),
                                                       content: (c.left, c.right), fitted: (fit.minX, fit.maxX), pixelRatio: image.pixelRatio)
                (fit.minY, fit.maxY) = stretchedExtent(image.stretchSpans(vertical: true), length: Double(image.height),
                                                       content: (c.top, c.bottom), fitted: (fit.minY, fit.maxY), pixelRatio: image.pixelRatio)
            }
            /// The image's extent along one axis with its content fitted over `lo…hi`.
            func extent(vertical: Bool, _ lo: Double, _ hi: Double, content: (Double, Double)?) -> (Double, Double) {
                stretchedExtent(image.stretchSpans(vertical: vertical), length: Double(vertical ? image.height : image.width),
                                content: content, fitted: (lo, hi), pixelRatio: image.pixelRatio)
            }
            if icon.textFit == .width || icon.textFit == .both {
                (fit.minX, fit.maxX) = extent(vertical: false, ox + t.minX - p.left, ox + t.maxX + p.right, content: c.map { ($0.left, $0.right) })
            }
            if icon.textFit == .height || icon.textFit == .both {
                (fit.minY, fit.maxY) = extent(vertical: true, oy + t.minY - p.top, oy + t.maxY + p.bottom, content: c.map { ($0.top, $0.bottom) })
            }
            guard fit.maxX > fit.minX, fit.maxY > fit.minY, fit.maxX - fit.minX < 4096, fit.maxY - fit.minY < 4096 else { return nil }
            rect = fit
            fitted = true
        } else {
            var (x, y) = corner(icon.anchor, width: w, height: h)
            x += icon.offset.x * icon.size
            y += icon.offset.y * icon.size
            rect = LabelBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
        }
        var box = rect
        if rotate.truncatingRemainder(dividingBy: 360) != 0 { box = turned(rect, degrees: rotate) }
        return (rect, box, fitted)
    }

    /// Where the whole image lies along one axis when the span `content` (sheet px; nil: the
    /// whole image) is stretched over `fitted` (logical px): the image's fixed parts keep
    /// their size (1 / pixelRatio logical px per sheet px), its stretch `spans` share the rest.
    static func stretchedExtent(_ spans: [Sprite.Image.Span], length: Double, content: (Double, Double)?,
                                fitted: (Double, Double), pixelRatio: Double) -> (Double, Double) {
        func stretch(_ x: Double) -> Double { Sprite.Image.stretchable(spans, before: x) }
        let (c0, c1) = content ?? (0, length)
        let stretchIn = stretch(c1) - stretch(c0), fixedIn = (c1 - c0) - stretchIn
        let k = stretchIn > 0 ? max((fitted.1 - fitted.0 - fixedIn / pixelRatio) / stretchIn, 0) : 1 / pixelRatio
        // Logical px from the image's start to sheet px x.
        func at(_ x: Double) -> Double { (x - stretch(x)) / pixelRatio + stretch(x) * k }
        let start = fitted.0 - at(c0)
        return (start, start + at(length))
    }

    /// Where the top-left corner of a `width` x `height` box goes from the anchor, for the
    /// part of the box `anchor` names to sit on it.
    static func corner(_ anchor: TextAnchor, width w: Double, height h: Double) -> (x: Double, y: Double) {
        var x = -w / 2, y = -h / 2
        switch anchor {
        case .left, .topLeft, .bottomLeft: x = 0
        case .right, .topRight, .bottomRight: x = -w
        default: break
        }
        switch anchor {
        case .top, .topLeft, .topRight: y = 0
        case .bottom, .bottomLeft, .bottomRight: y = -h
        default: break
        }
        return (x, y)
    }

    /// A point label's text placed around its anchor, but for its glyphs.
    private struct TextFrame {
        /// The text's box as placed (before `text-translate`), turned when the text is.
        var box: LabelBox
        /// `text-translate` on screen.
        var shift: (x: Double, y: Double)
        /// Degrees clockwise (`text-rotate`, and the map's turn for map-aligned text).
        var turn: Double
        /// The text's origin (its first baseline's left end) from the anchor.
        var origin: (x: Double, y: Double)
    }

    private func textFrame(_ c: LabelCandidate) -> TextFrame {
        let s = c.shaped, st = c.style
        // Where the text box's corner sits relative to the anchor.
        let w = s.width, h = s.height
        var (x, y) = Self.corner(st.anchor, width: w, height: h)
        x += st.offset.x * st.size
        y += st.offset.y * st.size
        // The text origin is the first baseline's left end: the box starts at (minX, minY).
        let ox = x - s.minX, oy = y - s.minY
        var box = LabelBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
        // `text-rotate`, and the map's turn for map-aligned text: the box turned about the
        // anchor, and the box around that for collisions.
        let turn = st.rotate.isFinite ? st.rotate + (st.rotationAlignment == .map ? mapAngle : 0) : 0
        if turn.truncatingRemainder(dividingBy: 360) != 0 { box = Self.turned(box, degrees: turn) }
        return TextFrame(box: box, shift: screenOffset(st.translate, inViewport: st.translateInViewport), turn: turn, origin: (ox, oy))
    }

    /// The point label of text `t`, with its glyphs or without them (yet).
    private func textLabel(_ c: LabelCandidate, _ t: TextFrame, glyphs: Bool) -> PlacedLabel {
        let st = c.style, turn = t.turn
        var label = PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: st, anchor: c.anchor,
                                glyphs: glyphs ? self.glyphs(of: c, .point(x: t.origin.x, y: t.origin.y)) : [],
                                box: t.box.offset(t.shift.x, t.shift.y), collision: [t.box.inset(-st.padding)], angle: turn, isLine: false)
        label.textTurn = turn.truncatingRemainder(dividingBy: 360) == 0 ? 0 : turn * Double.pi / 180
        label.textShift = t.shift
        label.turnsWithMap = st.rotationAlignment == .map || (!st.translateInViewport && (st.translate.x != 0 || st.translate.y != 0))
        return label
    }

    private func textLayout(_ c: LabelCandidate) -> (PlacedLabel, PendingGlyphs?) {
        let t = textFrame(c)
        return (textLabel(c, t, glyphs: false), c.shaped.glyphs.isEmpty ? nil : .point(x: t.origin.x, y: t.origin.y))
    }

    /// The box around `b` turned `degrees` clockwise about the anchor (the origin).
    static func turned(_ b: LabelBox, degrees: Double) -> LabelBox {
        let a = degrees * Double.pi / 180, cs = cos(a), sn = sin(a)
        let corners = [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)]
            .map { (x: $0.0 * cs - $0.1 * sn, y: $0.0 * sn + $0.1 * cs) }
        return LabelBox(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                        maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
    }

    /// The icon of a candidate along a line at its anchor, turned (after its `icon-rotate`)
    /// to the line's direction there on screen, as MapLibre turns icons placed along lines
    /// (`icon-rotation-alignment: map`, what `auto` is along lines); with `icon-keep-upright`
    /// turned half round where the line runs leftwards on screen. `viewport`: level on screen.
    private func iconAlongLine(_ c: LabelCandidate) -> (icon: PlacedIcon, angle: Double)? {
        guard var icon = c.icon, c.anchorSegment + 1 < c.path.count else { return nil }
        var angle = 0.0
        if icon.rotationAlignment != .viewport {
            let a = camera.screenPoint(ofWorld: c.path[c.anchorSegment]), b = camera.screenPoint(ofWorld: c.path[c.anchorSegment + 1])
            guard a.x != b.x || a.y != b.y else { return nil }
            angle = atan2(b.y - a.y, b.x - a.x) * 180 / Double.pi
            if icon.keepUpright && b.x < a.x { angle += angle > 0 ? -180 : 180 }
            icon.rotate += angle
        }
        return Self.iconLayout(icon).map { (translated($0), angle) }
    }

    private func lineLayout(_ c: LabelCandidate) -> (PlacedLabel, PendingGlyphs?)? {
        if c.shaped.glyphs.isEmpty {
            // An icon alone (a one-way arrow): no text to lay along the line.
            guard let (icon, angle) = iconAlongLine(c) else { return nil }
            return (PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: c.style, anchor: c.anchor, glyphs: [],
                                box: icon.box, collision: [], angle: angle, isLine: true, icon: icon), nil)
        }
        // `text-rotation-alignment: viewport` along a line: level text at the line's anchor.
        guard let laid = c.style.rotationAlignment == .viewport ? textLayout(c) : textAlongLine(c) else { return nil }
        var label = laid.0
        let pending = laid.1
        label.icon = iconAlongLine(c)?.icon
        if let icon = label.icon, icon.style.rotationAlignment != .viewport || movesWithMap(icon.style) { label.turnsWithMap = true }
        return (label, pending)
    }

    private func textAlongLine(_ c: LabelCandidate) -> (PlacedLabel, PendingGlyphs?)? {
        let anchor = camera.screenPoint(ofWorld: c.anchor)
        // The path on screen (through the camera, so a turned map turns it too) in px from the
        // anchor, and the anchor's distance along it.
        // Only the stretch the text can reach (half its width each way, and a little more) is
        // turned to screen points: a joined street can be hundreds of points long.
        let reach = (c.shaped.width / 2 + c.style.size) / worldScale
        func worldLength(_ i: Int) -> Double { hypot(c.path[i + 1].x - c.path[i].x, c.path[i + 1].y - c.path[i].y) }
        var first = c.anchorSegment, last = c.anchorSegment + 1
        var back = worldLength(c.anchorSegment) * c.anchorFraction, ahead = worldLength(c.anchorSegment) * (1 - c.anchorFraction)
        while first > 0 && back < reach { first -= 1; back += worldLength(first) }
        while last < c.path.count - 1 && ahead < reach { ahead += worldLength(last); last += 1 }
        let segment = c.anchorSegment - first
        var pts = c.path[first...last].map { w -> (x: Double, y: Double) in
            let p = camera.screenPoint(ofWorld: w)
            return (p.x - anchor.x, p.y - anchor.y)
        }
        var lengths: [Double] = []
        lengths.reserveCapacity(pts.count)
        var total = 0.0, along = 0.0
        for i in 0..<(pts.count - 1) {
            let d = hypot(pts[i + 1].x - pts[i].x, pts[i + 1].y - pts[i].y)
            if i < segment { along += d } else if i == segment { along += d * c.anchorFraction }
            lengths.append(d)
            total += d
        }
        let s = c.shaped
        let half = s.width / 2
        guard total > s.width, along - half >= 0, along + half <= total else { return nil }
        // Glyph clusters (a conjunct with its signs, a letter with its marks, one glyph of
        // Latin): each sits on the line as one piece, at its middle's distance along it.
        var clusters: [(first: Int, end: Int, mid: Double, width: Double)] = []
        clusters.reserveCapacity(s.glyphs.count)
        for (i, g) in s.glyphs.enumerated() {
            let pen = g.x - g.offset
            if let last = clusters.last, s.glyphs[last.first].cluster == g.cluster {
                let start = min(last.mid - last.width / 2, pen), width = last.width + g.advance
                clusters[clusters.count - 1] = (last.first, i + 1, start + width / 2, width)
            } else {
                clusters.append((i, i + 1, pen + g.advance / 2, g.advance))
            }
        }
        // Read upright: when the text would run right to left (its last cluster's centre left
        // of its first's), lay it along the reversed line.
        // (`text-keep-upright: false`: as the line runs, even upside down.)
        if c.style.keepUpright, let c0 = clusters.first, let c1 = clusters.last,
           let a = point(pts, lengths, at: along - half + c0.mid),
           let b = point(pts, lengths, at: along - half + c1.mid), b.x < a.x {
            pts.reverse()
            lengths.reverse()
            along = total - along
        }
        let size = c.style.size
        let maxBend = c.style.maxAngle * Double.pi / 180
        var points: [(x: Double, y: Double, angle: Double)] = []
        points.reserveCapacity(clusters.count)
        var collision: [LabelBox] = []
        collision.reserveCapacity(clusters.count)
        var angles: [Double] = []
        angles.reserveCapacity(clusters.count)
        var box: LabelBox?
        var lastAngle: Double?
        var sumCos = 0.0, sumSin = 0.0
        for k in clusters {
            guard let p = point(pts, lengths, at: along - half + k.mid) else { return nil }
            let angle = p.angle
            if let last = lastAngle {
                var d = abs(angle - last)
                if d > Double.pi { d = 2 * Double.pi - d }
                if d > maxBend { return nil }
            }
            lastAngle = angle
            angles.append(angle)
            points.append(p)
            sumCos += cos(angle); sumSin += sin(angle)
            let r = max(size, k.width) / 2
            let ink = LabelBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)
            box = box.map { $0.union(ink) } ?? ink
            collision.append(ink.inset(-c.style.padding))
        }
        guard let box else { return nil }
        let mean = atan2(sumSin, sumCos) * 180 / Double.pi
        let shift = screenOffset(c.style.translate, inViewport: c.style.translateInViewport)
        var label = PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: c.style, anchor: c.anchor, glyphs: [],
                                box: box.offset(shift.x, shift.y), collision: collision, angle: mean, isLine: true, clusterAngles: angles)
        label.textShift = shift
        return (label, .line(points: points, clusters: clusters))
    }

    /// The point `d` px along the path and the direction of the segment it lies on.
    private func point(_ pts: [(x: Double, y: Double)], _ lengths: [Double], at d: Double) -> (x: Double, y: Double, angle: Double)? {
        guard d >= 0 else { return nil }
        var start = 0.0
        for (i, l) in lengths.enumerated() {
            if d <= start + l || i == lengths.count - 1 {
                guard l > 0 else { start += l; continue }
                let f = min(max((d - start) / l, 0), 1)
                let a = pts[i], b = pts[i + 1]
                return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, atan2(b.y - a.y, b.x - a.x))
            }
            start += l
        }
        return nil
    }
}
