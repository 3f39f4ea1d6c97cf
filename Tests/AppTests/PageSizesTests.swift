import CCairo
import Foundation
import Testing
@testable import UI

/// The page at the window sizes Meridian ships for: a phone shell (360×720 and 720×1440 at
/// scale 2), a portrait and a landscape tablet, a desktop window. Checked through the headless
/// runner's state dump and screenshot, as a user would measure the screen.
@Suite struct PageSizesTests {
    static let sizes: [(width: Double, height: Double, scale: Double)] = [
        (360, 720, 2), (720, 1440, 2), (800, 1280, 1), (1280, 800, 1), (1920, 1200, 1),
    ]

    private static func overlap(_ a: Box, _ b: Box) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    @Test(arguments: sizes.indices)
    func theMapIsFullyVisibleAtStartAndEveryTargetIsLargeEnoughOnScreenAndApart(_ i: Int) throws {
        let s = Self.sizes[i]
        let size = "\(Int(s.width))x\(Int(s.height))"
        let (start, png) = try Replay.run(TraceBuilder(), arguments: ["--size", size, "--scale", "\(s.scale)"], screenshot: true)
        defer { if let png { unlink(png) } }
        let m = start.mapFrame
        #expect(m.x >= 0 && m.y >= 0 && m.x + m.width <= s.width && m.y + m.height <= s.height,
                "\(size): the map \(m) is fully on screen at start")
        #expect(m.y >= 72, "\(size): the map starts below the header")
        #expect(m.width >= 0.8 * s.width - 32 && m.height >= 240, "\(size): the map is a real map, not a sliver: \(m)")

        let targets = start.targets
        #expect(targets.contains { $0.id == "zoomIn" } && targets.contains { $0.id == "zoomOut" })
        #expect(targets.filter { $0.id.hasPrefix("place-") }.count == 8, "\(size): a row per place")
        // Pins are the map's content: one at the map's edge is cut by it like the streets, so
        // only those drawn whole inside the map must keep their whole target on screen.
        let wholePins = start.pins.filter { p in
            p.frame.x >= m.x && p.frame.y >= m.y && p.frame.x + p.frame.width <= m.x + m.width && p.frame.y + p.frame.height <= m.y + m.height
        }
        #expect(!wholePins.isEmpty, "\(size): some pins show at start")
        for t in targets + start.pins {
            #expect(t.hitFrame.width >= 48 && t.hitFrame.height >= 48, "\(size): \(t.id)'s target is \(t.hitFrame)")
        }
        for t in targets + wholePins {
            #expect(t.hitFrame.x >= 0 && t.hitFrame.x + t.hitFrame.width <= s.width, "\(size): \(t.id) runs off the side")
        }
        for t in targets where t.id == "zoomIn" || t.id == "zoomOut" {
            let f = t.hitFrame
            #expect(f.x >= m.x && f.y >= m.y && f.x + f.width <= m.x + m.width && f.y + f.height <= m.y + m.height,
                    "\(size): \(t.id) sits inside the map")
        }
        for (a, ta) in targets.enumerated() {
            for tb in targets[(a + 1)...] {
                #expect(!Self.overlap(ta.hitFrame, tb.hitFrame), "\(size): \(ta.id) and \(tb.id) overlap")
            }
        }
        let rows = targets.filter { $0.id.hasPrefix("place-") }
        #expect(rows.allSatisfy { $0.frame.y >= m.y + m.height }, "\(size): the list starts under the map")

        let image = try #require(png.flatMap(PNGImage.init(path:)))
        #expect(image.width == Int(s.width * s.scale) && image.height == Int(s.height * s.scale))
    }

    /// At 360 px the paragraphs are wrapped by words, each line drawn at its paragraph's one size
    /// and fitting between the margins; no word is lost or cut.
    @Test func onAPhoneEachParagraphWrapsAtOneSizeWithinTheMargins() throws {
        let layout = PageLayout(windowWidth: 360, windowHeight: 720)
        let room = 360 - 2 * PageLayout.margin
        #expect(layout.introLines.count > PageText.intro.count, "the intro's paragraphs need more than a line each at 360 px")
        PageText.measuring { cr in
            for (lines, font) in [(layout.introLines, PageText.introFont), (layout.aboutLines, PageText.aboutFont)] {
                for line in lines {
                    #expect(PageText.width(line, font, cr) <= room, "\"\(line)\" is wider than \(room) px at \(font.size) px")
                }
            }
        }
        let words = { (s: [String]) in s.flatMap { $0.split(separator: " ").map(String.init) } }
        #expect(words(layout.introLines) == words(PageText.intro))
        #expect(words(layout.aboutLines) == words(PageText.about))
        // The layout makes room for every line: the map starts under the last one.
        let lastBaseline = PageLayout.introTop + 22 + Double(layout.introLines.count - 1) * PageText.lineHeight
        #expect(layout.mapFrame.minY > lastBaseline + 8)
        // The about lines fit above the page's end.
        let aboutEnd = layout.moreContentTop(rows: 8) + 64 + Double(layout.aboutLines.count) * PageText.lineHeight
        #expect(layout.contentHeight(rows: 8) >= aboutEnd)
    }

    @Test func aLabelTooLongForItsRoomIsCutWithAnEllipsisAtItsOwnSize() {
        let font = PageFont(size: 18)
        PageText.measuring { cr in
            let long = String(repeating: "Kansallisooppera ", count: 6)
            let cut = PageText.fit(long, font, width: 200, cr)
            #expect(cut.hasSuffix("…") && PageText.width(cut, font, cr) <= 200 && cut.count > 5)
            #expect(PageText.fit("Ateneum", font, width: 200, cr) == "Ateneum")
        }
    }

    @Test func targetIdentitiesSpellTheContractNamesAndBack() {
        let cases: [(TargetID, String)] = [
            (.map, "map"), (.zoomIn, "zoomIn"), (.zoomOut, "zoomOut"), (.compass, "compass"),
            (.pin("kiasma"), "pin-kiasma"), (.row("kiasma"), "place-kiasma"), (.addPlace, "addPlace"),
            (.delete("a-b"), "delete-a-b"), (.undo, "undo"),
        ]
        for (id, name) in cases {
            #expect(id.name == name)
            #expect(TargetID(name: name) == id)
        }
        #expect(TargetID(name: "pin-") == nil && TargetID(name: "zoom") == nil)
        #expect(TargetID.delete("x").placeID == "x" && TargetID.zoomIn.placeID == nil)
    }
}
