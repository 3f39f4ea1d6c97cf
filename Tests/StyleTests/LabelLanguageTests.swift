import Tiles
import XCTest
@testable import Style

/// A label's language comes from the name property it was read from, and `--language`
/// (`Style.preferringLanguage`) makes a style's labels prefer that language's names.
final class LabelLanguageTests: XCTestCase {
    func style(_ field: String) throws -> Style {
        try Style.parse(Array("""
            {"version": 8, "sources": {"city": {"type": "vector", "url": "mbtiles://city.mbtiles"}},
             "layers": [{"id": "names", "type": "symbol", "source": "city", "source-layer": "place",
                         "layout": {"text-field": \(field)}}]}
            """.utf8), path: "/maps/s.json")
    }

    func labels(_ s: Style, _ features: [[String: String]]) -> [(text: String, language: String?)] {
        let tile = VectorTile(layers: [VectorLayer(name: "place", extent: 4096, features: features.map { p in
            VectorFeature(type: .point, parts: [[TilePoint(x: 5, y: 6)]], properties: p.mapValues { .string($0) })
        })])
        return s.symbols(in: tile, zoom: 12).map { ($0.text, $0.textStyle.language) }
    }

    let belgrade = ["name": "Beograd", "name:sr": "Београд", "name:en": "Belgrade", "name_de": "Belgrad", "name:latin": "Beograd"]

    func testTheLanguageIsTheNamePropertys() throws {
        let got = labels(try style(#"["coalesce", ["get", "name:sr"], ["get", "name"]]"#), [belgrade, ["name": "Zemun"]])
        XCTAssertEqual(got.map(\.text), ["Београд", "Zemun"])
        XCTAssertEqual(got.map(\.language), ["sr", nil], "a bare name says nothing of its language")
        XCTAssertEqual(labels(try style(#""{name_de} ({name:en})""#), [belgrade]).map(\.language), ["de"], "the first name in the text")
        XCTAssertEqual(labels(try style(#"["get", "name:latin"]"#), [belgrade]).map(\.language), [nil], "Latin is a script, not a language")
        XCTAssertEqual(labels(try style(#""{name:zh-Hant}""#), [["name:zh-Hant": "貝爾格勒"]]).map(\.language), ["zh-Hant"])
    }

    func testAChosenLanguageIsPreferredWhereTheStyleReadsAName() throws {
        let plain = try style(#""{name}""#).preferringLanguage("sr")
        let got = labels(plain, [belgrade, ["name": "Zemun"]])
        XCTAssertEqual(got.map(\.text), ["Београд", "Zemun"], "a name without a Serbian form stays as the data has it")
        XCTAssertEqual(got.map(\.language), ["sr", nil])
        // OpenMapTiles' place names read name:latin first: the chosen language still comes first.
        let latin = try style(#"["coalesce", ["get", "name:latin"], ["get", "name"]]"#).preferringLanguage("sr")
        XCTAssertEqual(labels(latin, [belgrade]).map(\.text), ["Београд"])
        XCTAssertEqual(labels(latin, [["name": "Zemun", "name:latin": "Zemun"]]).map(\.text), ["Zemun"])
        // Shortbread names its translations name_de, name_en.
        let shortbread = try style(#""{name}""#).preferringLanguage("de")
        XCTAssertEqual(labels(shortbread, [belgrade]).map(\.text), ["Belgrad"])
        XCTAssertEqual(labels(shortbread, [belgrade]).map(\.language), ["de"])
        // Other text than names is left alone.
        let refs = try style(#""{ref}""#).preferringLanguage("sr")
        XCTAssertEqual(labels(refs, [["ref": "E75", "name:sr": "Ауто-пут"]]).map(\.text), ["E75"])
    }

    func testLanguageTags() {
        for good in ["sv", "ja", "sr-Latn", "zh-Hant", "fil"] { XCTAssertTrue(LabelLanguage.isTag(good), good) }
        for bad in ["", "s", "svenska", "1x", "sr_", "sr-", "sr--Latn", "zh-Hantverylong", "ü"] { XCTAssertFalse(LabelLanguage.isTag(bad), bad) }
        XCTAssertEqual(LabelLanguage.of(property: "name:sv"), "sv")
        XCTAssertEqual(LabelLanguage.of(property: "name_en"), "en")
        XCTAssertNil(LabelLanguage.of(property: "name"))
        XCTAssertNil(LabelLanguage.of(property: "name_int"))
        XCTAssertNil(LabelLanguage.of(property: "name:nonlatin"))
        XCTAssertNil(LabelLanguage.of(property: "ref"))
    }
}
