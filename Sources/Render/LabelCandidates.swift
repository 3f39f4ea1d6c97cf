import Foundation
import Geo
import Style
import Tiles

/// One label the placer may put on screen, made on a tile worker beside the raster tile and
/// cached with it: the style's symbol turned into world coordinates and shaped glyphs.
struct LabelCandidate: Sendable {
    var layerID: String
    var text: String
    var style: TextStyle
    /// The text's glyphs; none for an icon alone (`text` empty).
    var shaped: ShapedText
    /// The sprite icon shown at the label's anchor, with or without its text (along a line,
    /// turned with the line there).
    var icon: IconStyle? = nil
    var placement: SymbolPlacement
    /// `symbol-spacing`, px.
    var spacing: Double
    /// Where the label hangs: the point, or for text along a line the spot on the line its
    /// middle sits on. Zoom-0 world units.
    var anchor: WorldPoint
    /// Text along a line: the line (world units) and how far along it the anchor lies, as
    /// the segment it is on and the fraction of that segment.
    var path: [WorldPoint] = []
    var anchorSegment = 0
    var anchorFraction = 0.0
    /// Placement order: lower first (see `LabelPriority`).
    var priority: LabelPriority
    /// The same label seen in two tiles (or on a tile and its stand-in) has the same identity.
    var identity: Int
    /// The style source (the file, when files are layered) the label comes from: a name
    /// another file already placed nearby is not placed again (`LabelPlacer.sameName`).
    var source = ""

    func shifted(byWorldX dx: Double) -> LabelCandidate {
        guard dx != 0 else { return self }
        var c = self
        c.anchor.x += dx
        c.path = path.map { WorldPoint(x: $0.x + dx, y: $0.y) }
        var h = Hasher()
        h.combine(identity)
        h.combine(dx)
        c.identity = h.finalize()
        return c
    }
}

/// MapLibre's order: symbol layers from the top of the style down (the layer drawn last is
/// placed first, so place names win over street names and points of interest), within a
/// layer by `symbol-sort-key` (lower first, features without a key after), then feature order.
struct LabelPriority: Sendable, Comparable {
    var layerIndex: Int
    var sortKey: Double
    var featureIndex: Int
    /// Breaks the remaining ties (the same feature in several tiles, or several anchors along
    /// one line) by position, so the order never depends on the order tiles arrive in.
    var x: Double
    var y: Double

    static func < (a: LabelPriority, b: LabelPriority) -> Bool {
        if a.layerIndex != b.layerIndex { return a.layerIndex > b.layerIndex }
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        if a.featureIndex != b.featureIndex { return a.featureIndex < b.featureIndex }
        if a.y != b.y { return a.y < b.y }
        return a.x < b.x
    }
}

/// The label candidates of one raster tile (every source's symbols), shared by reference so
/// the placer can tell cheaply whether the tiles on screen changed.
final class TileLabelSet: Sendable {
    let candidates: [LabelCandidate]
    /// Text along lines too short in this tile for their name, cut to the tile's square, as
    /// candidates without an anchor yet (`path` the piece, `priority` without a position): a
    /// stretch that reaches the square's edge and got no anchor in its tile, as the street
    /// goes on in the next tile, where its piece may be as short. The placer joins them with
    /// their neighbours' pieces (`LabelExtraction.acrossTiles`).
    let pieces: [LabelCandidate]
    init(_ candidates: [LabelCandidate], pieces: [LabelCandidate] = []) {
        self.candidates = candidates
        self.pieces = pieces
    }
    static let empty = TileLabelSet([])
}

/// The same label seen in two tiles (or on a tile and its stand-in, or joined from pieces)
/// gets the same identity: its layer, text, icon and anchor.
func labelIdentity(layer: String, text: String, icon: String?, anchor: WorldPoint) -> Int {
    var h = Hasher()
    h.combine(layer)
    h.combine(text)
    h.combine(icon)
    // Quantized so that the same point read from two tiles' buffers matches.
    h.combine(Int64((anchor.x * 1e7).rounded()))
    h.combine(Int64((anchor.y * 1e7).rounded()))
    return h.finalize()
}

