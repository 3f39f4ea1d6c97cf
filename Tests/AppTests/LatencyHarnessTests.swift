import Input
import MeridianApp
import Testing

/// The app as `meridian-bench latency` drives it: the same page and drawing as the live client.
@Suite struct LatencyHarnessTests {
    func frame(_ t: Double, _ changes: [TouchChange]) -> InputFrame { .touch(TouchFrame(time: t, changes: changes)) }

    /// Drags the given touch points by `dx`, `dy` in ten 16 ms frames, drawing after each like the live loop.
    func drag(_ h: LatencyHarness, _ points: [Point], dx: Double, dy: Double, pixels: UnsafeMutableRawPointer) {
        var t = 1000.0
        h.handle(frame(t, points.enumerated().map { .down(id: Int32($0.offset), at: $0.element) }))
        for step in 1...10 {
            t += 16
            let moved = points.enumerated().map { TouchChange.moved(id: Int32($0.offset), to: Point(
                x: $0.element.x + dx * Double(step) / 10, y: $0.element.y + dy * Double(step) / 10)) }
            h.handle(frame(t, moved))
            h.advance(to: t)
            if h.needsFrame { h.draw(into: pixels, stride: h.width * 4) }
        }
    }

    @Test func oneFingerScrollsThePageAndTwoFingersOnTheMapPanIt() throws {
        let h = try LatencyHarness(width: 1920, height: 1200)
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: 1920 * 4 * 1200, alignment: 64)
        defer { pixels.deallocate() }
        h.draw(into: pixels, stride: 1920 * 4)
        let map = h.mapFrame
        #expect(map.y >= 0 && map.y + map.height <= 1200, "the map starts fully visible")
        let startCamera = h.camera

        let y = map.y + 0.8 * map.height
        drag(h, [Point(x: map.x + 300, y: y), Point(x: map.x + 600, y: y)], dx: 200, dy: 0, pixels: pixels)
        #expect(h.camera.center != startCamera.center, "two fingers on the map moved it")
        #expect(h.scrollY == 0, "the page stayed")

        let panned = h.camera
        drag(h, [Point(x: 960, y: 1100)], dx: 0, dy: -300, pixels: pixels)
        #expect(h.scrollY > 250, "one finger scrolled the page: \(h.scrollY)")
        #expect(h.camera.center == panned.center, "the map did not move")
        #expect(h.mapFrame.y < map.y, "the map went up with the page")
    }
}
