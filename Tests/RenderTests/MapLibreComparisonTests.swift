import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// The shipped styles drawn by Meridian and by MapLibre Native (pymgl, software GL) over the
/// same files at the same places, labels off: the per-pixel difference must stay within the
/// baseline measured when the styles were written (docs/MAP-ENGINE.md).
///
/// Needs the python of scripts/maplibre-venv.sh (`MapLibreReference`); without it the test
/// fails, and says how to make it.
final class MapLibreComparisonTests: XCTestCase {
    struct View {
        var name: String
        var lat: Double, lon: Double, zoom: Double
        /// Mean absolute difference per channel (0…255) and share of pixels off by more than
        /// 24 in some channel, measured 2026-12-01; the test allows 25 % more.
        var meanBaseline: Double
        var offBaseline: Double
    }

    static let views = [
        View(name: "europe", lat: 52, lon: 15, zoom: 5, meanBaseline: 1.15, offBaseline: 0.0247),
        View(name: "helsinki-centre", lat: 60.170, lon: 24.944, zoom: 15, meanBaseline: 2.87, offBaseline: 0.0286),
        View(name: "helsinki-street", lat: 60.1685, lon: 24.9425, zoom: 17, meanBaseline: 2.12, offBaseline: 0.0345),
    ]
    static let size = 512

    /// The Shortbread style over the shipped Helsinki extract built with tilemaker's Shortbread
    /// config (data/test/helsinki-shortbread.mbtiles), layered over the world file as a user
    /// would open it; baselines measured 2026-12-06.
    static let shortbreadViews = [
        View(name: "helsinki-centre", lat: 60.170, lon: 24.944, zoom: 15, meanBaseline: 2.68, offBaseline: 0.0245),
        View(name: "helsinki-street", lat: 60.1685, lon: 24.9425, zoom: 17, meanBaseline: 1.89, offBaseline: 0.0299),
    ]

    func testShippedStylesLookAsMapLibreDrawsThem() throws {
        try compare(files: ["data/world.mbtiles", "data/helsinki.mbtiles"], styles: ["world", "openmaptiles"], views: Self.views)
    }

    func testTheShortbreadStyleLooksAsMapLibreDrawsIt() throws {
        try compare(files: ["data/world.mbtiles", "data/test/helsinki-shortbread.mbtiles"], styles: ["world", "shortbread"],
                    views: Self.shortbreadViews)
    }

    /// The Protomaps style over a synthetic file in its schema (`scripts/data/protomaps_fixture.py`:
    /// land, a lake, the sea, roads of four kinds, rail, buildings, a park and a wood over 3x3
    /// z14 tiles, so views from Meridian z15: MapLibre shows nothing below a file's minzoom), since no
    /// real Protomaps build can be made here; baselines measured 2026-12-06.
    static let protomapsViews = [
        View(name: "fixture-corner", lat: 60.185233, lon: 24.938965, zoom: 15, meanBaseline: 0.06, offBaseline: 0.0005),
        View(name: "fixture-park", lat: 60.185233, lon: 24.922485, zoom: 15, meanBaseline: 0.18, offBaseline: 0.0010),
        View(name: "fixture-blocks", lat: 60.178677, lon: 24.933472, zoom: 16, meanBaseline: 0.22, offBaseline: 0.0035),
    ]

    func testTheProtomapsStyleLooksAsMapLibreDrawsIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-protomaps-\(getpid()).mbtiles").path
        try? FileManager.default.removeItem(atPath: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertEqual(try MapLibreReference.run("scripts/data/protomaps_fixture.py", arguments: [file]), 0, "protomaps_fixture.py")
        try compare(files: [file], styles: ["protomaps"], views: Self.protomapsViews)
    }

    /// Draws `views` with MapLibre Native and with Meridian over `files` (paths in the repository,
    /// or absolute),
    /// each styled by the shipped style of the same index, labels off, and holds the difference
    /// to each view's baseline (+25 %).
    private func compare(files relative: [String], styles names: [String], views: [View]) throws {
        let repo = ShippedDataTests.dataDirectory.deletingLastPathComponent()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-maplibre-\(getpid())-\(names.joined(separator: "-"))")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let files = relative.map { $0.hasPrefix("/") ? $0 : repo.appendingPathComponent($0).path }
        let styles = names.map { repo.appendingPathComponent("data/styles/\($0).json").path }
        let job: [String: Any] = ["layers": zip(styles, files).map { [$0, $1] }, "sizes": [[Self.size, Self.size]],
                                  "views": views.map { [$0.name, $0.lat, $0.lon, $0.zoom] as [Any] }, "mode": "render", "out": out.path]
        XCTAssertEqual(try MapLibreReference.run("scripts/bench/maplibre_render.py", input: try JSONSerialization.data(withJSONObject: job)), 0,
                       "maplibre_render.py")

        // Meridian with the same layers: the automatic style minus its symbol layers.
        let sources = try files.map { try MBTilesSource(path: $0) as any VectorTileSource }
        let auto = AutomaticStyle.make(for: sources)
        let s = auto.style
        let noLabels = Style(name: s.name, schema: s.schema, sources: s.sources, layers: s.layers.filter { $0.type != .symbol }, notes: [])
        var renderer = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: auto.sources, style: noLabels), scale: 1))
        renderer.showsScaleBar = false
        renderer.showsAttribution = false
        for v in views {
            let theirs = try Data(contentsOf: out.appendingPathComponent("\(Self.size)x\(Self.size)-\(v.name).rgba"))
            XCTAssertEqual(theirs.count, Self.size * Self.size * 4)
            let image = try XCTUnwrap(RasterImage(width: Self.size, height: Self.size))
            let cr = try XCTUnwrap(cairo_create(image.surface))
            renderer.drawSynchronously(MapCamera(center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom,
                                                 size: ViewSize(width: Double(Self.size), height: Double(Self.size))), into: cr)
            cairo_destroy(cr)
            if let dir = ProcessInfo.processInfo.environment["MERIDIAN_MAPLIBRE_PNG_DIR"] {
                cairo_surface_write_to_png(image.surface, "\(dir)/meridian-\(names.last ?? "")-\(v.name).png")
                try theirs.write(to: URL(fileURLWithPath: "\(dir)/maplibre-\(names.last ?? "")-\(v.name).rgba"))
            }
            var total = 0.0, off = 0
            for y in 0..<Self.size {
                for x in 0..<Self.size {
                    let ours = image.rgb(x: x, y: y) ?? 0
                    let k = (y * Self.size + x) * 4
                    let r = Int((ours >> 16) & 0xFF), g = Int((ours >> 8) & 0xFF), b = Int(ours & 0xFF)
                    let dr = abs(r - Int(theirs[k])), dg = abs(g - Int(theirs[k + 1])), db = abs(b - Int(theirs[k + 2]))
                    total += Double(dr + dg + db) / 3
                    if max(dr, dg, db) > 24 { off += 1 }
                }
            }
            let n = Double(Self.size * Self.size)
            let mean = total / n, share = Double(off) / n
            print(String(format: "maplibre-compare %@ %@: mean %.2f, off %.4f (baseline %.2f, %.4f)", names.last ?? "", v.name, mean, share, v.meanBaseline, v.offBaseline))
            XCTAssertLessThanOrEqual(mean, v.meanBaseline * 1.25, "\(v.name): mean difference per channel")
            XCTAssertLessThanOrEqual(share, v.offBaseline * 1.25, "\(v.name): share of pixels that differ")
        }
    }
}
