import Style
import XCTest
@testable import Render

/// Point labels wrapped at `text-max-width`: where Unicode lets a line end (UAX #14, ICU),
/// in lines of about equal width as MapLibre wraps them. What is checked is what the label
/// shows: its lines, read back from the shaped glyphs (each glyph remembers its line and
/// character).
final class LineBreakingTests: XCTestCase {
    func style(maxWidth: Double, size: Double = 20, language: String? = nil) -> TextStyle {
        var s = TextStyle()
        s.size = size
        s.maxWidth = maxWidth
        s.language = language
        return s
    }

    /// The label's lines as text: the glyphs of each line (`cluster >> 24`) are its characters
    /// one to one here (Latin and CJK, shaped a glyph per character), and each line starts at
    /// the next character of the text that is not a space.
    func lines(_ text: String, _ style: TextStyle, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let shaped = try XCTUnwrap(LabelFonts.shared.shape(text, style: style, wrap: true), file: file, line: line)
        var counts: [Int: Set<Int>] = [:]
        for g in shaped.glyphs { counts[g.cluster >> 24, default: []].insert(g.cluster & 0xFFFFFF) }
        var rest = Array(text.unicodeScalars)[...]
        var out: [String] = []
        for k in counts.keys.sorted() {
            while let c = rest.first, c.properties.isWhitespace { rest = rest.dropFirst() }
            let n = counts[k]?.count ?? 0
            var s = ""
            s.unicodeScalars.append(contentsOf: rest.prefix(n))
            rest = rest.dropFirst(n)
            out.append(s)
        }
        return out
    }

    func width(_ text: String, size: Double = 20) throws -> Double {
        try XCTUnwrap(LabelFonts.shared.shape(text, style: style(maxWidth: 0, size: size), wrap: true)).width
    }

    func testAShortNameStaysOnOneLine() throws {
        XCTAssertEqual(try lines("Kamppi", style(maxWidth: 10)), ["Kamppi"])
        XCTAssertEqual(try lines("Helsingin rautatieasema", style(maxWidth: 20)), ["Helsingin rautatieasema"])
    }

    func testLinesAreBalancedNotFilledGreedily() throws {
        // At 10 ems (200 px) filling each line as far as it goes leaves the last word alone;
        // MapLibre shares the width out: two lines of about the same width.
        let text = "Vanha kirkko ja puisto"
        let limit = 200.0
        var greedy: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let next = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty, try width(next) > limit {
                greedy.append(current)
                current = String(word)
            } else {
                current = next
            }
        }
        greedy.append(current)
        let balanced = try lines(text, style(maxWidth: 10))
        XCTAssertEqual(balanced.joined(separator: " "), text, "every word once, in order")
        XCTAssertLessThanOrEqual(balanced.count, greedy.count, "no more lines than filling would make")
        let spread = { (ls: [String]) throws -> Double in
            let w = try ls.map { try self.width($0) }
            return (w.max() ?? 0) - (w.min() ?? 0)
        }
        XCTAssertEqual(balanced, ["Vanha kirkko", "ja puisto"])
        XCTAssertEqual(greedy, ["Vanha kirkko ja", "puisto"], "what filling gives")
        XCTAssertLessThan(try spread(balanced), try spread(greedy), "\(balanced) against \(greedy)")
    }

    func testJapaneseBreaksBetweenIdeographs() throws {
        // No spaces: before, the whole name was one line 13 ems wide. Each ideograph is an em
        // (WenQuanYi Micro Hei), so at 5 ems: three lines of four or five.
        let text = "東京都千代田区丸の内一丁目"
        let got = try lines(text, style(maxWidth: 5, language: "ja"))
        XCTAssertEqual(got.joined(), text)
        XCTAssertEqual(got.count, 3, "\(got)")
        for l in got { XCTAssertTrue((4...5).contains(l.unicodeScalars.count), "\(got)") }
    }

    func testNoLineStartsWithClosingPunctuationOrEndsWithAnOpeningBracket() throws {
        let text = "大阪城公園（おおさか）。天守閣、博物館、日本庭園"
        for maxWidth in stride(from: 3.0, through: 9, by: 1) {
            let got = try lines(text, style(maxWidth: maxWidth, language: "ja"))
            XCTAssertEqual(got.joined(), text)
            XCTAssertGreaterThan(got.count, 1, "wraps at \(maxWidth) ems")
            for l in got.dropFirst() {
                XCTAssertFalse("）。、".unicodeScalars.contains(l.unicodeScalars.first!), "\(got) at \(maxWidth) ems")
            }
            for l in got.dropLast() { XCTAssertNotEqual(l.unicodeScalars.last, "（", "\(got) at \(maxWidth) ems") }
        }
    }

    func testAHyphenatedNameBreaksAfterItsHyphens() throws {
        let got = try lines("Baden-Württemberg-Straße", style(maxWidth: 7))
        XCTAssertEqual(got.joined(), "Baden-Württemberg-Straße")
        XCTAssertGreaterThan(got.count, 1, "\(got)")
        for l in got.dropLast() { XCTAssertTrue(l.hasSuffix("-"), "\(got)") }
    }

    func testALineFeedAlwaysEndsALine() throws {
        XCTAssertEqual(try lines("Kamppi\nKampen", style(maxWidth: 30)), ["Kamppi", "Kampen"])
    }

    func testWrappedLinesAreStackedAndCentred() throws {
        let shaped = try XCTUnwrap(LabelFonts.shared.shape("Vanha kirkko ja puisto", style: style(maxWidth: 10), wrap: true))
        let ys = Set(shaped.glyphs.map(\.y)).sorted()
        XCTAssertEqual(ys.count, 2)
        XCTAssertEqual(ys[1] - ys[0], 1.2 * 20, accuracy: 1e-9, "text-line-height 1.2 ems")
        XCTAssertLessThanOrEqual(shaped.width, 200 + 1e-9)
    }
}
