import Style
import Tiles
import XCTest
@testable import Render

/// `text-letter-spacing` and `text-padding` from a style's symbol layer, as the placer lays
/// out and collides the labels (tile 4/8/8 is view px 128…384, 16 tile units a pixel).
final class TextSpacingPaddingTests: XCTestCase {
    static func name(_ x: Int32, _ y: Int32, _ name: String) -> VectorFeature {
        VectorFeature(type: .point, parts: [[TilePoint(x: x, y: y)]], properties: ["name": .string(name)])
    }

    /// The labels placed for `features` in tile 4/8/8 by one symbol layer with `layout` added.
    func labels(_ layout: String, _ features: [VectorFeature]) throws -> [MapLabel] {
        let json = """
        {"version": 8, "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
                    {"id": "names", "type": "symbol", "source": "s", "source-layer": "pois",
                     "layout": {"text-field": "{name}", "text-size": 16\(layout.isEmpty ? "" : ", " + layout)},
                     "paint": {"text-color": "#000000"}}]}
        """
        let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
        XCTAssertEqual(style.notes, [], "every property used is supported")
        return try SymbolAlignmentTests.draw(style, features).labels
    }

    func testLetterSpacingWidensTheLabelByTheSpacingBetweenItsLetters() throws {
        let text = "Spacing"
        let plain = try XCTUnwrap(try labels("", [Self.name(2048, 2048, text)]).first)
        let spaced = try XCTUnwrap(try labels("\"text-letter-spacing\": 0.25", [Self.name(2048, 2048, text)]).first)
        XCTAssertEqual(spaced.text, text)
        // A quarter em (4 px at size 16) after each letter: 6 gaps between 7 letters, at most 7.
        let grown = spaced.box.width - plain.box.width
        XCTAssertGreaterThanOrEqual(grown, 6 * 4 - 0.5, "wider by the spacing between letters")
        XCTAssertLessThanOrEqual(grown, 7 * 4 + 0.5)
        XCTAssertEqual(spaced.box.height, plain.box.height, accuracy: 1e-9, "only wider")
        // Still centred on its anchor.
        XCTAssertEqual(spaced.box.x + spaced.box.width / 2, spaced.anchor.x, accuracy: 2)
    }

    func testPaddingKeepsALabelOutOfTheSpaceAroundAnother() throws {
        // Two names one above the other, 6 px between their boxes.
        let alone = try XCTUnwrap(try labels("\"text-padding\": 0", [Self.name(2048, 2048, "Upper")]).first)
        let step = Int32(((alone.box.height + 6) * 16).rounded())
        let both = [Self.name(2048, 2048, "Upper"), Self.name(2048, 2048 + step, "Lower")]
        XCTAssertEqual(try labels("\"text-padding\": 0", both).map(\.text).sorted(), ["Lower", "Upper"], "6 px apart, both fit")
        XCTAssertEqual(try labels("\"text-padding\": 2", both).map(\.text).sorted(), ["Lower", "Upper"], "2 px each side still fits")
        // 4 px round each box: 8 px between them needed, 6 there; the first in the data stays.
        XCTAssertEqual(try labels("\"text-padding\": 4", both).map(\.text), ["Upper"])
    }
}
