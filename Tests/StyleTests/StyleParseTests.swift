import Tiles
import XCTest
@testable import Style

final class StyleParseTests: XCTestCase {
    func parse(_ text: String, path: String = "/maps/my.json") throws(StyleError) -> Style { try Style.parse(Array(text.utf8), path: path) }

    func assertError(_ text: String, line: Int, column: Int, containing: String, file: StaticString = #filePath, sourceLine: UInt = #line) {
        do {
            _ = try parse(text)
            XCTFail("parsed", file: file, line: sourceLine)
        } catch {
            XCTAssertEqual(error.file, "/maps/my.json", file: file, line: sourceLine)
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertEqual(error.column, column, "\(error)", file: file, line: sourceLine)
            XCTAssertTrue(error.message.contains(containing), error.message, file: file, line: sourceLine)
        }
    }

    func testBrokenJSONIsReportedWithLineAndColumn() {
        assertError("{\n  \"version\": 8,\n  \"layers\": [,]\n}", line: 3, column: 14, containing: "not valid JSON")
        assertError("{\"version\": 8, \"layers\": []", line: 1, column: 28, containing: "ends inside an object")
        assertError("{\n\"a\": \"é\u{01}\"}", line: 2, column: 8, containing: "control character")
        assertError("", line: 1, column: 1, containing: "not valid JSON")
        assertError(String(repeating: "[", count: 300), line: 1, column: 257, containing: "nested")
        // A number no double holds is named where it stands, however deep (the located paths stop at 4 levels).
        assertError("{\"version\": 8, \"layers\": [], \"x\": 1e999}", line: 1, column: 35, containing: "out of range")
        assertError("{\"version\": 8,\n \"layers\": [{\"a\": [[[[-1e400]]]]}]}", line: 2, column: 23, containing: "out of range")
    }

    func testJSONThatIsNotAStyleIsReportedWhereItGoesWrong() {
        assertError("[1, 2]", line: 1, column: 1, containing: "top level must be an object")
        assertError("{\"version\": 8}", line: 1, column: 1, containing: "\"layers\"")
        assertError("{\"version\": 7, \"layers\": []}", line: 1, column: 13, containing: "must be 8")
        assertError("{\"version\": 8,\n \"layers\": [\n  {\"id\": \"a\", \"type\": \"fill\"}]}", line: 3, column: 3, containing: "needs a \"source\"")
        assertError("{\"version\": 8, \"sources\": {}, \"layers\": [\n {\"id\": \"a\",\n  \"type\": \"polygon\"}]}", line: 3, column: 11, containing: "unknown type")
        assertError("{\"version\": 8, \"sources\": {}, \"layers\": [{\"id\": \"a\", \"type\": \"fill\", \"source\": \"nope\"}]}", line: 1, column: 80,
                    containing: "no source 'nope'")
    }

    static let small = """
        {"version": 8,
         "sources": {"city": {"type": "vector", "url": "mbtiles://tiles/city.mbtiles"},
                     "far": {"type": "vector", "url": "https://example.org/tiles.json"},
                     "abs": {"type": "vector", "url": "pmtiles:///data/x.pmtiles"},
                     "sat": {"type": "raster", "tiles": ["https://example.org/{z}/{x}/{y}.png"]}},
         "sprite": "https://example.org/sprite",
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#fff", "background-opacity": 0.5, "background-pattern": "dots"}},
          {"id": "water", "type": "fill", "source": "city", "source-layer": "water", "minzoom": 4,
           "paint": {"fill-color": "hsl(200, 50%, 70%)", "fill-pattern": "waves"}},
          {"id": "roads", "type": "line", "source": "city", "source-layer": "transportation", "maxzoom": 16,
           "filter": ["==", "class", "primary"],
           "layout": {"line-cap": "round", "line-join": "bevel"},
           "paint": {"line-width": {"stops": [[10, 1], [14, 5]]}, "line-dasharray": [2, 1], "line-gradient": ["zoom"],
                     "line-color": ["match", ["get", "class"], "primary", "#f00", "#0f0"], "line-opacity": 0.5}},
          {"id": "hidden", "type": "fill", "source": "city", "source-layer": "park", "layout": {"visibility": "none"}},
          {"id": "sat", "type": "raster", "source": "sat"},
          {"id": "bad-filter", "type": "fill", "source": "city", "source-layer": "x", "filter": ["within", {}]},
          {"id": "names", "type": "symbol", "source": "city", "source-layer": "place",
           "layout": {"text-field": "{name}", "text-font": ["Noto Sans Bold"], "text-size": 14, "text-transform": "uppercase"}}
         ]}
        """

