import CCairo
import XCTest
@testable import Render

/// The polygon filler's coverage, read back from white fills on a black image: a pixel's red
/// channel / 255 is how much of it the polygon covers.
final class PolygonFillerTests: XCTestCase {
    /// One 8-bit step of blending plus rounding.
    static let pixelTolerance = 0.01

    /// Fills `rings` (device px) in white into a black `size`×`size` image; coverage per pixel.
    private func coverage(_ rings: [[(Double, Double)]], size: Int = 16) throws -> [[Double]] {
        let image = try XCTUnwrap(RasterImage(width: size, height: size))
        try PolygonFiller.withFiller(width: size, height: size) { filler in
            for ring in rings {
                guard let first = ring.first else { continue }
                filler.move(toX: first.0, y: first.1)
                for p in ring.dropFirst() { filler.line(toX: p.0, y: p.1) }
                filler.closeRing()
            }
            cairo_surface_flush(image.surface)
            XCTAssertTrue(filler.fill(image.surface, color: 0xFFFFFF))
            cairo_surface_mark_dirty(image.surface)
            _ = try XCTUnwrap(image.rgb(x: 0, y: 0))
        }
        return try (0..<size).map { y in
            try (0..<size).map { x in Double(try XCTUnwrap(image.rgb(x: x, y: y)) >> 16) / 255 }
        }
    }

