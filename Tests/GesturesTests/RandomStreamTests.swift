#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Input
import XCTest
import TestSupport

/// Thousands of seeded random touch and mouse streams through the demo page: whatever the
/// input, nothing crashes, every `began` gets exactly one `ended` or `cancelled`, fingers
/// landing or lifting without motion never move the map, and once every finger is up and the
/// timers have run out, every recognizer is back in `possible`. Streams include deliberate
/// two-finger twists, and a running rotation never turns on a frame where fingers only land or
/// lift (finger churn without motion).
final class RandomStreamTests: XCTestCase {
    func testRandomStreamsNeverLeaveAGestureStuckOrUnfinished() {
        var generator = SplitMix64(seed: 0x4D45_5249_4449_414E)
        var reported: [String: Int] = [:]
        for stream in 0..<1500 {
            let seed = generator.next()
            if let problem = runStream(seed: seed, events: 160, reported: &reported) {
                XCTFail("stream \(stream) (seed \(seed)): \(problem)")
                return
            }
        }
        // The streams must actually exercise the arena, or the checks above prove nothing.
        for kind in ["began", "ended", "cancelled", "failed"] {
            XCTAssertGreaterThan(reported[kind] ?? 0, 500, "too few '\(kind)' in the random streams")
        }
        XCTAssertGreaterThan(reported["mapRotate began"] ?? 0, 50, "too few rotations in the random streams")
        XCTAssertGreaterThan(reported["churn while rotating"] ?? 0, 20, "too few fingers landing or lifting mid-rotation")
    }

