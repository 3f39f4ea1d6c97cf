import CCairo
import Glibc
import Input
import XCTest
@testable import MeridianApp

/// A long stream of realistic gestures (drags, flings, pinches, taps, wheel zooms, cancels)
/// replayed into the headless app in process, drawing a frame every few hundred inputs: open
/// file descriptors must not grow, resident memory must stay flat, and the tile cache within
/// its budget. 100 000 frames by default; `MERIDIAN_SOAK_FRAMES=1000000` (scripts/soak.sh)
/// for the long run. The figures are printed as one `soak:` line.
///
/// XCTest, not swift-testing, on purpose: XCTest cases run one at a time, so no other test
/// opens files or allocates in this process while the soak measures it.
final class SoakTests: XCTestCase {
    static var frameCount: Int {
        getenv("MERIDIAN_SOAK_FRAMES").flatMap { Int(String(cString: $0)) } ?? 100_000
    }

    func testALongGestureStreamLeavesMemoryFlatAndNoDescriptorsBehind() throws {
        let total = Self.frameCount
        var options = Options()
        options.headless = true
        options.width = 800
        options.height = 1280
        let shipped = MapData.shipped()
        let core = AppCore(options: options, mapData: shipped.data, synchronousTiles: true, scale: 1)
        defer { core.renderer.map?.cache.shutDown() }
        var canvas = [UInt8](repeating: 0, count: 800 * 4 * 1280)
        var stream = GestureStream(seed: 0x5eed)
        let warmUp = max(total / 10, 1)
        var startRSS = 0, midRSS = 0, startFDs = 0, peakTiles = 0, peakBytes = 0
        var cancels = 0
        for i in 0..<total {
            if i == warmUp {
                startRSS = Self.residentKiB()
                startFDs = Self.openDescriptors()
            }
            if i == total / 2 { midRSS = Self.residentKiB() }
            let frame = stream.next()
            if case .touchCancel = frame { cancels += 1 }
            core.advance(to: frame.time)
            core.handle(frame)
            if i % 400 == 0 {
                canvas.withUnsafeMutableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }
                    Canvas.draw(core, into: base, width: 800, height: 1280, stride: 800 * 4, scale: 1)
                }
                if let usage = core.renderer.map?.cache.usage {
                    peakTiles = max(peakTiles, usage.tiles)
                    peakBytes = max(peakBytes, usage.bytes)
                }
            }
        }
        let endRSS = Self.residentKiB()
        let endFDs = Self.openDescriptors()
        let budget = core.renderer.map?.cache.byteBudget ?? 0
        print("soak: frames=\(total) rssKiB start=\(startRSS) mid=\(midRSS) end=\(endRSS) fds start=\(startFDs) end=\(endFDs) "
              + "cache peakTiles=\(peakTiles) peakBytes=\(peakBytes) budget=\(budget) cancels=\(cancels) "
              + "camera zoom=\(core.page.snapshot.zoom)")
        XCTAssertLessThanOrEqual(endFDs, startFDs, "open descriptors grew")
        // Flat: what warm-up has not reached by 10 % of the run may not grow by more than the
        // tile cache's own budget in the remaining 90 %.
        XCTAssertLessThanOrEqual(endRSS - startRSS, max(budget / 1024, 16 << 10), "resident memory grew from \(startRSS) KiB to \(endRSS) KiB")
        XCTAssertLessThanOrEqual(peakBytes, budget, "the tile cache stays within its byte budget")
        XCTAssertTrue(core.page.snapshot.zoom.isFinite)
        if shipped.data != nil { XCTAssertGreaterThan(peakTiles, 0, "the soak drew the map") }
    }

    /// Resident set size from /proc/self/statm (second field, in pages).
    static func residentKiB() -> Int {
        guard let f = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(f) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let read = fread(&buffer, 1, buffer.count, f)
        let fields = String(decoding: buffer.prefix(read), as: UTF8.self).split(separator: " ")
        let pages = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    static func openDescriptors() -> Int {
        guard let d = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(d) }
        var n = 0
        while readdir(d) != nil { n += 1 }
        return n - 3   // ".", ".." and the directory's own descriptor
    }
}

