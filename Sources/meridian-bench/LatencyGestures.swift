import Input

/// The scripted gestures the latency suite plays, headless and under the test compositor
/// alike: touch frames 16 ms apart (a 60 Hz touch screen), each a list of touch changes.
enum LatencyGestures {
    /// Milliseconds between touch frames.
    static let frameInterval = 16.0
    /// Motion frames per gesture (about a second of dragging).
    static let motionFrames = 60

    struct Gesture {
        /// `scroll` or `pan`: the metric the gesture's frames count towards.
        var kind: String
        var frames: [[TouchChange]]
    }

    /// One finger dragged vertically by `step` px a frame from (`x`, `y`): the page scrolls
    /// (a finger moving up scrolls the page down).
    static func scroll(x: Double, y: Double, step: Double) -> Gesture {
        var frames: [[TouchChange]] = [[.down(id: 0, at: Point(x: x, y: y))]]
        var p = Point(x: x, y: y)
        for _ in 0..<motionFrames {
            p.y += step
            frames.append([.moved(id: 0, to: p)])
        }
        frames.append([.up(id: 0, at: p)])
        return Gesture(kind: "scroll", frames: frames)
    }

    /// Two fingers 300 px apart, both landing in one frame, dragged horizontally by `step` px a
    /// frame: the map pans under them.
    static func pan(x: Double, y: Double, step: Double) -> Gesture {
        var a = Point(x: x, y: y)
        var b = Point(x: x + 300, y: y)
        var frames: [[TouchChange]] = [[.down(id: 0, at: a), .down(id: 1, at: b)]]
        for _ in 0..<motionFrames {
            a.x += step
            b.x += step
            frames.append([.moved(id: 0, to: a), .moved(id: 1, to: b)])
        }
        frames.append([.up(id: 0, at: a), .up(id: 1, at: b)])
        return Gesture(kind: "pan", frames: frames)
    }

    /// A pan right and back left, low in the map (away from the zoom buttons top right and from
    /// the pins of the default view), for a map at `map` in window coordinates.
    static func pans(map: (x: Double, y: Double, width: Double, height: Double)) -> [Gesture] {
        let x = (map.x + 0.2 * map.width).rounded()
        let y = (map.y + 0.8 * map.height).rounded()
        let step = 8.0
        return [pan(x: x, y: y, step: step),
                pan(x: x + step * Double(motionFrames), y: y, step: -step)]
    }

    /// A scroll down the page (finger moving up from low in the window) and back up, in the
    /// middle of a `width` x `height` window.
    static func scrolls(width: Double, height: Double) -> [Gesture] {
        let x = (width / 2).rounded()
        let step = 10.0
        let travel = step * Double(motionFrames)
        return [scroll(x: x, y: (height - 100).rounded(), step: -step),
                scroll(x: x, y: (height - 100 - travel).rounded(), step: step)]
    }

    /// Two fingers on a horizontal line through (`x`, `y`), moving apart from `from` to `to` px
    /// (or together, when `to` < `from`): the map zooms under them.
    static func pinch(x: Double, y: Double, from: Double, to: Double) -> Gesture {
        var frames: [[TouchChange]] = []
        func points(_ d: Double) -> (Point, Point) { (Point(x: x - d / 2, y: y), Point(x: x + d / 2, y: y)) }
        var (a, b) = points(from)
        frames.append([.down(id: 0, at: a), .down(id: 1, at: b)])
        for i in 1...motionFrames {
            (a, b) = points(from + (to - from) * Double(i) / Double(motionFrames))
            frames.append([.moved(id: 0, to: a), .moved(id: 1, to: b)])
        }
        frames.append([.up(id: 0, at: a), .up(id: 1, at: b)])
        return Gesture(kind: "pinch", frames: frames)
    }

    /// A pinch out and back in, in the middle of the map's lower half.
    static func pinches(map: (x: Double, y: Double, width: Double, height: Double)) -> [Gesture] {
        let x = (map.x + 0.45 * map.width).rounded(), y = (map.y + 0.7 * map.height).rounded()
        return [pinch(x: x, y: y, from: 200, to: 500), pinch(x: x, y: y, from: 500, to: 200)]
    }

    /// A quick one-finger swipe (12 frames of `step` px) that lifts while moving: the page
    /// flings on.
    static func fling(x: Double, y: Double, step: Double) -> Gesture {
        var p = Point(x: x, y: y)
        var frames: [[TouchChange]] = [[.down(id: 0, at: p)]]
        for _ in 0..<12 {
            p.y += step
            frames.append([.moved(id: 0, to: p)])
        }
        frames.append([.up(id: 0, at: p)])
        return Gesture(kind: "fling", frames: frames)
    }

    /// A fling down the page and one back up.
    static func flings(width: Double, height: Double) -> [Gesture] {
        let x = (width / 2).rounded()
        return [fling(x: x, y: (height - 100).rounded(), step: -40), fling(x: x, y: (height / 2).rounded(), step: 40)]
    }

    /// The test compositor's commands for one touch frame (docs/TEST-COMPOSITOR.md), then the
    /// pause until the next.
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
