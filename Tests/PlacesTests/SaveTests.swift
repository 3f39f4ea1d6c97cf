import Geo
import Glibc
import Testing
@testable import Places

struct SaveTests {
    let folder = TemporaryFolder()

    @Test func aSaveReplacesTheFileAndLeavesNothingElseInTheFolder() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        let d = try PlacesDocument(path: path)
        d.rename(d.places[0].id, to: "Saved")
        #expect(d.save() == .saved)
        #expect(folder.names() == ["trip.geojson"])
        #expect(try PlacesDocument(path: path).places[0].name == "Saved")
        #expect(d.save() == .clean)
    }

    @Test func theSavedFileKeepsTheOriginalsPermissions() throws {
        let path = folder.write("trip.geojson", richGeoJSON, mode: 0o640)
        let d = try PlacesDocument(path: path)
        d.rename(d.places[0].id, to: "Saved")
        #expect(d.save() == .saved)
        #expect(fileMode(path) == 0o640)
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsSaved() throws {
        let target = folder.write("real.geojson", richGeoJSON)
        let link = "\(folder.path)/link.geojson"
        symlink(target, link)
        let d = try PlacesDocument(path: link)
        d.rename(d.places[0].id, to: "Through the link")
        #expect(d.save() == .saved)
        var st = stat()
        lstat(link, &st)
        #expect(st.st_mode & S_IFMT == S_IFLNK)
        #expect(try PlacesDocument(path: target).places[0].name == "Through the link")
    }

    @Test func aReadOnlyFileOpensReadOnlyAndIsNeverWritten() throws {
        let path = folder.write("trip.geojson", richGeoJSON, mode: 0o444)
        let d = try PlacesDocument(path: path)
        #expect(d.isReadOnly)
        #expect(d.readOnlyReason?.contains("read-only") == true)
        #expect(!d.rename(d.places[0].id, to: "No"))
        #expect(d.add(at: Coordinate(latitude: 1, longitude: 1)) == nil)
        #expect(!d.delete(d.places[0].id))
        #expect(d.undo() == nil)
        #expect(d.save() == .clean)
        #expect(readText(path) == richGeoJSON)
    }

    @Test func aFileThatIsNotGeoJSONIsReportedWithFileLineAndColumnAndUntouched() throws {
        let text = "{\"type\": \"FeatureCollection\",\n \"features\": [}\n"
        let path = folder.write("bad.geojson", text)
        do {
            _ = try PlacesDocument(path: path)
            Issue.record("opened a file that is not JSON")
        } catch {
            #expect(error.description.hasPrefix("\(path):2:15: not valid JSON"))
        }
        #expect(readText(path) == text)
        #expect(folder.names() == ["bad.geojson"])
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        #expect(throws: DocumentError.self) { try PlacesDocument(path: "\(folder.path)/none.geojson") }
    }

    @Test func temporariesOfAKilledSaveAreRemovedOnTheNextOpen() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        // A pid that cannot be running: beyond pid_max.
        folder.write(".trip.geojson.save-99999999-abcdef", "{\"type\": \"Feature")
        // One of a live process (ours) is another save in progress: left alone.
        folder.write(".trip.geojson.save-\(getppid())-ghijkl", "{")
        _ = try PlacesDocument(path: path)
        #expect(folder.names() == [".trip.geojson.save-\(getppid())-ghijkl", "trip.geojson"])
    }

    @Test func theDefaultFileIsCreatedFromTheSampleOnce() throws {
        let sample = folder.write("sample.geojson", richGeoJSON)
        let target = "\(folder.path)/data/meridian/places.geojson"
        try PlacesDocument.createIfMissing(target, from: sample)
        #expect(readText(target) == richGeoJSON)
        let d = try PlacesDocument(path: target)
        d.rename(d.places[0].id, to: "Mine")
        #expect(d.save() == .saved)
        try PlacesDocument.createIfMissing(target, from: sample)
        #expect(try PlacesDocument(path: target).places[0].name == "Mine")
        unlink(target)
        rmdir("\(folder.path)/data/meridian")
        rmdir("\(folder.path)/data")
    }

    @Test func theHeaderNameIsTheCollectionsNameOrTheFileName() throws {
        #expect(try PlacesDocument(path: folder.write("trip.geojson", richGeoJSON)).name == "Trip")
        let bare = #"{"type": "FeatureCollection", "features": []}"#
        #expect(try PlacesDocument(path: folder.write("Summer 2026.geojson", bare)).name == "Summer 2026")
    }
}

struct ConflictTests {
    let folder = TemporaryFolder()

    /// Another program's save: a new file renamed over ours, as editors do.
    func otherProgramSaves(_ path: String, renaming first: String) throws {
        var c = try PlacesCollection(parsing: Array(try #require(readText(path)).utf8))
        c.apply(try #require(c.renaming(c.places[0].id, to: first)))
        try AtomicFile.write(Array(c.text.utf8), to: path, mode: 0o644)
    }

    @Test func withNoLocalEditsAChangedFileIsReloaded() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        let d = try PlacesDocument(path: path)
        try otherProgramSaves(path, renaming: "Theirs")
        #expect(d.checkDisk() == .reloaded)
        #expect(d.places[0].name == "Theirs")
        #expect(!d.isDirty)
        #expect(folder.names() == ["trip.geojson"])
        #expect(d.notices.last?.contains("reloaded") == true)
    }

    @Test func withLocalEditsTheirsIsKeptAndOursSavedBesideIt() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        let d = try PlacesDocument(path: path)
        d.rename(d.places[1].id, to: "Ours")
        try otherProgramSaves(path, renaming: "Theirs")
        let beside = "\(folder.path)/trip (conflict).geojson"
        #expect(d.save() == .conflict(savedAs: beside))
        let theirs = try PlacesDocument(path: path)
        #expect(theirs.places.map(\.name) == ["Theirs", "Kauppatori"])
        let ours = try PlacesDocument(path: beside)
        #expect(ours.places.map(\.name) == ["Rautatientori", "Ours"])
        // Theirs is what is shown now, and the notice says where ours went.
        #expect(d.places[0].name == "Theirs")
        #expect(d.notices.last?.contains("trip (conflict).geojson") == true)
    }

    @Test func aSecondConflictNeverOverwritesTheFirst() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        let d = try PlacesDocument(path: path)
        for round in 1...3 {
            d.rename(d.places[1].id, to: "Ours \(round)")
            try otherProgramSaves(path, renaming: "Theirs \(round)")
            guard case .conflict = d.save() else { Issue.record("round \(round): no conflict"); return }
        }
        #expect(folder.names() == ["trip (conflict 2).geojson", "trip (conflict 3).geojson", "trip (conflict).geojson", "trip.geojson"])
        #expect(try PlacesDocument(path: "\(folder.path)/trip (conflict 3).geojson").places[1].name == "Ours 3")
    }

    @Test func aFileWrittenInPlaceIsAChangeToo() throws {
        let path = folder.write("trip.geojson", richGeoJSON)
        let d = try PlacesDocument(path: path)
        d.rename(d.places[0].id, to: "Ours")
        // Same inode, different size and time: a program that truncates and writes.
        usleep(10_000)
        folder.write("trip.geojson", richGeoJSON.replacingOccurrences(of: "Kauppatori", with: "Market"))
        guard case .conflict = d.save() else { Issue.record("overwrote a file changed in place"); return }
        #expect(try PlacesDocument(path: path).places[1].name == "Market")
    }
}

extension String {
    func replacingOccurrences(of a: String, with b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
