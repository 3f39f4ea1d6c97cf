import Geo
import Glibc
import Gestures
import Input
import Testing
import UI
import TestSupport

/// Seeded random finger churn on the map of the page as it ships: fingers land, move and lift
/// in any order, and a frame in which fingers only land or lift never moves the map.
@Suite struct FingerChurnTests {
    @Test func fingersLandingOrLiftingWithoutMotionNeverMoveTheMap() {
        var rng = SplitMix64(seed: 0x4348_5552_4E21)
        var churnFrames = 0, mapMoves = 0
        for stream in 0..<150 {
            let page = MeridianPage(.init(width: 800, height: 1280))
            let m = page.mapFrameInWindow
            var down: [Int32: Point] = [:]
            var time = 0.0
            var played: [InputFrame] = []
            for _ in 0..<200 {
                time += [4, 8, 8, 16, 30, 120][Int(rng.next() % 6)]
                var changes: [TouchChange] = []
                var moved = false
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    let id = Int32(rng.next() % 6)
                    if let p = down[id] {
                        if rng.next() % 3 == 0 {
                            down[id] = nil
                            changes.append(.up(id: id, at: p))
                        } else if !changes.contains(where: { $0.id == id }) {
                            let q = Point(x: p.x + rng.uniform(-20, 20), y: p.y + rng.uniform(-20, 20))
                            down[id] = q
                            changes.append(.moved(id: id, to: q))
                            moved = true
                        }
                    } else if !changes.contains(where: { $0.id == id }) {
                        let p = Point(x: m.minX + rng.uniform(20, m.size.width - 20), y: m.minY + rng.uniform(20, m.size.height - 20))
                        down[id] = p
                        changes.append(.down(id: id, at: p))
                    }
                }
                guard !changes.isEmpty else { continue }
                let before = page.camera, wasAnimating = page.isAnimating, wasMoving = page.graph.isMapGroupActive
                played.append(.touch(TouchFrame(time: time, changes: changes)))
                page.handle(.touch(TouchFrame(time: time, changes: changes)))
                if moved || wasAnimating || page.scrollY != 0 { continue }
                churnFrames += 1
                // Where the old centre is now, and the zoom.
                let s = page.camera.screenPoint(ofWorld: before.center)
                let shift = ((s.x - before.size.width / 2) * (s.x - before.size.width / 2)
                    + (s.y - before.size.height / 2) * (s.y - before.size.height / 2)).squareRoot()
                // When the last finger of a pinch lifts, the zoom settles on a crisp level (under
                // 0.005 of a level around the fingers, for the renderer): at most 1.4 px at the
                // centre of this 768 px map.
                let settling = wasMoving && !page.graph.isMapGroupActive
                let (maxShift, maxZoom) = settling ? (1.5, 0.005) : (1e-6, 1e-9)
                if shift > maxShift || abs(page.camera.zoom - before.zoom) > maxZoom {
                    mapMoves += 1
                    // The stream so far, as a trace to replay with MERIDIAN_GESTURE_TRACE=1.
                    let path = "/tmp/meridian-churn-\(getpid())-\(stream).trace"
                    if let f = fopen(path, "w") {
                        fputs(TraceFormat.text(for: played), f)
                        fclose(f)
                    }
                    Issue.record("stream \(stream): \(changes) moved the map by \(shift) px, zoom \(before.zoom) → \(page.camera.zoom); the stream: \(path)")
                    break
                }
            }
            if mapMoves > 0 { break }
        }
        #expect(churnFrames > 2000, "the streams churned fingers \(churnFrames) times")
    }
}

