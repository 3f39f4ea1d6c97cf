import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Where text along a line is anchored, as MapLibre picks the spots: along its pieces joined
/// as MapLibre joins them, cut to the data tile's square, the first spot offset by MapLibre's
/// overscaling past the data's deepest zoom.
final class LineAnchorTests: XCTestCase {
    static func street(_ pts: [(Int32, Int32)], index: Int, text: String = "Mikonkatu") -> SymbolFeature {
        SymbolFeature(layerID: "street", layerIndex: 0, text: text, textStyle: TextStyle(), placement: .line, featureIndex: index,
                      geometry: .line(pts.map { TilePoint(x: $0.0, y: $0.1) }), extent: 4096)
    }

    static func points(_ s: SymbolFeature) -> [[Int32]] {
        guard case .line(let l) = s.geometry else { return [] }
        return l.map { [$0.x, $0.y] }
    }

    func testPiecesAreJoinedInFeatureOrderAsMapLibreJoinsThem() {
        // Two carriageways leave Q (100, 0): B to R and C to S; A comes into Q from P after
        // both. MapLibre joins A to the last line seen beginning at Q, C, and leaves B alone.
        let b = Self.street([(100, 0), (200, 0)], index: 0)
        let c = Self.street([(100, 0), (100, 100)], index: 1)
        let a = Self.street([(0, 0), (100, 0)], index: 2)
        let joined = LabelExtraction.mergedLines([b, c, a])
        XCTAssertEqual(joined.map(Self.points), [[[100, 0], [200, 0]], [[0, 0], [100, 0], [100, 100]]])
        XCTAssertEqual(joined.map(\.featureIndex), [0, 1], "the joined line keeps C's place")
        // A piece between two others joins all three, in the first one's place; another
        // street's piece and a point pass through.
        let p = Self.street([(0, 0), (10, 0)], index: 0)
        let other = Self.street([(10, 0), (20, 0)], index: 1, text: "Kaivokatu")
        let r = Self.street([(20, 0), (30, 0)], index: 2)
        let q = Self.street([(10, 0), (20, 0)], index: 3)
        let merged = LabelExtraction.mergedLines([p, other, r, q])
        XCTAssertEqual(merged.map(\.text), ["Mikonkatu", "Kaivokatu"])
        XCTAssertEqual(merged.first.map(Self.points), [[0, 0], [10, 0], [20, 0], [30, 0]])
    }

    func testALineIsCutToTheSquareIntoThePiecesInsideIt() {
        let box = (minX: 0.0, minY: 0.0, maxX: 100.0, maxY: 100.0)
        // Through the square from the buffer on the left to the buffer on the right.
        let through = LabelExtraction.clipped([(-30, 50), (130, 50)], to: box)
        XCTAssertEqual(through.count, 1)
        XCTAssertEqual(through.first?.map(\.x), [0, 100])
        XCTAssertEqual(through.first?.map(\.y), [50, 50])
        // Out past the right edge and back: two pieces, each beginning or ending on the edge.
        let loop = LabelExtraction.clipped([(10, 10), (120, 10), (120, 90), (10, 90)], to: box)
        XCTAssertEqual(loop.map { $0.map(\.x) }, [[10, 100], [100, 10]])
        XCTAssertEqual(loop.map { $0.map(\.y) }, [[10, 10], [90, 90]])
        // A diagonal cut at the corner region, and a line wholly outside.
        let diagonal = LabelExtraction.clipped([(-50, -50), (50, 50)], to: box)
        XCTAssertEqual(diagonal.first?.first?.x, 0)
        XCTAssertEqual(diagonal.first?.first?.y, 0)
        XCTAssertTrue(LabelExtraction.clipped([(110, 10), (150, 90)], to: box).isEmpty)
        // Inside all along: unchanged.
        let inside = LabelExtraction.clipped([(10, 10), (50, 60), (90, 20)], to: box)
        XCTAssertEqual(inside.first?.map(\.x), [10, 50, 90])
    }

