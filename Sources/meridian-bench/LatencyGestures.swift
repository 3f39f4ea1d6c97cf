import Input
#if canImport(Glibc)
import Glibc
#endif

/// The scripted gestures the latency suite plays, headless and under the test compositor
/// alike: touch frames 16 ms apart (a 60 Hz touch screen), each a list of touch changes.
/// Under the compositor `MERIDIAN_LATENCY_INPUT_HZ` plays them faster (a 120 or 240 Hz touch
/// panel): the same paths and durations in `inputHz / 60` times as many frames.
enum LatencyGestures {
    /// Milliseconds between touch frames at 60 Hz input (the headless runs' clock).
    static let frameInterval = 16.0
    /// Motion frames per gesture at 60 Hz input (about a second of dragging).
    static let motionFrames = 60

    /// `MERIDIAN_LATENCY_INPUT_HZ` (60…1000, default 60): how often the compositor modes send a
    /// touch frame. Other values are refused with a message, and 60 is used.
    static var inputHz: Int {
        guard let text = getenv("MERIDIAN_LATENCY_INPUT_HZ").map({ String(cString: $0) }) else { return 60 }
        guard let hz = Int(text), (60...1000).contains(hz) else {
            Bench.progress("latency: MERIDIAN_LATENCY_INPUT_HZ=\(text) is not a rate from 60 to 1000 Hz; using 60")
            return 60
        }
        return hz
    }

    /// Frames per 60 Hz frame at `hz` (1 at 60 Hz, 4 at 240 Hz; fractional between).
    static func density(_ hz: Int) -> Double { Double(hz) / 60 }

    struct Gesture {
        /// `scroll` or `pan`: the metric the gesture's frames count towards.
        var kind: String
        var frames: [[TouchChange]]
    }

    /// One finger dragged vertically by `step` px a frame from (`x`, `y`): the page scrolls
    /// (a finger moving up scrolls the page down).
    static func scroll(x: Double, y: Double, step: Double, hz: Int = 60) -> Gesture {
        var frames: [[TouchChange]] = [[.down(id: 0, at: Point(x: x, y: y))]]
        var p = Point(x: x, y: y)
        let n = Int((Double(motionFrames) * density(hz)).rounded())
        for i in 1...n {
            p.y = y + step * Double(motionFrames) * Double(i) / Double(n)
            frames.append([.moved(id: 0, to: p)])
        }
        frames.append([.up(id: 0, at: p)])
        return Gesture(kind: "scroll", frames: frames)
    }

    /// Two fingers 300 px apart, both landing in one frame, dragged horizontally by `step` px a
    /// frame: the map pans under them.
    static func pan(x: Double, y: Double, step: Double, hz: Int = 60) -> Gesture {
        var a = Point(x: x, y: y)
        var b = Point(x: x + 300, y: y)
        var frames: [[TouchChange]] = [[.down(id: 0, at: a), .down(id: 1, at: b)]]
        let n = Int((Double(motionFrames) * density(hz)).rounded())
        for i in 1...n {
            a.x = x + step * Double(motionFrames) * Double(i) / Double(n)
            b.x = a.x + 300
            frames.append([.moved(id: 0, to: a), .moved(id: 1, to: b)])
        }
        frames.append([.up(id: 0, at: a), .up(id: 1, at: b)])
        return Gesture(kind: "pan", frames: frames)
    }

    /// A pan right and back left, low in the map (away from the zoom buttons top right and from
    /// the pins of the default view), for a map at `map` in window coordinates.
    static func pans(map: (x: Double, y: Double, width: Double, height: Double), hz: Int = 60) -> [Gesture] {
        let x = (map.x + 0.2 * map.width).rounded()
        let y = (map.y + 0.8 * map.height).rounded()
        let step = 8.0
        return [pan(x: x, y: y, step: step, hz: hz),
                pan(x: x + step * Double(motionFrames), y: y, step: -step, hz: hz)]
    }

    /// A scroll down the page (finger moving up from low in the window) and back up, in the
    /// middle of a `width` x `height` window.
    static func scrolls(width: Double, height: Double, hz: Int = 60) -> [Gesture] {
        let x = (width / 2).rounded()
        let step = 10.0
        let travel = step * Double(motionFrames)
        return [scroll(x: x, y: (height - 100).rounded(), step: -step, hz: hz),
                scroll(x: x, y: (height - 100 - travel).rounded(), step: step, hz: hz)]
    }

