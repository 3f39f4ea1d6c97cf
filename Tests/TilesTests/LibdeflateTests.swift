import Testing
@testable import Tiles
import TestSupport

/// libdeflate inflates tiles first and zlib takes over whatever it does not finish: the two
/// must give the same bytes for every real tile, and a damaged stream the same error as zlib
/// alone always gave.
@Suite struct LibdeflateTests {
    /// The stored (compressed) bytes of every tile in the shipped files and the tool-made
    /// fixtures (tilemaker's MBTiles, pmtiles-convert's PMTiles), all gzip.
    static func storedTiles() throws -> [(String, [UInt8])] {
        var tiles: [(String, [UInt8])] = []
        let dir = ShippedData.directory
        for path in [ShippedData.world, ShippedData.helsinki, dir + "/test/helsinki-shortbread.mbtiles"] {
            let source = try MBTilesSource(path: path)
            for id in try source.storedTileIDs() {
                tiles.append(("\(path) \(id)", try #require(try source.rawTileData(id))))
            }
        }
        for path in [dir + "/test/helsinki.pmtiles", dir + "/test/helsinki-shortbread.pmtiles"] {
            let source = try PMTilesSource(path: path)
            #expect(source.tileCompression == .gzip, "\(path)")
            for id in try source.storedTileIDs() {
                tiles.append(("\(path) \(id)", try #require(try source.rawTileData(id))))
            }
        }
        return tiles
    }

    /// What libdeflate alone makes of `data`: nil when it hands the stream over to zlib.
    static func libdeflateAlone(_ data: [UInt8]) -> [UInt8]? {
        let encoding = Inflate.encoding(of: data)
        return data.withUnsafeBufferPointer { input -> [UInt8]? in
            var output = OutputBuffer(capacity: Inflate.initialCapacity(for: input, encoding: encoding))
            guard Inflate.inflateWhole(input, encoding: encoding, into: &output) else { return nil }
            return output.withBytes { Array($0) }
        }
    }

    static func outcome(_ data: [UInt8], _ inflater: Inflate.Inflater) -> Result<[UInt8], Inflate.InflateFailure> {
        Inflate.withDecompressed(data, using: inflater) { Array($0) }
    }

    @Test func everyShippedTileInflatesByLibdeflateToZlibsBytes() throws {
        let tiles = try Self.storedTiles()
        #expect(tiles.count > 3_300)   // 3,315 world tiles alone
        for (name, stored) in tiles {
            #expect(Inflate.encoding(of: stored) == .gzip, "\(name)")
            let zlib = try Self.outcome(stored, .zlib).get()
            // libdeflate itself, not its zlib fallback, must have inflated every real tile.
            #expect(Self.libdeflateAlone(stored) == zlib, "\(name)")
            #expect(try Self.outcome(stored, .libdeflate).get() == zlib, "\(name)")
        }
    }

    @Test(arguments: [Compression.Wrapper.gzip, .zlib])
    func aStreamLargerThanItsFirstBufferIsInflatedWholeByLibdeflate(wrapper: Compression.Wrapper) {
        // 3 MiB of runs compress about 100:1, far past the first buffer (4× a zlib stream's size;
        // a gzip trailer that says 10 bytes), so libdeflate's buffer must grow several times.
        let original = DecodeShortcutTests.compressible(3 << 20)
        var compressed = Compression.compress(original, as: wrapper)
        #expect(Self.libdeflateAlone(compressed) == original)
        if wrapper == .gzip {
            // A trailer whose size is wrong: damage, which zlib reports.
            for i in 0..<4 { compressed[compressed.count - 4 + i] = i == 0 ? 10 : 0 }
            #expect(Self.libdeflateAlone(compressed) == nil)
            guard case .failure(let failure) = Self.outcome(compressed, .libdeflate) else {
                Issue.record("a gzip stream with a wrong size inflated")
                return
            }
            #expect(failure.message == "incorrect length check")
        }
    }

    @Test func damagedStreamsGiveZlibsErrorAndTheSameBytesWhenTheyInflate() throws {
        let tiles = try Self.storedTiles()
        // A few real tiles of different sizes, each damaged many ways.
        let sorted = tiles.map(\.1).sorted { $0.count < $1.count }
        let bases = [sorted[sorted.count / 4], sorted[sorted.count / 2], sorted[sorted.count * 9 / 10]]
        var random = SplitMix64(seed: 10)
        var failed = 0, inflated = 0
        for base in bases {
            for round in 0..<700 {
                var bytes = base
                switch round % 4 {
                case 0: bytes = Array(bytes.prefix(Int.random(in: 2..<bytes.count, using: &random)))
                case 1: bytes[Int.random(in: 10..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                case 2:
                    for _ in 0..<4 { bytes[Int.random(in: 2..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
                default:
                    // The deflate data damaged while the checksum and size are made to match
                    // nothing: a flip in the last 8 bytes (the gzip trailer).
                    bytes[bytes.count - 1 - Int.random(in: 0..<8, using: &random)] ^= 0x40
                }
                let zlib = Self.outcome(bytes, .zlib)
                let both = Self.outcome(bytes, .libdeflate)
                switch (zlib, both) {
                case (.success(let a), .success(let b)):
                    #expect(a == b)
                    inflated += 1
                case (.failure(let a), .failure(let b)):
                    #expect(!a.message.isEmpty)
                    #expect(a.message == b.message)
                    failed += 1
                default:
                    Issue.record("zlib alone gave \(zlib), libdeflate then zlib gave \(both)")
                }
            }
        }
        // The damage must have been damage most of the time, or this compared nothing.
        #expect(failed > 1_500)
        #expect(inflated + failed == 2_100)
    }
}
