import Geo
import Glibc
import Testing
@testable import Places

struct PathsAndScheduleTests {
    @Test func xdgVariablesAreUsedWhenAbsoluteAndHomeOtherwise() {
        let set = XDGPaths(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"])
        #expect(set.defaultPlacesFile == "/d/meridian/places.geojson")
        #expect(set.viewStateFile(for: "/x/a.geojson").hasPrefix("/s/meridian/views/"))
        let unset = XDGPaths(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative", "XDG_STATE_HOME": ""])
        #expect(unset.defaultPlacesFile == "/home/u/.local/share/meridian/places.geojson")
        #expect(unset.stateHome == "/home/u/.local/state")
    }

    @Test func twoDocumentsWithTheSameNameKeepTheirOwnView() {
        let p = XDGPaths(environment: ["HOME": "/h"])
        #expect(p.viewStateFile(for: "/a/places.geojson") != p.viewStateFile(for: "/b/places.geojson"))
        #expect(p.viewStateFile(for: "/a/places.geojson") == p.viewStateFile(for: "/a/places.geojson"))
    }

    @Test func aViewIsSavedAndRestoredPerDocument() throws {
        let folder = TemporaryFolder()
        let paths = XDGPaths(environment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path])
        let view = ViewState(documentPath: "/x/trip.geojson", center: Coordinate(latitude: 60.17, longitude: 24.94),
                             zoom: 15.5, scrollY: 120, selected: PlaceID("kiasma"))
        try view.save(paths: paths)
        #expect(ViewState.load(for: "/x/trip.geojson", paths: paths) == view)
        #expect(ViewState.load(for: "/x/other.geojson", paths: paths) == nil)
        let file = paths.viewStateFile(for: "/x/trip.geojson")
        #expect(fileMode(file) == 0o600)
        // A damaged view file is no view, not an error.
        folder.write(String(file.dropFirst(folder.path.count + 1)), "{\"path\": \"/x/trip.geojson\", \"zoom\": 99}")
        #expect(ViewState.load(for: "/x/trip.geojson", paths: paths) == nil)
        unlink(file)
        rmdir("\(folder.path)/meridian/views")
        rmdir("\(folder.path)/meridian")
    }

    @Test func anEditIsSavedSoonAfterTheLastChangeAndWithinASecondOfTheFirst() {
        var s = SaveSchedule()
        #expect(s.deadline == nil)
        s.changed(at: 1000)
        #expect(s.deadline == 1300)
        // A stream of edits (a drag) keeps pushing it back, but never past a second.
        for t in stride(from: 1100.0, through: 2500, by: 100) { s.changed(at: t) }
        #expect(s.deadline == 2000)
        #expect(s.isDue(at: 2000))
        #expect(!s.isDue(at: 1999))
        s.saved()
        #expect(s.deadline == nil)
    }
}
