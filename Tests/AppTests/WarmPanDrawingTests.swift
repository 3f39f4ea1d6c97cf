import Glibc
import Input
import Testing
@testable import MeridianApp
@testable import Render
@testable import UI

/// What a warm pan frame no longer draws (LATENCY.md, "Cheaper warm pan frames"), against the
/// page drawn as before, over PartialRedrawTests' pans, scrolls, flings and zooms.
@Suite struct WarmPanDrawingTests {
    let redraws = PartialRedrawTests()

    /// The page's background is no longer painted under the map's tiles, only around the map and
    /// in its corner squares: not one pixel of any frame changes (a pixel the tiles leave
    /// uncovered would show the other frame's picture, or the buffer's garbage).
    func backgroundLeftOutUnderTheMap(window: PartialRedrawTests.Window,
                                      script: [(changes: [TouchChange], fingerDown: Bool)]) throws {
        let (frames, differing, _, _) = try sideBySide(window: window, script: script) { $0.paintsPageUnderMap = true }
        #expect(frames > 50, "frames drawn: \(frames)")
        #expect(differing.isEmpty, "frames that differ from the page painted under the map: \(differing)")
    }

    /// `script` played in two apps, the first drawn as before (`before` sets it up): how many
    /// frames were drawn, the first few that differ, and the two apps.
    func sideBySide(window: PartialRedrawTests.Window, script: [(changes: [TouchChange], fingerDown: Bool)],
                    before setUp: (PageRenderer) -> Void) throws -> (Int, [Int], LiveApp, LiveApp) {
        let before = try redraws.app(showTouches: false, window: window), now = try redraws.app(showTouches: false, window: window)
        setUp(before.core.renderer)
        let stride = window.pixelWidth * 4, bytes = stride * window.pixelHeight
        var differing: [Int] = []
        let frames = redraws.sideBySide(before, now, window: window, script: script) { frame, _, a, b in
            if memcmp(a, b, bytes) != 0 { differing.append(frame) }
            return differing.count < 5
        }
        return (frames, differing, before, now)
    }

    @Test func thePageUnderTheMapIsLeftOutWithoutChangingAPixel() throws {
        let f = try redraws.app(showTouches: false).core.page.mapFrameInWindow
        try backgroundLeftOutUnderTheMap(window: PartialRedrawTests.Window(),
                                         script: redraws.script(map: (f.minX, f.minY, f.size.width, f.size.height)))
    }

    /// At scale 1.5 the map's frame and the page's offsets fall between device pixels.
    @Test func atAFractionalScaleToo() throws {
        let window = PartialRedrawTests.Window(width: 480, height: 800, scale: 1.5)
        let f = try redraws.app(showTouches: false, window: window).core.page.mapFrameInWindow
        try backgroundLeftOutUnderTheMap(window: window, script: redraws.flingScript(window: window, map: f))
    }

    /// The map under the window's rounded clip copies its tiles and blits its labels straight
    /// into the pixels wherever that clip covers them wholly (`MapFrameClip`), and leaves the
    /// corners and partly covered edges to cairo: not one pixel of any frame changes against the
    /// map drawn through cairo alone.
    func mapToldItsClip(window: PartialRedrawTests.Window, script: [(changes: [TouchChange], fingerDown: Bool)]) throws {
        let (frames, differing, before, now) = try sideBySide(window: window, script: script) { $0.tellsMapItsClip = false }
        #expect(frames > 50, "frames drawn: \(frames)")
        #expect(differing.isEmpty, "frames that differ from the map drawn through cairo alone: \(differing)")
        #expect((now.core.renderer.map?.straightCopies.value ?? 0) > 100, "the tiles went straight into the pixels")
        #expect(before.core.renderer.map?.straightCopies.value == 0)
    }

    @Test func theMapToldItsRoundedClipDrawsTheSamePixels() throws {
        let f = try redraws.app(showTouches: false).core.page.mapFrameInWindow
        try mapToldItsClip(window: PartialRedrawTests.Window(), script: redraws.script(map: (f.minX, f.minY, f.size.width, f.size.height)))
    }

    @Test func theMapToldItsRoundedClipDrawsTheSamePixelsAtAFractionalScale() throws {
        let window = PartialRedrawTests.Window(width: 480, height: 800, scale: 1.5)
        let f = try redraws.app(showTouches: false, window: window).core.page.mapFrameInWindow
        try mapToldItsClip(window: window, script: redraws.flingScript(window: window, map: f))
    }

    /// The zoom buttons are composited from images drawn once per sign, scale and sub-pixel
    /// phase: against the buttons drawn with cairo every frame only pixels of the buttons change,
    /// each by a few levels (the same shapes, composited in another order).
    @Test func buttonSpritesLookLikeTheButtonsDrawnWithCairo() throws {
        let f = try redraws.app(showTouches: false).core.page.mapFrameInWindow
        let steps = redraws.script(map: (f.minX, f.minY, f.size.width, f.size.height))
        let cairo = try redraws.app(showTouches: false), sprites = try redraws.app(showTouches: false)
        cairo.core.renderer.drawsButtonsAsSprites = false
        let window = PartialRedrawTests.Window(), width = window.pixelWidth, height = window.pixelHeight
        var worst = 0, changed = 0, outside = 0
        let frames = redraws.sideBySide(cairo, sprites, window: window, script: steps) { _, _, a, b in
            let page = sprites.core.page, map = page.mapFrameInWindow
            let buttons = [page.viewport.zoomIn, page.viewport.zoomOut].map { v in
                Rect(x: map.minX + v.frame.minX, y: map.minY + v.frame.minY, width: v.frame.size.width, height: v.frame.size.height)
            }
            PartialRedrawTests.eachDifference(a, b, width: width, height: height) { x, y, d in
                changed += 1
                worst = max(worst, d)
                if !buttons.contains(where: { x > $0.minX - 2 && x < $0.maxX + 2 && y > $0.minY - 2 && y < $0.maxY + 3 }) { outside += 1 }
            }
            return true
        }
        #expect(frames > 100)
        #expect(outside == 0, "only pixels of the buttons change: \(outside) elsewhere")
        #expect(worst <= 4, "by rounding only: \(changed) pixels changed, by \(worst) levels at most")
    }
}
