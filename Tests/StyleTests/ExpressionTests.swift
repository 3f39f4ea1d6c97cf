import Tiles
import XCTest
@testable import Style

/// Expressions, legacy filters and functions evaluated against features the tests build.
final class ExpressionTests: XCTestCase {
    let road = VectorFeature(id: 7, type: .lineString, parts: [[TilePoint(x: 0, y: 0), TilePoint(x: 10, y: 0)]],
                             properties: ["class": .string("primary"), "admin_level": .int(4), "name": .string("Mannerheimintie"),
                                          "oneway": .bool(true), "width": .double(2.5), "rank": .string("12")])
    let park = VectorFeature(type: .polygon, parts: [], properties: ["class": .string("park")])

    func expr(_ text: String) throws -> Expr { try ExprParser.expression(StyleJSON.parse(text)) }
    func eval(_ text: String, _ f: VectorFeature? = nil, zoom: Double = 0) throws -> Value {
        try expr(text).evaluate(f ?? road, zoom: zoom)
    }
    func filter(_ text: String, _ f: VectorFeature) throws -> Bool { try ExprParser.filter(StyleJSON.parse(text)).evaluate(f).truthy }

    func testLookupsAndComparisons() throws {
        XCTAssertEqual(try eval(#"["get", "class"]"#), .string("primary"))
        XCTAssertEqual(try eval(#"["get", "missing"]"#), .null)
        XCTAssertEqual(try eval(#"["has", "name"]"#), .bool(true))
        XCTAssertEqual(try eval(#"["!has", "name"]"#), .bool(false))
        XCTAssertEqual(try eval(#"["==", ["get", "class"], "primary"]"#), .bool(true))
        XCTAssertEqual(try eval(#"["!=", ["get", "class"], "primary"]"#), .bool(false))
        XCTAssertEqual(try eval(#"["<", ["get", "admin_level"], 5]"#), .bool(true))
        XCTAssertEqual(try eval(#"["<=", ["get", "admin_level"], 4]"#), .bool(true))
        XCTAssertEqual(try eval(#"[">", ["get", "admin_level"], 4]"#), .bool(false))
        XCTAssertEqual(try eval(#"[">=", ["get", "width"], 2.5]"#), .bool(true))
        XCTAssertEqual(try eval(#"["<", ["get", "rank"], 5]"#), .bool(false), "a string never orders against a number")
        XCTAssertEqual(try eval(#"["!", ["get", "oneway"]]"#), .bool(false))
        XCTAssertEqual(try eval(#"["geometry-type"]"#), .string("LineString"))
        XCTAssertEqual(try eval(#"["geometry-type"]"#, park), .string("Polygon"))
        XCTAssertEqual(try eval(#"["id"]"#), .number(7))
        XCTAssertEqual(try eval(#"["zoom"]"#, zoom: 13.5), .number(13.5))
    }

    func testLogicAndMembership() throws {
        XCTAssertEqual(try eval(#"["all", ["has", "name"], ["==", ["get", "class"], "primary"]]"#), .bool(true))
        XCTAssertEqual(try eval(#"["all", ["has", "name"], ["==", ["get", "class"], "minor"]]"#), .bool(false))
        XCTAssertEqual(try eval(#"["any", ["has", "nope"], ["==", ["get", "class"], "primary"]]"#), .bool(true))
        XCTAssertEqual(try eval(#"["none", ["has", "nope"], ["==", ["get", "class"], "minor"]]"#), .bool(true))
        XCTAssertEqual(try eval(#"["in", ["get", "class"], ["literal", ["primary", "trunk"]]]"#), .bool(true))
        XCTAssertEqual(try eval(#"["in", ["get", "class"], ["literal", ["minor"]]]"#), .bool(false))
        XCTAssertEqual(try eval(#"["in", "heim", ["get", "name"]]"#), .bool(true), "substring of a string")
    }

    func testBranchingAndCoalescing() throws {
        let m = #"["match", ["get", "class"], ["motorway", "trunk"], 1, "primary", 2, 0]"#
        XCTAssertEqual(try eval(m), .number(2))
        XCTAssertEqual(try eval(m, park), .number(0))
        let c = #"["case", ["==", ["get", "class"], "park"], "green", ["has", "name"], "named", "other"]"#
        XCTAssertEqual(try eval(c), .string("named"))
        XCTAssertEqual(try eval(c, park), .string("green"))
        XCTAssertEqual(try eval(#"["coalesce", ["get", "name:en"], ["get", "name"]]"#), .string("Mannerheimintie"))
        XCTAssertEqual(try eval(#"["literal", [1, 2]]"#), .array([.number(1), .number(2)]))
    }

    func testStepAndInterpolate() throws {
        let step = #"["step", ["zoom"], 1, 10, 2, 14, 3]"#
        XCTAssertEqual(try eval(step, zoom: 5), .number(1))
        XCTAssertEqual(try eval(step, zoom: 10), .number(2))
        XCTAssertEqual(try eval(step, zoom: 15), .number(3))
        let lin = #"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 5]"#
        XCTAssertEqual(try eval(lin, zoom: 8), .number(1))
        XCTAssertEqual(try eval(lin, zoom: 12), .number(3))
        XCTAssertEqual(try eval(lin, zoom: 20), .number(5))
        // Base 2 between 0 and 2: (2^1 − 1) / (2^2 − 1) = 1/3 of the way at zoom 1.
        let exp = try eval(#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#, zoom: 1)
        XCTAssertEqual(exp.number ?? 0, 1, accuracy: 1e-9)
        let col = try eval(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]"##, zoom: 5)
        XCTAssertEqual(col.color?.r ?? 0, 0.5, accuracy: 1e-9)
    }

    func testConversionsAndText() throws {
        XCTAssertEqual(try eval(#"["to-string", ["get", "admin_level"]]"#), .string("4"))
        XCTAssertEqual(try eval(#"["to-string", ["get", "width"]]"#), .string("2.5"))
        XCTAssertEqual(try eval(#"["to-number", ["get", "rank"]]"#), .number(12))
        XCTAssertEqual(try eval(#"["to-number", "x", 3]"#), .number(3))
        XCTAssertEqual(try eval(#"["concat", ["get", "name"], " (", ["get", "admin_level"], ")"]"#), .string("Mannerheimintie (4)"))
        XCTAssertEqual(try eval(#"["upcase", ["get", "name"]]"#), .string("MANNERHEIMINTIE"))
        XCTAssertEqual(try eval(#"["downcase", "ÄBC"]"#), .string("äbc"))
        XCTAssertEqual(ExprParser.tokenized("{name} {class}").evaluate(road), .string("Mannerheimintie primary"))
        XCTAssertEqual(ExprParser.tokenized("{name}").evaluate(park), .string(""))
    }

    func testLegacyFilters() throws {
        XCTAssertTrue(try filter(#"["==", "class", "primary"]"#, road))
        XCTAssertFalse(try filter(#"["!=", "class", "primary"]"#, road))
        XCTAssertTrue(try filter(#"["==", "$type", "Polygon"]"#, park))
        XCTAssertFalse(try filter(#"["==", "$type", "Polygon"]"#, road))
        XCTAssertTrue(try filter(#"["in", "class", "trunk", "primary"]"#, road))
        XCTAssertTrue(try filter(#"["!in", "class", "trunk", "motorway"]"#, road))
        XCTAssertTrue(try filter(#"["has", "name"]"#, road))
        XCTAssertTrue(try filter(#"["!has", "name"]"#, park))
        XCTAssertTrue(try filter(#"["<=", "admin_level", 4]"#, road))
        XCTAssertFalse(try filter(#"["<", "admin_level", "5"]"#, road), "legacy comparisons never mix types")
        XCTAssertTrue(try filter(#"["all", ["==", "class", "primary"], ["has", "name"]]"#, road))
        XCTAssertTrue(try filter(#"["any", ["==", "class", "x"], ["==", "$type", "LineString"]]"#, road))
        XCTAssertTrue(try filter(#"["none", ["==", "class", "x"], ["==", "$type", "Point"]]"#, road))
        XCTAssertTrue(try filter("true", road))
    }

    func testLegacyStopFunctions() throws {
        let zoomFn = try ExprParser.property(StyleJSON.parse(#"{"base": 1, "stops": [[10, 1], [14, 5]]}"#))
        XCTAssertEqual(zoomFn.evaluate(road, zoom: 12), .number(3))
        let expFn = try ExprParser.property(StyleJSON.parse(#"{"base": 2, "stops": [[0, 0], [2, 3]]}"#))
        XCTAssertEqual(expFn.evaluate(road, zoom: 1).number ?? 0, 1, accuracy: 1e-9)
        let interval = try ExprParser.property(StyleJSON.parse(#"{"type": "interval", "stops": [[0, "a"], [10, "b"]]}"#))
        XCTAssertEqual(interval.evaluate(road, zoom: 12), .string("b"))
        let categorical = try ExprParser.property(StyleJSON.parse(
            ##"{"property": "class", "type": "categorical", "stops": [["primary", "#f00"], ["minor", "#fff"]], "default": "#000"}"##))
        XCTAssertEqual(categorical.evaluate(road), .string("#f00"))
        XCTAssertEqual(categorical.evaluate(park), .string("#000"))
        let strings = try ExprParser.property(StyleJSON.parse(##"{"stops": [[5, "#000"], [10, "#fff"]]}"##)).coercingColors()
        XCTAssertEqual(strings.evaluate(road, zoom: 7.5).color?.g ?? 0, 0.5, accuracy: 1e-9, "colour stops interpolate")
        // identity: the property's own value, the default where the feature lacks it.
        let identity = try ExprParser.property(StyleJSON.parse(#"{"type": "identity", "property": "class", "default": "none"}"#))
        XCTAssertEqual(identity.evaluate(road), .string("primary"))
        XCTAssertEqual(identity.evaluate(VectorFeature(type: .point, parts: [], properties: [:])), .string("none"))
        XCTAssertThrowsError(try ExprParser.property(StyleJSON.parse(#"{"type": "identity"}"#)), "an identity function needs a property")
    }

    func testZoomFoldsAwayAndFeaturePartsStay() throws {
        let e = try expr(#"["interpolate", ["linear"], ["zoom"], 10, 1, 14, ["match", ["get", "class"], "primary", 9, 5]]"#)
        XCTAssertTrue(e.specialized(zoom: 8).isConstant, "below the first stop the value no longer reads the feature")
        let mid = e.specialized(zoom: 12)
        XCTAssertFalse(mid.isConstant)
        XCTAssertEqual(mid.evaluate(road), .number(5))
        XCTAssertEqual(mid.evaluate(park), .number(3))
        XCTAssertTrue(try expr(#"["step", ["zoom"], ["get", "x"], 5, 2]"#).specialized(zoom: 6).isConstant)
    }

    func testUnsupportedOperatorsAreReportedNotGuessed() {
        XCTAssertThrowsError(try expr(#"["distance", ["literal", {}]]"#))
        XCTAssertThrowsError(try expr(#"["within", 1]"#))
        XCTAssertThrowsError(try ExprParser.property(StyleJSON.parse(#"{"stops": [[{"zoom": 1, "value": 2}, 3]]}"#)))
    }
}