    func testLayersSourcesAndNotes() throws {
        let s = try parse(Self.small)
        XCTAssertEqual(s.layers.map(\.id), ["bg", "water", "roads", "hidden", "names"])
        XCTAssertEqual(s.sources.first { $0.id == "city" }?.localPath, "/maps/tiles/city.mbtiles", "relative to the style file")
        XCTAssertEqual(s.sources.first { $0.id == "abs" }?.localPath, "/data/x.pmtiles")
        XCTAssertNil(s.sources.first { $0.id == "far" }?.localPath, "a network URL is not a file")
        for expected in ["'background-pattern'", "'line-gradient'", "type 'raster'", "'bad-filter': filter", "sprite"] {
            XCTAssertTrue(s.notes.contains { $0.contains(expected) }, "\(expected) in \(s.notes)")
        }
        XCTAssertEqual(s.notes.filter { $0.contains("background-pattern") }.count, 1, "once per property and layer")
        XCTAssertFalse(s.notes.contains { $0.contains("fill-pattern") }, "patterns are supported (drawn when the sprite exists)")
    }

    func testZoomOffsetAndRanges() throws {
        let s = try parse(Self.small)
        // The style's minzoom 4 is Meridian's 5; maxzoom 16 is Meridian's 17.
        XCTAssertFalse(s.at(zoom: 4.9).layers.contains { $0.id == "water" })
        XCTAssertTrue(s.at(zoom: 5).layers.contains { $0.id == "water" })
        XCTAssertTrue(s.at(zoom: 16.9).layers.contains { $0.id == "roads" })
        XCTAssertFalse(s.at(zoom: 17).layers.contains { $0.id == "roads" })
        XCTAssertFalse(s.at(zoom: 10).layers.contains { $0.id == "hidden" }, "visibility none")
        // Width stops [[10, 1], [14, 5]] at style zoom 12 = Meridian 13.
        guard case .line(let p)? = s.at(zoom: 13).layers.first(where: { $0.id == "roads" })?.kind else { return XCTFail("no roads") }
        XCTAssertEqual(p.width.constant ?? 0, 3, accuracy: 1e-9)
        XCTAssertEqual(p.cap, .round)
        XCTAssertEqual(p.join, .bevel)
        XCTAssertEqual(p.dash ?? [], [2, 1])
        XCTAssertNil(p.color.constant, "the colour still reads the feature")
        let primary = VectorFeature(type: .lineString, parts: [], properties: ["class": .string("primary")])
        XCTAssertEqual(p.color.value(primary), StyleColor(r: 1, g: 0, b: 0, a: 0.5), "opacity folded into alpha")
        guard case .background(let bg)? = s.at(zoom: 3).layers.first?.kind else { return XCTFail("no background") }
        XCTAssertEqual(bg, StyleColor(r: 1, g: 1, b: 1, a: 0.5))
    }

    func testFilterSelectsFeatures() throws {
        let roads = try XCTUnwrap(try parse(Self.small).at(zoom: 13).layers.first { $0.id == "roads" })
        XCTAssertTrue(roads.matches(VectorFeature(type: .lineString, parts: [], properties: ["class": .string("primary")])))
        XCTAssertFalse(roads.matches(VectorFeature(type: .lineString, parts: [], properties: ["class": .string("minor")])))
    }

