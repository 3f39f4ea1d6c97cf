import Foundation
import Geo
import Testing
import Tiles
@testable import MeridianApp

/// `--data` with a map the user brings: PMTiles or MBTiles alike, opened where the file
/// says, named as the file names itself, and a damaged tile reported instead of a blank.
@Suite struct YourOwnMapTests {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data").path
    static var pmtiles: String { dataDirectory + "/test/helsinki.pmtiles" }
    static var shortbread: String { dataDirectory + "/test/helsinki-shortbread.mbtiles" }

    @Test func aPMTilesFileOpensOnItsMetadataCentreAndZoom() throws {
        let dump = try Replay.initial(["--data", Self.pmtiles])
        #expect(abs(dump.center.latitude - 60.1716) < 1e-4 && abs(dump.center.longitude - 24.9443) < 1e-4)
        #expect(dump.zoom == 14)
        #expect((dump.raw["map"] as? [String: Any])?["errors"] as? [Any] != nil)
    }

    @Test func anExplicitCentreAndZoomStillWin() throws {
        let dump = try Replay.initial(["--data", Self.pmtiles, "--center", "48.85,2.35", "--zoom", "9"])
        #expect(abs(dump.center.latitude - 48.85) < 1e-6 && dump.zoom == 9)
    }

    @Test func theHeaderNamesTheFileAndTheMapCreditsOpenStreetMap() throws {
        guard case .loaded(let data?) = MapData.load(for: try Options.parse(["--data", Self.shortbread])) else {
            Issue.record("the Shortbread file did not load")
            return
        }
        #expect(data.title == "Helsinki (Shortbread)")
        let core = AppCore(options: try Options.parse(["--data", Self.shortbread]), mapData: data, synchronousTiles: true, scale: 1)
        #expect(core.renderer.title == "Helsinki (Shortbread)")
        // The file has no attribution row; its Shortbread layers say the data is OSM's.
        #expect(data.attributions.map(\.text) == ["© OpenStreetMap contributors"])
        // The shipped data keeps the shipped title.
        guard case .loaded(let shipped?) = MapData.load(for: try Options.parse([])) else { return }
        #expect(shipped.title == nil)
    }

    @Test func anMBTilesFileWithoutItsIndexIsNoticedAndStillDraws() throws {
        let path = Self.dataDirectory + "/test/no-index.mbtiles"
        let data = try MapData.open([path])
        #expect(data.notices.count == 1)
        #expect(data.notices.first?.hasPrefix(path + ": the tiles table has no index") == true)
        #expect(data.notices.first?.contains("slow") == true)
        #expect(try MapData.open([Self.pmtiles]).notices.isEmpty)
        #expect(try Replay.initial(["--data", path, "--verbose"]).zoom.isFinite)
    }

    @Test func withoutACentreTheMapOpensOnTheMiddleOfTheBounds() {
        var m = MBTilesMetadata(name: nil, format: "pbf", minZoom: 0, maxZoom: 14,
                                bounds: .init(west: 10, south: 50, east: 12, north: 52), attribution: nil, values: [:])
        let (center, zoom) = MapData.startCamera(m)
        // The middle in Web Mercator: a little north of the latitudes' mean.
        #expect(abs((center?.longitude ?? 0) - 11) < 1e-9)
        #expect((center?.latitude ?? 0) > 51 && (center?.latitude ?? 0) < 51.02)
        #expect(zoom.map { $0 > 8 && $0 < 10 } == true)
        m.center = .init(longitude: 11.5, latitude: 51.5, zoom: 12)
        #expect(MapData.startCamera(m).0 == Coordinate(latitude: 51.5, longitude: 11.5) && MapData.startCamera(m).1 == 12)
    }

    /// A copy of the Helsinki PMTiles file in `dir` whose last z14 tile cannot be read.
    static func damagedCopy(in dir: ScratchDirectory) throws -> String {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.pmtiles)))
        // The last bytes of the tile data are the end of the last z14 tile's gzip stream.
        for i in (bytes.count - 3_000)..<(bytes.count - 20) { bytes[i] = 0xA5 }
        let path = dir.file("damaged.pmtiles")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aDamagedTileIsReportedOnceInTheStateDumpAndTheMapStillDraws() throws {
        let dir = ScratchDirectory()
        let path = try Self.damagedCopy(in: dir)
        let dump = try Replay.run(TraceBuilder(), arguments: ["--data", path, "--center", "60.1716,24.9443", "--zoom", "14"],
                                  screenshot: true).dump
        let errors = (dump.raw["map"] as? [String: Any])?["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1)
        #expect(errors.first?["source"] as? String == path)
        #expect((errors.first?["tile"] as? String)?.hasPrefix("14/") == true)
        #expect((errors.first?["message"] as? String)?.contains("damaged") == true)
    }

    /// With a screenshot (the map drawn) or only the state dump (the labels read the tiles).
    @Test(arguments: [true, false])
    func aDamagedTileIsSaidOnceOnStandardErrorThoughTheMapPassesOverItAgain(screenshot: Bool) throws {
        let dir = ScratchDirectory()
        let path = try Self.damagedCopy(in: dir)
        let args = ["--data", path, "--center", "60.1716,24.9443", "--zoom", "14"]
        // Two drags there and back over the damaged tile: it is drawn (from its parent) again
        // and again, and said once.
        let map = try Replay.initial(args).mapFrame
        var trace = TraceBuilder()
        for _ in 0..<2 {
            trace.drag([(0, map.center)], by: P(x: 120, y: 0))
            trace.wait(400)
            trace.drag([(0, map.center)], by: P(x: -120, y: 0))
            trace.wait(400)
        }
        // The real binary, so that its stderr is its own (tests run side by side in this process).
        let bin = String(YourOwnMapTests.dataDirectory.dropLast("/data".count)) + "/.build/debug/meridian"
        #expect(access(bin, X_OK) == 0, "\(bin) is missing: run `swift build`")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bin)
        process.arguments = ["--headless", "--replay", dir.write("t.trace", trace.text), "--state-out", dir.file("s.json")] + args
            + (screenshot ? ["--screenshot", dir.file("s.png")] : [])
        #expect(FileManager.default.createFile(atPath: dir.file("err.txt"), contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("err.txt")))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = (dir.read("err.txt") ?? "").split(separator: "\n").filter { $0.contains("coarser zoom") }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("meridian: ") && line.contains(path) && line.contains("14/") && line.hasSuffix("; drawn from a coarser zoom"), "\(line)")
    }
}
