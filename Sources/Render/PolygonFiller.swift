import CCairo
import Synchronization

/// Fills polygons with exact-area anti-aliasing straight into a tile's 32-bit pixels,
/// bypassing cairo's path building and scan converter.
///
/// Filling large land, ocean and land-use polygons was about a quarter of a cold continent
/// screen inside cairo and pixman. Here every edge adds, to one accumulation cell per pixel it
/// crosses, how much the covered area changes from that pixel to the next; a running sum
/// along a row then gives each pixel's covered area, winding-weighted and exact (no sampling
/// grid). The nonzero rule is |sum| clamped to 1: MVT holes wind against their outer ring and
/// subtract, while overlapping polygons of one colour add up instead of cancelling as they
/// would with even-odd. Rings of one colour are accumulated together and resolved once, so the
/// edge two neighbouring polygons share cancels exactly and draws no seam.
///
/// Edges are clipped to the image: parts left of it still count (as a vertical edge at x = 0,
/// covering the row from there), parts right of or above/below it are dropped. Work is
/// bounded by the rows and columns an edge crosses inside the image, so coordinates of
/// ±8 M px (ancestors drawn 2^12× up) cost no more than any other edge; non-finite or absurd
/// vertices are skipped. Only the cells a ring touched are read back and cleared: each row
/// keeps a bit per block of 8 cells written, and the runs between marked blocks (the inside
/// of a polygon, most of its pixels) are painted without reading their cells at all.
///
/// One filler serves one tile at a time (`PolygonFiller.withFiller`); its buffer is reused.
final class PolygonFiller: @unchecked Sendable {
    // Sendable: a filler is only ever used by the one thread that took it from `pool`.

    /// Accumulation cells, `width + 2` per row: edges clamped to the right border write into
    /// cells `width` and `width + 1`, which are cleared but never drawn.
    private var cells: UnsafeMutablePointer<Float>
    private var cellCapacity: Int
    /// Per row, `wordsPerRow` words with one bit per block of 8 cells written since the last
    /// fill (cells 8b…8b+7 for bit b).
    private var blocks: UnsafeMutablePointer<UInt64>
    private var blockCapacity: Int
    private var wordsPerRow = 1
    /// Rows written since the last fill.
    private var dirtyTop = Int.max
    private var dirtyBottom = -1

    private(set) var width = 0
    private(set) var height = 0
    /// The pixels drawn (an edge tile's visible part; the whole image unless `prepare` was
    /// given an area). Rows outside it are never walked and columns right of it never written;
    /// columns left of it still are, since a row's running sum starts at column 0. So the pixels
    /// inside are the same bytes as when the whole image is filled.
    private var clipTop = 0, clipBottom = 0, clipLeft = 0, clipRight = 0
    private var stride: Int { width + 2 }

    /// The ring being added: its first and last accepted vertices.
    private var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    private var ringOpen = false

    /// Vertices farther out than this (px) are treated as damaged and skipped: real ones stay
    /// within ±8 M px, and larger values would overflow the edge arithmetic.
    static let coordinateLimit = 1e12

    init() {
        cells = .allocate(capacity: 1)
        cells.initialize(to: 0)
        cellCapacity = 1
        blocks = .allocate(capacity: 1)
        blocks.initialize(to: 0)
        blockCapacity = 1
    }

    deinit {
        cells.deallocate()
        blocks.deallocate()
    }

