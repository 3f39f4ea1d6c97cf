import Foundation
import Testing
@testable import Tiles

/// The decoder's shortcuts (inline one- and two-byte varints, a reused point buffer, tags in
/// one list per layer, inflating into a buffer sized from the gzip trailer) give exactly what
/// the plain paths give, at and across the edges where a shortcut hands over.
@Suite struct DecodeShortcutTests {
    /// Varints of every length from 1 to 10 bytes, with the values at each length's edges.
    static let varintValues: [UInt64] = [
        0, 1, 127, 128, 255, 16_383, 16_384, 2_097_151, 2_097_152, 1 << 35, UInt64(UInt32.max), UInt64(Int64.max), UInt64.max,
    ]

    @Test func varintsOfEveryLengthReadBackExactly() throws {
        var writer = ProtobufWriter()
        for value in Self.varintValues { writer.varint(value) }
        // Non-minimal encodings are legal protobuf: 0 and 1 written in two bytes.
        writer.bytes += [0x80, 0x00, 0x81, 0x00]
        let read = writer.bytes.withUnsafeBytes { raw -> Result<[UInt64], ProtobufError> in
            var reader = ProtobufReader(raw)
            var values: [UInt64] = []
            do throws(ProtobufError) {
                while !reader.isAtEnd { values.append(try reader.varint()) }
                return .success(values)
            } catch {
                return .failure(error)
            }
        }
        #expect(try read.get() == Self.varintValues + [0, 1])
    }

