import Geo
import Glibc
import Input
import Places
import Testing
import UI
@testable import MeridianApp

/// Another program adds a place while the file is open: the app shows a new page with it, and
/// pin drags on that page still reach the document.
struct DocumentReloadTests {
    let dir = ScratchDirectory()

    @Test func aPlaceAddedByAnotherProgramAppearsAndItsPinCanBeDragged() throws {
        let sample = try #require(DocumentSession.samplePath())
        let path = dir.file("trip.geojson")
        let original = try PlacesDocument(path: sample).collection.text
        _ = dir.write("trip.geojson", original)
        let session = DocumentSession(document: try PlacesDocument(path: path), persistent: true)
        var o = Options()
        o.headless = true
        let core = AppCore(options: o, mapData: nil, synchronousTiles: true, scale: 1, session: session)
        #expect(core.page.places.count == 8)
        // A tap on a pin first, so the page being replaced has a log of its own.
        let station = try #require(core.page.snapshot.pins.first { $0.id == "pin-station" })
        let s = Point(x: station.frame.minX + 10, y: station.frame.minY + 10)
        core.handle(.touch(TouchFrame(time: 1000, changes: [.down(id: 0, at: s)])))
        core.handle(.touch(TouchFrame(time: 1060, changes: [.up(id: 0, at: s)])))
        core.advance(to: 2000)
        #expect(core.page.log.contains { $0.kind == "pinTap" })

        // Their save: one more place, next to the Ateneum.
        let theirs = try PlacesDocument(path: dir.write("theirs.geojson", original))
        let added = try #require(theirs.add(name: "Theirs", at: Coordinate(latitude: 60.1705, longitude: 24.9445)))
        try AtomicFile.write(Array(theirs.collection.text.utf8), to: path, mode: 0o644)
        core.documentFileChanged()
        #expect(core.page.places.count == 9)
        #expect(core.page.places.last?.name == "Theirs")

        // Drag the new pin; the move lands in the document and, once saved, on disk.
        let pin = try #require(core.page.snapshot.pins.first { $0.id == "pin-\(added.rawValue)" })
        let start = Point(x: pin.frame.minX + pin.frame.size.width / 2, y: pin.frame.minY + pin.frame.size.height / 2)
        var t = 5000.0
        core.handle(.touch(TouchFrame(time: t, changes: [.down(id: 0, at: start)])))
        for i in 1...12 {
            t += 16
            core.handle(.touch(TouchFrame(time: t, changes: [.moved(id: 0, to: Point(x: start.x + 5 * Double(i), y: start.y + 4 * Double(i)))])))
        }
        t += 16
        core.handle(.touch(TouchFrame(time: t, changes: [.up(id: 0, at: Point(x: start.x + 60, y: start.y + 48))])))
        #expect(session.log.contains { $0.kind == "placeMoved" && $0.text("id") == added.rawValue })
        // The dump still lists what was done on the first page.
        #expect(StateDump.json(core).contains("\"pinTap\""))
        core.finish()
        let onDisk = try PlacesDocument(path: path)
        #expect(onDisk.place(added)?.coordinate != Coordinate(latitude: 60.1705, longitude: 24.9445))
        #expect(onDisk.places.count == 9)
    }
}
