import Testing
@testable import MeridianApp
import Input

/// What the compositor is told changed: the map alone when only the map moved, all of it when
/// the page scrolled.
@Suite struct DamageTests {
    func core() -> AppCore {
        var o = Options()
        o.width = 800
        o.height = 1280
        return AppCore(options: o, mapData: nil, synchronousTiles: true, scale: 1)
    }

    @Test func aMapPanDamagesOnlyTheMap() throws {
        let c = core()
        c.page.frameDrawn()
        c.handle(.key(KeyEvent(time: 0, keysym: "Tab", state: .pressed)))    // focus the map
        c.page.frameDrawn()
        c.handle(.key(KeyEvent(time: 10, keysym: "Left", state: .pressed)))   // pan it
        let damage = try #require(c.page.pendingDamage)
        let map = c.page.mapFrameInWindow
        #expect(damage == map)
    }

    @Test func aScrollDamagesEverything() {
        let c = core()
        c.page.frameDrawn()
        c.handle(.pointer(PointerFrame(time: 0, entered: Point(x: 400, y: 1000))))
        c.page.frameDrawn()
        c.handle(.pointer(PointerFrame(time: 10, axisSource: .wheel, axes: [AxisEvent(orientation: .vertical, value: 15, discrete: 1)])))
        #expect(c.page.needsFrame)
        #expect(c.page.pendingDamage == nil)
    }

    @Test func nothingChangedMeansNoFrame() {
        let c = core()
        c.page.frameDrawn()
        c.handle(.pointer(PointerFrame(time: 0, entered: Point(x: 400, y: 1000))))
        #expect(!c.needsFrame, "moving the pointer over the page changes nothing visible")
    }
}