    func testNoAnchorWhereTheLineTurnsPastTheMaxAngleUnderTheLabel() {
        // 300 px east, then a right angle, 300 px south; a 100-px label every 112.5 px
        // (spacing 50 widened to the label plus a quarter spacing), the first 82 px in.
        let corner = [WorldPoint(x: 0, y: 0), WorldPoint(x: 300, y: 0), WorldPoint(x: 300, y: 300)]
        func spots(_ path: [WorldPoint], maxAngle: Double?) -> [Double] {
            LabelExtraction.anchors(along: path, logicalPerWorld: 1, labelLength: 100, textSize: 16, spacing: 50, continued: false,
                                    maxAngle: maxAngle).map { $0.point.x + $0.point.y }
        }
        XCTAssertEqual(spots(corner, maxAngle: nil), [82, 194.5, 307, 419.5, 532])
        // At 307 the label spans the corner (90° > 45°): dropped, as MapLibre's checkMaxAngle does.
        XCTAssertEqual(spots(corner, maxAngle: 45), [82, 194.5, 419.5, 532])
        XCTAssertEqual(spots(corner, maxAngle: 95), [82, 194.5, 307, 419.5, 532])
        // The same 90° in three 30° bends 4 px apart: within one window (0.6 × 16 px), so
        // summed; spread 40 px apart, each bend alone is under the limit.
        func bends(_ gap: Double) -> [WorldPoint] {
            var pts = [WorldPoint(x: 0, y: 0), WorldPoint(x: 300, y: 0)]
            var angle = 0.0
            for _ in 0..<3 {
                angle += Double.pi / 6
                let last = pts[pts.count - 1]
                pts.append(WorldPoint(x: last.x + gap * cos(angle), y: last.y + gap * sin(angle)))
            }
            let last = pts[pts.count - 1]
            pts.append(WorldPoint(x: last.x, y: last.y + 300))
            return pts
        }
        XCTAssertFalse(spots(bends(4), maxAngle: 45).contains { abs($0 - 307) < 2 }, "\(spots(bends(4), maxAngle: 45))")
        XCTAssertEqual(spots(bends(40), maxAngle: 45).count, spots(bends(40), maxAngle: nil).count)
        // A line too bent everywhere gets no anchor, not even in its middle.
        XCTAssertEqual(spots([WorldPoint(x: 0, y: 0), WorldPoint(x: 60, y: 0), WorldPoint(x: 60, y: 60)], maxAngle: 45), [])
        XCTAssertEqual(spots([WorldPoint(x: 0, y: 0), WorldPoint(x: 60, y: 0), WorldPoint(x: 60, y: 60)], maxAngle: nil), [60])
    }

    /// Distances (px) from the start of a straight 1000-px line to each anchor.
    func spots(continued: Bool, overscaling: Double) -> [Double] {
        let path = [WorldPoint(x: 0, y: 0), WorldPoint(x: 1000, y: 0)]
        return LabelExtraction.anchors(along: path, logicalPerWorld: 1, labelLength: 60, textSize: 12, spacing: 300,
                                       continued: continued, overscaling: overscaling).map { $0.point.x }
    }

    func testTheFirstAnchorIsOffsetByTheOverscaling() {
        // A line that starts here: half the label plus two text sizes in (30 + 24), then
        // every spacing, while the whole label fits.
        XCTAssertEqual(spots(continued: false, overscaling: 1), [54, 354, 654, 954])
        // Past the data's deepest zoom MapLibre scales that offset by its overscaling (modulo
        // the spacing): 54 × 4 = 216.
        XCTAssertEqual(spots(continued: false, overscaling: 4), [216, 516, 816])
        // A line coming in from the next tile: half a spacing in, also scaled (600 % 300 = 0,
        // where the label does not fit: the next spot).
        XCTAssertEqual(spots(continued: true, overscaling: 1), [150, 450, 750])
        XCTAssertEqual(spots(continued: true, overscaling: 4), [300, 600, 900])
    }
}
