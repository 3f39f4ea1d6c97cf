/// Buffer age: what must be redrawn into a buffer so that it shows the newest frame. We rotate
/// up to three shm buffers; each remembers the frame it last showed, and this remembers what
/// each recent frame changed. A buffer last drawn at frame f needs the union of the damage of
/// the frames after f, the frame about to be drawn included; a buffer never drawn (new, or
/// resized) or older than the history needs everything.
public struct DamageHistory: Sendable {
    /// The newest frame number handed out (0 = none yet).
    public private(set) var frame: UInt64 = 0
    /// The damage of recent frames, oldest first (nil: the whole frame).
    private var recent: [(frame: UInt64, rects: [PixelRect]?)] = []
    static let depth = 8

    public init() {}

    /// Starts the next frame, which changes `damage` (nil: everything), for a buffer that last
    /// showed frame `drawnAt` (nil: never). Returns the new frame's number and what that buffer
    /// must redraw (nil: all of it).
    public mutating func begin(damage: [PixelRect]?, bufferDrawnAt drawnAt: UInt64?) -> (frame: UInt64, redraw: [PixelRect]?) {
        frame += 1
        recent.append((frame, damage))
        if recent.count > DamageHistory.depth { recent.removeFirst(recent.count - DamageHistory.depth) }
        guard let drawnAt, let oldest = recent.first?.frame, drawnAt + 1 >= oldest else { return (frame, nil) }
        var out: [PixelRect] = []
        for r in recent where r.frame > drawnAt {
            guard let rects = r.rects else { return (frame, nil) }
            out += rects
        }
        return (frame, DamageHistory.merged(out))
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
}