    private func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }

    private func total(_ c: [[Double]]) -> Double { c.joined().reduce(0, +) }

    func testASquareOnPixelBordersIsSolidWithNoFringe() throws {
        let c = try coverage([rect(2, 2, 6, 6)])
        for y in 0..<16 {
            for x in 0..<16 {
                XCTAssertEqual(c[y][x], (2..<6).contains(x) && (2..<6).contains(y) ? 1 : 0, "pixel \(x),\(y)")
            }
        }
    }

    func testAHalfPixelOffsetSquareHasHalfCoveredEdgesAndQuarterCorners() throws {
        let c = try coverage([rect(2.5, 2.5, 6.5, 6.5)])
        XCTAssertEqual(c[4][4], 1)
        XCTAssertEqual(c[4][2], 0.5, accuracy: Self.pixelTolerance, "left edge")
        XCTAssertEqual(c[4][6], 0.5, accuracy: Self.pixelTolerance, "right edge")
        XCTAssertEqual(c[2][4], 0.5, accuracy: Self.pixelTolerance, "top edge")
        XCTAssertEqual(c[6][4], 0.5, accuracy: Self.pixelTolerance, "bottom edge")
        XCTAssertEqual(c[2][2], 0.25, accuracy: Self.pixelTolerance, "corner")
        XCTAssertEqual(c[6][6], 0.25, accuracy: Self.pixelTolerance, "corner")
        XCTAssertEqual(c[4][7], 0)
        XCTAssertEqual(total(c), 16, accuracy: 0.1)
    }

    func testADiagonalEdgeCoversExactlyTheTrianglesArea() throws {
        // Right triangle with legs 12 and 10: area 60; the hypotenuse crosses pixels at all
        // sorts of fractions.
        let c = try coverage([[(1, 1), (13, 1), (1, 11)]])
        XCTAssertEqual(total(c), 60, accuracy: 0.2)
        // The pixel whose centre the hypotenuse passes through is half covered by symmetry
        // only when the line runs at 45°; here check one fully inside and one fully outside.
        XCTAssertEqual(c[2][2], 1)
        XCTAssertEqual(c[10][12], 0)
        // A 45° edge through pixel centres halves each pixel it crosses.
        let d = try coverage([[(0, 0), (16, 16), (0, 16)]])
        XCTAssertEqual(d[5][5], 0.5, accuracy: Self.pixelTolerance)
        XCTAssertEqual(d[9][9], 0.5, accuracy: Self.pixelTolerance)
        XCTAssertEqual(total(d), 128, accuracy: 0.3)
    }

    func testACircleCoversItsArea() throws {
        let ring = (0..<90).map { i -> (Double, Double) in
            let a = Double(i) / 90 * 2 * .pi
            return (20.3 + 13.7 * cos(a), 19.6 + 13.7 * sin(a))
        }
        let c = try coverage([ring], size: 40)
        // The 90-gon's own area, not the circle's.
        let polygonArea = 0.5 * 90 * 13.7 * 13.7 * sin(2 * .pi / 90)
        XCTAssertEqual(total(c), polygonArea, accuracy: polygonArea * 0.002)
    }

    func testAHoleWindingAgainstItsRingStaysBackground() throws {
        let outer = rect(1, 1, 15, 15)
        let hole: [(Double, Double)] = rect(5, 5, 11, 11).reversed()
        let c = try coverage([outer, hole])
        XCTAssertEqual(c[8][8], 0, "inside the hole")
        XCTAssertEqual(c[2][2], 1, "the ring around it")
        XCTAssertEqual(total(c), 14 * 14 - 6 * 6, accuracy: 0.1)
    }

    func testOverlappingPolygonsOfOneColourStayFilled() throws {
        // Same winding, overlapping: nonzero keeps the overlap; even-odd would cut it out.
        let c = try coverage([rect(1, 1, 10, 10), rect(5, 5, 14, 14)])
        XCTAssertEqual(c[7][7], 1, "the overlap")
        XCTAssertEqual(c[2][2], 1)
        XCTAssertEqual(c[12][12], 1)
        XCTAssertEqual(total(c), 81 + 81 - 25, accuracy: 0.1)
        // Neighbours sharing an edge leave no seam along it.
        let n = try coverage([rect(1.3, 1, 7.5, 10), rect(7.5, 1, 14.2, 10)])
        XCTAssertEqual(n[4][7], 1)
    }

    func testEdgesOutsideTheImageStillCoverWhatIsInside() throws {
        // Left and top edges outside: the image's corner is solid, the right edge is half.
        let c = try coverage([rect(-5, -5, 5.5, 3)])
        XCTAssertEqual(c[0][0], 1)
        XCTAssertEqual(c[2][4], 1)
        XCTAssertEqual(c[1][5], 0.5, accuracy: Self.pixelTolerance)
        XCTAssertEqual(c[3][0], 0)
        XCTAssertEqual(total(c), 5.5 * 3, accuracy: 0.1)
        // A diagonal edge leaving through the left border: only the part inside is counted.
        // Triangle (−8,0) (8,0) (−8,16): inside x ≥ 0 is the triangle (0,0) (8,0) (0,8).
        let d = try coverage([[(-8, 0), (8, 0), (-8, 16)]])
        XCTAssertEqual(total(d), 32, accuracy: 0.2)
        XCTAssertEqual(d[9][0], 0)
        // Through the right border: (8,2) (30,2) (8,12) keeps x ≤ 16 of it.
        let r = try coverage([[(8, 2), (30, 2), (8, 12)]])
        let clippedArea = 110 - 0.5 * 14 * (14 * 10 / 22)
        XCTAssertEqual(total(r), clippedArea, accuracy: 0.2)
        // Wholly outside on any side: nothing.
        XCTAssertEqual(total(try coverage([rect(-9, 2, -1, 6), rect(17, 2, 30, 6), rect(2, -9, 6, -1), rect(2, 17, 6, 30)])), 0)
    }

    func testAHugePolygonAroundTheImageCoversEveryPixel() throws {
        let c = try coverage([[(-8e6, -8e6), (8e6, -7.9e6), (7.5e6, 8e6), (-8e6, 8e6)]], size: 64)
        XCTAssertEqual(c.joined().filter { $0 != 1 }.count, 0)
        // A huge polygon's slanted edge through the image still lands in the right place:
        // the line from (−8e6, −8e6) to (8e6, 8e6) is the diagonal.
        let d = try coverage([[(-8e6, -8e6), (8e6, 8e6), (-8e6, 8e6)]], size: 64)
        XCTAssertEqual(d[40][10], 1)
        XCTAssertEqual(d[10][40], 0)
        XCTAssertEqual(d[20][20], 0.5, accuracy: Self.pixelTolerance)
    }

    func testNonFiniteVerticesAreSkipped() throws {
        let clean = try coverage([rect(2.5, 2, 9, 9.5)])
        let damaged = try coverage([[(2.5, 2), (.nan, 4), (9, 2), (.infinity, 1), (9, 9.5), (-.infinity, .nan), (2.5, 9.5), (1e300, 3)]])
        XCTAssertEqual(damaged, clean)
        // A ring with nothing finite draws nothing.
        XCTAssertEqual(total(try coverage([[(.nan, .nan), (.infinity, 0), (0, -.infinity)]])), 0)
    }

    func testDegenerateRingsDrawNothing() throws {
        XCTAssertEqual(total(try coverage([[(2, 2), (12, 9)]])), 0, "two points")
        XCTAssertEqual(total(try coverage([[(2, 2), (7, 5.5), (12, 9)]])), 0, "three points on one line")
        XCTAssertEqual(total(try coverage([[(3.5, 3.5)]])), 0, "one point")
    }

    func testEachFillStartsClean() throws {
        // Two fills with one filler: the second colour lands only in the second shape.
        let image = try XCTUnwrap(RasterImage(width: 16, height: 16))
        PolygonFiller.withFiller(width: 16, height: 16) { filler in
            filler.move(toX: 1.5, y: 1.5); filler.line(toX: 6.5, y: 1.5); filler.line(toX: 6.5, y: 6.5); filler.line(toX: 1.5, y: 6.5)
            filler.fill(image.surface, color: 0xFF0000)
            filler.move(toX: 9, y: 9); filler.line(toX: 14, y: 9); filler.line(toX: 14, y: 14); filler.line(toX: 9, y: 14)
            filler.fill(image.surface, color: 0x0000FF)
        }
        cairo_surface_mark_dirty(image.surface)
        XCTAssertEqual(image.rgb(x: 4, y: 4), 0xFF0000)
        XCTAssertEqual(image.rgb(x: 11, y: 11), 0x0000FF)
        XCTAssertEqual(image.rgb(x: 8, y: 8), 0)
        // A filler taken again (from the pool, maybe another size) carries nothing over.
        let next = try coverage([rect(0, 0, 1, 1)], size: 24)
        XCTAssertEqual(total(next), 1, accuracy: 0.01)
    }
}