    func testSymbolsCarryResolvedTextAndLook() throws {
        let s = try parse(Self.small)
        let square = [TilePoint(x: 0, y: 0), TilePoint(x: 100, y: 0), TilePoint(x: 100, y: 100), TilePoint(x: 0, y: 100), TilePoint(x: 0, y: 0)]
        let tile = VectorTile(layers: [VectorLayer(name: "place", extent: 4096, features: [
            VectorFeature(type: .point, parts: [[TilePoint(x: 5, y: 6)]], properties: ["name": .string("Kallio")]),
            VectorFeature(type: .point, parts: [[TilePoint(x: 1, y: 1)]], properties: [:]),
            VectorFeature(id: 3, type: .polygon, parts: [square], properties: ["name": .string("Park")]),
        ])])
        let symbols = s.symbols(in: tile, zoom: 12)
        XCTAssertEqual(symbols.map(\.text), ["KALLIO", "PARK"], "no text, no symbol; text-transform applied")
        XCTAssertEqual(symbols[0].geometry, .point(TilePoint(x: 5, y: 6)))
        XCTAssertEqual(symbols[1].geometry, .point(TilePoint(x: 50, y: 50)), "a polygon is labelled inside it")
        XCTAssertEqual(symbols[0].textStyle.fontFamilies, ["Noto Sans"])
        XCTAssertTrue(symbols[0].textStyle.bold)
        XCTAssertEqual(symbols[0].textStyle.size, 14)
        XCTAssertEqual(symbols[0].layerID, "names")
        XCTAssertEqual(symbols[0].layerIndex, 4)
        XCTAssertEqual(symbols[1].featureIndex, 2)
        XCTAssertEqual(symbols[1].featureID, 3)
        XCTAssertEqual(symbols[0].placement, .point)
    }

    func testRotationAlignmentAutoFollowsThePlacementAndTranslatesAreRead() throws {
        XCTAssertEqual(RotationAlignment.resolve("auto", placement: .point), .viewport)
        XCTAssertEqual(RotationAlignment.resolve("auto", placement: .line), .map)
        XCTAssertEqual(RotationAlignment.resolve(nil, placement: .lineCenter), .map)
        XCTAssertEqual(RotationAlignment.resolve("map", placement: .point), .map)
        XCTAssertEqual(RotationAlignment.resolve("viewport", placement: .line), .viewport)
        XCTAssertEqual(RotationAlignment.resolve("viewport-glyph", placement: .point), .viewport)
        XCTAssertEqual(RotationAlignment.resolve("viewport-glyph", placement: .line), .viewportGlyph)
        XCTAssertEqual(RotationAlignment.resolve("sideways", placement: .point), .viewport, "nonsense is auto")
        let s = try parse("""
        {"version": 8, "sprite": "/nowhere/sprite", "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "n", "type": "symbol", "source": "s", "source-layer": "place",
           "layout": {"text-field": "{name}", "symbol-placement": "line", "text-rotation-alignment": "viewport",
                      "text-keep-upright": false, "icon-keep-upright": true, "icon-rotation-alignment": "map",
                      "icon-pitch-alignment": "viewport", "text-pitch-alignment": "map"},
           "paint": {"text-translate": [3, -2], "text-translate-anchor": "viewport",
                     "icon-translate": {"stops": [[10, [0, 0]], [14, [8, -4]]]}, "icon-translate-anchor": "map"}}]}
        """)
        XCTAssertEqual(s.notes.filter { !$0.contains("sprite") }, [], "all read")
        let tile = VectorTile(layers: [VectorLayer(name: "place", extent: 4096, features: [
            VectorFeature(type: .lineString, parts: [[TilePoint(x: 0, y: 0), TilePoint(x: 100, y: 0)]], properties: ["name": .string("Ring")]),
        ])])
        let f = try XCTUnwrap(s.symbols(in: tile, zoom: 15).first)
        XCTAssertEqual(f.textStyle.rotationAlignment, .viewport)
        XCTAssertFalse(f.textStyle.keepUpright)
        XCTAssertTrue(f.textStyle.translateInViewport)
        XCTAssertEqual(f.textStyle.translate.x, 3)
        XCTAssertEqual(f.textStyle.translate.y, -2)
    }