/// Endless realistic input at 60 Hz: one-finger drags with a fling, two-finger pinches that
/// also pan, taps, mouse-wheel zooms and now and then a cancel mid-gesture, over the map.
struct GestureStream {
    private var random: UInt64
    private var time = 0.0
    private var pending: [InputFrame] = []

    init(seed: UInt64) { random = seed }

    mutating func next() -> InputFrame {
        if pending.isEmpty { pending = makeGesture().reversed() }
        return pending.removeLast()
    }

    private mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        // xorshift64*: deterministic, so every soak run replays the same input.
        random ^= random >> 12
        random ^= random << 25
        random ^= random >> 27
        let x = Double((random &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53)
        return range.lowerBound + x * (range.upperBound - range.lowerBound)
    }

    private mutating func tick() -> Double {
        time += 1000.0 / 60
        return time
    }

    private mutating func point() -> Point { Point(x: uniform(100...700), y: uniform(350...1150)) }

    private mutating func makeGesture() -> [InputFrame] {
        var frames: [InputFrame] = []
        let kind = uniform(0...1)
        let steps = Int(uniform(8...40))
        let cancelled = uniform(0...1) < 0.05
        if kind < 0.4 {
            // Drag, ending fast enough now and then to fling.
            var p = point()
            let v = Point(x: uniform(-25...25), y: uniform(-25...25))
            frames.append(.touch(TouchFrame(time: tick(), changes: [.down(id: 0, at: p)])))
            for _ in 0..<steps {
                p = Point(x: p.x + v.x, y: p.y + v.y)
                frames.append(.touch(TouchFrame(time: tick(), changes: [.moved(id: 0, to: p)])))
            }
            frames.append(cancelled ? .touchCancel(time: tick()) : .touch(TouchFrame(time: tick(), changes: [.up(id: 0, at: p)])))
        } else if kind < 0.7 {
            // Pinch in or out, drifting.
            let c = point()
            var r = uniform(40...200)
            let grow = uniform(0.97...1.03)
            var a = Point(x: c.x - r, y: c.y), b = Point(x: c.x + r, y: c.y)
            frames.append(.touch(TouchFrame(time: tick(), changes: [.down(id: 1, at: a), .down(id: 2, at: b)])))
            for s in 0..<steps {
                r *= grow
                let drift = Double(s) * 2
                a = Point(x: c.x - r + drift, y: c.y + drift)
                b = Point(x: c.x + r + drift, y: c.y + drift)
                frames.append(.touch(TouchFrame(time: tick(), changes: [.moved(id: 1, to: a), .moved(id: 2, to: b)])))
            }
            if cancelled {
                frames.append(.touchCancel(time: tick()))
            } else {
                frames.append(.touch(TouchFrame(time: tick(), changes: [.up(id: 1, at: a)])))
                frames.append(.touch(TouchFrame(time: tick(), changes: [.up(id: 2, at: b)])))
            }
        } else if kind < 0.85 {
            // A tap, then a pause long enough for a double-tap timer to expire.
            let p = point()
            frames.append(.touch(TouchFrame(time: tick(), changes: [.down(id: 3, at: p)])))
            frames.append(.touch(TouchFrame(time: tick(), changes: [.up(id: 3, at: p)])))
            time += 400
        } else {
            // Wheel zoom over the map, in or out.
            let p = point()
            frames.append(.pointer(PointerFrame(time: tick(), moved: p)))
            let dir = uniform(0...1) < 0.5 ? -1.0 : 1.0
            for _ in 0..<(steps / 4 + 1) {
                frames.append(.pointer(PointerFrame(time: tick(), axisSource: .wheel,
                                                    axes: [AxisEvent(orientation: .vertical, value: 15 * dir, discrete: Int32(dir))])))
            }
        }
        time += uniform(50...600)
        return frames
    }
}