/// Turns one drawn tile's symbols into candidates (on the tile worker).
enum LabelExtraction {
    /// The tile's candidates, and the pieces of text along lines too short in it for their
    /// name that reach its edge (`TileLabelSet.pieces`).
    /// - Parameters:
    ///   - tile: the tile being drawn; `placed` maps each source's data into its pixels.
    ///   - pixelSize: the raster's side in device px; `scale` device px per logical px.
    ///   - symbols: each source tile's symbols (the style's, at the tile's zoom).
    static func labels(_ placed: [PlacedTile], tile: TileID, pixelSize: Double, scale: Double,
                       symbols: (PlacedTile) -> [SymbolFeature]) -> TileLabelSet {
        var pieces: [LabelCandidate] = []
        let worldPerPixel = WebMercator.tileSize / exp2(Double(tile.z)) / pixelSize
        // Logical px per world unit at this tile's style zoom: line spacing is measured in them.
        let logicalPerWorld = pixelSize / scale / (WebMercator.tileSize / exp2(Double(tile.z)))
        let originX = Double(tile.x) * WebMercator.tileSize / exp2(Double(tile.z))
        let originY = Double(tile.y) * WebMercator.tileSize / exp2(Double(tile.z))
        var out: [LabelCandidate] = []
        for p in placed {
            // Anchors kept so far along lines in this data tile, by layer and text (raster px).
            var repeats: [String: [(x: Double, y: Double)]] = [:]
            for symbol in mergedLines(symbols(p)) {
                let extent = Double(max(symbol.extent, 1))
                func px(_ v: TilePoint) -> (x: Double, y: Double) {
                    (p.placement.x(v.x, extent: extent), p.placement.y(v.y, extent: extent))
                }
                func world(_ q: (x: Double, y: Double)) -> WorldPoint {
                    WorldPoint(x: originX + q.x * worldPerPixel, y: originY + q.y * worldPerPixel)
                }
                // A label belongs to the tile its anchor lies in (half-open square), so the
                // copies in neighbouring tiles' buffers are never placed twice.
                func own(_ q: (x: Double, y: Double)) -> Bool { q.x >= 0 && q.y >= 0 && q.x < pixelSize && q.y < pixelSize }
                let shaped: ShapedText
                if symbol.text.isEmpty, symbol.icon != nil {
                    shaped = ShapedText(glyphs: [], minX: 0, minY: 0, maxX: 0, maxY: 0)
                } else if let s = LabelFonts.shared.shape(symbol.text, style: symbol.textStyle, wrap: symbol.placement == .point) {
                    shaped = s
                } else {
                    continue
                }
                let base = LabelPriority(layerIndex: symbol.layerIndex, sortKey: symbol.sortKey ?? .infinity,
                                         featureIndex: symbol.featureIndex, x: 0, y: 0)
                func candidate(anchor: WorldPoint, path: [WorldPoint] = [], segment: Int = 0, fraction: Double = 0) -> LabelCandidate {
                    var priority = base
                    priority.x = anchor.x
                    priority.y = anchor.y
                    return LabelCandidate(layerID: symbol.layerID, text: symbol.text, style: symbol.textStyle, shaped: shaped,
                                          icon: symbol.icon, placement: symbol.placement, spacing: symbol.spacing, anchor: anchor, path: path, anchorSegment: segment,
                                          anchorFraction: fraction, priority: priority,
                                          identity: labelIdentity(layer: symbol.layerID, text: symbol.text, icon: symbol.icon?.image, anchor: anchor),
                                          source: p.source)
                }
                switch symbol.geometry {
                case .point(let v):
                    let q = px(v)
                    guard own(q) else { continue }
                    out.append(candidate(anchor: world(q)))
                case .line(let line):
                    guard line.count >= 2 else { continue }
                    let pts = line.map(px)
                    if symbol.placement == .point {
                        let q = pts[pts.count / 2]
                        if own(q) { out.append(candidate(anchor: world(q))) }
                        continue
                    }
                    // An icon alone along a line needs its own length of line.
                    let length = shaped.glyphs.isEmpty ? (symbol.icon.map { $0.width * $0.size } ?? 0) : shaped.width
                    // As MapLibre does, the line is cut to the data tile's square first (the
                    // buffer's stretch is not measured, and a label never runs past the edge);
                    // a piece that begins on the edge comes in from the next tile.
                    let square = (minX: p.placement.offsetX, minY: p.placement.offsetY,
                                  maxX: p.placement.offsetX + p.placement.pixelsPerTile,
                                  maxY: p.placement.offsetY + p.placement.pixelsPerTile)
                    // MapLibre draws this data as a tile `overscaling` times its own zoom (its
                    // tiles are twice Meridian's: tile zoom z - 1), and spaces the first anchor
                    // by that factor so anchors line up with the data's own zoom.
                    let overscaling = max(1, p.placement.pixelsPerTile / pixelSize / 2)
                    var spots = 0
                    for piece in clipped(pts, to: square) {
                        let first = piece[0]
                        let continued = first.x == square.minX || first.x == square.maxX || first.y == square.minY || first.y == square.maxY
                        let piecePath = piece.map(world)
                        for a in anchors(along: piecePath, logicalPerWorld: logicalPerWorld, labelLength: length, textSize: symbol.textStyle.size,
                                         spacing: symbol.placement == .lineCenter ? .infinity : max(symbol.spacing, 1), continued: continued,
                                         overscaling: overscaling, maxAngle: shaped.glyphs.isEmpty ? nil : symbol.textStyle.maxAngle) {
                            spots += 1
                            let q = ((a.point.x - originX) / worldPerPixel, (a.point.y - originY) / worldPerPixel)
                            // As MapLibre lays a data tile out: an anchor closer than half a
                            // spacing to one the same text already has in the tile (in feature
                            // order, placed or not) is dropped, so a street drawn as two
                            // carriageways is named along the first only. (Icons alone along
                            // lines repeat at their spacing: no name to repeat.)
                            if symbol.placement == .line, !symbol.text.isEmpty {
                                let key = symbol.layerID + "\u{1}" + symbol.text
                                let near = max(symbol.spacing, 1) / 2 * scale
                                if let kept = repeats[key], kept.contains(where: { hypot($0.x - q.0, $0.y - q.1) < near }) { continue }
                                repeats[key, default: []].append(q)
                            }
                            guard own(q) else { continue }
                            out.append(candidate(anchor: a.point, path: piecePath, segment: a.segment, fraction: a.fraction))
                        }
                    }
                    if spots == 0 {
                        // Too short here for its name: its pieces that reach this tile's edge may
                        // join the next tile's (`acrossTiles`).
                        for piece in clipped(pts, to: pixelSize) {
                            let path = piece.map(world)
                            var c = candidate(anchor: path[0], path: path)
                            c.priority = base
                            pieces.append(c)
                        }
                    }
                }
            }
        }
        return TileLabelSet(out, pieces: pieces)
    }

