import Foundation
import JSONText
import Testing
@testable import Tiles

/// The `mapbox/mvt-fixtures` conformance suite (v4.0.0, commit e84c337; data/test/mvt-fixtures,
/// see data/SOURCES.md) as a table: every valid fixture decodes, every recoverable one decodes
/// with the bad feature left out, every fatal one is refused with a `ProtobufError`, and none
/// crashes or hangs.
@Suite struct MVTFixturesTests {
    static let directory = ShippedData.directory + "/test/mvt-fixtures"

    /// Fixtures the suite calls fatal that decode here, on purpose. 051 has the same geometry
    /// integers as the valid 057 (a MoveTo count of 2^29 − 1 followed by one pair), so no
    /// decoder can refuse one and accept the other by its geometry; we read the pairs that are
    /// there, for both. 058 is the same overlong count on a LineTo, read the same way. 024 is a
    /// layer without a version field, read as proto2's default version 1, because 061, valid
    /// for version 1, has no version field either.
    static let lenientOnPurpose: Set<String> = ["024", "051", "058"]

    struct Fixture: CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var info: JSONValue
        var description: String { name }

        /// The verdict for the spec version the fixture is written in ("proto": "1.0.1" or "2.1").
        var valid: Bool {
            let v1 = info["proto"]?.stringValue?.hasPrefix("1") == true
            return info["validity"]?[v1 ? "v1" : "v2"] == .bool(true)
        }
        var error: String? { info["validity"]?["error"]?.stringValue }
    }

    static func fixtures() throws -> [Fixture] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return try names.map { name in
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)/tile.mvt")))
            let text = try String(contentsOfFile: "\(directory)/\(name)/info.json", encoding: .utf8)
            guard let info = JSONValue.parse(text, maximumDepth: 64) else { throw FixtureError(description: "\(name)/info.json is not JSON") }
            return Fixture(name: name, bytes: bytes, info: info)
        }
    }

    @Test func theSuiteIsAllThere() throws {
        let all = try Self.fixtures()
        #expect(all.count == 74)
        #expect(all.filter(\.valid).count == 47)
        #expect(all.filter { $0.error == "fatal" }.count >= 20)
    }

    @Test func everyFixtureGetsItsVerdict() throws {
        var outcomes: [String] = []
        for fixture in try Self.fixtures() {
            let result = Result { () throws(ProtobufError) -> VectorTile in try MVTDecoder.decode(fixture.bytes) }
            switch result {
            case .success(let tile):
                outcomes.append("\(fixture.name) decoded (\(tile.layers.count) layers, \(tile.droppedFeatures) dropped)")
                if fixture.error == "fatal" && !fixture.valid {
                    #expect(Self.lenientOnPurpose.contains(fixture.name), "fatal fixture \(fixture.name) decoded")
                }
            case .failure(let error):
                outcomes.append("\(fixture.name) refused: \(error.message)")
                #expect(!fixture.valid, "valid fixture \(fixture.name) refused: \(error.message)")
                #expect(fixture.error != "recoverable", "recoverable fixture \(fixture.name) refused: \(error.message)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(outcomes.count == 74)
    }

    @Test(arguments: ["003", "004", "005", "006"])
    func aBadFeatureIsDroppedAndCountedNotTheTile(name: String) throws {
        guard let fixture = try Self.fixtures().first(where: { $0.name == name }) else { throw FixtureError(description: name) }
        let tile = try MVTDecoder.decode(fixture.bytes)
        #expect(tile.layers.count == 1)
        #expect(tile.droppedFeatures == 1)
        #expect(tile.layers.first?.features.isEmpty == true)
    }

    @Test func oneBadFeatureAmongGoodOnesLeavesTheGoodOnes() throws {
        // Fixture 005's layer with one good point feature added: only the bad one goes.
        var good = ProtobufWriter()
        good.varintField(3, 1)
        good.packed(4, [MVTEncoder.command(1, 1), MVTEncoder.zigzag(7), MVTEncoder.zigzag(9)])
        var bad = ProtobufWriter()
        bad.packed(2, [0])   // one tag: keys and values come in pairs
        bad.varintField(3, 1)
        bad.packed(4, [MVTEncoder.command(1, 1), MVTEncoder.zigzag(1), MVTEncoder.zigzag(1)])
        var layer = ProtobufWriter()
        layer.varintField(15, 2)
        layer.bytesField(1, Array("pois".utf8))
        layer.message(2, bad.bytes)
        layer.message(2, good.bytes)
        layer.bytesField(3, Array("name".utf8))
        var tile = ProtobufWriter()
        tile.message(3, layer.bytes)
        let decoded = try MVTDecoder.decode(tile.bytes)
        #expect(decoded.droppedFeatures == 1)
        #expect(decoded.layers.first?.features.map(\.parts) == [[[TilePoint(x: 7, y: 9)]]])
    }

    @Test func largeCoordinatesAndLongCountsDecode() throws {
        let all = try Self.fixtures()
        for name in ["049", "050", "057"] {
            guard let fixture = all.first(where: { $0.name == name }) else { throw FixtureError(description: name) }
            let tile = try MVTDecoder.decode(fixture.bytes)
            #expect(tile.layers.first?.features.count == 1, "\(name)")
        }
        // 049: MoveTo x = 2^31 − 1, then LineTo +1: the cursor passes Int32 and is clamped.
        guard let fixture = all.first(where: { $0.name == "049" }) else { throw FixtureError(description: "049") }
        let overflow = try MVTDecoder.decode(fixture.bytes)
        let line = overflow.layers.first?.features.first?.parts.first ?? []
        #expect(line.count == 2)
        #expect(line.allSatisfy { $0.x == Int32(MVTDecoder.Limits.coordinateMagnitude) })
    }
}
