import Foundation
import Geo
import Style
import XCTest
@testable import Render

/// How a point symbol's icon and text collide together, straight through `LabelPlacer`, as
/// MapLibre combines them (style spec, `text-optional` and `icon-optional`; MapLibre Native's
/// placement): each part is tested against what was placed before, then a part that does not
/// fit takes the other with it unless the other is optional. With both optional, each part
/// that fits is placed alone.
final class IconTextCollisionTests: XCTestCase {
    /// A 400x400 view at zoom 4 centred on world (136, 136): one view px is 1/16 world unit.
    let camera = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 400, height: 400))

    /// The world point `dx`, `dy` view px from the view's centre.
    func world(_ dx: Double, _ dy: Double) -> WorldPoint { WorldPoint(x: 136 + dx / 16, y: 136 + dy / 16) }

    /// Text `width` x 12 px as if shaped (one glyph per 10 px), its box from `minY` -9 to 3.
    static func shaped(width: Double) -> ShapedText {
        let n = max(1, Int(width / 10))
        let glyphs = (0..<n).map { ShapedGlyph(index: 1, font: 0, x: Double($0) * width / Double(n), y: 0, advance: width / Double(n)) }
        return ShapedText(glyphs: glyphs, minX: 0, minY: -9, maxX: width, maxY: 3)
    }

    /// A POI: a 17 px icon centred on the anchor, its 60 px text hung below it (`text-anchor`
    /// top, one em down), as the shipped OpenMapTiles style has them.
    func poi(textOptional: Bool, iconOptional: Bool) -> LabelCandidate {
        var style = TextStyle()
        style.size = 12
        style.anchor = .top
        style.offset = (0, 1)
        style.optional = textOptional
        var icon = IconStyle(image: "shop")
        icon.width = 17
        icon.height = 17
        icon.optional = iconOptional
        return LabelCandidate(layerID: "poi", text: "Kirjakauppa", style: style, shaped: Self.shaped(width: 60), icon: icon,
                              placement: .point, spacing: 250, anchor: world(0, 0),
                              priority: LabelPriority(layerIndex: 0, sortKey: 0, featureIndex: 0, x: 0, y: 0), identity: 2)
    }

    /// A text label placed before the POI (a higher layer), 40 px wide, centred `dx`, `dy`
    /// from the POI's anchor.
    func blocker(_ dx: Double, _ dy: Double) -> LabelCandidate {
        var style = TextStyle()
        style.size = 12
        return LabelCandidate(layerID: "street", text: "Katu", style: style, shaped: Self.shaped(width: 40), icon: nil,
                              placement: .point, spacing: 250, anchor: world(dx, dy),
                              priority: LabelPriority(layerIndex: 1, sortKey: 0, featureIndex: 0, x: 0, y: 0), identity: 1)
    }

    /// What of the POI is placed beside the blocker: "icon and text", "icon", "text" or "nothing".
    func placed(blocker: LabelCandidate, textOptional: Bool, iconOptional: Bool,
                file: StaticString = #filePath, line: UInt = #line) -> String {
        var placer = LabelPlacer(camera: camera)
        let labels = placer.place([poi(textOptional: textOptional, iconOptional: iconOptional), blocker], previous: [])
        XCTAssertEqual(labels.first?.text, "Katu", "the blocker is placed first", file: file, line: line)
        guard let p = labels.first(where: { $0.layerID == "poi" }) else { return "nothing" }
        switch (p.icon != nil, !p.glyphs.isEmpty) {
        case (true, true): return "icon and text"
        case (true, false): return "icon"
        case (false, true): return "text"
        case (false, false): return "nothing"
        }
    }

    /// The blocker's boxes on its own, to be sure each case blocks only the part it means to.
    func boxes(_ c: LabelCandidate) -> (text: LabelBox, icon: LabelBox?) {
        let placer = LabelPlacer(camera: camera)
        let l = placer.layout(c)!
        let a = camera.screenPoint(ofWorld: c.anchor)
        return (l.collision[0].offset(a.x, a.y), l.icon.map { $0.collision.offset(a.x, a.y) })
    }

    func testTheIconFitsButTheTextDoesNot() {
        // A label 23 px below the anchor: over the POI's text (12…24 px down), clear of its icon.
        let block = blocker(0, 23)
        let b = boxes(block).text, p = boxes(poi(textOptional: false, iconOptional: false))
        XCTAssertTrue(b.overlaps(p.text))
        XCTAssertFalse(b.overlaps(p.icon!))
        // Neither optional: the text cannot go, and the icon needs it: nothing.
        XCTAssertEqual(placed(blocker: block, textOptional: false, iconOptional: false), "nothing")
        // text-optional: the icon may stand alone, and does.
        XCTAssertEqual(placed(blocker: block, textOptional: true, iconOptional: false), "icon")
        // icon-optional only: the text may go without its icon, not the icon without its text: nothing.
        XCTAssertEqual(placed(blocker: block, textOptional: false, iconOptional: true), "nothing")
        // Both optional: the part that fits, the icon, alone.
        XCTAssertEqual(placed(blocker: block, textOptional: true, iconOptional: true), "icon")
    }

    func testTheTextFitsButTheIconDoesNot() {
        // A label 8 px above the anchor: over the POI's icon, clear of its text.
        let block = blocker(0, -8)
        let b = boxes(block).text, p = boxes(poi(textOptional: false, iconOptional: false))
        XCTAssertTrue(b.overlaps(p.icon!))
        XCTAssertFalse(b.overlaps(p.text))
        XCTAssertEqual(placed(blocker: block, textOptional: false, iconOptional: false), "nothing")
        // text-optional only: the icon may go without its text, not the text without its icon.
        XCTAssertEqual(placed(blocker: block, textOptional: true, iconOptional: false), "nothing")
        // icon-optional: the text stands alone.
        XCTAssertEqual(placed(blocker: block, textOptional: false, iconOptional: true), "text")
        XCTAssertEqual(placed(blocker: block, textOptional: true, iconOptional: true), "text")
    }

    func testWhenBothFitBothArePlacedWhateverIsOptional() {
        let block = blocker(150, 0)
        for (t, i) in [(false, false), (true, false), (false, true), (true, true)] {
            XCTAssertEqual(placed(blocker: block, textOptional: t, iconOptional: i), "icon and text", "text-optional \(t), icon-optional \(i)")
        }
    }
}
