import Input
import Testing
@testable import MeridianApp
@testable import UI

/// The page is drawn at its scroll offset rounded to the device pixel grid while a glide keeps
/// the exact one; what a finger hits and what the state dump reports follow what is drawn.
@Suite struct PixelGridScrollTests {
    func app(scale: Double) throws -> AppCore {
        var o = Options()
        o.width = 360
        o.height = 720
        let data = try #require(MapData.shipped().data, "the shipped map data")
        let core = AppCore(options: o, mapData: data, synchronousTiles: true, scale: scale)
        core.resize(width: 360, height: 720, scale: scale)
        return core
    }

    @Test(arguments: [1.0, 2.0, 1.5])
    func everyGlideFrameIsHitAndReportedWhereItIsDrawn(scale: Double) throws {
        let core = try app(scale: scale)
        let page = core.page
        // A fling in the margin left of the map, lifting fast.
        let x = 6.0
        var time = 1000.0
        core.handle(.touch(TouchFrame(time: time, changes: [.down(id: 1, at: Point(x: x, y: 680))])))
        for i in 1...6 {
            time += 16
            core.handle(.touch(TouchFrame(time: time, changes: [.moved(id: 1, to: Point(x: x, y: 680 - Double(i) * 30))])))
        }
        time += 16
        core.handle(.touch(TouchFrame(time: time, changes: [.up(id: 1, at: Point(x: x, y: 500))])))
        var checked = 0, between = 0
        while page.isAnimating && checked < 400 {
            time += 16
            core.advance(to: time)
            let dump = page.snapshot
            let rows = dump.targets.filter { $0.id.hasPrefix("place-") }
            #expect(dump.scrollY == page.scrollY && dump.exactScrollY == page.exactScrollY)
            let device = dump.scrollY * scale
            #expect(abs(device - device.rounded()) < 1e-6, "drawn on the device pixel grid: \(dump.scrollY)")
            // Within half a device pixel; at the bottom end, when it is off the grid, the page stops
            // short of it by under one (it is never drawn past its end).
            let atEnd = dump.exactScrollY <= page.maxScrollY && dump.exactScrollY > page.maxScrollY - 1 / scale
            #expect(abs(dump.exactScrollY - dump.scrollY) <= (atEnd ? 1 : 0.5) / scale + 1e-9)
            #expect(dump.exactScrollY > page.maxScrollY || dump.scrollY <= page.maxScrollY)
            if dump.exactScrollY != dump.scrollY { between += 1 }
            for (i, row) in rows.enumerated() {
                // The dump measures against the drawn offset, as the renderer draws.
                #expect(abs(row.frame.minY - (page.layout.rowFrame(i).minY - page.scrollY)) < 1e-9)
                // A finger a quarter pixel inside the row's hit area, top and bottom, hits the row.
                let h = row.hitFrame
                for y in [h.minY + 0.25, h.maxY - 0.25] where y > 0 && y < 720 {
                    let hit = page.window.hitTest(windowPoint: Point(x: h.minX + h.size.width / 2, y: y))
                    #expect(hit?.name == row.id, "at y \(y) (scrollY \(dump.scrollY), exact \(dump.exactScrollY)) hit \(hit?.name ?? "nothing")")
                }
            }
            checked += 1
        }
        #expect(checked > 20, "the page glided: \(checked) frames")
        #expect(between > checked / 2, "most glide frames lie between device pixels: \(between) of \(checked)")
    }
}