    func testRepresentativePointOfAConcaveRingIsInside() {
        // A U shape: its centroid (x ≈ 50) falls in the notch.
        let u: [(Int32, Int32)] = [(0, 0), (100, 0), (100, 100), (70, 100), (70, 20), (30, 20), (30, 100), (0, 100), (0, 0)]
        let p = SymbolLayout.representativePoint([u.map { TilePoint(x: $0.0, y: $0.1) }])
        XCTAssertNotNil(p)
        if let p { XCTAssertFalse(p.x > 30 && p.x < 70 && p.y > 20, "\(p) is in the notch") }
    }

    func testFontStacksMapToFontconfig() {
        XCTAssertTrue(SymbolLayout.fontconfig("Open Sans Semibold Italic") == ("Open Sans", true, true))
        XCTAssertTrue(SymbolLayout.fontconfig("Noto Sans Regular") == ("Noto Sans", false, false))
        XCTAssertTrue(SymbolLayout.fontconfig("DejaVu Sans") == ("DejaVu Sans", false, false))
    }

    func testSchemasAreRecognisedByTheirLayers() {
        XCTAssertEqual(Schema.detect(layerNames: ["water", "landcover", "transportation", "building", "place"]), .openmaptiles)
        XCTAssertEqual(Schema.detect(layerNames: ["ocean", "water_polygons", "streets", "buildings", "place_labels", "land"]), .shortbread)
        XCTAssertEqual(Schema.detect(layerNames: ["earth", "water", "roads", "buildings", "places", "landuse"]), .protomaps)
        XCTAssertEqual(Schema.detect(layerNames: ["land", "countries", "coastline", "lakes", "boundaries", "places"]), .world)
        XCTAssertEqual(Schema.detect(layerNames: ["road", "admin", "poi_label", "water"]), .generic, "Mapbox Streets")
        XCTAssertEqual(Schema.detect(layerNames: []), .generic)
    }

    func testEveryShippedStyleParsesWithoutNotes() throws {
        let dir = try XCTUnwrap(ShippedStyles.directory(), "data/styles")
        for schema in Schema.allCases {
            let s = try ShippedStyles.load("\(dir)/\(schema.fileName)", schema: schema.rawValue)
            XCTAssertEqual(s.notes, [], schema.rawValue)
            XCTAssertGreaterThan(s.layers.count, 3, schema.rawValue)
            XCTAssertEqual(s.sources.count, 1, schema.rawValue)
        }
        let generic = try ShippedStyles.style(for: .generic, layerNames: ["a", "b"], directory: dir)
        XCTAssertTrue(generic.layers.contains { $0.id == "polygons/b" && $0.sourceLayer == "b" })
    }

    func testASpriteIndexReadsStretchSpansAndContentAndIgnoresBadOnes() throws {
        let index = #"""
        {"shield": {"x": 0, "y": 0, "width": 20, "height": 10, "stretchX": [[3, 8], [12, 17]], "stretchY": [[2, 8]],
                    "content": [3, 2, 17, 8]},
         "bad": {"x": 0, "y": 0, "width": 20, "height": 10, "stretchX": [[8, 3], [0, 30], "x", [5]], "stretchY": [[4, 6], [5, 9]],
                 "content": [17, 2, 3, 8]}}
        """#
        let images = try Sprite.parseIndex(Array(index.utf8)).get()
        let shield = try XCTUnwrap(images["shield"])
        XCTAssertEqual(shield.stretchX, [.init(from: 3, to: 8), .init(from: 12, to: 17)])
        XCTAssertEqual(shield.stretchY, [.init(from: 2, to: 8)])
        XCTAssertEqual(shield.content.map { [$0.left, $0.top, $0.right, $0.bottom] }, [3, 2, 17, 8])
        XCTAssertEqual(Sprite.Image.stretchable(shield.stretchX, before: 14), 5 + 2)
        // Turned round, past the image, not numbers, overlapping: each left out, the image kept.
        let bad = try XCTUnwrap(images["bad"])
        XCTAssertEqual(bad.stretchX, [])
        XCTAssertEqual(bad.stretchSpans(vertical: false), [.init(from: 0, to: 20)], "no spans: all of it stretches")
        XCTAssertEqual(bad.stretchY, [.init(from: 4, to: 6)])
        XCTAssertNil(bad.content)
    }
}
