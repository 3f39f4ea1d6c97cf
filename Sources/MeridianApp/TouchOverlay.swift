import CCairo
import Gestures
import Input

/// Watches every input frame: counts what arrived (for the state dump) and, with
/// `--show-touches`, draws a marker under every finger and the pointer over the page — like a
/// phone's "show taps" setting, for demos, screen recordings and the end-to-end tests.
public final class TouchOverlay {
    /// Active touch points, by id, where they are now.
    public private(set) var touches: [Int32: Point] = [:]
    public private(set) var pointer: Point?
    public private(set) var pointerButtons: Set<UInt32> = []
    /// Counts of what arrived, for the state dump and the end-to-end tests.
    public private(set) var counts = InputCounts()
    private var dirty = false
    /// Where markers were drawn in the last frame (logical px), for damage.
    private var drawnMarks: [Rect] = []

    public static let touchMarkerRadius = 24.0
    public static let pointerMarkerRadius = 8.0
    /// Marker colours (RGB 0…1), distinct enough to find in a screenshot.
    public static let touchColor = (r: 0.85, g: 0.10, b: 0.15)
    public static let pointerColor = (r: 0.10, g: 0.30, b: 0.85)
    public let isVisible: Bool

    public init(visible: Bool) { isVisible = visible }

    /// True when markers moved since the last draw.
    public var needsFrame: Bool { isVisible && dirty }

    public func handle(_ frame: InputFrame) {
        switch frame {
        case .touch(let f):
            counts.touchFrames += 1
            for change in f.changes {
                switch change {
                case .down(let id, let p):
                    counts.touchDowns += 1
                    touches[id] = p
                case .moved(let id, let p): touches[id] = p
                case .up(let id, _):
                    counts.touchUps += 1
                    touches[id] = nil
                }
            }
            dirty = dirty || !f.changes.isEmpty
        case .touchCancel:
            counts.touchCancels += 1
            dirty = dirty || !touches.isEmpty
            touches.removeAll()
        case .pointer(let f):
            counts.pointerFrames += 1
            let old = pointer
            if let p = f.entered ?? f.moved { pointer = p }
            if f.left { pointer = nil }
            for (b, pressed) in f.buttons {
                counts.buttonPresses += pressed ? 1 : 0
                if pressed { pointerButtons.insert(b.code) } else { pointerButtons.remove(b.code) }
            }
            counts.axisEvents += f.axes.count
            dirty = dirty || pointer != old
        case .key(let k):
            switch k.state {
            case .pressed: counts.keyPresses += 1
            case .repeated: counts.keyRepeats += 1
            case .released: break
            }
        case .keyboardFocus, .textInput:
            break
        case .touchpad:
            counts.touchpadEvents += 1
        }
    }

    /// The markers as they are now, as rectangles around each (a pixel of antialiasing included).
    private var marks: [Rect] {
        guard isVisible else { return [] }
        let t = TouchOverlay.touchMarkerRadius + 1, p = TouchOverlay.pointerMarkerRadius + 1
        return touches.values.map { Rect(x: $0.x - t, y: $0.y - t, width: 2 * t, height: 2 * t) }
            + (pointer.map { [Rect(x: $0.x - p, y: $0.y - p, width: 2 * p, height: 2 * p)] } ?? [])
    }

    /// What the next draw changes: around where markers were drawn and where they are now
    /// (empty when nothing moved).
    public var damage: [Rect] { needsFrame ? drawnMarks + marks : [] }

    /// Draws the markers over whatever is already in `cr` (logical px).
    public func draw(_ cr: OpaquePointer) {
        dirty = false
        drawnMarks = marks
        guard isVisible else { return }
        for (_, p) in touches.sorted(by: { $0.key < $1.key }) {
            let t = TouchOverlay.touchColor
            cairo_set_source_rgb(cr, t.r, t.g, t.b)
            cairo_arc(cr, p.x, p.y, TouchOverlay.touchMarkerRadius, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        if let p = pointer {
            let t = TouchOverlay.pointerColor
            cairo_set_source_rgb(cr, t.r, t.g, t.b)
            cairo_arc(cr, p.x, p.y, TouchOverlay.pointerMarkerRadius, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
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
