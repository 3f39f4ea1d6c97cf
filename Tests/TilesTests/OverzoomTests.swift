#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Tiles
import TestSupport

/// Tiles past the file's deepest zoom are the ancestor's features, clipped and rescaled.
@Suite struct OverzoomTests {
    func p(_ x: Int32, _ y: Int32) -> TilePoint { TilePoint(x: x, y: y) }

    /// True when `ring` is `expected` up to where the ring starts.
    static func sameRing(_ ring: [TilePoint], _ expected: [TilePoint]) -> Bool {
        guard ring.count == expected.count, let start = ring.firstIndex(of: expected[0]) else { return false }
        return (0..<ring.count).allSatisfy { ring[(start + $0) % ring.count] == expected[$0] }
    }

    @Test func twoLevelsDownTheShapesAreCutToTheChildAndScaledFourTimes() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        // 4/5/5 is the lower-right quarter of the upper-left quarter of 2/1/1: parent units
        // 1024…2048 on both axes, kept with a 16-unit buffer and scaled ×4.
        let tile = try #require(try source.tile(TileID(z: 4, x: 5, y: 5)))
        let layer = try #require(tile.layer(named: "shapes"))
        #expect(layer.extent == 4096)
        let byID = Dictionary(uniqueKeysWithValues: layer.features.map { ($0.id ?? 0, $0) })

        let square = try #require(byID[1])
        #expect(square.type == .polygon && square.parts.count == 1)
        // The square starts exactly at the child's corner and runs into its buffer.
        #expect(Self.sameRing(square.parts[0], [p(0, 0), p(4160, 0), p(4160, 4160), p(0, 4160)]))
        #expect(Overzoom.signedArea(square.parts[0].map { (x: Double($0.x), y: Double($0.y)) }) > 0)

