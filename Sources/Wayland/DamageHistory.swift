import Glibc

/// What one frame changes since the previous one, in buffer pixels of the content area.
public struct FrameDamage: Equatable, Sendable {
    /// Rows the whole content moved up since the previous frame (negative: down; 0: no
    /// scroll). A scroll copies the rows that stay on screen and redraws only the strip it
    /// exposes, plus `rects`.
    public var scroll: Int
    /// What must be redrawn besides what the scroll exposes, in this frame's pixels.
    public var rects: [PixelRect]

    public init(scroll: Int = 0, rects: [PixelRect]) {
        self.scroll = scroll
        self.rects = rects
    }
}

/// Buffer age: what must be redrawn into a buffer so that it shows the newest frame. We rotate
/// up to three shm buffers; each remembers the frame it last showed, and this remembers what
/// each recent frame changed. A buffer last drawn at frame f needs the scrolls of the frames
/// after f applied (one copy of its rows by their sum) and then the union of their damage,
/// each frame's carried along by the scrolls after it, the frame about to be drawn included; a
/// buffer never drawn (new, or resized) or older than the history needs everything.
public struct DamageHistory: Sendable {
    /// The newest frame number handed out (0 = none yet).
    public private(set) var frame: UInt64 = 0
    /// The damage of recent frames, oldest first (nil: the whole frame).
    private var recent: [(frame: UInt64, damage: FrameDamage?)] = []
    static let depth = 8

    public init() {}

    /// Starts the next frame, which changes `damage` (nil: everything) of a `width` x `height`
    /// content area, for a buffer that last showed frame `drawnAt` (nil: never). Returns the new
    /// frame's number, the rows to move that buffer's picture up by (negative: down), and what
    /// must then be redrawn (nil: all of it; the move is then moot).
    public mutating func begin(damage: FrameDamage?, width: Int, height: Int,
                               bufferDrawnAt drawnAt: UInt64?) -> (frame: UInt64, scroll: Int, redraw: [PixelRect]?) {
        frame += 1
        recent.append((frame, damage))
        if recent.count > DamageHistory.depth { recent.removeFirst(recent.count - DamageHistory.depth) }
        guard let drawnAt, let oldest = recent.first?.frame, drawnAt + 1 >= oldest else { return (frame, 0, nil) }
        var shift = 0
        var out: [PixelRect] = []
        for r in recent where r.frame > drawnAt {
            guard let d = r.damage else { return (frame, 0, nil) }
            shift += d.scroll
            guard abs(shift) < height else { return (frame, 0, nil) }
            if d.scroll != 0 {
                // What earlier frames damaged moved with the page; the scroll exposes a strip.
                out = out.compactMap { $0.offset(dy: -d.scroll).clipped(width: width, height: height) }
                out.append(d.scroll > 0 ? PixelRect(x: 0, y: height - d.scroll, width: width, height: d.scroll)
                                        : PixelRect(x: 0, y: 0, width: width, height: -d.scroll))
            }
            out += d.rects.compactMap { $0.clipped(width: width, height: height) }
        }
        return (frame, shift, DamageHistory.merged(out))
    }

    /// `begin`, and the move of the buffer's rows it asks for: afterwards only the returned
    /// rectangles (nil: everything) of `pixels` must be drawn to show the new frame.
    public mutating func prepare(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                                 damage: FrameDamage?, bufferDrawnAt drawnAt: UInt64?) -> (frame: UInt64, redraw: [PixelRect]?) {
        let b = begin(damage: damage, width: width, height: height, bufferDrawnAt: drawnAt)
        if b.redraw != nil { DamageHistory.moveRows(pixels, stride: stride, height: height, up: b.scroll) }
        return (b.frame, b.redraw)
    }

    /// Moves the picture in `pixels` up by `rows` (down when negative); the rows it leaves keep
    /// their old pixels, to be redrawn.
    static func moveRows(_ pixels: UnsafeMutableRawPointer, stride: Int, height: Int, up rows: Int) {
        guard rows != 0, abs(rows) < height else { return }
        let kept = (height - abs(rows)) * stride
        if rows > 0 {
            memmove(pixels, pixels + rows * stride, kept)
        } else {
            memmove(pixels + -rows * stride, pixels, kept)
        }
    }

    /// The whole history is void (a resize, a scale change): every buffer redraws everything.
    public mutating func invalidate() { recent.removeAll() }

    /// Rectangles with duplicates and those inside another dropped; a pan repeats the map's frame.
    static func merged(_ rects: [PixelRect]) -> [PixelRect] {
        var out: [PixelRect] = []
        for r in rects where r.width > 0 && r.height > 0 {
            if out.contains(where: { $0.contains(r) }) { continue }
            out.removeAll { r.contains($0) }
            out.append(r)
        }
        return out
    }
}

extension PixelRect {
    func contains(_ o: PixelRect) -> Bool {
        o.x >= x && o.y >= y && o.x + o.width <= x + width && o.y + o.height <= y + height
    }

    func offset(dy: Int) -> PixelRect { PixelRect(x: x, y: y + dy, width: width, height: height) }

    /// The part inside a `width` x `height` area, nil when none.
    func clipped(width w: Int, height h: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, x + width), y1 = min(h, y + height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