    /// Readies the filler for an image of `width` × `height` pixels, discarding any ring in
    /// progress. The cells are all zero between fills, so a new size only needs more room.
    func prepare(width: Int, height: Int, area: TileArea? = nil) {
        clear()
        let w = max(width, 0), h = max(height, 0)
        let a = area ?? TileArea(x0: 0, y0: 0, x1: w, y1: h)
        clipLeft = min(max(a.x0, 0), w); clipRight = min(max(a.x1, clipLeft), w)
        clipTop = min(max(a.y0, 0), h); clipBottom = min(max(a.y1, clipTop), h)
        if (w + 2) * h > cellCapacity {
            cells.deallocate()
            cellCapacity = (w + 2) * h
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        let words = ((w + 2 + 7) / 8 + 63) / 64
        if words * h > blockCapacity {
            blocks.deallocate()
            blockCapacity = words * h
            blocks = .allocate(capacity: blockCapacity)
            blocks.initialize(repeating: 0, count: blockCapacity)
        }
        wordsPerRow = words
        self.width = w
        self.height = h
    }

    // MARK: paths

    /// Starts a new ring at (x, y) in device pixels, closing the one before.
    func move(toX x: Double, y: Double) {
        closeRing()
        guard Self.usable(x, y) else { return }
        startX = x; startY = y; lastX = x; lastY = y
        ringOpen = true
    }

    /// Adds an edge to (x, y); a vertex that is not finite is skipped (the ring goes on from
    /// the last good one).
    func line(toX x: Double, y: Double) {
        guard Self.usable(x, y) else { return }
        guard ringOpen else {
            move(toX: x, y: y)
            return
        }
        edge(lastX, lastY, x, y)
        lastX = x; lastY = y
    }

    /// Closes the ring back to its first vertex.
    func closeRing() {
        guard ringOpen else { return }
        edge(lastX, lastY, startX, startY)
        ringOpen = false
    }

    @inline(__always)
    private static func usable(_ x: Double, _ y: Double) -> Bool {
        abs(x) <= coordinateLimit && abs(y) <= coordinateLimit   // false for NaN too
    }

    // MARK: edges

    /// Adds one edge: clipped to the image's rows, then split where it leaves the columns.
    private func edge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        guard ay != by else { return }   // horizontal edges change no row's coverage
        // Rows are walked downwards; the direction becomes the sign of the coverage.
        let (x0, y0, x1, y1, direction) = ay < by ? (ax, ay, bx, by, 1.0) : (bx, by, ax, ay, -1.0)
        let top = max(y0, 0), bottom = min(y1, Double(height))
        // Rows outside the drawn area are never walked (an edge wholly above or below it
        // deposits nothing there).
        guard top < bottom, bottom > Double(clipTop), top < Double(clipBottom) else { return }
        let slope = (x1 - x0) / (y1 - y0)
        let lo = min(x0, x1), hi = max(x0, x1)
        let xTop = top == y0 ? x0 : min(max(x0 + (top - y0) * slope, lo), hi)
        let xBottom = bottom == y1 ? x1 : min(max(x0 + (bottom - y0) * slope, lo), hi)
        clipColumns(xTop, top, xBottom, bottom, direction)
    }

    /// Splits a downward edge (y0 < y1, within the rows) where it crosses x = 0 or x = width,
    /// so each piece lies wholly left of, inside or right of the image.
    private func clipColumns(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ direction: Double) {
        let w = Double(width)
        let border: Double? = Self.crosses(x0, x1, 0) ? 0 : Self.crosses(x0, x1, w) ? w : nil
        if let border {
            // Both pieces end on the border, so neither crosses it again: at most two splits.
            let y = min(max(y0 + (border - x0) * (y1 - y0) / (x1 - x0), y0), y1)
            clipColumns(x0, y0, border, y, direction)
            clipColumns(border, y, x1, y1, direction)
            return
        }
        if min(x0, x1) >= Double(clipRight) {
            // Right of the drawn area: its cells only change pixels right of it.
            return
        } else if max(x0, x1) <= 0 {
            // Left of the image: only the cover it adds to the whole row is left.
            rows(0, y0, 0, y1, direction)
        } else if min(x0, x1) >= w {
            rows(w, y0, w, y1, direction)
        } else {
            rows(x0, y0, x1, y1, direction)
        }
    }

    @inline(__always)
    private static func crosses(_ a: Double, _ b: Double, _ border: Double) -> Bool {
        (a < border && b > border) || (a > border && b < border)
    }

    /// Walks a downward edge inside the image row by row.
    private func rows(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ direction: Double) {
        guard y1 > y0 else { return }
        let firstRow = Int(y0)
        var lastRow = Int(y1)
        // An edge ending on a row's top border does not enter that row.
        if Double(lastRow) == y1 { lastRow &-= 1 }
        lastRow = min(lastRow, height &- 1)
        // Only the rows of the drawn area.
        let from = max(firstRow, clipTop), to = min(lastRow, clipBottom &- 1)
        guard from <= to else { return }
        if firstRow == lastRow {
            // Most edges of real data at tile scale are this short.
            deposit(row: firstRow, x0, x1, (y1 - y0) * direction)
        } else {
            let w = Double(width)
            let slope = (x1 - x0) / (y1 - y0)
            var row = from
            // Where the edge enters the first row walked: the same sum as the walk from its
            // start gives, so a clipped walk deposits the same values.
            var xa = row == firstRow ? x0 : min(max(x0 + (Double(row) - y0) * slope, 0), w)
            var top = row == firstRow ? y0 : Double(row)
            while row < lastRow && row <= to {
                let bottom = Double(row &+ 1)
                // From the edge's start each time, so long edges gather no rounding drift.
                let xb = min(max(x0 + (bottom - y0) * slope, 0), w)
                deposit(row: row, xa, xb, (bottom - top) * direction)
                xa = xb; top = bottom
                row &+= 1
            }
            if lastRow <= to { deposit(row: lastRow, xa, x1, (y1 - top) * direction) }
        }
        dirtyTop = min(dirtyTop, from)
        dirtyBottom = max(dirtyBottom, to)
    }

