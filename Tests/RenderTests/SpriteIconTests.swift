import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Icons from a style's sprite: drawn by the screen-wide placer at their anchors, colliding
/// like text, and left out (with a note) when the sprite does not exist.
final class SpriteIconTests: XCTestCase {
    /// The shipped sprite (data/styles/sprite/meridian.{json,png}).
    static let spriteBase = ShippedDataTests.dataDirectory.appendingPathComponent("styles/sprite/meridian").path

    /// A style over one `pois` layer: icon from `icon`, text from `name`, with `layout` added.
    static func style(sprite: String? = SpriteIconTests.spriteBase, layout: String = "") throws -> Style {
        let spriteMember = sprite.map { "\"sprite\": \"file://\($0)\"," } ?? ""
        let json = """
        {"version": 8, \(spriteMember)
         "sources": {"s": {"type": "vector"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
          {"id": "poi", "type": "symbol", "source": "s", "source-layer": "pois",
           "layout": {"icon-image": "{icon}", "text-field": "{name}", "text-size": 12\(layout.isEmpty ? "" : ", " + layout)},
           "paint": {"text-color": "#000000"}}]}
        """
        return try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
    }

    static func poi(_ x: Int32, _ y: Int32, icon: String, name: String = "") -> VectorFeature {
        var props: [String: PropertyValue] = ["icon": .string(icon)]
        if !name.isEmpty { props["name"] = .string(name) }
        return VectorFeature(type: .point, parts: [[TilePoint(x: x, y: y)]], properties: props)
    }

