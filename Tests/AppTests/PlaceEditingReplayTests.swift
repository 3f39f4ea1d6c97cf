import Foundation
import Geo
import Glibc
import Testing
@testable import MeridianApp
import Places
import UI

/// Adding, renaming, deleting and undoing from the page, replayed through the whole app: each
/// checked in the state dump's `document` section and in the file on disk afterwards.
struct PlaceEditingReplayTests {
    let dir = ScratchDirectory()

    /// A fresh copy of the shipped sample: each replay starts from it (a replay edits the file).
    func placesFile(mode: mode_t = 0o644) throws -> String {
        let sample = try #require(DocumentSession.samplePath(), "data/sample-places.geojson not found")
        let text = try #require(String(data: try Data(contentsOf: URL(fileURLWithPath: sample)), encoding: .utf8))
        let path = dir.file("mine.geojson")
        chmod(path, 0o644)
        _ = dir.write("mine.geojson", text)
        chmod(path, mode)
        return path
    }

    /// Replays `t` on a fresh copy of the sample; the file is as the replay left it afterwards.
    func replay(_ t: TraceBuilder, mode: mode_t = 0o644) throws -> (Dump, String) {
        let path = try placesFile(mode: mode)
        return (try Replay.dump(t, [path]), path)
    }

    func places(_ dump: Dump) -> [[String: Any]] {
        (dump.raw["document"] as? [String: Any])?["places"] as? [[String: Any]] ?? []
    }

    func editing(_ dump: Dump) -> [String: Any]? { dump.raw["editing"] as? [String: Any] }

    func onDisk(_ path: String) throws -> PlacesDocument { try PlacesDocument(path: path) }

    /// A finger held still on the map past the long-press time, moved by `by`, lifted.
    func longPress(_ t: inout TraceBuilder, at p: P, by d: P = P(x: 0, y: 0)) {
        t.down(0, p); t.frame()
        t.wait(700)
        for i in 1...5 {
            t.move(0, P(x: p.x + d.x * Double(i) / 5, y: p.y + d.y * Double(i) / 5)); t.frame()
            t.wait(16)
        }
        t.up(0); t.frame()
        t.wait(600)
    }

    func keys(_ t: inout TraceBuilder, _ names: [String]) {
        for k in names {
            t.line("key pressed \(k)"); t.wait(30)
            t.line("key released \(k)"); t.wait(30)
        }
    }

