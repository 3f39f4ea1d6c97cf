import Geo
import Glibc

/// The open places file: its places, the edits made to them (with undo and redo), and saving
/// them back safely. It never overwrites a file another program changed since it was read:
/// with no edits of ours it reloads theirs, otherwise ours goes beside it as
/// `NAME (conflict).geojson`.
public final class PlacesDocument {
    /// The file, absolute, symbolic links resolved.
    public let path: String
    public private(set) var collection: PlacesCollection
    /// Why the file cannot be edited, or nil when it can.
    public private(set) var readOnlyReason: String?
    /// What the user should be told (a conflict, a failed save, a reload), newest last.
    public private(set) var notices: [String] = []
    private var history = EditHistory()
    /// The version on disk our state derives from; nil before the file first exists.
    private var fingerprint: FileFingerprint?
    private var mode: mode_t

    public var places: [DocumentPlace] { collection.places }
    public var isReadOnly: Bool { readOnlyReason != nil }
    /// Edits not yet on disk.
    public var isDirty: Bool { history.isDirty }
    public var canUndo: Bool { history.canUndo }
    public var canRedo: Bool { history.canRedo }

    /// What the header shows: the collection's own `name`, else the file name without `.geojson`.
    public var name: String {
        if let n = collection.name, !n.isEmpty { return n }
        let file = AtomicFile.split(path).name
        for ext in [".geojson", ".json"] where file.lowercased().hasSuffix(ext) {
            return String(file.dropLast(ext.count))
        }
        return file
    }

    /// Opens a places file. Not JSON, not GeoJSON or unreadable: an error naming the file (and
    /// line and column), and the file is left as it is.
    public init(path: String) throws(DocumentError) {
        self.path = AtomicFile.resolved(path)
        let read = try PlacesDocument.read(self.path, as: path)
        collection = read.collection
        fingerprint = read.fingerprint
        mode = read.mode
        readOnlyReason = PlacesDocument.whyReadOnly(self.path, mode: read.mode)
        if readOnlyReason == nil { AtomicFile.removeStaleTemporaries(of: self.path) }
    }

    /// The warnings of the last read (coordinates out of range), each naming file, line and column.
    public var warnings: [String] { collection.warnings.map { "\(path):\($0)" } }

    /// The file's places and the version read; errors name `shownPath` (the path as given).
    private static func read(_ path: String, as shownPath: String) throws(DocumentError)
        -> (collection: PlacesCollection, fingerprint: FileFingerprint, mode: mode_t) {
        let read = try AtomicFile.read(path)
        do {
            return (try PlacesCollection(parsing: read.bytes), read.fingerprint, read.mode)
        } catch {
            throw DocumentError(path: shownPath, location: error.location, message: error.message)
        }
    }

    static func whyReadOnly(_ path: String, mode: mode_t) -> String? {
        // No write bit at all is a read-only file even for root, who may write anything.
        if mode & 0o222 == 0 || access(path, W_OK) != 0 { return "the file is read-only" }
        let folder = AtomicFile.split(path).folder
        if access(folder, W_OK) != 0 { return "its folder is read-only, so it cannot be saved safely" }
        return nil
    }

    // MARK: Edits

    public func place(_ id: PlaceID) -> DocumentPlace? { collection.place(id) }

    private func commit(_ change: FeatureChange?) -> Bool {
        guard readOnlyReason == nil, let change else { return false }
        collection.apply(change)
        history.record(change)
        return true
    }

    /// Adds a place at `coordinate`, named `name` or "Place N"; nil when read-only.
    @discardableResult
    public func add(name: String? = nil, at coordinate: Coordinate) -> PlaceID? {
        guard let change = collection.adding(name: name ?? collection.freshName(), at: coordinate),
              commit(change)
        else { return nil }
        return change.edit.placeID
    }

    @discardableResult
    public func rename(_ id: PlaceID, to name: String) -> Bool { commit(collection.renaming(id, to: name)) }

    @discardableResult
    public func move(_ id: PlaceID, to coordinate: Coordinate) -> Bool { commit(collection.moving(id, to: coordinate)) }

    @discardableResult
    public func delete(_ id: PlaceID) -> Bool { commit(collection.deleting(id)) }

    /// Undoes the last edit; returns what it undid.
    @discardableResult
    public func undo() -> PlaceEdit? {
        guard readOnlyReason == nil, let c = history.undo() else { return nil }
        collection.apply(c)
        return c.edit
    }