    /// The stretches of `line` (raster px) inside the square `0…size` that touch its edge
    /// (a line wholly inside has no neighbour to join).
    static func clipped(_ line: [(x: Double, y: Double)], to size: Double) -> [[(x: Double, y: Double)]] {
        var out: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        var touches = false
        func onEdge(_ p: (x: Double, y: Double)) -> Bool { p.x <= 0 || p.y <= 0 || p.x >= size || p.y >= size }
        func finish() {
            if current.count >= 2 && touches { out.append(current) }
            current = []
            touches = false
        }
        for (a, b) in zip(line, line.dropFirst()) {
            // Liang-Barsky: the part of a→b inside the square, as fractions t0…t1 of it.
            let dx = b.x - a.x, dy = b.y - a.y
            var t0 = 0.0, t1 = 1.0
            var inside = true
            for (p, q) in [(-dx, a.x), (dx, size - a.x), (-dy, a.y), (dy, size - a.y)] {
                if p == 0 {
                    if q < 0 { inside = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
            guard inside, t0 <= t1 else { finish(); continue }
            let start = (x: a.x + dx * t0, y: a.y + dy * t0), end = (x: a.x + dx * t1, y: a.y + dy * t1)
            if current.isEmpty || t0 > 0 {
                finish()
                current = [start]
            }
            touches = touches || onEdge(start) || onEdge(end)
            current.append(end)
            if t1 < 1 { finish() }
        }
        finish()
        return out
    }

    /// Candidates for text along lines whose pieces meet across tile edges (world units:
    /// the same layer and text, one piece's end within `tolerance` of another's end), each
    /// joined line given anchors as `anchors` gives them at `zoom` (in its middle when only
    /// one fits). A street whose every piece is shorter than its name in its own tile is so
    /// named once. Deterministic: the same pieces in any order give the same candidates.
    static func acrossTiles(_ pieces: [LabelCandidate], zoom: Double, tolerance: Double) -> [LabelCandidate] {
        guard pieces.count > 1 else { return [] }
        var groups: [String: [Int]] = [:]
        for (i, p) in pieces.enumerated() where p.path.count >= 2 { groups[p.layerID + "\u{1}" + p.text, default: []].append(i) }
        func near(_ a: WorldPoint, _ b: WorldPoint) -> Bool { abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance }
        func before(_ a: WorldPoint, _ b: WorldPoint) -> Bool { a.x != b.x ? a.x < b.x : a.y < b.y }
        var out: [LabelCandidate] = []
        for key in groups.keys.sorted() {
            guard var members = groups[key], members.count > 1 else { continue }
            members.sort { a, b in
                let pa = pieces[a].priority, pb = pieces[b].priority
                if pa < pb || pb < pa { return pa < pb }
                return before(pieces[a].path[0], pieces[b].path[0])
            }
            var used = Set<Int>()
            for head in members where !used.contains(head) {
                used.insert(head)
                var path = pieces[head].path
                var count = 1
                var priority = pieces[head].priority
                // Grow the line at both ends while another piece meets it there.
                func take(at end: WorldPoint) -> [WorldPoint]? {
                    for j in members where !used.contains(j) {
                        let q = pieces[j].path
                        guard let first = q.first, let last = q.last else { continue }
                        if near(first, end) || near(last, end) {
                            used.insert(j)
                            count += 1
                            if pieces[j].priority < priority { priority = pieces[j].priority }
                            return near(first, end) ? q : q.reversed()
                        }
                    }
                    return nil
                }
                while let last = path.last, let more = take(at: last) { path += more.dropFirst() }
                while let first = path.first, let more = take(at: first) { path = more.reversed().dropLast() + path }
                guard count > 1 else { continue }
                // One direction whichever piece came first.
                if let first = path.first, let last = path.last, before(last, first) { path.reverse() }
                let p = pieces[head]
                for a in anchors(along: path, logicalPerWorld: exp2(zoom), labelLength: p.shaped.width, textSize: p.style.size,
                                 spacing: p.placement == .lineCenter ? .infinity : max(p.spacing, 1), continued: false,
                                 maxAngle: p.shaped.glyphs.isEmpty ? nil : p.style.maxAngle) {
                    // After every name of its layer (and sort key) that a single tile placed: a
                    // joined line only names what those left unnamed (the pieces of a street
                    // other tiles already name would otherwise take their spots).
                    var order = priority
                    order.featureIndex += 1 << 40
                    order.x = a.point.x
                    order.y = a.point.y
                    var c = p
                    c.anchor = a.point
                    c.path = path
                    c.anchorSegment = a.segment
                    c.anchorFraction = a.fraction
                    c.priority = order
                    c.identity = labelIdentity(layer: p.layerID, text: p.text, icon: nil, anchor: a.point)
                    out.append(c)
                }
            }
        }
        return out
    }

    /// Text along lines with their pieces joined: a street the data cuts into ways at every
    /// junction (or a river into reaches) is one line for the label wherever one piece ends
    /// where the next of the same layer and text begins, as MapLibre's symbol buckets join
    /// them, so a name fits on a street whose pieces are each shorter than it. The pieces are
    /// taken in feature order and each is joined as MapLibre joins it: after the line that
    /// ends where it begins, before the line that begins where it ends, or between the two;
    /// at a junction where several lines begin or end, the last one seen there is the one
    /// joined (so a street's two carriageways join as in MapLibre, which decides where its
    /// name's anchors fall). A joined line keeps the place in the order (feature index and
    /// sort key) of the line it was joined to. Everything else passes through in order.
    static func mergedLines(_ symbols: [SymbolFeature]) -> [SymbolFeature] {
        struct Key: Hashable {
            var layer: String, text: String, x: Int32, y: Int32
        }
        func key(_ s: SymbolFeature, _ p: TilePoint) -> Key { Key(layer: s.layerID, text: s.text, x: p.x, y: p.y) }
        func line(_ s: SymbolFeature) -> [TilePoint]? {
            guard s.placement != .point, !s.text.isEmpty, case .line(let l) = s.geometry, l.count >= 2 else { return nil }
            return l
        }
        guard symbols.lazy.compactMap(line).dropFirst().first != nil else { return symbols }
        var out: [SymbolFeature?] = []
        var paths: [Int: [TilePoint]] = [:]
        // The joined line beginning (ending) at a point, by layer, text and point.
        var beginning: [Key: Int] = [:], ending: [Key: Int] = [:]
        for s in symbols {
            guard let l = line(s) else { out.append(s); continue }
            let head = key(s, l[0]), tail = key(s, l[l.count - 1])
            if let before = ending[head], let after = beginning[tail], before != after,
               let front = paths[before], let back = paths[after] {
                // Between two lines: before + this + after, kept in `before`'s place.
                let joined: [TilePoint] = front.dropLast() + l + back.dropFirst()
                paths[before] = joined
                ending[head] = nil
                beginning[tail] = nil
                ending[key(s, joined[joined.count - 1])] = before
                out[after] = nil
                paths[after] = nil
            } else if let before = ending[head], let front = paths[before] {
                paths[before] = front.dropLast() + l
                ending[head] = nil
                ending[tail] = before
            } else if let after = beginning[tail], let back = paths[after] {
                paths[after] = l + back.dropFirst()
                beginning[tail] = nil
                beginning[head] = after
            } else {
                out.append(s)
                paths[out.count - 1] = l
                beginning[head] = out.count - 1
                ending[tail] = out.count - 1
            }
        }
        return out.enumerated().compactMap { i, s in
            guard var s else { return nil }
            if let p = paths[i] { s.geometry = .line(p) }
            return s
        }
    }

    /// Spots along `path` (world units) for a label of `labelLength` logical px, as MapLibre
    /// chooses them: the first `labelLength / 2 + 2 × textSize` px in (half a spacing when the
    /// line comes in over the data tile's edge, `continued`), then every `spacing` px, the
    /// spacing widened to the label plus a quarter spacing when the label is nearly as long
    /// as it; only spots with the whole label on the line count. A line with none (and not
    /// continued) gets one in its middle; `spacing` infinite (`line-center`) asks for that alone.
    ///
    /// With `maxAngle` (degrees, `text-max-angle`; text, not an icon alone), a spot is kept only
    /// where the line under the label does not turn by more than that within any stretch of
    /// `0.6 × textSize` px (MapLibre's `checkMaxAngle`, window `3/5` of the text size): the
    /// corners the label spans are summed over that window as it slides along the label.
    static func anchors(along path: [WorldPoint], logicalPerWorld: Double, labelLength: Double, textSize: Double,
                        spacing: Double, continued: Bool, overscaling: Double = 1,
                        maxAngle: Double? = nil) -> [(point: WorldPoint, segment: Int, fraction: Double)] {
        var lengths: [Double] = []
        lengths.reserveCapacity(path.count)
        var total = 0.0
        for (a, b) in zip(path, path.dropFirst()) {
            let d = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() * logicalPerWorld
            lengths.append(d)
            total += d
        }
        guard total.isFinite, total >= labelLength else { return [] }
        var spots: [Double] = []
        let half = labelLength / 2
        if spacing.isFinite {
            let step = spacing - labelLength < spacing / 4 ? labelLength + spacing / 4 : spacing
            let offset = (continued ? step / 2 * overscaling : (half + 2 * textSize) * overscaling).truncatingRemainder(dividingBy: step)
            var d = offset
            while d < total && spots.count < 64 {
                if d - half >= 0 && d + half <= total { spots.append(d) }
                d += step
            }
        }
        let bend = maxAngle.map { $0 * Double.pi / 180 }
        /// Where each point of the path lies along it (px).
        var starts: [Double] = []
        if bend != nil {
            starts.reserveCapacity(path.count)
            var at = 0.0
            starts.append(0)
            for l in lengths { at += l; starts.append(at) }
        }
        /// Whether the label centred `s` px along (on `segment`) turns past `bend` within a window.
        func straightEnough(_ s: Double, segment: Int) -> Bool {
            guard let bend else { return true }
            // The last point at least half the label back from the spot.
            var index = segment
            while index >= 0 && starts[index] - s > -half { index -= 1 }
            guard index >= 0 else { return false }
            index += 1
            var distance = starts[index] - s
            let window = 0.6 * textSize
            var corners: [(distance: Double, delta: Double)] = []
            var first = 0
            var sum = 0.0
            func direction(_ a: WorldPoint, _ b: WorldPoint) -> Double { atan2(b.y - a.y, b.x - a.x) }
            while distance < half {
                guard index + 1 < path.count else { return false }
                let d = direction(path[index - 1], path[index]) - direction(path[index], path[index + 1])
                let delta = abs((d + 3 * Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi) - Double.pi)
                corners.append((distance, delta))
                sum += delta
                while distance - corners[first].distance > window {
                    sum -= corners[first].delta
                    first += 1
                }
                if sum > bend { return false }
                distance += lengths[index]
                index += 1
            }
            return true
        }
        if bend != nil {
            var segment = 0, start = 0.0
            spots = spots.filter { s in
                while segment < lengths.count - 1 && start + lengths[segment] < s {
                    start += lengths[segment]
                    segment += 1
                }
                return straightEnough(s, segment: segment)
            }
        }
        if spots.isEmpty && (!continued || !spacing.isFinite) {
            spots = [total / 2]
            if bend != nil {
                var segment = 0
                while segment < lengths.count - 1 && starts[segment + 1] < total / 2 { segment += 1 }
                if !straightEnough(total / 2, segment: segment) { spots = [] }
            }
        }
        var out: [(WorldPoint, Int, Double)] = []
        var segment = 0, start = 0.0
        for s in spots {
            while segment < lengths.count - 1 && start + lengths[segment] < s {
                start += lengths[segment]
                segment += 1
            }
            let f = lengths[segment] > 0 ? min(max((s - start) / lengths[segment], 0), 1) : 0
            let a = path[segment], b = path[segment + 1]
            out.append((WorldPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f), segment, f))
        }
        return out
    }

    /// `line` cut to the rectangle `box`: the pieces of it inside, in order (a line that
    /// leaves the box and comes back is two pieces). Points where a piece crosses an edge
    /// lie exactly on it.
    static func clipped(_ line: [(x: Double, y: Double)],
                        to box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        func close() {
            if current.count >= 2 { pieces.append(current) }
            current = []
        }
        for (a, b) in zip(line, line.dropFirst()) {
            // Liang–Barsky: the part of a→b inside, as the interval t0…t1 of its parameter.
            var t0 = 0.0, t1 = 1.0
            let dx = b.x - a.x, dy = b.y - a.y
            var inside = true
            for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
                if p == 0 {
                    if q < 0 { inside = false; break }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                    if t0 > t1 { inside = false; break }
                }
            }
            guard inside else { close(); continue }
            func at(_ t: Double) -> (x: Double, y: Double) {
                if t == 0 { return a }
                if t == 1 { return b }
                // On an edge exactly when the cut is there.
                var x = a.x + dx * t, y = a.y + dy * t
                x = min(max(x, box.minX), box.maxX)
                y = min(max(y, box.minY), box.maxY)
                if abs(x - box.minX) < 1e-9 { x = box.minX } else if abs(x - box.maxX) < 1e-9 { x = box.maxX }
                if abs(y - box.minY) < 1e-9 { y = box.minY } else if abs(y - box.maxY) < 1e-9 { y = box.maxY }
                return (x, y)
            }
            let start = at(t0), end = at(t1)
            if t0 > 0 || current.isEmpty {
                close()
                current = [start]
            }
            if end.x != current[current.count - 1].x || end.y != current[current.count - 1].y { current.append(end) }
            if t1 < 1 { close() }
        }
        close()
        return pieces
    }
}
