import Foundation
import Geo
import Glibc
import Testing
@testable import MeridianApp
import Places

/// The places document through the whole app: replayed gestures change it, the state dump's
/// `document` section and the file on disk both show it (contracts.md §3.1).
struct DocumentReplayTests {
    let dir = ScratchDirectory()

    func sampleText() throws -> String {
        let sample = try #require(DocumentSession.samplePath(), "data/sample-places.geojson not found")
        return try #require(String(data: try Data(contentsOf: URL(fileURLWithPath: sample)), encoding: .utf8))
    }

    /// A copy of the shipped sample to edit.
    func placesFile(mode: mode_t = 0o644) throws -> String {
        let path = dir.write("mine.geojson", try sampleText())
        chmod(path, mode)
        return path
    }

    func document(_ dump: Dump) -> [String: Any] { dump.raw["document"] as? [String: Any] ?? [:] }

    func places(_ dump: Dump) -> [[String: Any]] { document(dump)["places"] as? [[String: Any]] ?? [] }

    /// Drags the Ateneum pin 60 px right and 50 px down.
    func dragAteneum(_ start: Dump, then more: (inout TraceBuilder) -> Void = { _ in }) throws -> TraceBuilder {
        let pin = try #require(start.pin("pin-ateneum"))
        var t = TraceBuilder()
        t.drag([(0, pin.frame.center)], by: P(x: 60, y: 50))
        t.wait(2000)
        more(&t)
        return t
    }

    @Test func theListAndPinsComeFromTheDocumentAndTheHeaderNamesIt() throws {
        let start = try Replay.initial([try placesFile()])
        #expect(start.pins.map(\.id).count == 8)
        #expect(start.pins.first?.id == "pin-station")
        #expect(document(start)["name"] as? String == "Helsinki")
        #expect(document(start)["dirty"] as? Bool == false)
        #expect(document(start)["readOnly"] as? Bool == false)
        let ids = places(start).compactMap { $0["id"] as? String }
        #expect(start.pins.map(\.id) == ids.map { "pin-\($0)" })
    }

    @Test func aDraggedPinMovesThePlaceInTheFileOnDisk() throws {
        let path = try placesFile()
        let start = try Replay.initial([path])
        let end = try Replay.dump(try dragAteneum(start), [path])
        let moved = try #require(end.log("placeMoved").first)
        #expect(moved["id"] as? String == "ateneum")
        let lat = try #require(moved["lat"] as? Double), lon = try #require(moved["lon"] as? Double)
        #expect(end.pin("pin-ateneum")?.coordinate == Coordinate(latitude: lat, longitude: lon))
        #expect(document(end)["dirty"] as? Bool == false)   // saved
        let onDisk = try PlacesDocument(path: path)
        let c = try #require(onDisk.place(PlaceID("ateneum"))?.coordinate)
        // (The dump's numbers went through Foundation's JSON reader, which may round the last digit.)
        #expect(abs(c.latitude - lat) < 1e-12 && abs(c.longitude - lon) < 1e-12)
        #expect(c != start.pin("pin-ateneum")?.coordinate)
        // Nothing else in the file changed: it is the sample with that one move made.
        let expected = try PlacesDocument(path: dir.write("original.geojson", try sampleText()))
        expected.move(PlaceID("ateneum"), to: c)
        #expect(dir.read("mine.geojson") == expected.collection.text)
    }

    @Test func ctrlZUndoesTheMoveAndTheFileIsTheOriginalAgain() throws {
        let path = try placesFile()
        let start = try Replay.initial([path])
        let trace = try dragAteneum(start) { t in
            t.line("key pressed Control_L"); t.wait(10)
            t.line("key pressed z"); t.wait(10)
            t.line("key released z"); t.line("key released Control_L")
            t.wait(2000)
        }
        let end = try Replay.dump(trace, [path])
        #expect(end.logKinds.filter { ["placeMoved", "undo", "redo"].contains($0) } == ["placeMoved", "undo"])
        #expect(end.log("undo").first?["edit"] as? String == "placeMoved")
        #expect(end.pin("pin-ateneum")?.coordinate == start.pin("pin-ateneum")?.coordinate)
        #expect(dir.read("mine.geojson") == (try sampleText()))
    }