    /// The error (message and offset) when reading one varint from `bytes[range]`.
    static func varintError(_ bytes: [UInt8], range: Range<Int>) -> ProtobufError? {
        bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw, range: range)
            do throws(ProtobufError) {
                _ = try reader.varint()
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aTwoByteVarintCutByItsFieldsEndIsAnErrorEvenWhenTheNextByteWouldEndIt() {
        // 0x96 0x01 is 150; a field holding only the first byte must not borrow the second.
        let cut = Self.varintError([0x96, 0x01], range: 0..<1)
        #expect(cut == ProtobufError(message: "a number runs past the end of its field", offset: 1))
        let threeCut = Self.varintError([0x96, 0x96, 0x01], range: 0..<2)
        #expect(threeCut == ProtobufError(message: "a number runs past the end of its field", offset: 2))
        #expect(Self.varintError([0x96, 0x01], range: 0..<2) == nil)
    }

    @Test func anElevenByteVarintIsRefusedAfterItsEleventhByte() {
        let bytes = [UInt8](repeating: 0xFF, count: 10) + [0x01]
        #expect(Self.varintError(bytes, range: 0..<11) == ProtobufError(message: "a number is longer than 10 bytes", offset: 11))
    }

    @Test func longAndShortPartsInOneLayerDecodeExactly() throws {
        // Deltas of ±20,000 need three-byte varints, ±100 two-byte ones; the long line is
        // longer than the point buffer starts, and short parts follow long ones.
        let long = (0..<3_000).map { (i: Int) -> TilePoint in
            let swing: Int32 = i % 2 == 0 ? 20_000 : -20_000
            return TilePoint(x: swing + Int32(i), y: Int32(i % 7) * 100)
        }
        let ring = (0..<300).map { i -> TilePoint in
            let angle = Double(i) / 300 * 2 * .pi
            return TilePoint(x: Int32(2048 + 1500 * cos(angle)), y: Int32(2048 - 1500 * sin(angle)))
        }
        let layer = VectorLayer(name: "mixed", extent: 4096, features: [
            VectorFeature(id: 1, type: .lineString, parts: [long]),
            VectorFeature(id: 2, type: .lineString, parts: [[TilePoint(x: 1, y: 2), TilePoint(x: 3, y: 4)]]),
            VectorFeature(id: 3, type: .polygon, parts: [
                ring,
                [TilePoint(x: 2000, y: 2000), TilePoint(x: 2100, y: 2000), TilePoint(x: 2100, y: 2100), TilePoint(x: 2000, y: 2100)],
                [TilePoint(x: 1000, y: 1000), TilePoint(x: 1010, y: 1000), TilePoint(x: 1010, y: 1010)],
            ]),
            VectorFeature(id: 4, type: .point, parts: [[TilePoint(x: -5, y: 4100), TilePoint(x: 0, y: 0), TilePoint(x: 4096, y: 4096)]]),
            VectorFeature(id: 5, type: .lineString, parts: [Array(long.prefix(2)), Array(long.suffix(500))]),
        ])
        let tile = VectorTile(layers: [layer])
        #expect(try MVTDecoder.decode(MVTEncoder.encode(tile)) == tile)
    }

    @Test func featuresSharingTheLayersKeysAndValuesEachGetTheirOwnProperties() throws {
        let longName = "Helsingin kaupungin keskusta (Helsinki city centre)"   // past the inline String size
        let features = [
            VectorFeature(id: 1, type: .point, parts: [[TilePoint(x: 1, y: 1)]],
                          properties: ["name": .string(longName), "rank": .int(3), "capital": .bool(true)]),
            VectorFeature(id: 2, type: .point, parts: [[TilePoint(x: 2, y: 2)]],
                          properties: ["name": .string(longName), "rank": .int(5), "capital": .bool(true)]),
            VectorFeature(id: 3, type: .point, parts: [[TilePoint(x: 3, y: 3)]], properties: ["rank": .int(3)]),
            VectorFeature(id: 4, type: .point, parts: [[TilePoint(x: 4, y: 4)]]),
            VectorFeature(id: 5, type: .point, parts: [[TilePoint(x: 5, y: 5)]],
                          properties: ["name": .string("Espoo"), "rank": .int(5), "area": .double(312.3)]),
        ]
        let tile = VectorTile(layers: [VectorLayer(name: "places", extent: 4096, features: features)])
        let decoded = try MVTDecoder.decode(MVTEncoder.encode(tile))
        #expect(decoded == tile)
        #expect(decoded.layers.first?.features.map { $0.properties["rank"] } == [.int(3), .int(5), .int(3), nil, .int(5)])
    }

    @Test func aKeyTaggedTwiceInOneFeatureTakesItsLastValue() throws {
        // Tags (0, 0) then (0, 1): "kind" is first "a", then "b".
        var feature = ProtobufWriter()
        feature.packed(2, [0, 0, 0, 1])
        feature.varintField(3, 1)
        feature.packed(4, [MVTEncoder.command(1, 1), MVTEncoder.zigzag(1), MVTEncoder.zigzag(1)])
        var other = ProtobufWriter()
        other.packed(2, [0, 0])
        other.varintField(3, 1)
        other.packed(4, [MVTEncoder.command(1, 1), MVTEncoder.zigzag(2), MVTEncoder.zigzag(2)])
        var layer = ProtobufWriter()
        layer.varintField(15, 2)
        layer.bytesField(1, Array("tags".utf8))
        layer.message(2, feature.bytes)
        layer.message(2, other.bytes)
        layer.bytesField(3, Array("kind".utf8))
        for text in ["a", "b"] {
            var value = ProtobufWriter()
            value.bytesField(1, Array(text.utf8))
            layer.message(4, value.bytes)
        }
        var tile = ProtobufWriter()
        tile.message(3, layer.bytes)
        let decoded = try MVTDecoder.decode(tile.bytes)
        #expect(decoded.layers.first?.features.map(\.properties) == [["kind": .string("b")], ["kind": .string("a")]])
    }

    /// Bytes that compress far better than 4:1, as real tiles with long runs of zero deltas do.
    static func compressible(_ count: Int) -> [UInt8] {
        (0..<count).map { i in i % 1000 < 990 ? 0 : UInt8(truncatingIfNeeded: i / 1000) }
    }

    @Test(arguments: [Compression.Wrapper.gzip, .zlib])
    func aStreamInflatingToManyTimesItsSizeComesOutWhole(wrapper: Compression.Wrapper) throws {
        // A zlib stream carries no size, so its buffer must grow several times on the way.
        let original = Self.compressible(3 << 20)
        let compressed = Compression.compress(original, as: wrapper)
        #expect(compressed.count * 16 < original.count)
        guard case .success(let inflated) = Inflate.decompress(compressed) else {
            Issue.record("did not inflate")
            return
        }
        #expect(inflated == original)
    }

    @Test(arguments: [UInt32(0), 10, 1_000_000, UInt32.max])
    func aGzipTrailerThatMisstatesTheSizeIsReportedAsDamage(claimedSize: UInt32) {
        // The size in the trailer only sizes the buffer; zlib still checks it against the data.
        let original = Self.compressible(50_000)
        var gzip = Compression.compress(original, as: .gzip)
        for i in 0..<4 { gzip[gzip.count - 4 + i] = UInt8(truncatingIfNeeded: claimedSize >> (8 * UInt32(i))) }
        guard case .failure(let failure) = Inflate.decompress(gzip) else {
            Issue.record("a gzip stream with a wrong size trailer inflated")
            return
        }
        #expect(failure.message == "incorrect length check")
    }
}
