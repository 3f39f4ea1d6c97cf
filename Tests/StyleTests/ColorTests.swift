import XCTest
@testable import Style

final class ColorTests: XCTestCase {
    func assertColor(_ css: String, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1, line: UInt = #line) {
        guard let c = StyleColor(css: css) else { return XCTFail("'\(css)' did not parse", line: line) }
        XCTAssertEqual(c.r, r, accuracy: 0.003, "red of \(css)", line: line)
        XCTAssertEqual(c.g, g, accuracy: 0.003, "green of \(css)", line: line)
        XCTAssertEqual(c.b, b, accuracy: 0.003, "blue of \(css)", line: line)
        XCTAssertEqual(c.a, a, accuracy: 0.003, "alpha of \(css)", line: line)
    }

    func testEveryCSSForm() {
        assertColor("#f00", 1, 0, 0)
        assertColor("#f008", 1, 0, 0, 0x88 / 255.0)
        assertColor("#A8CBE0", 0xA8 / 255.0, 0xCB / 255.0, 0xE0 / 255.0)
        assertColor("#00ff0080", 0, 1, 0, 0x80 / 255.0)
        assertColor("rgb(255, 128, 0)", 1, 128 / 255.0, 0)
        assertColor("rgba(255,0,0,0.5)", 1, 0, 0, 0.5)
        assertColor("rgb(100%, 50%, 0%)", 1, 0.5, 0)
        assertColor("rgb(255 0 0 / 25%)", 1, 0, 0, 0.25)
        assertColor("hsl(120, 100%, 50%)", 0, 1, 0)
        assertColor("hsla(240, 100%, 50%, 0.3)", 0, 0, 1, 0.3)
        assertColor("hsl(0deg 0% 50% / 0.5)", 0.5, 0.5, 0.5, 0.5)
        assertColor("hsl(30, 100%, 50%)", 1, 0.5, 0)
        assertColor("rebeccapurple", 0x66 / 255.0, 0x33 / 255.0, 0x99 / 255.0)
        assertColor("  White ", 1, 1, 1)
        assertColor("transparent", 0, 0, 0, 0)
    }

    func testNonColoursAreRefused() {
        for bad in ["", "#12", "#12345", "#ggg", "rgb(1,2)", "rgb(1,2,3,4,5)", "hsl(10, 20, 30)", "notacolour", "rgb(a, b, c)"] {
            XCTAssertNil(StyleColor(css: bad), bad)
        }
    }
}