    @Test func ctrlShiftZRedoesIt() throws {
        let path = try placesFile()
        let start = try Replay.initial([path])
        let trace = try dragAteneum(start) { t in
            for shift in [false, true] {
                t.line("key pressed Control_L")
                if shift { t.line("key pressed Shift_L") }
                t.wait(10)
                t.line("key pressed \(shift ? "Z" : "z")"); t.wait(10)
                t.line("key released \(shift ? "Z" : "z")")
                if shift { t.line("key released Shift_L") }
                t.line("key released Control_L")
                t.wait(500)
            }
            t.wait(2000)
        }
        let end = try Replay.dump(trace, [path])
        #expect(end.logKinds.filter { ["placeMoved", "undo", "redo"].contains($0) } == ["placeMoved", "undo", "redo"])
        let moved = try #require(end.log("placeMoved").first)
        let lat = try #require(moved["lat"] as? Double), lon = try #require(moved["lon"] as? Double)
        #expect(end.pin("pin-ateneum")?.coordinate == Coordinate(latitude: lat, longitude: lon))
        let c = try #require(try PlacesDocument(path: path).place(PlaceID("ateneum"))?.coordinate)
        #expect(abs(c.latitude - lat) < 1e-12 && abs(c.longitude - lon) < 1e-12)
    }

    @Test func aReadOnlyFileIsShownButNeverChanged() throws {
        let path = try placesFile(mode: 0o444)
        let start = try Replay.initial([path])
        #expect(document(start)["readOnly"] as? Bool == true)
        let pin = try #require(start.pin("pin-ateneum"))
        var t = TraceBuilder()
        t.drag([(0, pin.frame.center)], by: P(x: 0, y: -120))   // straight up: would scroll the page
        t.wait(2000)
        let end = try Replay.dump(t, [path])
        // The pin cannot be picked up: the finger scrolls the page instead.
        #expect(end.log("pinDragEnded").isEmpty)
        #expect(end.log("placeMoved").isEmpty)
        #expect(end.pin("pin-ateneum")?.coordinate == start.pin("pin-ateneum")?.coordinate)
        #expect(end.log("cooperativeHint").count == 1, "\(end.log)")
        #expect(end.scrollY > start.scrollY)
        #expect(dir.read("mine.geojson") == (try sampleText()))
        #expect(dir.contents.sorted() == ["mine.geojson"])
    }

    @Test func aFileThatIsNotGeoJSONExits2NamingFileLineAndColumnAndWritesNothing() throws {
        let bad = dir.write("bad.geojson", "{\"type\": \"FeatureCollection\",\n \"features\": [{\"type\": \"Feature\"}]}\n")
        let trace = dir.write("t.trace", "meridian-trace 1\n0 wait\n")
        let status = MeridianApp.run(["--headless", "--replay", trace, "--state-out", dir.file("s.json"), bad])
        #expect(status == 2)
        #expect(!dir.exists("s.json"))
        #expect(dir.read("bad.geojson") == "{\"type\": \"FeatureCollection\",\n \"features\": [{\"type\": \"Feature\"}]}\n")
    }

    @Test func withNoFileAHeadlessRunShowsTheSampleAndWritesNoFile() throws {
        let sample = try #require(DocumentSession.samplePath())
        let before = try sampleText()
        let start = try Replay.initial()
        #expect(document(start)["path"] as? String == AtomicFile.resolved(sample))
        let end = try Replay.dump(try dragAteneum(start))
        #expect(end.log("placeMoved").count == 1)
        #expect(document(end)["dirty"] as? Bool == true)   // kept in memory only
        #expect(try sampleText() == before)
    }

    @Test func aDocumentOfSomewhereElseIsFramed() throws {
        let text = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.2945, 48.8584]}, "properties": {"name": "Tour Eiffel"}}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.3499, 48.8530]}, "properties": {"name": "Notre-Dame"}}]}"#
        let start = try Replay.initial([dir.write("paris.geojson", text)])
        #expect(document(start)["name"] as? String == "paris")
        for pin in start.pins {
            #expect(start.mapFrame.contains(pin.frame.center), "\(pin.id) is off the map")
        }
    }
}

struct PositionalFileTests {
    @Test func aGeoJSONFileIsThePlacesDocumentAndAMapFileIsData() throws {
        let o = try Options.parse(["trip.geojson", "extra.mbtiles", "Other.PMTiles"])
        #expect(o.document == "trip.geojson")
        #expect(o.data == ["extra.mbtiles", "Other.PMTiles"])
    }

    @Test func twoPlacesFilesOrAnUnknownKindAreRefused() {
        #expect(throws: UsageError.self) { try Options.parse(["a.geojson", "b.geojson"]) }
        #expect(throws: UsageError.self) { try Options.parse(["notes.txt"]) }
    }
}
