import Geo
import JSONText
import Testing
@testable import Places

struct GeoJSONTests {
    func collection(_ text: String) throws -> PlacesCollection { try PlacesCollection(parsing: Array(text.utf8)) }

    func geoError(_ text: String) -> GeoJSONError? {
        do {
            _ = try collection(text)
            return nil
        } catch let e as GeoJSONError {
            return e
        } catch {
            return nil
        }
    }

    @Test func pointFeaturesAreThePlacesAndTheRestIsKept() throws {
        let c = try collection(richGeoJSON)
        #expect(c.places.map(\.name) == ["Rautatientori", "Kauppatori"])
        #expect(c.places[0].description == "Station square")
        #expect(c.places[0].coordinate == Coordinate(latitude: 60.1716, longitude: 24.9414))
        #expect(c.places[1].coordinate.longitude == 25)
        #expect(c.name == "Trip")
        #expect(c.features.count == 5)
    }

    @Test func aRichFileWrittenBackMeansExactlyWhatItSaid() throws {
        let original = try JSONParser.parse(richGeoJSON).value
        let written = try collection(richGeoJSON).text
        // Same members in the same order, numbers as written, strings the same characters.
        #expect(try JSONParser.parse(written).value == original)
        // And once written, writing again changes no byte.
        #expect(try collection(written).text == written)
    }

    @Test func editsChangeOnlyWhatTheyEdit() throws {
        var c = try collection(richGeoJSON)
        let id = c.places[0].id
        c.apply(try #require(c.renaming(id, to: "Railway Square")))
        c.apply(try #require(c.moving(id, to: Coordinate(latitude: 60.1717, longitude: 24.9415))))
        let v = try JSONParser.parse(c.text).value
        let feature = try #require(v["features"]?.arrayValue?.first)
        #expect(feature["properties"]?["name"] == .string("Railway Square"))
        // The altitude and every other property stay as they were.
        #expect(feature["geometry"]?["coordinates"] == .array([.number("24.9415"), .number("60.1717"), .number("12.50")]))
        let originalJSON = try JSONParser.parse(richGeoJSON).value
        let originalFeatures = try #require(originalJSON["features"]?.arrayValue)
        let before = try #require(originalFeatures.first)
        #expect(feature["properties"]?["tags"] == before["properties"]?["tags"])
        #expect(feature["properties"]?["quote"] == before["properties"]?["quote"])
        #expect(feature["foreign"] == before["foreign"])
        #expect(feature["id"] == .number("7"))
        // The other features are byte for byte what they were.
        let features = try #require(v["features"]?.arrayValue)
        #expect(Array(features.dropFirst()) == Array(originalFeatures.dropFirst()))
        #expect(v["crs"] == originalJSON["crs"])
        #expect(v["bbox"] == originalJSON["bbox"])
    }

    @Test func renamingAPlaceWithoutPropertiesGivesItSome() throws {
        var c = try collection(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}]}"#)
        #expect(c.places[0].name == "")
        c.apply(try #require(c.renaming(c.places[0].id, to: "Here")))
        #expect(try collection(c.text).places[0].name == "Here")
    }

    @Test func notJSONNamesLineAndColumn() throws {
        let e = try #require(geoError("{\"type\": \"FeatureCollection\",\n \"features\": [\n  {\"type\": \"Feature\",]\n]}"))
        #expect(e.location == TextPosition(line: 3, column: 22))
        #expect(e.message.hasPrefix("not valid JSON"))
    }

    @Test func notGeoJSONNamesTheValueAtFault() throws {
        let cases: [(String, TextPosition, String)] = [
            ("[1, 2]", .init(line: 1, column: 1), "FeatureCollection"),
            ("{\n\"type\": \"Feature\"}", .init(line: 2, column: 9), "not \"FeatureCollection\""),
            ("{\"type\": \"FeatureCollection\"}", .init(line: 1, column: 1), "no \"features\""),
            ("{\"type\": \"FeatureCollection\", \"features\": {}}", .init(line: 1, column: 43), "must be an array"),
            ("{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"properties\": {}}]}",
             .init(line: 2, column: 3), "no \"geometry\""),
            ("{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\"a\", 1]}}]}",
             .init(line: 2, column: 69), "must be numbers"),
            ("{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"geometry\": {\"type\": \"Circle\", \"coordinates\": []}}]}",
             .init(line: 2, column: 35), "unknown geometry type"),
            ("{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1]}}]}",
             .init(line: 2, column: 68), "longitude and a latitude"),
        ]
        for (text, location, words) in cases {
            let e = try #require(geoError(text), "accepted \(text)")
            #expect(e.location == location, "\(text): \(e)")
            #expect(e.message.contains(words), "\(text): \(e)")
            #expect(e.message.hasPrefix("not GeoJSON"))
        }
    }

    @Test func coordinatesOutOfRangeAreReportedAndLeftAlone() throws {
        let text = "{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [200, 95.5]}, \"properties\": {\"name\": \"Off\"}},\n  {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [10, 20]}, \"properties\": {\"name\": \"On\"}}]}"
        let c = try collection(text)
        #expect(c.places.map(\.name) == ["On"])
        #expect(c.warnings.count == 1)
        #expect(c.warnings.first?.location == TextPosition(line: 2, column: 68))
        #expect(c.warnings.first?.message.contains("200") == true)
        // Written back exactly as it was.
        #expect(try JSONParser.parse(c.text).value == (try JSONParser.parse(text).value))
    }

    @Test func idsComeFromTheFileWhenUniqueAndAreMadeUpOtherwise() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,1]},"properties":{}},{"type":"Feature","id":"dup","geometry":{"type":"Point","coordinates":[2,2]},"properties":{}},{"type":"Feature","id":"dup","geometry":{"type":"Point","coordinates":[3,3]},"properties":{}},{"type":"Feature","geometry":{"type":"Point","coordinates":[4,4]},"properties":{}},{"type":"Feature","id":"p1","geometry":null,"properties":{}}]}"#
        let ids = try collection(text).places.map(\.id.rawValue)
        #expect(ids.first == "a")
        #expect(Set(ids).count == 4)
        #expect(!ids.contains("dup"))
        #expect(!ids.contains("p1"))   // taken by the null-geometry feature
    }
}