    /// Plays one stream; returns the first broken rule, or nil.
    private func runStream(seed: UInt64, events: Int, reported: inout [String: Int]) -> String? {
        var rng = SplitMix64(seed: seed)
        let page = ComposedPage()
        let system = GestureSystem(root: page.window)
        let recognizers = page.allRecognizers
        var running: [ObjectIdentifier: Bool] = [:]
        var problem: String?
        var counts: [String: Int] = [:]
        defer { reported.merge(counts, uniquingKeysWith: +) }
        for r in recognizers {
            let continuous = !(r is TapGestureRecognizer)
            r.onStateChange = { r in
                let id = ObjectIdentifier(r)
                let wasRunning = running[id] ?? false
                counts[r.state.description, default: 0] += 1
                if r === page.graph.mapRotate, r.state == .began { counts["mapRotate began", default: 0] += 1 }
                switch r.state {
                case .began:
                    if wasRunning { problem = problem ?? "\(r.name) began twice" }
                    if !continuous { problem = problem ?? "\(r.name) is discrete but began" }
                    running[id] = true
                case .changed:
                    if !wasRunning { problem = problem ?? "\(r.name) changed without beginning" }
                case .ended:
                    if continuous && !wasRunning { problem = problem ?? "\(r.name) ended without beginning" }
                    running[id] = false
                case .cancelled:
                    if !wasRunning { problem = problem ?? "\(r.name) cancelled without beginning" }
                    running[id] = false
                case .failed:
                    if wasRunning { problem = problem ?? "\(r.name) failed while running" }
                case .possible:
                    problem = problem ?? "\(r.name) reported a change to possible"
                }
            }
        }

        var time = 0.0
        var down: [Int32: Point] = [:]
        var pointer = Point(x: 400, y: 600)
        // Touches gather around the map, its pins and the zoom button, where the arena is busiest.
        let hotSpots = [page.inWindow(map: Point(x: 100, y: 300)), page.pins[0].convert(toWindow: Point(x: 8, y: 8)),
                        page.pins[1].convert(toWindow: Point(x: 8, y: 8)), page.zoomIn.convert(toWindow: Point(x: 12, y: 12)),
                        Point(x: 400, y: 1150)]
        func randomPoint() -> Point {
            let spot = hotSpots[Int(rng.next() % UInt64(hotSpots.count))]
            return Point(x: spot.x + rng.uniform(-60, 60), y: spot.y + rng.uniform(-60, 60))
        }

        for _ in 0..<events {
            let roll = rng.next() % 100
            time += [0, 4, 8, 8, 16, 30, 60, 120, 350][Int(rng.next() % 9)]
            switch roll {
            case 50..<55 where down.count >= 2:
                // A deliberate twist: two fingers turn about their middle by 4–40° either way.
                let ids = down.keys.sorted().prefix(2)
                let a = rng.uniform(4, 40) * (rng.next() % 2 == 0 ? 1 : -1) * Double.pi / 180
                let p = ids.compactMap { down[$0] }
                let c = Point(x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2)
                var changes: [TouchChange] = []
                for id in ids {
                    guard let q = down[id] else { continue }
                    let d = Point(x: q.x - c.x, y: q.y - c.y)
                    let r = Point(x: c.x + d.x * cos(a) - d.y * sin(a), y: c.y + d.x * sin(a) + d.y * cos(a))
                    down[id] = r
                    changes.append(.moved(id: id, to: r))
                }
                system.handle(.touch(TouchFrame(time: time, changes: changes)))
            case 0..<55:
                var changes: [TouchChange] = []
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let id = Int32(rng.next() % 4)
                    let kind = rng.next() % 10
                    if let p = down[id], kind < 7 {
                        let q = Point(x: p.x + rng.uniform(-25, 25), y: p.y + rng.uniform(-25, 25))
                        down[id] = q
                        changes.append(.moved(id: id, to: q))
                    } else if let p = down[id] {
                        down[id] = nil
                        changes.append(.up(id: id, at: p))
                    } else if kind < 8 {
                        let p = randomPoint()
                        down[id] = p
                        changes.append(.down(id: id, at: p))
                    } else {
                        changes.append(.up(id: id, at: randomPoint())) // an id that is not down
                    }
                }
                let offset = page.mapOffset, zoom = page.mapZoom, logged = page.log.count
                let rotation = page.graph.mapRotate
                let (wasRotating, before) = (rotation.state.isActive, rotation.rotation)
                system.handle(.touch(TouchFrame(time: time, changes: changes)))
                let moves = changes.contains { if case .moved = $0 { return true } else { return false } }
                if wasRotating, rotation.state.isActive, !moves {
                    counts["churn while rotating", default: 0] += 1
                    if abs(rotation.rotation - before) > 1e-9 {
                        problem = problem ?? "a finger landing or lifting turned the map by \(rotation.rotation - before)°"
                    }
                }
                // Finger churn: fingers landing or lifting without motion never move the map
                // (a tap may zoom: the double tap, the two-finger tap, the zoom button).
                if !moves {
                    let zoomTap = page.log[logged...].contains { $0 == "doubleTapZoom" || $0 == "twoFingerTapZoom" || $0 == "targetTap zoomIn" }
                    if page.mapOffset != offset || (!zoomTap && page.mapZoom != zoom) {
                        problem = problem ?? "fingers landing or lifting moved the map: \(changes), offset \(offset) → \(page.mapOffset), zoom \(zoom) → \(page.mapZoom)"
                    }
                }
            case 55..<58:
                down.removeAll()
                system.handle(.touchCancel(time: time))
            case 58..<80:
                pointer = rng.next() % 3 == 0 ? randomPoint()
                    : Point(x: pointer.x + rng.uniform(-30, 30), y: pointer.y + rng.uniform(-30, 30))
                system.handle(.pointer(PointerFrame(time: time, moved: pointer)))
            case 80..<92:
                let button: PointerButton = rng.next() % 5 == 0 ? .right : .left
                system.handle(.pointer(PointerFrame(time: time, buttons: [(button, rng.next() % 2 == 0)])))
            case 92..<94:
                system.handle(.pointer(PointerFrame(time: time, left: true)))
            case 94..<96:
                pointer = randomPoint()
                system.handle(.pointer(PointerFrame(time: time, entered: pointer)))
            default:
                system.advance(to: time)
            }
            if let problem { return problem }
            if system.activeTouches.isEmpty, let r = recognizers.first(where: { !$0.touches.isEmpty }) {
                return "\(r.name) holds a touch after every touch ended"
            }
        }

        // Everything lifts, and time runs on.
        time += 8
        let lifts = down.map { TouchChange.up(id: $0.key, at: $0.value) }
        system.handle(.touch(TouchFrame(time: time, changes: lifts)))
        system.handle(.pointer(PointerFrame(time: time, buttons: [(.left, false)])))
        system.advance(to: time + 10_000)
        if let problem { return problem }
        if let r = recognizers.first(where: { $0.state != .possible }) { return "\(r.name) stuck in \(r.state)" }
        if let (id, _) = running.first(where: { $0.value }) {
            let name = recognizers.first { ObjectIdentifier($0) == id }?.name ?? "?"
            return "\(name) began and never ended"
        }
        if !system.activeRecognizers.isEmpty { return "the arena still follows \(system.activeRecognizers)" }
        if !system.activeTouches.isEmpty { return "touches still down: \(system.activeTouches.map(\.id))" }
        if let d = system.nextDeadline { return "a timer is still set for \(d)" }
        return nil
    }
}

