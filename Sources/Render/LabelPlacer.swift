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

    /// The text's box where it was placed (before `text-translate`): what `icon-text-fit` fits.
    var unshiftedTextBox: LabelBox { box.offset(-textShift.x, -textShift.y) }

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

    private var boxes: [LabelBox] = []
    private var grid: [[Int32]]
    private let columns: Int
    private let rows: Int
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
        grid = Array(repeating: [], count: columns * rows)
    }

    /// The labels to show. `previous` holds the identities shown before: those are placed
    /// first, so a pan or a new tile never makes a shown label give way to a newcomer (no
    /// swapping), and after a zoom the old labels stay where they still fit. Duplicates
    /// (the same identity twice) are placed once.
    mutating func place(_ candidates: [LabelCandidate], previous: Set<Int>) -> [PlacedLabel] {
        var order = candidates.indices.map { $0 }
        order.sort { a, b in
            let pa = previous.contains(candidates[a].identity), pb = previous.contains(candidates[b].identity)
            if pa != pb { return pa }
            return candidates[a].priority < candidates[b].priority
        }
        var seen = Set<Int>()
        var out: [PlacedLabel] = []
        // (A name repeated along a street's pieces is thinned when the tile is laid out, as
        // MapLibre does: `LabelExtraction.candidates`.)
        for i in order {
            let c = candidates[i]
            guard seen.insert(c.identity).inserted else { continue }
            let anchor = camera.screenPoint(ofWorld: c.anchor)
            // Far outside the view: not worth laying out.
            guard anchor.x > -size.width, anchor.x < 2 * size.width, anchor.y > -size.height, anchor.y < 2 * size.height else { continue }
            guard var label = layout(c) else { continue }
            let view = LabelBox(minX: -Self.margin, minY: -Self.margin, maxX: size.width + Self.margin, maxY: size.height + Self.margin)
            func inView(_ b: LabelBox) -> Bool {
                let ink = b.offset(anchor.x, anchor.y)
                return ink.minX >= view.minX && ink.minY >= view.minY && ink.maxX <= view.maxX && ink.maxY <= view.maxY
            }
            let hasText = !label.glyphs.isEmpty
            let screenBoxes = hasText ? label.collision.map { $0.offset(anchor.x, anchor.y) } : []
            var placeText = hasText && inView(label.box) && (c.style.allowOverlap || !screenBoxes.contains(where: collides))
            var placeIcon = false
            if let icon = label.icon {
                placeIcon = inView(icon.box) && (icon.style.allowOverlap || !collides(icon.collision.offset(anchor.x, anchor.y)))
                if hasText {
                    // MapLibre's rule: each part needs the other unless the other is optional.
                    let iconAlone = c.style.optional, textAlone = icon.style.optional
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
            guard placeText || placeIcon else { continue }
            if placeText && !c.style.ignorePlacement { for b in screenBoxes { insert(b) } }
            if placeIcon, let icon = label.icon, !icon.style.ignorePlacement { insert(icon.collision.offset(anchor.x, anchor.y)) }
            if !placeIcon { label.icon = nil }
            if !placeText { label = label.iconOnly() }
            out.append(label)
        }
        return out
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
                for i in grid[y * columns + x] where boxes[Int(i)].overlaps(b) { return true }
            }
        }
        return false
    }

    private mutating func insert(_ b: LabelBox) {
        let index = Int32(boxes.count)
        boxes.append(b)
        let c = cells(b)
        for y in c.y0...c.y1 {
            for x in c.x0...c.x1 { grid[y * columns + x].append(index) }
        }
    }

    // MARK: layout

    /// The candidate laid out at the camera's zoom, nil when it cannot be (a line too short or
    /// too bent for its text).
    func layout(_ c: LabelCandidate) -> PlacedLabel? {
        c.path.isEmpty ? pointLayout(c) : lineLayout(c)
    }

    private func pointLayout(_ c: LabelCandidate) -> PlacedLabel? {
        var label = textLayout(c)
        label.icon = c.icon.flatMap { icon in
            var icon = icon
            if icon.rotationAlignment == .map { icon.rotate += mapAngle }
            return Self.iconLayout(icon, text: c.text.isEmpty ? nil : fitBox(c, label)).map { translated($0) }
        }
        label.turnsWithMap = label.turnsWithMap || label.icon.map { $0.style.rotationAlignment == .map || movesWithMap($0.style) } ?? false
        return label
    }

    /// The text's box as MapLibre fits an icon to it (`icon-text-fit`): as wide as the text, and
    /// as tall as its lines at `text-line-height` (not the font's ascent and descent), hung from
    /// the anchor by `text-anchor` and moved by `text-offset` as the text is. (Measured with
    /// pymgl 0.5.0: 12-px text fitted with no padding makes a 14.4-px box, with line height 2 a
    /// 24-px one.) A turned text keeps its own box.
    private func fitBox(_ c: LabelCandidate, _ label: PlacedLabel) -> LabelBox {
        let st = c.style, s = c.shaped
        guard label.textTurn == 0, st.size > 0, st.lineHeight > 0, st.size.isFinite, st.lineHeight.isFinite else { return label.unshiftedTextBox }
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
        if icon.rotate.truncatingRemainder(dividingBy: 360) != 0 { box = turned(rect, degrees: icon.rotate) }
        return PlacedIcon(style: icon, rect: rect, box: box, collision: box.inset(-icon.padding), fitted: fitted)
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

    private func textLayout(_ c: LabelCandidate) -> PlacedLabel {
        let s = c.shaped, st = c.style
        // Where the text box's corner sits relative to the anchor.
        let w = s.width, h = s.height
        var (x, y) = Self.corner(st.anchor, width: w, height: h)
        x += st.offset.x * st.size
        y += st.offset.y * st.size
        // The text origin is the first baseline's left end: the box starts at (minX, minY).
        let ox = x - s.minX, oy = y - s.minY
        let glyphs = s.glyphs.map { PlacedLabel.Glyph(index: $0.index, font: $0.font, x: $0.x + ox, y: $0.y + oy, angle: 0) }
        var box = LabelBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
        // `text-rotate`, and the map's turn for map-aligned text: the box turned about the
        // anchor, and the box around that for collisions.
        let turn = st.rotate.isFinite ? st.rotate + (st.rotationAlignment == .map ? mapAngle : 0) : 0
        if turn.truncatingRemainder(dividingBy: 360) != 0 { box = Self.turned(box, degrees: turn) }
        let shift = screenOffset(st.translate, inViewport: st.translateInViewport)
        var label = PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: st, anchor: c.anchor, glyphs: glyphs,
                                box: box.offset(shift.x, shift.y), collision: [box.inset(-st.padding)], angle: turn, isLine: false)
        label.textTurn = turn.truncatingRemainder(dividingBy: 360) == 0 ? 0 : turn * Double.pi / 180
        label.textShift = shift
        label.turnsWithMap = st.rotationAlignment == .map || (!st.translateInViewport && (st.translate.x != 0 || st.translate.y != 0))
        return label
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

    private func lineLayout(_ c: LabelCandidate) -> PlacedLabel? {
        if c.shaped.glyphs.isEmpty {
            // An icon alone (a one-way arrow): no text to lay along the line.
            guard let (icon, angle) = iconAlongLine(c) else { return nil }
            return PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: c.style, anchor: c.anchor, glyphs: [],
                               box: icon.box, collision: [], angle: angle, isLine: true, icon: icon)
        }
        // `text-rotation-alignment: viewport` along a line: level text at the line's anchor.
        guard var label = c.style.rotationAlignment == .viewport ? textLayout(c) : textAlongLine(c) else { return nil }
        label.icon = iconAlongLine(c)?.icon
        if let icon = label.icon, icon.style.rotationAlignment != .viewport || movesWithMap(icon.style) { label.turnsWithMap = true }
        return label
    }

    private func textAlongLine(_ c: LabelCandidate) -> PlacedLabel? {
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
        // Baseline a third of the text size below the line, so the letters straddle it.
        let drop = size * 0.35
        let maxBend = c.style.maxAngle * Double.pi / 180
        var glyphs: [PlacedLabel.Glyph] = []
        glyphs.reserveCapacity(s.glyphs.count)
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
            sumCos += cos(angle); sumSin += sin(angle)
            let dx = cos(angle), dy = sin(angle)
            // Each glyph's origin: where it lies from the cluster's middle along the baseline
            // (and its shaped height across it), turned to the line, `drop` below it.
            // (`viewport-glyph`: each glyph level on screen at its place along the line.)
            let level = c.style.rotationAlignment == .viewportGlyph
            for g in s.glyphs[k.first..<k.end] {
                let u = g.x - k.mid, v = g.y + drop
                glyphs.append(level ? PlacedLabel.Glyph(index: g.index, font: g.font, x: p.x + u, y: p.y + v, angle: 0)
                                    : PlacedLabel.Glyph(index: g.index, font: g.font, x: p.x + dx * u - dy * v, y: p.y + dy * u + dx * v,
                                                        angle: angle))
            }
            let r = max(size, k.width) / 2
            let ink = LabelBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)
            box = box.map { $0.union(ink) } ?? ink
            collision.append(ink.inset(-c.style.padding))
        }
        guard let box else { return nil }
        let mean = atan2(sumSin, sumCos) * 180 / Double.pi
        let shift = screenOffset(c.style.translate, inViewport: c.style.translateInViewport)
        var label = PlacedLabel(identity: c.identity, layerID: c.layerID, text: c.text, style: c.style, anchor: c.anchor, glyphs: glyphs,
                                box: box.offset(shift.x, shift.y), collision: collision, angle: mean, isLine: true, clusterAngles: angles)
        label.textShift = shift
        return label
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
