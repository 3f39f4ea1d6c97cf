import Gestures
import Input

/// Plays touch and mouse input into a `GestureSystem` the way a compositor would, on a virtual
/// clock, so tests read like what a finger does: `down`, `move`, `up`, `wait`.
final class Driver {
    let system: GestureSystem
    private(set) var time: Double = 0
    private var positions: [Int32: Point] = [:]
    private var pointer = Point.zero

    init(_ system: GestureSystem) { self.system = system }
    convenience init(root: GestureView) { self.init(GestureSystem(root: root)) }

    /// Moves the clock to `t` (ms since the start), firing due timers.
    func wait(until t: Double) {
        time = max(time, t)
        system.advance(to: time)
    }

    func wait(_ ms: Double) { wait(until: time + ms) }

    /// One touch frame with the given changes at the current time.
    func frame(_ changes: [TouchChange]) {
        for c in changes {
            switch c {
            case .down(let id, let p), .moved(let id, let p): positions[id] = p
            case .up(let id, _): positions[id] = nil
            }
        }
        system.handle(.touch(TouchFrame(time: time, changes: changes)))
    }

    func down(_ id: Int32, _ x: Double, _ y: Double) { frame([.down(id: id, at: Point(x: x, y: y))]) }
    func move(_ id: Int32, _ x: Double, _ y: Double) { frame([.moved(id: id, to: Point(x: x, y: y))]) }
    func up(_ id: Int32) { frame([.up(id: id, at: positions[id] ?? .zero)]) }
    func cancel() {
        positions.removeAll()
        system.handle(.touchCancel(time: time))
    }

    /// Moves finger `id` by (dx, dy) in `steps` frames of `stepMs` each.
    func drag(_ id: Int32, by dx: Double, _ dy: Double, steps: Int = 10, stepMs: Double = 8) {
        let start = positions[id] ?? .zero
        for i in 1...steps {
            wait(stepMs)
            let k = Double(i) / Double(steps)
            move(id, start.x + dx * k, start.y + dy * k)
        }
    }

    /// Moves several fingers together, each by its own delta, one frame per step.
    func dragTogether(_ moves: [(id: Int32, dx: Double, dy: Double)], steps: Int = 10, stepMs: Double = 8) {
        let starts = moves.map { positions[$0.id] ?? .zero }
        for i in 1...steps {
            wait(stepMs)
            let k = Double(i) / Double(steps)
            frame(moves.enumerated().map { n, m in
                .moved(id: m.id, to: Point(x: starts[n].x + m.dx * k, y: starts[n].y + m.dy * k))
            })
        }
    }

    /// A quick tap: down, 50 ms, up.
    func tap(_ x: Double, _ y: Double, id: Int32 = 0, holding ms: Double = 50) {
        down(id, x, y)
        wait(ms)
        up(id)
    }

    // MARK: Mouse

    func mouseMove(_ x: Double, _ y: Double) {
        pointer = Point(x: x, y: y)
        system.handle(.pointer(PointerFrame(time: time, moved: pointer)))
    }

    func mouseButton(pressed: Bool, _ button: PointerButton = .left) {
        system.handle(.pointer(PointerFrame(time: time, buttons: [(button, pressed)])))
    }

    func click(_ x: Double, _ y: Double, holding ms: Double = 60) {
        mouseMove(x, y)
        mouseButton(pressed: true)
        wait(ms)
        mouseButton(pressed: false)
    }

    /// Lifts every finger and lets every timer run out.
    func settle() {
        for id in positions.keys.sorted() { up(id) }
        wait(10_000)
    }
}

/// Records what recognizers report, as "name state" lines, for assertions on order.
final class Recorder {
    private(set) var events: [String] = []

    func watch(_ recognizers: GestureRecognizer...) {
        for r in recognizers {
            r.onStateChange = { [weak self] r in self?.events.append("\(r.name) \(r.state)") }
        }
    }

    func clear() { events.removeAll() }

    /// Events other than `failed` and `changed`: what a user would notice.
    var visible: [String] {
        events.filter { !$0.hasSuffix(" failed") && !$0.hasSuffix(" changed") }
    }

    func count(_ event: String) -> Int { events.filter { $0 == event }.count }
}

/// A root view filling a 800×1280 window with one child per frame given.
func makeWindow() -> GestureView { GestureView(name: "window", frame: Rect(x: 0, y: 0, width: 800, height: 1280)) }

@discardableResult
func addView(_ name: String, _ frame: Rect, to parent: GestureView) -> GestureView {
    let v = GestureView(name: name, frame: frame)
    parent.addChild(v)
    return v
}
