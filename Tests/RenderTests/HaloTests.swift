import CCairo
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// A label's halo drawn in one pass through the united mask looks as the eight offset passes
/// it replaced did: per channel within 4 of 255 (eight passes round eight times), and it is there (pixels the text alone leaves
/// clear get covered).
final class HaloTests: XCTestCase {
    private func pixels(_ image: LabelLayer.LabelImage) throws -> (w: Int, h: Int, bytes: [UInt8]) {
        let surface = image.surface
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        var out: [UInt8] = []
        for y in 0..<h { out += UnsafeBufferPointer(start: data + y * stride, count: w * 4) }
        return (w, h, out)
    }

    private func label(_ text: String, _ style: TextStyle, scale: Double, onePass: Bool) throws -> (w: Int, h: Int, bytes: [UInt8]) {
        let shaped = try XCTUnwrap(LabelFonts.shared.shape(text, style: style, wrap: false))
        let (placed, _) = try LabelPlacerTests.pointLabel(text, style: style, shaped: shaped)
        return try pixels(try XCTUnwrap(LabelLayer.render(placed, scale: scale, haloInOnePass: onePass)))
    }

    func testTheOnePassHaloIsTheEightPassHalo() throws {
        for (width, color) in [(1.0, StyleColor.white), (2.5, StyleColor(r: 1, g: 1, b: 1, a: 0.8)),
                               (1.5, StyleColor(r: 0.2, g: 0.3, b: 0.9, a: 0.5))] {
            for scale in [1.0, 2.0] {
                var style = TextStyle()
                style.size = 16
                style.color = StyleColor(r: 0.2, g: 0.2, b: 0.2)
                style.haloColor = color
                style.haloWidth = width
                let one = try label("Helsinki Ümpäri", style, scale: scale, onePass: true)
                let eight = try label("Helsinki Ümpäri", style, scale: scale, onePass: false)
                XCTAssertEqual(one.w, eight.w)
                XCTAssertEqual(one.h, eight.h)
                let largest = zip(one.bytes, eight.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(largest, 4, "halo \(width) px \(color) at scale \(scale)")
                // The halo is drawn: many more pixels covered than by the text alone.
                var bare = style
                bare.haloWidth = 0
                let text = try label("Helsinki Ümpäri", bare, scale: scale, onePass: true)
                let covered = { (b: [UInt8]) in stride(from: 3, to: b.count, by: 4).count { b[$0] > 0 } }
                XCTAssertGreaterThan(covered(one.bytes), covered(text.bytes) * 3 / 2, "halo \(width) px at scale \(scale)")
            }
        }
    }
}