    /// Two fingers on a horizontal line through (`x`, `y`), moving apart from `from` to `to` px
    /// (or together, when `to` < `from`): the map zooms under them.
    static func pinch(x: Double, y: Double, from: Double, to: Double, hz: Int = 60) -> Gesture {
        var frames: [[TouchChange]] = []
        func points(_ d: Double) -> (Point, Point) { (Point(x: x - d / 2, y: y), Point(x: x + d / 2, y: y)) }
        var (a, b) = points(from)
        frames.append([.down(id: 0, at: a), .down(id: 1, at: b)])
        let n = Int((Double(motionFrames) * density(hz)).rounded())
        for i in 1...n {
            (a, b) = points(from + (to - from) * Double(i) / Double(n))
            frames.append([.moved(id: 0, to: a), .moved(id: 1, to: b)])
        }
        frames.append([.up(id: 0, at: a), .up(id: 1, at: b)])
        return Gesture(kind: "pinch", frames: frames)
    }

    /// A pinch out and back in, in the middle of the map's lower half.
    static func pinches(map: (x: Double, y: Double, width: Double, height: Double), hz: Int = 60) -> [Gesture] {
        let x = (map.x + 0.45 * map.width).rounded(), y = (map.y + 0.7 * map.height).rounded()
        return [pinch(x: x, y: y, from: 200, to: 500, hz: hz), pinch(x: x, y: y, from: 500, to: 200, hz: hz)]
    }

    /// A quick one-finger swipe (12 frames of `step` px) that lifts while moving: the page
    /// flings on.
    static func fling(x: Double, y: Double, step: Double, hz: Int = 60) -> Gesture {
        var p = Point(x: x, y: y)
        var frames: [[TouchChange]] = [[.down(id: 0, at: p)]]
        let n = Int((12 * density(hz)).rounded())
        for i in 1...n {
            p.y = y + step * 12 * Double(i) / Double(n)
            frames.append([.moved(id: 0, to: p)])
        }
        frames.append([.up(id: 0, at: p)])
        return Gesture(kind: "fling", frames: frames)
    }

    /// A fling down the page and one back up.
    static func flings(width: Double, height: Double, hz: Int = 60) -> [Gesture] {
        let x = (width / 2).rounded()
        return [fling(x: x, y: (height - 100).rounded(), step: -40, hz: hz),
                fling(x: x, y: (height / 2).rounded(), step: 40, hz: hz)]
    }

    /// The test compositor's commands for a gesture's touch frames (docs/TEST-COMPOSITOR.md),
    /// each followed by the pause until the next: whole milliseconds that add up to `hz`'s
    /// interval (at 240 Hz: 4, 4, 4, 5, ...).
    static func commands(_ frames: [[TouchChange]], hz: Int, offset: (x: Int, y: Int) = (0, 0)) -> [String] {
        let interval = 1000 / Double(hz)
        var out: [String] = []
        for (i, frame) in frames.enumerated() {
            let pause = Int((Double(i + 1) * interval).rounded()) - Int((Double(i) * interval).rounded())
            out += commands(frame, offset: offset).dropLast() + ["sleep \(pause)"]
        }
        return out
    }

    /// The test compositor's commands for one touch frame, then the pause until the next at 60 Hz.
    /// `offset`: where the client's window origin sits on the test compositor's output (a
    /// nested compositor's frame).
    static func commands(_ frame: [TouchChange], offset: (x: Int, y: Int) = (0, 0)) -> [String] {
        var out: [String] = []
        for change in frame {
            switch change {
            case .down(let id, let p): out.append("down \(id) \(Int(p.x) + offset.x) \(Int(p.y) + offset.y)")
            case .moved(let id, let p): out.append("motion \(id) \(Int(p.x) + offset.x) \(Int(p.y) + offset.y)")
            case .up(let id, _): out.append("up \(id)")
            }
        }
        return out + ["frame", "sleep \(Int(frameInterval))"]
    }
}
