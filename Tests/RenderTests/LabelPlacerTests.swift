import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Symbols straight from a test tile's `labels` layer: each feature's `text`, `layer` (its
/// index), `sort`, `line` (text along the line) and `overlap` (allow overlap) properties.
struct TestSymbols: SymbolSource {
    var size = 16.0
    var maxAngle = 45.0
    func symbols(in tile: VectorTile, zoom: Double) -> [SymbolFeature] {
        guard let layer = tile.layer(named: "labels") else { return [] }
        return layer.features.enumerated().compactMap { i, f in
            guard case .string(let text)? = f.properties["text"], let part = f.parts.first, let first = part.first else { return nil }
            var style = TextStyle()
            style.size = size
            style.maxAngle = maxAngle
            style.haloColor = .white
            style.haloWidth = 1
            if case .int(1)? = f.properties["overlap"] { style.allowOverlap = true }
            let index: Int
            if case .int(let l)? = f.properties["layer"] { index = Int(l) } else { index = 0 }
            var sort: Double?
            if case .int(let k)? = f.properties["sort"] { sort = Double(k) }
            let line = f.type == .lineString
            return SymbolFeature(layerID: "layer\(index)", layerIndex: index, text: text, textStyle: style,
                                 placement: line ? .line : .point, spacing: 250, sortKey: sort, featureIndex: i,
                                 geometry: line ? .line(part) : .point(first), extent: layer.extent)
        }
    }
}

final class LabelPlacerTests: XCTestCase {
    static func point(_ x: Int32, _ y: Int32, _ text: String, layer: Int64 = 0, sort: Int64? = nil, overlap: Bool = false) -> VectorFeature {
        var props: [String: PropertyValue] = ["text": .string(text), "layer": .int(layer)]
        if let sort { props["sort"] = .int(sort) }
        if overlap { props["overlap"] = .int(1) }
        return VectorFeature(type: .point, parts: [[TilePoint(x: x, y: y)]], properties: props)
    }

    static func line(_ pts: [(Double, Double)], _ text: String) -> VectorFeature {
        VectorFeature(type: .lineString, parts: [pts.map { TilePoint(x: Int32($0.0.rounded()), y: Int32($0.1.rounded())) }],
                      properties: ["text": .string(text)])
    }

    static func labelTile(_ features: [VectorFeature]) -> VectorTile {
        VectorTile(layers: [Fixture.layer("land", [Fixture.rect(-100, -100, 4196, 4196)]), Fixture.layer("labels", features)])
    }

    /// A renderer over `tiles` (one tile: every address) with `TestSymbols`.
    func renderer(_ source: FixtureSource, symbols: TestSymbols = TestSymbols()) -> MapRenderer {
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [source], symbols: symbols), scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        return r
    }

    static func camera(zoom: Double, size: ViewSize) -> MapCamera {
        var c = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: zoom, size: size)
        c.center = WorldPoint(x: 136, y: 136)
        return c
    }

    /// A 512x512 view whose centre is the middle of tile 4/8/8 (world 136, 136).
    let camera = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 512, height: 512))

    @discardableResult
    func frame(_ r: MapRenderer, _ camera: MapCamera, moving: Bool = false, sync: Bool = true) throws -> RasterImage {
        try Self.frame(r, camera, moving: moving, sync: sync)
    }

    /// The frame `r` draws for `camera` (synchronously, every tile drawn, unless `sync` is false).
    @discardableResult
    static func frame(_ r: MapRenderer, _ camera: MapCamera, moving: Bool = false, sync: Bool = true) throws -> RasterImage {
        let image = try XCTUnwrap(RasterImage(width: Int(camera.size.width), height: Int(camera.size.height)))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        if sync { r.drawSynchronously(camera, into: cr) } else { r.draw(camera, into: cr, moving: moving) }
        return image
    }

    func testANameOnATileEdgeIsPlacedOnceAndDrawnWholeAcrossTheEdge() throws {
        // The same point seen from both tiles: at x = 4095 in 4/8/8 and in the buffer (x = -1) of 4/9/8.
        let west = Self.labelTile([Self.point(4095, 2048, "Edgeton")])
        let east = Self.labelTile([Self.point(-1, 2048, "Edgeton")])
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): west, TileID(z: 4, x: 9, y: 8): east]))
        let image = try frame(r, camera)
        let labels = r.labels(for: camera)
        XCTAssertEqual(labels.map(\.text), ["Edgeton"])
        // The tile edge is at view x 384: the text's ink reaches both sides of it.
        let box = try XCTUnwrap(labels.first).box
        XCTAssertLessThan(box.x, 370)
        XCTAssertGreaterThan(box.x + box.width, 398)
        let dark = { (xs: Range<Int>) in xs.flatMap { x in (240..<272).map { (x, $0) } }.filter { p in
            (image.rgb(x: p.0, y: p.1) ?? 0xFFFFFF) & 0xFF < 0x80 }.count }
        XCTAssertGreaterThan(dark(350..<384), 10, "ink west of the tile edge")
        XCTAssertGreaterThan(dark(384..<420), 10, "ink east of the tile edge")
    }

    func testHigherLayersWinThenLowerSortKeysAndAllowOverlapPlacesBoth() throws {
        let tile = Self.labelTile([
            Self.point(1000, 2048, "Low", layer: 0),
            Self.point(1010, 2048, "High", layer: 3),
            Self.point(3000, 1000, "SortTwo", layer: 1, sort: 2),
            Self.point(3000, 1010, "SortOne", layer: 1, sort: 1),
            Self.point(2000, 3500, "Under", layer: 5),
            Self.point(2000, 3510, "Over", layer: 0, overlap: true),
        ])
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): tile]))
        try frame(r, camera)
        let texts = Set(r.labels(for: camera).map(\.text))
        XCTAssertEqual(texts, ["High", "SortOne", "Under", "Over"])
    }

    func testNoTwoCollisionBoxesOverlapAndEveryLabelIsInsideTheView() throws {
        var features: [VectorFeature] = []
        for i in 0..<400 {
            features.append(Self.point(Int32((i * 977) % 4096), Int32((i * 613) % 4096), "Place \(i)", layer: Int64(i % 3)))
        }
        let r = renderer(FixtureSource(every: Self.labelTile(features)))
        try frame(r, camera)
        let labels = r.labels(for: camera)
        XCTAssertGreaterThan(labels.count, 20)
        XCTAssertLessThan(labels.count, 400, "some candidates collide")
        assertNoOverlaps(labels, in: camera.size)
    }

    /// Labels at full opacity are blitted straight into an image frame's pixels (pixman, no cairo
    /// call per label): the frame must come out byte for byte as cairo drew it, in an opaque
    /// and a transparent frame, settled and while panning, drawn away from the frame's corner,
    /// with a clip cutting through labels, and with a clip of two rectangles (drawn by cairo).
    func testLabelsBlittedStraightIntoTheFrameAreTheSamePixelsAsCairoDrewThem() throws {
        var features: [VectorFeature] = []
        for i in 0..<200 {
            features.append(Self.point(Int32((i * 977) % 4096), Int32((i * 613) % 4096), "Place \(i)", layer: Int64(i % 3)))
        }
        for i in 0..<12 {
            let y = Double(150 + i * 330)
            features.append(Self.line((0...20).map { (Double($0) * 205, y + 120 * sin(Double($0) * 0.7)) }, "Winding Road \(i)"))
        }
        let source = FixtureSource(every: Self.labelTile(features))
        func make(direct: Bool) -> MapRenderer {
            var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [source], symbols: TestSymbols()), scale: 1),
                                labelsStraightIntoPixels: direct)
            r.showsScaleBar = false
            r.showsAttribution = false
            return r
        }
        let direct = make(direct: true), cairo = make(direct: false)
        var unlabelled = make(direct: false)
        unlabelled.showsLabels = false
        /// A 600x560 frame with the 512x512 view drawn 37 px right and 23 down, under `clip`.
        func pixels(_ r: MapRenderer, opaque: Bool, clip: [(Double, Double, Double, Double)], pan: Bool, bearing: Double = 0) throws -> [UInt8] {
            var camera = camera
            camera.bearing = bearing
            let image = try XCTUnwrap(RasterImage(width: 600, height: 560, opaque: opaque))
            let cr = try XCTUnwrap(cairo_create(image.surface))
            defer { cairo_destroy(cr) }
            cairo_set_source_rgba(cr, 0.2, 0.4, 0.6, 0.5)
            cairo_paint(cr)
            for c in clip { cairo_rectangle(cr, c.0, c.1, c.2, c.3) }
            if !clip.isEmpty { cairo_clip(cr) }
            let origin = ScreenPoint(x: 37, y: 23)
            r.drawSynchronously(camera, into: cr, at: origin)
            if pan {
                // The settled frame drew its edge tiles only where they are on screen; the pan
                // wants them whole, which the workers finish at their own pace: drawn now, both
                // renderers pan over the same tiles (else one of them, now and then, met a tile
                // landed mid-pan that the other drew as its stand-in, and 87386 bytes differed).
                var margin = camera
                margin.size = ViewSize(width: camera.size.width + 32, height: camera.size.height + 32)
                _ = r.cache.renderNow(r.tiles(for: margin))
                var moved = camera
                for step in [3.0, 3, -2] {
                    moved.pan(by: ScreenPoint(x: step, y: step / 2))
                    r.draw(moved, into: cr, at: origin, moving: true)
                }
            }
            cairo_surface_flush(image.surface)
            let data = try XCTUnwrap(cairo_image_surface_get_data(image.surface))
            return Array(UnsafeBufferPointer(start: data, count: Int(cairo_image_surface_get_stride(image.surface)) * 560))
        }
        let cases: [(opaque: Bool, clip: [(Double, Double, Double, Double)], pan: Bool)] = [
            (true, [], false), (false, [], true), (true, [(100, 90, 301, 257)], true), (false, [(100, 90, 301, 257)], false),
            (true, [(60, 40, 200, 150), (300, 260, 180, 200)], false),
        ]
        for (opaque, clip, pan) in cases {
            let a = try pixels(direct, opaque: opaque, clip: clip, pan: pan), b = try pixels(cairo, opaque: opaque, clip: clip, pan: pan)
            XCTAssertGreaterThan(direct.labels(for: camera).count, 50)
            let bare = try pixels(unlabelled, opaque: opaque, clip: clip, pan: pan)
            let labelled = zip(b, bare).filter { $0 != $1 }.count
            XCTAssertGreaterThan(labelled, 2000, "the labels drew something (opaque \(opaque), clip \(clip), pan \(pan))")
            let differing = zip(a, b).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "bytes differing from cairo's: opaque \(opaque), clip \(clip), pan \(pan)")
        }
        // On a turned map (labels level on screen over the turned tiles), settled and panning.
        for pan in [false, true] {
            let a = try pixels(direct, opaque: true, clip: [], pan: pan, bearing: 37)
            let b = try pixels(cairo, opaque: true, clip: [], pan: pan, bearing: 37)
            XCTAssertGreaterThan(zip(b, try pixels(unlabelled, opaque: true, clip: [], pan: pan, bearing: 37)).filter { $0 != $1 }.count, 2000)
            XCTAssertEqual(zip(a, b).filter { $0 != $1 }.count, 0, "bytes differing from cairo's at bearing 37, pan \(pan)")
        }
    }

    func testAStreetNameFollowsItsCurveGlyphByGlyphAndReadsUpright() throws {
        // A gentle arc across the tile, drawn once west to east and once east to west.
        let arc = (0...40).map { i -> (Double, Double) in
            let t = Double(i) / 40 * Double.pi * 0.5 - Double.pi * 0.25
            return (2048 + 3000 * sin(t), 3400 - 3000 * cos(t) + 1400)
        }
        for points in [arc, arc.reversed()] {
            let tile = Self.labelTile([Self.line(points, "Curving Street Avenue")])
            let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): tile]))
            try frame(r, camera)
            let label = try XCTUnwrap(r.labels(for: camera).first { $0.text == "Curving Street Avenue" })
            XCTAssertEqual(label.glyphs.count, "Curving Street Avenue".count)
            // Each glyph's direction is the road's direction where it sits: the arc's tangent.
            let centre = (x: 128.0 + 2048.0 / 16, y: 128.0 + 4800.0 / 16)
            for g in label.glyphs {
                let radial = atan2(g.y - centre.y, g.x - centre.x)
                let tangent = (radial + Double.pi / 2) * 180 / Double.pi
                var d = abs(g.angle - tangent).truncatingRemainder(dividingBy: 360)
                d = min(d, 360 - d)
                XCTAssertLessThan(d, 6, "glyph at \(g.x),\(g.y): \(g.angle)° on a road heading \(tangent)°")
            }
            // Upright: left to right whichever way the line was digitised.
            XCTAssertLessThan(try XCTUnwrap(label.glyphs.first).x, try XCTUnwrap(label.glyphs.last).x)
            XCTAssertTrue(label.glyphs.allSatisfy { abs($0.angle) < 90 })
        }
    }

    func testTextIsNeverLongerThanItsLineNorBentPastTheMaxAngle() throws {
        let short = Self.line([(1000, 1000), (1300, 1000)], "A name much longer than its street")
        let zigzagPoints: [(Double, Double)] = (0...30).map { (i: Int) -> (Double, Double) in
            (Double(200 + i * 120), i % 2 == 0 ? 2500.0 : 2700.0)
        }
        let zigzag = Self.line(zigzagPoints, "Zigzag Road")
        let fine = Self.line([(200, 3500), (3900, 3500)], "Straight Road")
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile([short, zigzag, fine])]))
        try frame(r, camera)
        XCTAssertEqual(r.labels(for: camera).map { $0.text }, ["Straight Road"])
    }

    func testAStreetCutIntoPiecesShorterThanItsNameIsNamedAlongThePiecesJoined() throws {
        // Three ways of one street, each 75 px, end to start: the 190-px name fits only on all three.
        let pieces = [(300.0, 1500.0), (1500.0, 2700.0), (2700.0, 3900.0)]
        let joined = pieces.map { Self.line([($0.0, 1000), ($0.1, 1000)], "Joined Street Avenue") }
        // The same three a few units apart: three streets, each too short for the name.
        let apart = pieces.map { Self.line([($0.0 + 40, 3000), ($0.1 - 40, 3000)], "Parted Street Avenue") }
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile(joined + apart)]))
        try frame(r, camera)
        let labels = r.labels(for: camera)
        let named = try XCTUnwrap(labels.first { $0.text == "Joined Street Avenue" })
        XCTAssertEqual(labels.filter { $0.text == "Joined Street Avenue" }.count, 1)
        // Its glyphs run over the pieces' joints (tile x 1500 and 2700 are view x 221.75 and 296.75).
        XCTAssertLessThan(named.box.x, 221.75)
        XCTAssertGreaterThan(named.box.x + named.box.width, 296.75)
        XCTAssertFalse(labels.contains { $0.text == "Parted Street Avenue" })
    }

    func testAStreetCutByATileEdgeWithBothHalvesShorterThanItsNameIsNamedOnceAcrossTheEdge() throws {
        // One street from tile 4/8/8 into 4/9/8 (their edge is view x 384): each tile holds its
        // half and, in its buffer, the first 64 units of the other's.
        let name = "Edgeway Street"
        var style = TextStyle()
        style.size = TestSymbols().size
        let width = try XCTUnwrap(LabelFonts.shared.shape(name, style: style, wrap: false)).width
        XCTAssertGreaterThan(width, (4160 - 2600) / 16, "the name is longer than the west tile's piece")
        XCTAssertGreaterThan(width, (1500 + 64) / 16, "and than the east tile's")
        XCTAssertLessThan(width, (4096 - 2600 + 1500) / 16, "the street is longer than its name")
        let west = Self.labelTile([Self.line([(2600, 2048), (4160, 2048)], name)])
        // The east half digitised either way, and in pieces of its own.
        let easts = [
            Self.labelTile([Self.line([(-64, 2048), (1500, 2048)], name)]),
            Self.labelTile([Self.line([(1500, 2048), (-64, 2048)], name)]),
            Self.labelTile([Self.line([(-64, 2048), (700, 2048)], name), Self.line([(700, 2048), (1500, 2048)], name)]),
        ]
        for east in easts {
            let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): west, TileID(z: 4, x: 9, y: 8): east]))
            try frame(r, camera)
            let labels = r.labels(for: camera)
            let named = labels.filter { $0.text == name }
            XCTAssertEqual(named.count, 1, "named once")
            let box = try XCTUnwrap(named.first).box
            XCTAssertLessThan(box.x, 384, "its text starts in the west tile")
            XCTAssertGreaterThan(box.x + box.width, 384, "and ends in the east one")
            XCTAssertEqual(try XCTUnwrap(named.first).glyphs.count, name.count)
            assertNoOverlaps(labels, in: camera.size)
        }
    }

    func testALongRoadIsNamedEverySpacing() throws {
        let long = Self.line([(0, 2048), (4095, 2048)], "Long Road")
        let source = FixtureSource(every: Self.labelTile([long]))
        let r = renderer(source)
        let wide = Self.camera(zoom: 5, size: ViewSize(width: 1600, height: 400))
        try frame(r, wide)
        // Every tile row has the road across it; the row through the view's centre (y 200).
        let named = r.labels(for: wide).filter { $0.text == "Long Road" }
        let rows = Dictionary(grouping: named) { Int($0.anchor.y.rounded()) }
        let xs = (rows.values.max { $0.count < $1.count } ?? []).map(\.anchor.x).sorted()
        XCTAssertGreaterThanOrEqual(xs.count, 4)
        // About a spacing apart: never closer than half of it (the tile's layout drops closer
        // repeats, as MapLibre's does), never a gap of two.
        for (a, b) in zip(xs, xs.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, 125)
            XCTAssertLessThan(b - a, 500)
        }
        XCTAssertEqual(Set(named.map { $0.angle }), [0])
    }

    func testOnATurnedMapNamesStayUprightAndStreetNamesTurnWithTheirStreet() throws {
        let road = Self.line([(200, 2048), (3900, 2048)], "Straight Road")
        let tile = Self.labelTile([road, Self.point(2048, 1000, "Uprightville")])
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): tile]))
        var turned = camera
        turned.bearing = 30
        try frame(r, turned)
        let labels = r.labels(for: turned)
        let town = try XCTUnwrap(labels.first { $0.text == "Uprightville" })
        XCTAssertEqual(town.angle, 0, "a point label stays level")
        XCTAssertTrue(town.glyphs.isEmpty)
        // The east-west road turns 30° counter-clockwise on screen: its letters lie at -30°.
        let street = try XCTUnwrap(labels.first { $0.text == "Straight Road" })
        for g in street.glyphs { XCTAssertEqual(g.angle, -30, accuracy: 0.5) }
        // Its anchor lies on the road (world y 136, half way down tile 4/8/8) wherever the turn
        // puts it on screen.
        XCTAssertEqual(turned.worldPoint(at: street.anchor).y, 136, accuracy: 1e-6)
    }

    /// The darkest the middle of a 512x512 view gets (255 − its least blue channel), drawn
    /// with the fades' clock at `time`, or synchronously (no fades) when nil.
    func darkestMiddle(_ r: MapRenderer, _ c: MapCamera, at time: Double?) throws -> Int {
        let image = try XCTUnwrap(RasterImage(width: 512, height: 512))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        if let time { r.draw(c, into: cr, moving: false, time: time) } else { r.drawSynchronously(c, into: cr) }
        var darkest = 0
        for y in 200..<312 { for x in 150..<362 { darkest = max(darkest, 255 - Int((image.rgb(x: x, y: y) ?? 0xFFFFFF) & 0xFF)) } }
        return darkest
    }

    func testALabelThatAppearsFadesInOverThreeHundredMillisecondsAndThenNeedsNoFrames() throws {
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile([Self.point(2048, 2048, "Fadeton")])]))
        // The tiles are in (as once they landed live); the first placement with a clock starts the fade.
        _ = r.cache.renderNowWithLabels(r.tiles(for: camera))
        let blank = renderer(FixtureSource(every: Self.labelTile([])))
        // The text's ink: how much darker than the map without it.
        let ground = try darkestMiddle(blank, camera, at: nil)
        func ink(at time: Double) throws -> Int { try darkestMiddle(r, camera, at: time) - ground }
        XCTAssertEqual(r.labels(for: camera).map(\.text), [], "nothing placed before the first frame")
        let start = try ink(at: 1000)
        XCTAssertEqual(r.labels(for: camera).map(\.text), ["Fadeton"], "placed at once (the dump names it)")
        XCTAssertLessThan(start, 10, "not drawn yet at the fade's start")
        XCTAssertTrue(r.labelsFading)
        let half = try ink(at: 1150)
        XCTAssertTrue(r.labelsFading)
        let full = try ink(at: 1300)
        XCTAssertGreaterThan(full, 150, "the text's ink once faded in")
        XCTAssertEqual(Double(half), Double(full) / 2, accuracy: Double(full) * 0.2, "half way at 150 ms")
        XCTAssertFalse(r.labelsFading, "done: a still map asks for no more frames")
        XCTAssertEqual(try ink(at: 5000), full)
        XCTAssertFalse(r.labelsFading)
        // Without a clock (screenshots, headless runs) labels show at once.
        let still = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile([Self.point(2048, 2048, "Fadeton")])]))
        try frame(still, camera)
        XCTAssertFalse(still.labelsFading)
    }

    func testALabelThatGoesFadesOutFromWhereItWas() throws {
        // "Goner" is in 4/8/8 only: at zoom 5 the placement has nothing, and it fades out.
        let r = renderer(FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile([Self.point(2048, 2048, "Goner")])]))
        var closer = camera
        closer.zoom = 5
        _ = r.cache.renderNowWithLabels(r.tiles(for: camera))
        _ = r.cache.renderNowWithLabels(r.tiles(for: closer))
        let blank = renderer(FixtureSource(every: Self.labelTile([])))
        let ground = try darkestMiddle(blank, closer, at: nil)
        _ = try darkestMiddle(r, camera, at: 0)
        let shown = try darkestMiddle(r, camera, at: 400) - ground
        XCTAssertGreaterThan(shown, 150)
        XCTAssertFalse(r.labelsFading)
        let start = try darkestMiddle(r, closer, at: 1000) - ground
        XCTAssertEqual(r.labels(for: closer).map(\.text), [], "gone from the placement (and the dump) at once")
        XCTAssertEqual(Double(start), Double(shown), accuracy: 10, "still drawn as it was")
        XCTAssertTrue(r.labelsFading)
        let half = try darkestMiddle(r, closer, at: 1150) - ground
        XCTAssertEqual(Double(half), Double(shown) / 2, accuracy: Double(shown) * 0.2)
        let end = try darkestMiddle(r, closer, at: 1300) - ground
        XCTAssertLessThan(end, 10)
        XCTAssertFalse(r.labelsFading)
    }

    func testAPanOfAFewPixelsMovesEveryLabelByExactlyThePan() throws {
        var features: [VectorFeature] = []
        for i in 0..<200 { features.append(Self.point(Int32((i * 977) % 4096), Int32((i * 613) % 4096), "Town \(i)")) }
        let r = renderer(FixtureSource(every: Self.labelTile(features)))
        try frame(r, camera)
        let before = r.labels(for: camera)
        var panned = camera
        panned.pan(by: ScreenPoint(x: 3, y: -2))
        try frame(r, panned)
        let after = r.labels(for: panned)
        let shift = camera.screenPoint(ofWorld: panned.center)
        XCTAssertEqual(shift.x - camera.size.width / 2, -3, accuracy: 1e-9)
        // Every label still wholly inside the view is still there, moved by the pan; none swapped in.
        let kept = before.filter { $0.box.x + 3 >= 0 && $0.box.x + $0.box.width + 3 <= 512 && $0.box.y - 2 >= 0 && $0.box.y + $0.box.height - 2 <= 512 }
        XCTAssertGreaterThan(kept.count, 10)
        for l in kept {
            // Each tile has its own "Town i": the one that moved with the pan.
            let m = try XCTUnwrap(after.filter { $0.text == l.text }.min {
                hypot($0.anchor.x - l.anchor.x - 3, $0.anchor.y - l.anchor.y + 2) < hypot($1.anchor.x - l.anchor.x - 3, $1.anchor.y - l.anchor.y + 2)
            }, "\(l.text) stays")
            XCTAssertEqual(m.anchor.x, l.anchor.x + 3, accuracy: 1e-6)
            XCTAssertEqual(m.anchor.y, l.anchor.y - 2, accuracy: 1e-6)
        }
        func key(_ l: MapLabel, dx: Double = 0, dy: Double = 0) -> String {
            "\(l.text)@\(Int((l.anchor.x + dx).rounded())),\(Int((l.anchor.y + dy).rounded()))"
        }
        let keptKeys = Set(kept.map { key($0, dx: 3, dy: -2) }), beforeKeys = Set(before.map { key($0, dx: 3, dy: -2) })
        for l in after where !beforeKeys.contains(key(l)) {
            // A newcomer can only be one that was not inside the view before.
            XCTAssertTrue(l.box.x - 3 < 0 || l.box.x + l.box.width - 3 > 512 || l.box.y + 2 < 0 || l.box.y + l.box.height + 2 > 512, l.text)
        }
        XCTAssertTrue(keptKeys.isSubset(of: Set(after.map { key($0) })))
    }

    func testDuringAPinchLabelsHoldTheirSizeAndArePlacedAgainOnceTheZoomSettles() throws {
        var features: [VectorFeature] = []
        for i in 0..<60 { features.append(Self.point(Int32((i * 977) % 4096), Int32((i * 613) % 4096), "Town \(i)")) }
        let r = renderer(FixtureSource(every: Self.labelTile(features)))
        try frame(r, camera)
        let before = r.labels(for: camera)
        XCTAssertFalse(before.isEmpty)
        var pinched = camera
        pinched.zoom = 4.3
        // Where each label shown before is on the pinched map: its anchor scaled with the map,
        // its box (held at its size) moved with the anchor; the ones still wholly in the view.
        func moved(_ l: MapLabel) -> MapLabel {
            var m = l
            m.anchor = pinched.screenPoint(ofWorld: camera.worldPoint(at: l.anchor))
            m.box.x += m.anchor.x - l.anchor.x
            m.box.y += m.anchor.y - l.anchor.y
            return m
        }
        func inView(_ l: MapLabel) -> Bool {
            let b = l.box
            return b.x >= 0 && b.y >= 0 && b.x + b.width <= 512 && b.y + b.height <= 512
        }
        let inside = before.map(moved).filter(inView)
        XCTAssertGreaterThan(inside.count, before.count / 2)
        /// The label of `labels` that is `l` (same text, at its anchor), if any.
        func same(_ l: MapLabel, in labels: [MapLabel]) -> MapLabel? {
            labels.first { $0.text == l.text && hypot($0.anchor.x - l.anchor.x, $0.anchor.y - l.anchor.y) < 1e-6 }
        }
        try frame(r, pinched, moving: true, sync: false)
        let during = r.labels(for: pinched)
        // The labels shown before, each at its anchor scaled with the map and at its old size;
        // none missing that is still in the view (no flash of an empty map), none new.
        for l in during {
            let m = try XCTUnwrap(same(l, in: before.map(moved)), "\(l.text) at \(l.anchor) was shown before, there")
            XCTAssertEqual(m.box.width, l.box.width, accuracy: 1e-9, "held size")
            XCTAssertEqual(m.box.x, l.box.x, accuracy: 1e-6)
            XCTAssertEqual(m.box.y, l.box.y, accuracy: 1e-6)
        }
        for l in inside { XCTAssertNotNil(same(l, in: during), "\(l.text) stays on screen during the pinch") }
        // Settled: placed again for the new zoom. Zooming in only spreads the old labels apart,
        // so every one still wholly in the view fits and is kept, where the map took it.
        try frame(r, pinched)
        let settled = r.labels(for: pinched)
        assertNoOverlaps(settled, in: pinched.size)
        for l in inside { XCTAssertNotNil(same(l, in: settled), "\(l.text) kept where it still fits") }
        XCTAssertGreaterThanOrEqual(settled.count, before.count)
    }

    /// After a zoom in, a label that was shown and still fits keeps its place over one that
    /// the zoom let fit only now, though that one ranks higher.
    func testAfterAPinchALabelShownBeforeKeepsItsPlaceOverOneThatFitsOnlyNow() throws {
        func source(_ features: [VectorFeature]) -> FixtureSource {
            FixtureSource(every: Self.labelTile([]), tiles: [TileID(z: 4, x: 8, y: 8): Self.labelTile(features)])
        }
        let probe = renderer(source([Self.point(2048, 2048, "Kay")]))
        try frame(probe, camera)
        let h = try XCTUnwrap(probe.labels(for: camera).first?.collisionBoxes.first).height
        // Kay (top layer) in the view's middle; Jay (next) 0.87 H below, overlapping it; Eye
        // (lowest) 1.47 H below: clear of Kay, 0.6 H from Jay. Zoomed in by 2^0.3 (1.23), Jay
        // clears Kay but still overlaps Eye.
        func below(_ f: Double) -> Int32 { Int32(2048 + (f * h * 16).rounded()) }
        let features = [Self.point(2048, 2048, "Kay", layer: 3), Self.point(2048, below(0.87), "Jay", layer: 2),
                        Self.point(2048, below(1.47), "Eye", layer: 1)]
        let r = renderer(source(features))
        try frame(r, camera)
        XCTAssertEqual(Set(r.labels(for: camera).map(\.text)), ["Kay", "Eye"])
        var pinched = camera
        pinched.zoom = 4.3
        try frame(r, pinched, moving: true, sync: false)
        XCTAssertEqual(Set(r.labels(for: pinched).map(\.text)), ["Kay", "Eye"], "held during the pinch")
        try frame(r, pinched)
        XCTAssertEqual(Set(r.labels(for: pinched).map(\.text)), ["Kay", "Eye"], "Eye kept where it still fits")
        // The same view placed afresh shows Jay: what keeps Eye is having been shown.
        let fresh = renderer(source(features))
        try frame(fresh, pinched)
        XCTAssertEqual(Set(fresh.labels(for: pinched).map(\.text)), ["Kay", "Jay"])
    }

    func testAMissingGlyphKeepsTheLayoutAndLongNamesWrap() throws {
        var style = TextStyle()
        style.size = 16
        let mixed = try XCTUnwrap(LabelFonts.shared.shape("Ab\u{10FFFD}cd 東京", style: style, wrap: false))
        XCTAssertEqual(mixed.glyphs.count, 8)
        for (a, b) in zip(mixed.glyphs, mixed.glyphs.dropFirst()) { XCTAssertGreaterThan(b.x, a.x, "advancing") }
        XCTAssertGreaterThan(mixed.width, 40)
        style.maxWidth = 6
        let long = try XCTUnwrap(LabelFonts.shared.shape("Suomalaisen kirjallisuuden seura ja kirjasto", style: style, wrap: true))
        let lines = Set(long.glyphs.map(\.y)).count
        XCTAssertGreaterThanOrEqual(lines, 3)
        XCTAssertLessThanOrEqual(long.width, 6 * 16 + 40, "wrapped near the max width (a long word may stick out)")
    }

    func testEveryScriptAnInstalledFontHasIsDrawnAndTheWidthsStillAddUp() throws {
        // DejaVu Sans has Latin, Cyrillic and Greek; the Chinese comes from the next font
        // fontconfig lists that has it (scripts/install-deps.sh installs WenQuanYi Micro Hei).
        var style = TextStyle()
        style.size = 20
        let latin = "Helsinki Москва Αθήνα ", chinese = "東京"
        let text = latin + chinese
        let mixed = try XCTUnwrap(LabelFonts.shared.shape(text, style: style, wrap: false))
        let a = try XCTUnwrap(LabelFonts.shared.shape(latin, style: style, wrap: false))
        let b = try XCTUnwrap(LabelFonts.shared.shape(chinese, style: style, wrap: false))
        XCTAssertEqual(mixed.glyphs.count, text.unicodeScalars.count)
        // Shaping the whole is shaping its parts one after the other (the first ends in its space).
        XCTAssertEqual(mixed.width, a.width + b.width, accuracy: 0.5)
        for (g, h) in zip(mixed.glyphs, mixed.glyphs.dropFirst()) { XCTAssertEqual(h.x, g.x + g.advance, accuracy: 0.01) }

        // Drawn: every glyph's column of the label's image has ink, and the two Chinese
        // characters are two different shapes (two missing-glyph boxes would be the same).
        let (placed, image) = try Self.pointLabel(text, style: style, shaped: mixed)
        let surface = image.surface
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface)), height = Int(cairo_image_surface_get_height(surface))
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        func column(_ g: PlacedLabel.Glyph, advance: Double) -> [UInt8] {
            var out: [UInt8] = []
            let x0 = Int((g.x - image.dx).rounded()), x1 = Int((g.x + advance - image.dx).rounded())
            for y in 0..<height {
                for x in max(x0, 0)..<max(x1, x0) { out.append(data[y * stride + 4 * x + 3]) }
            }
            return out
        }
        var inks: [[UInt8]] = []
        for ((g, s), c) in zip(zip(placed.glyphs, mixed.glyphs), text.unicodeScalars) where !c.properties.isWhitespace {
            let ink = column(g, advance: s.advance)
            XCTAssertTrue(ink.contains { $0 > 128 }, "glyph at \(g.x) has ink")
            inks.append(ink)
        }
        let last = Array(inks.suffix(2))
        XCTAssertTrue(last.first != last.last, "東 and 京 are drawn as themselves, not as two missing-glyph boxes")
    }

    /// `shaped` laid out as a point label at the test camera's centre, and drawn at scale 1.
    static func pointLabel(_ text: String, style: TextStyle, shaped: ShapedText) throws -> (PlacedLabel, LabelLayer.LabelImage) {
        let candidate = LabelCandidate(layerID: "t", text: text, style: style, shaped: shaped, placement: .point, spacing: 250,
                                       anchor: WorldPoint(x: 136, y: 136),
                                       priority: LabelPriority(layerIndex: 0, sortKey: 0, featureIndex: 0, x: 0, y: 0), identity: 1)
        let placed = try XCTUnwrap(LabelPlacer(camera: camera(zoom: 4, size: ViewSize(width: 512, height: 512))).layout(candidate))
        return (placed, try XCTUnwrap(LabelLayer.render(placed, scale: 1)))
    }

    // MARK: shipped data

    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data")

    /// The shipped world and Helsinki files with their shipped styles, no scale bar or credit.
    static func shippedRenderer() throws -> MapRenderer {
        let sources: [any VectorTileSource] = try ["world.mbtiles", "helsinki.mbtiles"].map {
            try MBTilesSource(path: Self.dataDirectory.appendingPathComponent($0).path)
        }
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        return r
    }

    func testOverHelsinkiEveryZoomHasStreetsPlacesAndNoOverlaps() throws {
        let r = try Self.shippedRenderer()
        // Where the data puts the city's name (the style's `place-city`, OpenMapTiles `place`).
        let overview = MapCamera(center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 13, size: ViewSize(width: 1024, height: 768))
        try frame(r, overview)
        let name = try XCTUnwrap(r.labels(for: overview).first { $0.text == "Helsinki" && $0.layer == "place-city" })
        let city = overview.coordinate(at: name.anchor)
        for zoom in [5.0, 9, 13, 15, 16, 17, 18] {
            let cam = MapCamera(center: city, zoom: zoom, size: ViewSize(width: 1024, height: 768))
            try frame(r, cam)
            let labels = r.labels(for: cam)
            XCTAssertTrue(labels.contains { $0.text == "Helsinki" }, "Helsinki is named at z\(zoom)")
            if zoom >= 15 { XCTAssertGreaterThan(labels.filter { $0.layer == "street-name" }.count, 2, "street names at z\(zoom)") }
            if zoom >= 17 { XCTAssertTrue(labels.contains { $0.layer == "housenumber" }, "house numbers at z\(zoom)") }
            assertNoOverlaps(labels, in: cam.size)
        }
    }

    func assertNoOverlaps(_ labels: [MapLabel], in size: ViewSize, file: StaticString = #filePath, line: UInt = #line) {
        for l in labels {
            XCTAssertTrue(l.box.x >= 0 && l.box.y >= 0 && l.box.x + l.box.width <= size.width && l.box.y + l.box.height <= size.height,
                          "\(l.text) inside the view: \(l.box)", file: file, line: line)
        }
        var boxes: [(String, (x: Double, y: Double, width: Double, height: Double))] = []
        for l in labels { for b in l.collisionBoxes { boxes.append((l.text, b)) } }
        var owner: [Int] = []
        for (i, l) in labels.enumerated() { owner += Array(repeating: i, count: l.collisionBoxes.count) }
        for i in boxes.indices {
            for j in boxes.indices where j > i && owner[i] != owner[j] {
                let a = boxes[i].1, b = boxes[j].1
                let overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
                XCTAssertFalse(overlap, "\(boxes[i].0) and \(boxes[j].0) overlap", file: file, line: line)
                if overlap { return }
            }
        }
    }
}
