import Geo
import Testing
@testable import Places

struct EditTests {
    let folder = TemporaryFolder()

    func document(_ text: String = richGeoJSON) throws -> PlacesDocument {
        try PlacesDocument(path: folder.write("trip.geojson", text))
    }

    @Test func addRenameMoveDeleteEachChangeTheDocument() throws {
        let d = try document()
        let here = Coordinate(latitude: 60.168, longitude: 24.95)
        let id = try #require(d.add(at: here))
        #expect(d.place(id)?.name == "Place 3")
        #expect(d.place(id)?.coordinate == here)
        #expect(d.rename(id, to: "Market hall"))
        #expect(d.move(id, to: Coordinate(latitude: 60.167, longitude: 24.951)))
        #expect(d.places.last?.name == "Market hall")
        #expect(d.delete(d.places[0].id))
        #expect(d.places.map(\.name) == ["Kauppatori", "Market hall"])
        #expect(d.isDirty)
    }

    @Test func everyEditUndoesAndRedoesInOrder() throws {
        let d = try document()
        let start = d.collection
        let first = d.places[0].id
        let id = try #require(d.add(name: "New", at: Coordinate(latitude: 1, longitude: 2)))
        d.rename(first, to: "Renamed")
        d.move(first, to: Coordinate(latitude: 60, longitude: 25))
        d.delete(id)
        var states = [d.collection]
        #expect(d.undo() == .deleted(id))
        states.append(d.collection)
        #expect(d.undo() == .moved(first))
        #expect(d.undo() == .renamed(first))
        #expect(d.undo() == .added(id))
        #expect(d.undo() == nil)
        #expect(d.collection == start)
        #expect(!d.isDirty)
        #expect(d.redo() == .added(id))
        #expect(d.redo() == .renamed(first))
        #expect(d.redo() == .moved(first))
        #expect(d.collection == states[1])
        #expect(d.redo() == .deleted(id))
        #expect(d.collection == states[0])
        #expect(d.redo() == nil)
    }

    @Test func undoingBackToTheSavedStateIsCleanAndANewEditDropsRedo() throws {
        let d = try document()
        let a = d.places[0].id
        d.rename(a, to: "One")
        #expect(d.save() == .saved)
        #expect(!d.isDirty)
        d.rename(a, to: "Two")
        #expect(d.isDirty)
        d.undo()
        #expect(!d.isDirty)
        d.undo()
        #expect(d.isDirty)   // before the save: differs from the file
        d.rename(a, to: "Three")
        #expect(!d.canRedo)
        #expect(d.isDirty)
    }

    @Test func editsThatChangeNothingAreNotRecorded() throws {
        let d = try document()
        let a = d.places[0]
        #expect(!d.rename(a.id, to: a.name))
        #expect(!d.move(a.id, to: a.coordinate))
        #expect(!d.move(a.id, to: Coordinate(latitude: 91, longitude: 0)))
        #expect(!d.rename(PlaceID("no-such-place"), to: "x"))
        #expect(!d.canUndo)
        #expect(!d.isDirty)
    }

    @Test func newPlacesGetNamesAndIDsNoOtherHas() throws {
        let d = try document()
        d.rename(d.places[0].id, to: "Place 3")
        let a = try #require(d.add(at: Coordinate(latitude: 1, longitude: 1)))
        let b = try #require(d.add(at: Coordinate(latitude: 2, longitude: 2)))
        #expect(d.place(a)?.name == "Place 4")
        #expect(d.place(b)?.name == "Place 5")
        #expect(Set(d.places.map(\.id)).count == d.places.count)
        // Saved and read again, the new places keep their ids.
        #expect(d.save() == .saved)
        let again = try PlacesDocument(path: d.path)
        #expect(again.places.map(\.id) == d.places.map(\.id))
        #expect(again.places.map(\.name) == d.places.map(\.name))
    }
}