    @Test func aLongPressDropsANewPlaceThatFollowsTheFingerSelectedWithItsNameFieldFocused() throws {
        let path = try placesFile()
        let start = try replay(TraceBuilder()).0
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        longPress(&t, at: p, by: P(x: 40, y: 30))
        let end = try replay(t).0
        let added = try #require(end.log("placeAdded").first)
        #expect(added["name"] as? String == "Place 9")
        #expect(end.log("mapLongPress").count == 1)
        #expect(end.log("mapTap").isEmpty, "a long press is no tap")
        // Where the finger lifted, not where it first pressed: the pin followed it.
        // (The start's geometry: the page scrolls afterwards to show the new row.)
        let lifted = start.coordinate(at: P(x: p.x + 40, y: p.y + 30))
        let lat = try #require(added["lat"] as? Double), lon = try #require(added["lon"] as? Double)
        #expect(abs(lat - lifted.latitude) < 1e-7 && abs(lon - lifted.longitude) < 1e-7)
        #expect(places(end).count == 9)
        #expect(end.pin("pin-\(added["id"] as? String ?? "")") != nil)
        #expect((end.raw["pins"] as? [[String: Any]] ?? []).first { $0["selected"] as? Bool == true }?["id"] as? String
            == "pin-\(added["id"] as? String ?? "")")
        #expect(editing(end)?["place"] as? String == added["id"] as? String, "the new place's name field has the keyboard")
        #expect(editing(end)?["text"] as? String == "Place 9")
        let file = try onDisk(path)
        #expect(file.places.count == 9)
        #expect(file.places.last?.name == "Place 9")
        #expect(abs((file.places.last?.coordinate.latitude ?? 0) - lat) < 1e-12)
    }

    @Test func theTapCalloutsAddPlaceHereAddsAPlaceWhereTheMapWasTapped() throws {
        let path = try placesFile()
        let start = try replay(TraceBuilder()).0
        let p = start.freeMapPoint()
        var tap = TraceBuilder()
        tap.tap(p)
        tap.wait(500)
        let shown = try replay(tap).0
        let button = try #require(shown.target("addPlace"), "the callout offers Add place here")
        #expect(button.hitFrame.width >= 48 && button.hitFrame.height >= 48)
        #expect(places(shown).count == 8, "showing the callout adds nothing")
        var t = tap
        t.tap(button.frame.center)
        t.wait(600)
        let end = try replay(t).0
        let mapTap = try #require(end.log("mapTap").first)
        let added = try #require(end.log("placeAdded").first)
        #expect(added["lat"] as? Double == mapTap["lat"] as? Double)
        #expect(added["lon"] as? Double == mapTap["lon"] as? Double)
        #expect(end.log("targetTap").contains { $0["id"] as? String == "addPlace" })
        #expect(end.target("addPlace") == nil, "the callout closed")
        #expect(try onDisk(path).places.map(\.name).last == "Place 9")
    }

    /// Selects Ateneum by its row and returns the dump then (its name field and delete shown).
    func selectAteneum(_ path: String) throws -> (TraceBuilder, Dump) {
        let start = try replay(TraceBuilder()).0
        var t = TraceBuilder()
        t.tap(try #require(start.target("place-ateneum")).frame.center)
        t.wait(500)
        return (t, try replay(t).0)
    }

    @Test func keysRenameInTheNameFieldWithCaretMovesComposeAndOneUndoStep() throws {
        let path = try placesFile()
        var (t, selected) = try selectAteneum(path)
        let name = try #require(selected.target("name-ateneum"), "the selected row has a name field")
        #expect(selected.target("delete-ateneum") != nil)
        t.tap(name.frame.center)
        t.wait(100)
        // "Ateneum": End, BackSpace ×2 → "Atene"; Home, Delete → "tene"; Right → caret after
        // "t"; a dead acute then e → "téene"; End, Shift+1 → "téene!"; Enter.
        keys(&t, ["End", "BackSpace", "BackSpace", "Home", "Delete", "Right", "dead_acute", "e", "End"])
        t.line("key pressed Shift_L"); t.wait(10)
        t.line("key pressed exclam"); t.wait(10)
        t.line("key released exclam"); t.line("key released Shift_L"); t.wait(30)
        keys(&t, ["Return"])
        t.wait(1500)
        let end = try replay(t).0
        #expect(end.log("placeRenamed").count == 1, "one rename for the whole edit")
        #expect(places(end).first { $0["id"] as? String == "ateneum" }?["name"] as? String == "téene!")
        #expect(editing(end) == nil, "Enter closes the field")
        #expect(try onDisk(path).place(PlaceID("ateneum"))?.name == "téene!")

        // One Ctrl+Z takes the whole rename back.
        var u = t
        u.line("key pressed Control_L"); u.wait(10)
        keys(&u, ["z"])
        u.line("key released Control_L")
        u.wait(1500)
        let undone = try replay(u).0
        #expect(undone.log("undo").first?["edit"] as? String == "placeRenamed")
        #expect(try onDisk(path).place(PlaceID("ateneum"))?.name == "Ateneum")
    }

    @Test func f2RenamesTheSelectedPlaceFromTheKeyboard() throws {
        var (t, _) = try selectAteneum(try placesFile())
        keys(&t, ["F2", "End", "BackSpace", "Return"])
        t.wait(1500)
        let (end, path) = try replay(t)
        #expect(places(end).first { $0["id"] as? String == "ateneum" }?["name"] as? String == "Ateneu")
        #expect(try onDisk(path).place(PlaceID("ateneum"))?.name == "Ateneu")
    }

    @Test func escapeCancelsTheEditAndTheFileIsUntouched() throws {
        let path = try placesFile()
        let before = dir.read("mine.geojson")
        var (t, selected) = try selectAteneum(path)
        t.tap(try #require(selected.target("name-ateneum")).frame.center)
        t.wait(100)
        keys(&t, ["x", "y", "Escape"])
        t.wait(1500)
        let end = try replay(t).0
        #expect(end.log("placeRenamed").isEmpty)
        #expect(editing(end) == nil)
        #expect(dir.read("mine.geojson") == before)
    }

    @Test func anInputMethodsPreeditAndCommitStringsRenameThroughTextInputLines() throws {
        let path = try placesFile()
        var (t, selected) = try selectAteneum(path)
        t.tap(try #require(selected.target("name-ateneum")).frame.center)
        t.wait(100)
        // Delete "eum" (3 bytes before the caret), then a pre-edit shown but not yet typed.
        t.line("text-input done delete 3 0 preedit S%C3%A4 3")
        t.wait(100)
        let composing = try replay(t).0
        #expect(editing(composing)?["text"] as? String == "Aten")
        #expect(editing(composing)?["preedit"] as? String == "Sä")
        t.line("text-input done commit a%20S%C3%A4")
        t.wait(50)
        keys(&t, ["Return"])
        t.wait(1500)
        let end = try replay(t).0
        #expect(places(end).first { $0["id"] as? String == "ateneum" }?["name"] as? String == "Atena Sä")
        #expect(try onDisk(path).place(PlaceID("ateneum"))?.name == "Atena Sä")
    }

    @Test func deleteFromTheSelectedRowThenTheOnScreenUndoBringsItBack() throws {
        let path = try placesFile()
        let original = dir.read("mine.geojson")
        var (t, selected) = try selectAteneum(path)
        t.tap(try #require(selected.target("delete-ateneum")).frame.center)
        t.wait(1500)
        let deleted = try replay(t).0
        #expect(deleted.log("placeDeleted").first?["id"] as? String == "ateneum")
        #expect(places(deleted).count == 7)
        #expect(deleted.pin("pin-ateneum") == nil)
        #expect(try onDisk(path).place(PlaceID("ateneum")) == nil)
        let undo = try #require(deleted.target("undo"), "Undo is offered after a delete")
        #expect(undo.hitFrame.width >= 48 && undo.hitFrame.height >= 48)

        var u = t
        u.tap(undo.frame.center)
        u.wait(1500)
        let back = try replay(u).0
        #expect(back.log("undo").first?["edit"] as? String == "placeDeleted")
        #expect(places(back).count == 8)
        #expect(back.target("undo") == nil)
        #expect(dir.read("mine.geojson") == original, "the file is the original again, byte for byte")

        // Not taken: it goes away by itself.
        var later = t
        later.wait(PlaceEditing.undoDuration + 500)
        #expect(try replay(later).0.target("undo") == nil)
    }

    @Test func ctrlZRemovesAnAddedPlaceAndCtrlShiftZAddsItBack() throws {
        let path = try placesFile()
        let start = try replay(TraceBuilder()).0
        var t = TraceBuilder()
        longPress(&t, at: start.freeMapPoint())
        keys(&t, ["Return"])
        t.line("key pressed Control_L"); t.wait(10)
        keys(&t, ["z"])
        t.wait(1500)
        let undone = try replay(t).0
        #expect(undone.log("undo").first?["edit"] as? String == "placeAdded")
        #expect(places(undone).count == 8)
        #expect(try onDisk(path).places.count == 8)
        t.line("key pressed Shift_L"); t.wait(10)
        keys(&t, ["Z"])
        t.line("key released Shift_L"); t.line("key released Control_L")
        t.wait(1500)
        let redone = try replay(t).0
        #expect(redone.log("redo").first?["edit"] as? String == "placeAdded")
        #expect(places(redone).count == 9)
        #expect(try onDisk(path).places.last?.name == "Place 9")
    }

    @Test func aReadOnlyDocumentOffersNoEditingControlAndALongPressAddsNothing() throws {
        _ = try placesFile(mode: 0o444)
        let original = dir.read("mine.geojson")
        let start = try replay(TraceBuilder(), mode: 0o444).0
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        longPress(&t, at: p)
        t.tap(p)
        t.wait(500)
        t.tap(try #require(start.target("place-ateneum")).frame.center)
        t.wait(400)
        let end = try replay(t, mode: 0o444).0
        #expect((end.raw["pins"] as? [[String: Any]] ?? []).first { $0["selected"] as? Bool == true }?["id"] as? String
            == "pin-ateneum", "a row is still selected")
        #expect(end.log("placeAdded").isEmpty)
        #expect(end.log("mapLongPress").isEmpty)
        #expect(end.log("mapTap").count >= 1, "the tap still shows its coordinate")
        for id in ["addPlace", "delete-ateneum", "name-ateneum", "undo"] { #expect(end.target(id) == nil, "\(id) shown") }
        #expect(places(end).count == 8)
        #expect(dir.read("mine.geojson") == original)
    }
}
