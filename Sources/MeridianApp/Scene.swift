import CCairo
import Input

/// A rectangle in logical px.
public struct Rect: Equatable, Sendable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    func union(_ o: Rect) -> Rect {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return Rect(x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
    }
}

/// What the app shows until the page and the map land: a plain page and a marker under every
/// active touch point and under the pointer, so input is visible end to end.
public final class Scene {
    public private(set) var width: Double
    public private(set) var height: Double
    /// Active touch points, by id, where they are now.
    public private(set) var touches: [Int32: Point] = [:]
    public private(set) var pointer: Point?
    public private(set) var pointerButtons: Set<UInt32> = []
    /// Counts of what arrived, for the state dump and the end-to-end tests.
    public private(set) var counts = InputCounts()
    private var dirty: Rect?
    private var fullRedraw = true

    public static let touchMarkerRadius = 24.0
    public static let pointerMarkerRadius = 8.0
    /// Marker colours (RGB 0…1), distinct enough to find in a screenshot.
    public static let touchColor = (r: 0.85, g: 0.10, b: 0.15)
    public static let pointerColor = (r: 0.10, g: 0.30, b: 0.85)
    public static let pageColor = (r: 0.96, g: 0.95, b: 0.92)

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public func resize(width: Double, height: Double) {
        self.width = width
        self.height = height
        fullRedraw = true
    }

    public var needsFrame: Bool { fullRedraw || dirty != nil }

    /// Input never needs a timer yet; gestures and animations will.
    public var nextDeadline: Double? { nil }

    public func advance(to time: Double) {}

    private func markDirty(around p: Point, radius: Double) {
        let r = Rect(x: p.x - radius - 2, y: p.y - radius - 2, width: 2 * radius + 4, height: 2 * radius + 4)
        dirty = dirty.map { $0.union(r) } ?? r
    }

    public func handle(_ frame: InputFrame) {
        switch frame {
        case .touch(let f):
            counts.touchFrames += 1
            for change in f.changes {
                if let old = touches[change.id] { markDirty(around: old, radius: Scene.touchMarkerRadius) }
                switch change {
                case .down(let id, let p):
                    counts.touchDowns += 1
                    touches[id] = p
                case .moved(let id, let p): touches[id] = p
                case .up(let id, _):
                    counts.touchUps += 1
                    touches[id] = nil
                }
                if let now = touches[change.id] { markDirty(around: now, radius: Scene.touchMarkerRadius) }
            }
        case .touchCancel:
            counts.touchCancels += 1
            for p in touches.values { markDirty(around: p, radius: Scene.touchMarkerRadius) }
            touches.removeAll()
        case .pointer(let f):
            counts.pointerFrames += 1
            if let old = pointer { markDirty(around: old, radius: Scene.pointerMarkerRadius) }
            if let p = f.entered ?? f.moved { pointer = p }
            if f.left { pointer = nil }
            for (b, pressed) in f.buttons {
                counts.buttonPresses += pressed ? 1 : 0
                if pressed { pointerButtons.insert(b.code) } else { pointerButtons.remove(b.code) }
            }
            counts.axisEvents += f.axes.count
            if let p = pointer { markDirty(around: p, radius: Scene.pointerMarkerRadius) }
        case .key(let k):
            switch k.state {
            case .pressed: counts.keyPresses += 1
            case .repeated: counts.keyRepeats += 1
            case .released: break
            }
        case .touchpad:
            counts.touchpadEvents += 1
        }
    }

    /// Draws the whole scene with `cr` (already scaled to logical px). Returns the logical
    /// region that changed since the previous draw, or nil when everything did.
    public func draw(_ cr: OpaquePointer) -> Rect? {
        let changed = fullRedraw ? nil : dirty
        fullRedraw = false
        dirty = nil
        let c = Scene.pageColor
        cairo_set_source_rgb(cr, c.r, c.g, c.b)
        cairo_paint(cr)
        // A header, so the page is recognisably Meridian's.
        cairo_set_source_rgb(cr, 0.13, 0.20, 0.29)
        cairo_rectangle(cr, 0, 0, width, 64)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 24)
        cairo_move_to(cr, 20, 42)
        cairo_show_text(cr, "Meridian")
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 16)
        cairo_move_to(cr, 20, 100)
        cairo_show_text(cr, "Touch anywhere: a marker follows each finger.")
        for (_, p) in touches.sorted(by: { $0.key < $1.key }) {
            let t = Scene.touchColor
            cairo_set_source_rgb(cr, t.r, t.g, t.b)
            cairo_arc(cr, p.x, p.y, Scene.touchMarkerRadius, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        if let p = pointer {
            let t = Scene.pointerColor
            cairo_set_source_rgb(cr, t.r, t.g, t.b)
            cairo_arc(cr, p.x, p.y, Scene.pointerMarkerRadius, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        return changed
    }
}

/// How much of each kind of input the app has seen.
public struct InputCounts: Equatable, Sendable {
    public var touchFrames = 0
    public var touchDowns = 0
    public var touchUps = 0
    public var touchCancels = 0
    public var pointerFrames = 0
    public var buttonPresses = 0
    public var axisEvents = 0
    public var keyPresses = 0
    public var keyRepeats = 0
    public var touchpadEvents = 0
}