    @discardableResult
    public func redo() -> PlaceEdit? {
        guard readOnlyReason == nil, let c = history.redo() else { return nil }
        collection.apply(c)
        return c.edit
    }

    // MARK: Saving

    public enum SaveResult: Equatable, Sendable {
        /// Nothing to save.
        case clean
        case saved
        /// Another program changed the file and we had no edits: theirs is now shown.
        case reloaded
        /// Another program changed the file while we had edits: theirs is kept and shown, ours
        /// was written to this path beside it.
        case conflict(savedAs: String)
        /// Nothing was written; the edits stay in memory (and dirty).
        case failed(String)
    }

    /// Writes the edits, unless another program changed the file since we read it (see the type).
    @discardableResult
    public func save() -> SaveResult {
        if let reason = readOnlyReason { return isDirty ? .failed("not saved: \(reason)") : .clean }
        let onDisk = AtomicFile.fingerprint(path)
        if onDisk != nil, onDisk != fingerprint {
            return isDirty ? saveBeside() : reloadFromDisk()
        }
        guard isDirty else { return .clean }
        do {
            fingerprint = try AtomicFile.write(Array(collection.text.utf8), to: path, mode: mode)
            history.markSaved()
            return .saved
        } catch {
            return note(.failed("\(error)"))
        }
    }

    /// Another program may have changed the file (a watch fired): reload when we have no edits.
    @discardableResult
    public func checkDisk() -> SaveResult {
        let onDisk = AtomicFile.fingerprint(path)
        guard onDisk != nil, onDisk != fingerprint else { return .clean }
        return isDirty ? save() : reloadFromDisk()
    }

    /// Where our copy goes when the file changed under us: `NAME (conflict).geojson`, or
    /// `NAME (conflict 2).geojson` and so on, never over an existing file.
    public var conflictPath: String {
        let (folder, file) = AtomicFile.split(path)
        var stem = file
        var ext = ""
        if let dot = file.lastIndex(of: "."), dot != file.startIndex {
            stem = String(file[..<dot])
            ext = String(file[dot...])
        }
        var n = 1
        while true {
            let candidate = "\(folder)/\(stem) (conflict\(n == 1 ? "" : " \(n)"))\(ext.isEmpty ? ".geojson" : ext)"
            if access(candidate, F_OK) != 0 { return candidate }
            n += 1
        }
    }

    private func saveBeside() -> SaveResult {
        let beside = conflictPath
        do {
            try AtomicFile.write(Array(collection.text.utf8), to: beside, mode: mode)
        } catch {
            return note(.failed("\(error)"))
        }
        let reloaded = reloadFromDisk()
        if case .failed(let why) = reloaded {
            // Theirs cannot be read; ours is safe beside it. Edit nothing more here.
            readOnlyReason = "the file changed on disk and cannot be read again (\(why))"
        }
        return note(.conflict(savedAs: beside))
    }

    private func reloadFromDisk() -> SaveResult {
        do {
            let read = try PlacesDocument.read(path, as: path)
            collection = read.collection
            fingerprint = read.fingerprint
            mode = read.mode
            readOnlyReason = PlacesDocument.whyReadOnly(path, mode: read.mode)
            history.reset()
            return note(.reloaded)
        } catch {
            return note(.failed("\(error)"))
        }
    }

    private func note(_ result: SaveResult) -> SaveResult {
        switch result {
        case .conflict(let beside):
            notices.append("\(name) changed on disk: kept that version, yours is saved as \(AtomicFile.split(beside).name)")
        case .reloaded: notices.append("\(name) changed on disk and was reloaded")
        case .failed(let why) where isDirty: notices.append("Not saved: \(why)")
        case .failed(let why): notices.append("Could not read the new version: \(why)")
        case .clean, .saved: break
        }
        return result
    }

    // MARK: Creating

    /// Creates `path` from `sample` (the shipped sample file) unless it exists; its folder too.
    public static func createIfMissing(_ path: String, from sample: String) throws(DocumentError) {
        if access(path, F_OK) == 0 { return }
        try AtomicFile.makeFolders(AtomicFile.split(path).folder)
        let read = try AtomicFile.read(sample)
        // The sample must itself be valid: a broken install should say so, not copy garbage.
        do {
            _ = try PlacesCollection(parsing: read.bytes)
        } catch {
            throw DocumentError(path: sample, location: error.location, message: error.message)
        }
        try AtomicFile.write(read.bytes, to: path, mode: 0o644)
    }
}