    /// Adds a piece of edge within one row, running from xa to xb (0…width) over a height of
    /// |cover| (signed by direction), as coverage changes along the row.
    ///
    /// For a pixel column c the area right of the edge is cover × the mean over the piece of
    /// clamp(c + 1 − x, 0, 1); that mean is (ramp(c + 1 − lo) − ramp(c + 1 − hi)) / (hi − lo),
    /// ramp being the integral of clamp(t, 0, 1). Each cell gets the change from its left
    /// neighbour, so the row's running sum is the coverage.
    @inline(__always)
    private func deposit(row: Int, _ xa: Double, _ xb: Double, _ cover: Double) {
        let lo = min(xa, xb), hi = max(xa, xb)
        let line = cells + row * stride
        let first = Int(lo)
        var last = Int(hi)
        if first == last || hi - lo < 1e-7 {
            // Within one column: the area right of the edge is the distance from its middle.
            let column = Int((lo + hi) * 0.5)
            let inside = (lo + hi) * 0.5 - Double(column)
            line[column] += Float(cover * (1 - inside))
            line[column + 1] += Float(cover * inside)
            last = column + 1
            note(row: row, first: column, last: last)
            return
        }
        let perWidth = cover / (hi - lo)
        var previous = 0.0
        for c in first...last {
            let right = Double(c + 1)
            let covered = (Self.ramp(right - lo) - Self.ramp(right - hi)) * perWidth
            line[c] += Float(covered - previous)
            previous = covered
        }
        line[last + 1] += Float(cover - previous)
        note(row: row, first: first, last: last + 1)
    }

    /// ∫ clamp(s, 0, 1) ds from −∞ to t.
    @inline(__always)
    private static func ramp(_ t: Double) -> Double {
        t <= 0 ? 0 : t < 1 ? t * t * 0.5 : t - 0.5
    }

    /// Marks cells `first…last` of `row` as written.
    @inline(__always)
    private func note(row: Int, first: Int, last: Int) {
        let words = blocks + row &* wordsPerRow
        var block = first &>> 3
        let lastBlock = last &>> 3
        while block <= lastBlock {
            words[block &>> 6] |= 1 &<< UInt64(block & 63)
            block &+= 1
        }
    }

    // MARK: drawing