    /// A renderer showing `features` in tile 4/8/8 (every other tile empty).
    func renderer(_ features: [VectorFeature], style: Style, scale: Double = 1) -> MapRenderer {
        let empty = VectorTile(layers: [])
        let tile = VectorTile(layers: [Fixture.layer("pois", features)])
        let source = FixtureSource(every: empty, tiles: [TileID(z: 4, x: 8, y: 8): tile])
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [StyledSource(id: "s", source: source)], style: style),
                                             scale: scale))
        r.showsScaleBar = false
        r.showsAttribution = false
        return r
    }

    let camera = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 512, height: 512))

    func frame(_ r: MapRenderer, scale: Double = 1) throws -> RasterImage {
        let w = Int(camera.size.width * scale), h = Int(camera.size.height * scale)
        let image = try XCTUnwrap(RasterImage(width: w, height: h))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        if scale != 1 { cairo_scale(cr, scale, scale) }
        r.drawSynchronously(camera, into: cr)
        return image
    }

    /// The shipped sprite's colours, as its recipe (scripts/data/make-sprite.py) paints them.
    static let hospitalRed: UInt32 = 0xD03A3A
    static let parkGreen: UInt32 = 0x3F8F3A

    func near(_ a: UInt32?, _ b: UInt32, by d: Int = 24) -> Bool {
        guard let a else { return false }
        return [16, 8, 0].allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= d }
    }

    func testAnIconIsDrawnAtItsAnchorWithItsTextBelowAndReportedInTheLabels() throws {
        // Tile 4/8/8 spans view px 128…384: tile (2048, 2048) is the view's centre.
        let style = try Self.style(layout: "\"text-anchor\": \"top\", \"text-offset\": [0, 1]")
        XCTAssertFalse(style.notes.contains { $0.contains("sprite") }, "\(style.notes)")
        let r = renderer([Self.poi(2048, 2048, icon: "hospital", name: "Clinic")], style: style)
        let image = try frame(r)
        if let out = ProcessInfo.processInfo.environment["MERIDIAN_ICON_PNG"] { cairo_surface_write_to_png(image.surface, out) }
        let label = try XCTUnwrap(r.labels(for: camera).first)
        XCTAssertEqual(label.text, "Clinic")
        let icon = try XCTUnwrap(label.icon)
        XCTAssertEqual(icon.image, "hospital")
        // The 17 px icon centred on the anchor (256, 256); its padding of 2 around it.
        XCTAssertEqual(label.anchor.x, 256, accuracy: 0.01)
        XCTAssertEqual(icon.box.x, 256 - 8.5, accuracy: 0.01)
        XCTAssertEqual(icon.box.width, 17, accuracy: 0.01)
        XCTAssertEqual(icon.collisionBox.width, 21, accuracy: 0.01)
        XCTAssertTrue(label.collisionBoxes.contains { $0 == icon.collisionBox }, "the icon keeps others out")
        // The text hangs below the icon (its top one em under the anchor).
        XCTAssertGreaterThan(label.box.y, icon.box.y + 8)
        // The red disc is drawn around the anchor (its white cross in the middle: look off-centre).
        // (The image is copied to whole device px, so its centre may be half a pixel off the anchor.)
        XCTAssertTrue(near(image.rgb(x: 252, y: 252), Self.hospitalRed), String(format: "%06X", image.rgb(x: 252, y: 252) ?? 0))
        XCTAssertTrue(near(image.rgb(x: 256, y: 256), 0xFFFFFF), "the cross")
        // Nothing red far from it.
        XCTAssertTrue(near(image.rgb(x: 230, y: 230), 0xFFFFFF))
    }

    func testIconsCollideUnlessAllowedToOverlapAndAnOptionalTextGivesWayAlone() throws {
        // Two icons 5 px apart (80 tile units = 5 view px at this zoom): one place.
        let pair = [Self.poi(2048, 2048, icon: "park"), Self.poi(2128, 2048, icon: "hospital")]
        let plain = renderer(pair, style: try Self.style())
        _ = try frame(plain)
        XCTAssertEqual(plain.labels(for: camera).count, 1)
        let overlap = renderer(pair, style: try Self.style(layout: "\"icon-allow-overlap\": true"))
        _ = try frame(overlap)
        XCTAssertEqual(overlap.labels(for: camera).compactMap(\.icon?.image).sorted(), ["hospital", "park"])

        // An icon with long text next to another icon: with text-optional the second keeps its
        // icon and drops the text; without, it is left out whole.
        let crowd = [Self.poi(2048, 2048, icon: "park", name: "Green"), Self.poi(2048 + 600, 2048, icon: "hospital", name: "A long hospital name")]
        let required = renderer(crowd, style: try Self.style())
        _ = try frame(required)
        XCTAssertEqual(required.labels(for: camera).map(\.text), ["Green"])
        let optional = renderer(crowd, style: try Self.style(layout: "\"text-optional\": true"))
        let image = try frame(optional)
        let labels = optional.labels(for: camera)
        XCTAssertEqual(labels.map(\.text), ["Green", "A long hospital name"])
        XCTAssertEqual(labels.compactMap(\.icon?.image), ["park", "hospital"])
        XCTAssertEqual(labels.map { $0.icon?.alone }, [false, true], "the hospital's text gave way")
        XCTAssertEqual(labels.last?.box.width ?? 0, 17, accuracy: 0.01, "its box is the icon's")
        let red = try XCTUnwrap(labels.last?.icon).box
        XCTAssertTrue(near(image.rgb(x: Int(red.x + 5), y: Int(red.y + 5)), Self.hospitalRed), "the lone icon is drawn")
        assertNoOverlaps(labels)
    }

    func testSizeAnchorOffsetRotateAndOpacityMoveAndScaleTheIcon() throws {
        let style = try Self.style(layout: "\"icon-size\": 2, \"icon-anchor\": \"bottom\", \"icon-offset\": [3, 0], \"icon-rotate\": 90")
        let r = renderer([Self.poi(2048, 2048, icon: "park")], style: style)
        _ = try frame(r)
        let icon = try XCTUnwrap(r.labels(for: camera).first?.icon)
        // A 34 px square hung above the anchor (x -11…23 after the 6 px offset, y -34…0), turned
        // a quarter clockwise about the anchor: now right of it (x 0…34, y -11…23).
        XCTAssertEqual(icon.box.width, 34, accuracy: 0.01)
        XCTAssertEqual(icon.box.x, 256, accuracy: 0.01)
        XCTAssertEqual(icon.box.y, 256 - 11, accuracy: 0.01)
    }

    func testTheTwoTimesSheetIsUsedOnATwoTimesScreen() throws {
        let r = renderer([Self.poi(2048, 2048, icon: "park")], style: try Self.style(), scale: 2)
        let image = try frame(r, scale: 2)
        let icon = try XCTUnwrap(r.labels(for: camera).first?.icon)
        XCTAssertEqual(icon.box.width, 17, accuracy: 0.01, "logical px")
        // Green at the disc's rim, inside the white ring, on device px.
        XCTAssertTrue(near(image.rgb(x: 512 - 11, y: 512), Self.parkGreen), String(format: "%06X", image.rgb(x: 501, y: 512) ?? 0))
    }

    func testAMissingSpriteIsNotedAndTheTextStillShows() throws {
        let style = try Self.style(sprite: "/nonexistent/sprite")
        XCTAssertEqual(style.notes.filter { $0.contains("sprite") }.count, 1, "\(style.notes)")
        XCTAssertTrue(style.notes.contains { $0.contains("/nonexistent/sprite") && $0.contains("icons are left out") })
        let r = renderer([Self.poi(2048, 2048, icon: "park", name: "Park"), Self.poi(3000, 3000, icon: "park")], style: style)
        _ = try frame(r)
        let labels = r.labels(for: camera)
        XCTAssertEqual(labels.map(\.text), ["Park"], "text without its icon; an icon alone is left out")
        XCTAssertNil(labels.first?.icon)

        // A sprite that has the name missing: the text stays, without an icon.
        let known = renderer([Self.poi(2048, 2048, icon: "no-such-icon", name: "Park")], style: try Self.style())
        _ = try frame(known)
        XCTAssertEqual(known.labels(for: camera).map(\.text), ["Park"])
        XCTAssertNil(known.labels(for: camera).first?.icon)

        // A sprite index that is not JSON is reported, never a crash.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-sprite-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{ not json".utf8).write(to: dir.appendingPathComponent("bad.json"))
        try Data([0x89, 0x50]).write(to: dir.appendingPathComponent("bad.png"))
        let bad = try Self.style(sprite: dir.appendingPathComponent("bad").path)
        XCTAssertTrue(bad.notes.contains { $0.contains("bad.json") && $0.contains("not valid JSON") }, "\(bad.notes)")
    }

    func testTheShippedOpenMapTilesStyleDrawsPOIIconsInHelsinki() throws {
        let files = try ["world.mbtiles", "helsinki.mbtiles"].map {
            try MBTilesSource(path: ShippedDataTests.dataDirectory.appendingPathComponent($0).path) as any VectorTileSource
        }
        let auto = AutomaticStyle.make(for: files)
        XCTAssertFalse(auto.style.notes.contains { $0.contains("sprite") }, "\(auto.style.notes)")
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: auto.sources, style: auto.style), scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        let camera = MapCamera(center: Coordinate(latitude: 60.1685, longitude: 24.9415), zoom: 17, size: ViewSize(width: 800, height: 600))
        let image = try XCTUnwrap(RasterImage(width: 800, height: 600))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        r.drawSynchronously(camera, into: cr)
        cairo_destroy(cr)
        if let out = ProcessInfo.processInfo.environment["MERIDIAN_ICON_PNG"] { cairo_surface_write_to_png(image.surface, out) }
        let labels = r.labels(for: camera)
        let icons = labels.filter { $0.icon != nil }
        XCTAssertGreaterThan(icons.count, 3, "POIs with icons in central Helsinki")
        XCTAssertTrue(icons.allSatisfy { $0.layer == "poi" }, "\(Set(icons.map(\.layer)))")
        assertNoOverlaps(labels)
        // Each icon's disc is drawn: the pixel 3 px inside its top-left corner's diagonal is opaque colour, not map.
        for l in icons.prefix(5) {
            let b = try XCTUnwrap(l.icon).box
            let c = image.rgb(x: Int(b.x + b.width / 2), y: Int(b.y + 2.5)) ?? 0
            XCTAssertFalse(near(c, 0xF2EFE9, by: 6), String(format: "%@ at the icon's rim: %06X", l.text, c))
        }
    }

    /// A sprite of one distance-field image, "dot": 32 sheet px square, a disc of radius 8 about
    /// its centre in MapLibre's convention (alpha 0.75 on the edge, 1/8 less per px outwards),
    /// written into a fresh directory; returns the sprite's base path.
    static func distanceFieldSprite(_ dir: URL) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 32, 32))
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<32 {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<32 {
                let d = hypot(Double(x) + 0.5 - 16, Double(y) + 0.5 - 16) - 8
                let a = min(max(0.75 - d / 8, 0), 1)
                row[x] = UInt32((a * 255).rounded()) << 24   // black, premultiplied: only alpha
            }
        }
        cairo_surface_mark_dirty(surface)
        let base = dir.appendingPathComponent("sdf").path
        XCTAssertEqual(cairo_surface_write_to_png(surface, base + ".png"), CAIRO_STATUS_SUCCESS)
        try Data(#"{"dot": {"x": 0, "y": 0, "width": 32, "height": 32, "pixelRatio": 1, "sdf": true}}"#.utf8)
            .write(to: URL(fileURLWithPath: base + ".json"))
        return base
    }

    func testADistanceFieldIconIsTintedByIconColorWithItsHalo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-sdf-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try Self.distanceFieldSprite(dir)
        func style(_ paint: String, layout: String = "") throws -> Style {
            let json = """
            {"version": 8, "sprite": "\(base)", "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
              {"id": "poi", "type": "symbol", "source": "s", "source-layer": "pois",
               "layout": {"icon-image": "{icon}"\(layout)}, "paint": {\(paint)}}]}
            """
            let s = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
            XCTAssertEqual(s.notes, [], "icon-color and icon-halo-* are supported")
            return s
        }
        // Tinted by a data-driven colour; the disc of radius 8 about the anchor (256, 256).
        var red = Self.poi(2048, 2048, icon: "dot")
        red.properties["c"] = .string("#FF0000")
        let plain = try frame(renderer([red], style: try style(##""icon-color": ["get", "c"]"##)))
        if let out = ProcessInfo.processInfo.environment["MERIDIAN_ICON_PNG"] { cairo_surface_write_to_png(plain.surface, out) }
        XCTAssertEqual(plain.rgb(x: 256, y: 256), 0xFF0000, "icon-color, not black")
        XCTAssertEqual(plain.rgb(x: 256 + 6, y: 256), 0xFF0000)
        XCTAssertEqual(plain.rgb(x: 256 + 10, y: 256), 0xFFFFFF, "outside the disc")
        XCTAssertEqual(plain.rgb(x: 256, y: 256 - 10), 0xFFFFFF)
        // The edge is smooth: a pixel on it is between the two.
        let edge = try XCTUnwrap(plain.rgb(x: 256 + 8, y: 256))
        XCTAssertTrue(edge != 0xFF0000 && edge != 0xFFFFFF && edge >> 16 == 0xFF, String(format: "%06X", edge))

        // A 3 px halo in blue around it: blue from 8 to 11 px out, the disc still red.
        let haloed = try frame(renderer([Self.poi(2048, 2048, icon: "dot")],
                                        style: try style(##""icon-color": "#FF0000", "icon-halo-color": "#0000FF", "icon-halo-width": 3"##)))
        XCTAssertEqual(haloed.rgb(x: 256, y: 256), 0xFF0000)
        XCTAssertEqual(haloed.rgb(x: 256 + 9, y: 256), 0x0000FF, "the halo")
        XCTAssertEqual(haloed.rgb(x: 256, y: 256 + 9), 0x0000FF)
        XCTAssertEqual(haloed.rgb(x: 256 + 13, y: 256), 0xFFFFFF, "past the halo")

        // Twice the size, turned (the turned path): still tinted, twice as wide.
        let big = try frame(renderer([Self.poi(2048, 2048, icon: "dot")],
                                     style: try style(##""icon-color": "#00FF00""##, layout: #", "icon-size": 2, "icon-rotate": 45"#)))
        XCTAssertEqual(big.rgb(x: 256, y: 256), 0x00FF00)
        XCTAssertTrue(near(big.rgb(x: 256 + 14, y: 256), 0x00FF00, by: 8), "radius 16 at icon-size 2")
        XCTAssertEqual(big.rgb(x: 256 + 19, y: 256), 0xFFFFFF)
    }

    /// A sprite with two copies of a 20 px road shield (a 3 px blue border round yellow):
    /// "shield" stretching only inside its border (`stretchX`/`stretchY` 3…17, `content`
    /// 3,3,17,17), "plain" with no stretch spans or content. Returns the base path.
    static func shieldSprite(_ dir: URL) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 40, 20))
        defer { cairo_surface_destroy(surface) }
        let cr = try XCTUnwrap(cairo_create(surface))
        for x0 in [0.0, 20] {
            cairo_set_source_rgb(cr, 0, 0, 0.5)
            cairo_rectangle(cr, x0, 0, 20, 20)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 0)
            cairo_rectangle(cr, x0 + 3, 3, 14, 14)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        let base = dir.appendingPathComponent("shields").path
        XCTAssertEqual(cairo_surface_write_to_png(surface, base + ".png"), CAIRO_STATUS_SUCCESS)
        try Data(#"""
        {"shield": {"x": 0, "y": 0, "width": 20, "height": 20, "pixelRatio": 1,
                    "stretchX": [[3, 17]], "stretchY": [[3, 17]], "content": [3, 3, 17, 17]},
         "plain": {"x": 20, "y": 0, "width": 20, "height": 20, "pixelRatio": 1}}
        """#.utf8).write(to: URL(fileURLWithPath: base + ".json"))
        return base
    }

    func testIconTextFitStretchesAShieldAroundItsTextKeepingItsBorder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-shield-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try Self.shieldSprite(dir)
        func draw(_ icon: String, _ layout: String) throws -> (image: RasterImage, label: MapLabel) {
            let json = """
            {"version": 8, "sprite": "\(base)", "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
              {"id": "road", "type": "symbol", "source": "s", "source-layer": "pois",
               "layout": {"icon-image": "\(icon)", "text-field": "{name}", "text-size": 12\(layout)},
               "paint": {"text-color": "#000000"}}]}
            """
            let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
            XCTAssertEqual(style.notes, [], "icon-text-fit and its padding are supported")
            let r = renderer([Self.poi(2048, 2048, icon: icon, name: "A12345")], style: style)
            let image = try frame(r)
            return (image, try XCTUnwrap(r.labels(for: camera).first))
        }
        let blue: UInt32 = 0x000080, yellow: UInt32 = 0xFFFF00
        let both = try draw("shield", #", "icon-text-fit": "both", "icon-text-fit-padding": [2, 4, 2, 4]"#)
        if let out = ProcessInfo.processInfo.environment["MERIDIAN_ICON_PNG"] { cairo_surface_write_to_png(both.image.surface, out) }
        let text = both.label.box, icon = try XCTUnwrap(both.label.icon).box
        // The content area is the text plus the padding; the 3 px border lies outside it. The
        // text's height there is its line's (1.2 × 12 px), as MapLibre fits (pymgl 0.5.0 draws
        // this shield, padding and size 56 x 24 px around 42 px of advances: 42 + 8 + 6 by
        // 14.4 + 4 + 6, less its antialiased edge rows).
        XCTAssertEqual(icon.x, text.x - 4 - 3, accuracy: 0.01)
        XCTAssertEqual(icon.width, text.width + 8 + 6, accuracy: 0.01)
        XCTAssertEqual(icon.y + icon.height / 2, text.y + text.height / 2, accuracy: 0.01, "centred on the text")
        XCTAssertEqual(icon.height, 14.4 + 4 + 6, accuracy: 0.01)
        XCTAssertGreaterThan(icon.width, 50, "wider than the 20 px image")
        // The border keeps its 3 px on the left and right; the yellow stretches between.
        let midY = Int(icon.y + icon.height / 2)
        let left = Int(icon.x.rounded())
        let right = Int((icon.x + icon.width).rounded())
        XCTAssertEqual(both.image.rgb(x: left + 1, y: midY), blue)
        XCTAssertEqual(both.image.rgb(x: left + 4, y: midY), yellow, "not a stretched border")
        XCTAssertEqual(both.image.rgb(x: right - 2, y: midY), blue)
        XCTAssertEqual(both.image.rgb(x: right - 5, y: midY), yellow)
        XCTAssertEqual(both.image.rgb(x: left + 5, y: Int(icon.y.rounded()) + 1), blue, "the top border")
        XCTAssertEqual(both.image.rgb(x: left + 5, y: Int(icon.y.rounded()) + 4), yellow)
        XCTAssertTrue(both.label.collisionBoxes.contains { $0 == both.label.icon!.collisionBox })

        // Without stretch spans the whole image stretches over exactly the padded text: its border too.
        let plain = try draw("plain", #", "icon-text-fit": "both", "icon-text-fit-padding": [2, 4, 2, 4]"#)
        let p = try XCTUnwrap(plain.label.icon).box
        XCTAssertEqual(p.x, plain.label.box.x - 4, accuracy: 0.01)
        XCTAssertEqual(p.width, plain.label.box.width + 8, accuracy: 0.01)
        XCTAssertEqual(plain.image.rgb(x: Int(p.x.rounded()) + 4, y: Int(p.y + p.height / 2)), blue, "a stretched border")

        // Width only: the image's 20 px height centred on the text is where its 14-px content
        // goes, so it is 26 px tall with its border (MapLibre draws the same 26; pymgl 0.5.0).
        let wide = try draw("shield", #", "icon-text-fit": "width""#)
        let w = try XCTUnwrap(wide.label.icon).box
        XCTAssertEqual(w.height, 26, accuracy: 0.01)
        XCTAssertEqual(w.y + 13, wide.label.box.y + wide.label.box.height / 2, accuracy: 0.01)
        XCTAssertEqual(w.width, wide.label.box.width + 6, accuracy: 0.01)
        // The line height sets the fitted height: 2 × 12 px + the border (MapLibre: 30).
        let tall = try draw("shield", #", "icon-text-fit": "both", "text-line-height": 2"#)
        XCTAssertEqual(try XCTUnwrap(tall.label.icon).box.height, 24 + 6, accuracy: 0.01)
        // A text hung from its top: the fitted box from the anchor down, as the text's is.
        let top = try draw("plain", #", "icon-text-fit": "both", "text-anchor": "top""#)
        XCTAssertEqual(try XCTUnwrap(top.label.icon).box.y, top.label.anchor.y, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(top.label.icon).box.height, 14.4, accuracy: 0.01)
        // And no fit: the image at its size.
        let none = try draw("shield", "")
        XCTAssertEqual(try XCTUnwrap(none.label.icon).box.width, 20, accuracy: 0.01)
    }

    func testIconsAlongALineRepeatAtTheSpacingTurnedWithTheLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-arrows-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        // LayerPaintTests' 16 x 8 image: top half red | blue, bottom half green | yellow; its
        // left half (red, green) is the arrow's tail.
        let base = try LayerPaintTests.quadSprite(dir)
        func draw(_ line: VectorFeature, text: String = "") throws -> (image: RasterImage, labels: [MapLabel]) {
            let json = """
            {"version": 8, "sprite": "\(base)", "sources": {"s": {"type": "vector"}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
              {"id": "oneway", "type": "symbol", "source": "s", "source-layer": "pois",
               "layout": {"symbol-placement": "line", "symbol-spacing": 100, "icon-image": "quad"\(text.isEmpty ? "" : #", "text-field": "\#(text)", "text-size": 12"#)}}]}
            """
            let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
            XCTAssertEqual(style.notes, [])
            let r = renderer([line], style: style)
            let image = try frame(r)
            return (image, r.labels(for: camera))
        }
        // East along the tile's middle row (view y 256, x 128…384), coming in over its edge:
        // spots half a spacing in, then every 100 px, with the whole icon on the tile's line
        // (not at 378: it would reach past the tile, where the next tile's line has none).
        let east = try draw(Fixture.line([(0, 2048), (4096, 2048)]))
        XCTAssertEqual(east.labels.count, 2, "\(east.labels.map(\.anchor))")
        for l in east.labels {
            let icon = try XCTUnwrap(l.icon)
            XCTAssertEqual(icon.image, "quad")
            XCTAssertEqual(icon.box.width, 16, accuracy: 0.01)
            XCTAssertEqual(icon.box.height, 8, accuracy: 0.01)
            XCTAssertEqual(l.anchor.y, 256, accuracy: 0.01)
        }
        for (x, expected) in zip(east.labels.map(\.anchor.x).sorted(), [178.0, 278]) { XCTAssertEqual(x, expected, accuracy: 0.01) }
        XCTAssertEqual(east.image.rgb(x: 178 - 4, y: 254), 0xFF0000, "the tail behind")
        XCTAssertEqual(east.image.rgb(x: 178 + 4, y: 254), 0x0000FF, "the head ahead")
        // South: turned a quarter clockwise, the tail above the anchor and the image's top on the right.
        let south = try draw(Fixture.line([(2048, 0), (2048, 4096)]))
        let first = try XCTUnwrap(south.labels.min { $0.anchor.y < $1.anchor.y })
        XCTAssertEqual(first.anchor.y, 178, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(first.icon).box.width, 8, accuracy: 0.01)
        XCTAssertEqual(south.image.rgb(x: 258, y: 174), 0xFF0000)
        XCTAssertEqual(south.image.rgb(x: 254, y: 174), 0x00FF00)
        XCTAssertEqual(south.image.rgb(x: 258, y: 182), 0x0000FF)
        XCTAssertEqual(south.image.rgb(x: 254, y: 182), 0xFFFF00)
        // With text too: the icon at the text's middle, both placed.
        let named = try draw(Fixture.line([(0, 2048), (4096, 2048)]), text: "Main")
        XCTAssertFalse(named.labels.isEmpty)
        XCTAssertTrue(named.labels.allSatisfy { $0.icon != nil && $0.glyphs.count == 4 }, "\(named.labels)")
    }

    func testLabelsAlongALineAreDrawnAnewWhenTheMapTurns() throws {
        // Text and an icon along a line, drawn at bearing 0 and then at 60 by the same renderer,
        // must look as a fresh renderer draws bearing 60 (the images along lines were kept by
        // zoom alone, so after a turn the text stayed level).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-turn-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try LayerPaintTests.quadSprite(dir)
        let json = """
        {"version": 8, "sprite": "\(base)", "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
          {"id": "name", "type": "symbol", "source": "s", "source-layer": "pois",
           "layout": {"symbol-placement": "line", "text-field": "Long Street Name", "text-size": 14}},
          {"id": "arrow", "type": "symbol", "source": "s", "source-layer": "pois",
           "layout": {"symbol-placement": "line", "symbol-spacing": 60, "icon-image": "quad"}}]}
        """
        let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
        let line = Fixture.line([(0, 2048), (4096, 2048)])
        func draw(_ r: MapRenderer, bearing: Double) throws -> RasterImage {
            var c = camera
            c.bearing = bearing
            let image = try XCTUnwrap(RasterImage(width: 512, height: 512))
            let cr = try XCTUnwrap(cairo_create(image.surface))
            r.drawSynchronously(c, into: cr)
            cairo_destroy(cr)
            return image
        }
        let turning = renderer([line], style: style)
        _ = try draw(turning, bearing: 0)
        let turned = try draw(turning, bearing: 60)
        let fresh = try draw(renderer([line], style: style), bearing: 60)
        var differ = 0, ink = 0
        for y in 0..<512 {
            for x in 0..<512 {
                if turned.rgb(x: x, y: y) != fresh.rgb(x: x, y: y) { differ += 1 }
                if fresh.rgb(x: x, y: y) != 0xFFFFFF { ink += 1 }
            }
        }
        XCTAssertGreaterThan(ink, 200, "text and arrows drawn")
        XCTAssertEqual(differ, 0)
    }

    /// No two labels' collision boxes overlap (a label's own icon and text may touch).
    func assertNoOverlaps(_ labels: [MapLabel], file: StaticString = #filePath, line: UInt = #line) {
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                for p in a.collisionBoxes {
                    for q in b.collisionBoxes where p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height {
                        XCTFail("'\(a.text)' and '\(b.text)' overlap", file: file, line: line)
                    }
                }
            }
        }
    }
}
