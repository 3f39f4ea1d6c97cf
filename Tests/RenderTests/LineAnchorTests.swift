import Foundation
import Geo
import XCTest
@testable import Render

/// Where text along a line is anchored, as MapLibre picks the spots: along the line cut to
/// the data tile's square, the first spot offset by MapLibre's overscaling past the data's
/// deepest zoom.
final class LineAnchorTests: XCTestCase {
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