    /// Paints what was added since the last fill in `color` (0xRRGGBB) into `surface`, an
    /// RGB24 or ARGB32 image of this filler's size, and clears it. Returns false (drawing
    /// nothing, clearing everything) when the surface is not such an image.
    /// Call `cairo_surface_flush` before and `cairo_surface_mark_dirty` after.
    @discardableResult
    func fill(_ surface: OpaquePointer, color: UInt32, opacity: Float = 1) -> Bool {
        closeRing()
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32,
              Int(cairo_image_surface_get_width(surface)) == width, Int(cairo_image_surface_get_height(surface)) == height,
              let raw = cairo_image_surface_get_data(surface) else {
            clear()
            return false
        }
        let pixels = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt32.self)
        let rowPixels = Int(cairo_image_surface_get_stride(surface)) / 4
        if opacity >= 1 {
            resolve { row, from, to, coverage in
                Self.paint(pixels + row * rowPixels + from, count: to - from, color: color, coverage: coverage)
            }
        } else {
            let o = max(opacity, 0)
            resolve { row, from, to, coverage in
                Self.paint(pixels + row * rowPixels + from, count: to - from, color: color, coverage: coverage * o)
            }
        }
        return true
    }

    /// Forgets everything added since the last fill.
    func clear() {
        ringOpen = false
        resolve { _, _, _, _ in }
    }

    /// Runs the running sums over the touched rows, handing each run of equal coverage
    /// (row, first column, end column, coverage) to `span`, and zeroes the cells read.
    private func resolve(_ draw: (Int, Int, Int, Float) -> Void) {
        guard dirtyTop <= dirtyBottom else { return }
        // Spans are cut to the drawn area's columns.
        let left = clipLeft, right = clipRight
        @inline(__always) func span(_ row: Int, _ from: Int, _ to: Int, _ coverage: Float) {
            let a = max(from, left), b = min(to, right)
            if a < b { draw(row, a, b, coverage) }
        }
        for row in dirtyTop...dirtyBottom {
            let line = cells + row &* stride
            let words = blocks + row &* wordsPerRow
            var sum: Float = 0
            // Pixels before `x` are done; from `x` on the coverage is `sum` until the next block.
            var x = 0
            for w in 0..<wordsPerRow {
                var bits = words[w]
                words[w] = 0
                while bits != 0 {
                    let start = (w &<< 9) | (bits.trailingZeroBitCount &<< 3)
                    bits &= bits &- 1
                    if start > x {
                        // A run no edge touched: one span at the coverage so far.
                        let coverage = min(abs(sum), 1)
                        if coverage > 0 { span(row, x, min(start, width), coverage) }
                    }
                    // The block's cells, a span per run of cells that change nothing (the
                    // last block may reach past the row's pixels into the two spare cells,
                    // which are cleared and not drawn).
                    let end = min(start &+ 8, stride)
                    var c = start
                    while c < end {
                        sum += line[c]
                        line[c] = 0
                        var next = c &+ 1
                        while next < end && line[next] == 0 { next &+= 1 }
                        let coverage = min(abs(sum), 1)
                        if coverage > 0 && c < width { span(row, c, min(next, width), coverage) }
                        c = next
                    }
                    x = end
                }
            }
            // Past the last block the row's cover has returned to zero (rings are closed),
            // unless edges right of the drawn area were left out: then it runs to its end.
            if x < right {
                let coverage = min(abs(sum), 1)
                if coverage > 0 { span(row, x, right, coverage) }
            }
        }
        dirtyTop = .max
        dirtyBottom = -1
    }

    /// Blends `color` over `count` pixels at `coverage` (0…1); opaque where fully covered.
    @inline(__always)
    private static func paint(_ p: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32, coverage: Float) {
        let a = UInt32(coverage * 256 + 0.5)
        if a >= 256 {
            // Eight pixels per store: inside large polygons this is most of the work.
            let word = 0xFF00_0000 | color
            let eight = SIMD8<UInt32>(repeating: word)
            let raw = UnsafeMutableRawPointer(p)
            var i = 0
            while i + 8 <= count {
                raw.storeBytes(of: eight, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
                i += 8
            }
            while i < count { p[i] = word; i += 1 }
            return
        }
        guard a > 0 else { return }
        // Per channel: d + (c − d)·a/256, on red+blue and green in parallel lanes.
        let crb = (color & 0xFF00FF) &* a, cg = (color & 0x00FF00) &* a
        for i in 0..<count {
            let d = p[i]
            let rb = ((d & 0xFF00FF) &* (256 - a) &+ crb) >> 8 & 0xFF00FF
            let g = ((d & 0x00FF00) &* (256 - a) &+ cg) >> 8 & 0x00FF00
            p[i] = 0xFF00_0000 | rb | g
        }
    }

    // MARK: reuse

    /// Idle fillers, one per thread that drew tiles lately, so a fill allocates nothing.
    private static let pool = Mutex<[PolygonFiller]>([])
    /// More idle fillers than this are freed (a worker per core, plus a synchronous draw).
    static let poolLimit = 8

    /// Runs `body` with a filler prepared for a `width` × `height` image (drawing only `area`
    /// of it when given), taken from the pool and given back afterwards.
    static func withFiller<R>(width: Int, height: Int, area: TileArea? = nil, _ body: (PolygonFiller) throws -> R) rethrows -> R {
        let filler = pool.withLock { $0.popLast() } ?? PolygonFiller()
        filler.prepare(width: width, height: height, area: area)
        defer {
            filler.clear()
            pool.withLock { if $0.count < poolLimit { $0.append(filler) } }
        }
        return try body(filler)
    }
}
