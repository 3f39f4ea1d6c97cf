import Foundation
import Testing
@testable import Tiles

/// Asking a source for some of a tile's layers (what a renderer's style draws) gives exactly
/// those layers as the whole tile has them, and nothing in the layers left out can fail it.
@Suite struct LayerSelectionTests {
    @Test func aShippedTileWithSomeLayersHasExactlyThoseAsTheWholeTileHasThem() throws {
        let world = try MBTilesSource(path: ShippedData.world)
        // z4 over Europe: every layer of the file has features here.
        let id = TileID(z: 4, x: 8, y: 5)
        let whole = try #require(try world.tile(id))
        let names = Set(whole.layers.map(\.name))
        #expect(names.isSuperset(of: ["countries", "land", "coastline"]))
        let wanted: Set<String> = ["land", "coastline", "places"]
        let some = try #require(try world.tile(id, layers: wanted))
        #expect(Set(some.layers.map(\.name)) == wanted.intersection(names))
        for layer in some.layers { #expect(layer == whole.layer(named: layer.name), "\(layer.name)") }
        // Through a layered source (the map's world + city) too.
        let layered = LayeredTileSource(sources: [world])
        #expect(try layered.tile(id, layers: wanted) == some)
    }

    /// A layer named after its features (the spec does not fix the order), and one whose
    /// features would be fatal (a tag pointing past the keys): left out, neither is read.
    @Test func layersLeftOutAreNeverReadWhereverTheirNameComes() throws {
        let kept = VectorLayer(name: "kept", extent: 4096, features: [
            VectorFeature(type: .point, parts: [[TilePoint(x: 5, y: 6)]], properties: ["name": .string("A")]),
        ])
        var damaged = ProtobufWriter()
        var feature = ProtobufWriter()
        feature.packed(2, [7, 7])   // key 7 and value 7 of a layer that has none
        feature.varintField(3, 1)
        feature.packed(4, MVTEncoder.geometry([[TilePoint(x: 1, y: 1)]], type: .point))
        damaged.varintField(15, 2)
        damaged.message(2, feature.bytes)
        damaged.bytesField(1, Array("late".utf8))   // the name after the feature
        var bad = ProtobufWriter()
        bad.varintField(15, 2)
        bad.bytesField(1, Array("early".utf8))
        bad.message(2, feature.bytes)
        var tile = ProtobufWriter()
        tile.message(3, damaged.bytes)
        tile.message(3, MVTEncoder.encodeLayer(kept))
        tile.message(3, bad.bytes)

        #expect(throws: ProtobufError.self) { try MVTDecoder.decode(tile.bytes) }
        let decoded = try MVTDecoder.decode(tile.bytes, layers: ["kept"])
        #expect(decoded == VectorTile(layers: [kept]))
        // A wanted layer is still checked as before.
        #expect(throws: ProtobufError.self) { try MVTDecoder.decode(tile.bytes, layers: ["kept", "late"]) }
    }
}