        #expect(byID[2]?.parts == [[p(-64, -64), p(4160, 4160)]])
        #expect(byID[3]?.parts == [[p(1904, 2304)]])
    }

    @Test func oneLevelDownKeepsEverythingInTheQuarter() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let tile = try #require(try source.tile(TileID(z: 3, x: 2, y: 2)))
        let features = try #require(tile.layer(named: "shapes")?.features)
        #expect(Self.sameRing(features[0].parts[0], [p(2048, 2048), p(4160, 2048), p(4160, 4160), p(2048, 4160)]))
        #expect(features[1].parts == [[p(0, 0), p(4160, 4160)]])
        #expect(features[2].parts == [[p(3000, 3200), p(200, 200)]])
    }

    @Test func deepInsideAPolygonTheChildIsFullyCovered() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        // z22 tile near the centre of 2/1/1's square (20 levels deeper), off its diagonal line.
        let x = (1 << 20) + (1 << 19), y = (1 << 20) + (1 << 19) + 1000
        let tile = try #require(try source.tile(TileID(z: 22, x: x, y: y)))
        let features = try #require(tile.layer(named: "shapes")?.features)
        #expect(features.count == 1)
        #expect(Self.sameRing(features[0].parts[0], [p(-64, -64), p(4160, -64), p(4160, 4160), p(-64, 4160)]))
    }

    @Test func aChildWhoseAncestorIsMissingHasNoTile() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        #expect(try source.tile(TileID(z: 5, x: 0, y: 0)) == nil)
    }

    @Test func aHoleWhoseOuterRingWasCutAwayGoesWithIt() {
        let window = ClipRect(minX: 0, minY: 0, maxX: 100, maxY: 100)
        let outer = [p(200, 200), p(300, 200), p(300, 300), p(200, 300)]
        let strayHole = [p(10, 10), p(10, 20), p(20, 20), p(20, 10)]
        let identity = { (q: (x: Double, y: Double)) in TilePoint(x: Int32(q.x), y: Int32(q.y)) }
        #expect(Overzoom.clipPolygon([outer, strayHole], to: window, transform: identity).isEmpty)
        // With its outer ring inside, the hole stays.
        let inside = [p(0, 0), p(90, 0), p(90, 90), p(0, 90)]
        #expect(Overzoom.clipPolygon([inside, strayHole], to: window, transform: identity).count == 2)
    }

    // MARK: Properties over random geometry

    static func distance(_ q: (x: Double, y: Double), toSegment a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : min(max(((q.x - a.x) * dx + (q.y - a.y) * dy) / length2, 0), 1)
        let px = a.x + t * dx - q.x, py = a.y + t * dy - q.y
        return (px * px + py * py).squareRoot()
    }

    static func distance(_ q: (x: Double, y: Double), toLine line: [(x: Double, y: Double)]) -> Double {
        zip(line, line.dropFirst()).map { distance(q, toSegment: $0, $1) }.min() ?? .infinity
    }

    static func contains(_ ring: [(x: Double, y: Double)], _ q: (x: Double, y: Double)) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > q.y) != (b.y > q.y), q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    @Test func randomLinesSurviveOverzoomWithinRounding() {
        var random = SplitMix64(seed: 11)
        var compared = 0
        for _ in 0..<300 {
            let line = (0..<Int.random(in: 2...8, using: &random)).map { _ in
                TilePoint(x: Int32.random(in: -300...4400, using: &random), y: Int32.random(in: -300...4400, using: &random))
            }
            let depth = Int.random(in: 1...5, using: &random)
            let parent = TileID(z: 3, x: 2, y: 5)
            let child = TileID(z: 3 + depth, x: (2 << depth) + Int.random(in: 0..<(1 << depth), using: &random),
                               y: (5 << depth) + Int.random(in: 0..<(1 << depth), using: &random))
            let tile = VectorTile(layers: [VectorLayer(name: "l", extent: 4096, features: [VectorFeature(type: .lineString, parts: [line])])])
            let result = Overzoom.tile(tile, at: parent, scaledTo: child)

            let factor = Double(1 << depth), size = 4096 / factor
            let origin = (x: Double(child.x - (parent.x << depth)) * size, y: Double(child.y - (parent.y << depth)) * size)
            let toParent = { (p: TilePoint) in (x: Double(p.x) / factor + origin.x, y: Double(p.y) / factor + origin.y) }
            let original = line.map { (x: Double($0.x), y: Double($0.y)) }
            let pieces = result.layers[0].features.flatMap(\.parts).map { $0.map(toParent) }
            let tolerance = 0.71 / factor + 1e-9

            // Every vertex produced lies on the original line, inside the buffered child.
            let buffer = 64 / factor
            for q in pieces.joined() {
                #expect(Self.distance(q, toLine: original) <= tolerance)
                #expect(q.x >= origin.x - buffer - tolerance && q.x <= origin.x + size + buffer + tolerance)
                #expect(q.y >= origin.y - buffer - tolerance && q.y <= origin.y + size + buffer + tolerance)
            }
            // Every point of the original line inside the child is on some piece.
            for (a, b) in zip(original, original.dropFirst()) {
                for step in 0...50 {
                    let t = Double(step) / 50
                    let q = (x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
                    guard q.x > origin.x, q.x < origin.x + size, q.y > origin.y, q.y < origin.y + size else { continue }
                    #expect(pieces.contains { Self.distance(q, toLine: $0) <= tolerance }, "lost \(q)")
                    compared += 1
                }
            }
        }
        #expect(compared > 500)
    }

    @Test func randomPolygonsCoverTheSamePlacesAfterOverzoom() {
        var random = SplitMix64(seed: 12)
        var compared = 0
        for _ in 0..<150 {
            // A star-shaped (hence simple) ring around a random centre, wound as MVT exteriors are.
            let centre = (x: Double.random(in: 500...3600, using: &random), y: Double.random(in: 500...3600, using: &random))
            let count = Int.random(in: 3...12, using: &random)
            var ring = (0..<count).map { i -> TilePoint in
                let angle = (Double(i) + Double.random(in: 0..<0.9, using: &random)) / Double(count) * 2 * Double.pi
                let radius = Double.random(in: 200...2000, using: &random)
                return TilePoint(x: Int32(centre.x + radius * cos(angle)), y: Int32(centre.y + radius * sin(angle)))
            }
            if Overzoom.signedArea(ring.map { (x: Double($0.x), y: Double($0.y)) }) < 0 { ring.reverse() }
            let depth = Int.random(in: 1...3, using: &random)
            let parent = TileID(z: 2, x: 1, y: 2)
            let child = TileID(z: 2 + depth, x: (1 << depth) + Int.random(in: 0..<(1 << depth), using: &random),
                               y: (2 << depth) + Int.random(in: 0..<(1 << depth), using: &random))
            let tile = VectorTile(layers: [VectorLayer(name: "l", extent: 4096, features: [VectorFeature(type: .polygon, parts: [ring])])])
            let result = Overzoom.tile(tile, at: parent, scaledTo: child)

            let factor = Double(1 << depth), size = 4096 / factor
            let origin = (x: Double(child.x - (parent.x << depth)) * size, y: Double(child.y - (parent.y << depth)) * size)
            let original = ring.map { (x: Double($0.x), y: Double($0.y)) }
            let clipped = result.layers[0].features.flatMap(\.parts).map { $0.map { (x: Double($0.x), y: Double($0.y)) } }
            for part in clipped { #expect(Overzoom.signedArea(part) > 0, "winding kept") }
            for _ in 0..<40 {
                let cx = Double.random(in: 0...4096, using: &random), cy = Double.random(in: 0...4096, using: &random)
                let q = (x: cx / factor + origin.x, y: cy / factor + origin.y)
                // Points within rounding distance of the outline could fall either way.
                let closed = original + [original[0]]
                guard Self.distance(q, toLine: closed) > 1 else { continue }
                let expected = Self.contains(original, q)
                let actual = clipped.contains { Self.contains($0, (x: cx, y: cy)) }
                #expect(actual == expected, "point \(q) in child \(child)")
                compared += 1
            }
        }
        #expect(compared > 3000)
    }
}

