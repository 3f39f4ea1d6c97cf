import Geo
import Glibc
import Input
import Places
import UI
import Wayland

/// The open places document as the app runs it: what the page shows comes from it, pin drags
/// and Ctrl+Z / Ctrl+Shift+Z change it, and it is saved a moment after each change (within a
/// second, `SaveSchedule`) and at exit. Its own log entries (`placeMoved`, `undo`, `redo`,
/// contracts.md §3.1) join the page's in the state dump.
final class DocumentSession {
    let document: PlacesDocument
    /// False for the headless run's scratch copy of the sample: edits stay in memory.
    let persistent: Bool
    private var schedule = SaveSchedule()
    private(set) var log: [LogEntry] = []
    /// How many page log entries have been looked at for pin drags.
    private var seenPageLog = 0

    init(document: PlacesDocument, persistent: Bool) {
        self.document = document
        self.persistent = persistent
    }

    static let sampleFile = "sample-places.geojson"

    /// The shipped sample, beside the shipped map data.
    static func samplePath() -> String? {
        MapData.shippedDirectory().map { "\($0)/\(sampleFile)" }.flatMap { access($0, R_OK) == 0 ? $0 : nil }
    }

    /// The document for `options`: FILE, else (live) the default file under $XDG_DATA_HOME,
    /// made from the sample on first run, else (headless) a scratch copy of the sample so that
    /// replays never touch the user's files. A FILE that cannot be read is an error naming it
    /// (exit 2); nil with no error means no sample is installed (a page with no places).
    static func open(for options: Options) throws(DocumentError) -> DocumentSession? {
        if let path = options.document {
            return DocumentSession(document: try PlacesDocument(path: path), persistent: true)
        }
        if options.headless { return scratchSample() }
        let path = XDGPaths.current.defaultPlacesFile
        if access(path, F_OK) != 0 {
            guard let sample = samplePath() else { return nil }
            try PlacesDocument.createIfMissing(path, from: sample)
        }
        return DocumentSession(document: try PlacesDocument(path: path), persistent: true)
    }

    /// The shipped sample, opened to show and edit in memory only; nil when it is not installed.
    static func scratchSample() -> DocumentSession? {
        guard let sample = samplePath(), let document = try? PlacesDocument(path: sample) else { return nil }
        return DocumentSession(document: document, persistent: false)
    }

    enum Opening {
        case opened(DocumentSession?)
        /// The error was printed: exit status 2.
        case failed
    }

    /// `open(for:)`, with its error and the file's warnings printed on stderr.
    static func report(_ options: Options) -> Opening {
        do {
            let session = try open(for: options)
            for w in session?.document.warnings ?? [] { printError("meridian: \(w)") }
            if let reason = session?.document.readOnlyReason, let path = session?.document.path {
                printError("meridian: \(path): opened read-only: \(reason)")
            }
            return .opened(session)
        } catch {
            printError("meridian: \(error)")
            return .failed
        }
    }

    /// The places as the page shows them.
    var pagePlaces: [UI.Place] {
        document.places.map { Place(id: $0.id.rawValue, name: $0.name, detail: $0.description, coordinate: $0.coordinate) }
    }

    /// What the window must say, if anything: the file is read-only, or the last save's news.
    var notice: String? {
        if let reason = document.readOnlyReason { return "Read-only: \(reason). Changes are not saved." }
        return document.notices.last
    }

    private func record(_ kind: String, at time: Double, _ fields: [(String, LogEntry.Value)]) {
        log.append(LogEntry(time: time, kind: kind, fields: fields))
    }

    private func changed(_ edit: PlaceEdit, at time: Double, kind: String? = nil) {
        var fields: [(String, LogEntry.Value)] = [("id", .text(edit.placeID.rawValue))]
        if let p = document.place(edit.placeID) {
            fields += [("lat", .number(p.coordinate.latitude)), ("lon", .number(p.coordinate.longitude)), ("name", .text(p.name))]
        }
        if let kind {
            record(kind, at: time, [("edit", .text(edit.logKind))] + fields)
        } else {
            record(edit.logKind, at: time, fields)
        }
        if persistent { schedule.changed(at: time) }
    }

    /// Looks at what the page did since the last call: a pin dropped somewhere new is a move.
    /// Returns true when the page must show the document again (a refused move snaps back).
    func pageChanged(_ page: MeridianPage) -> Bool {
        var resync = false
        while seenPageLog < page.log.count {
            let e = page.log[seenPageLog]
            seenPageLog += 1
            guard e.kind == "pinDragEnded", let pin = e.text("id"), let place = MeridianPage.placeID(ofPin: pin),
                  let lat = e.number("lat"), let lon = e.number("lon")
            else { continue }
            let id = PlaceID(place)
            if document.move(id, to: Coordinate(latitude: lat, longitude: lon)) {
                changed(.moved(id), at: e.time)
            } else if document.place(id)?.coordinate != Coordinate(latitude: lat, longitude: lon) {
                resync = true   // read-only, or out of range: the pin goes back to where the file has it
            }
        }
        return resync
    }

    /// Does what the page asked (PlaceRequest): each change is one undo step and is logged
    /// (`placeAdded`, `placeRenamed`, `placeDeleted`, `undo`). Returns the edits made (an undo
    /// not among them); a read-only document makes none.
    func apply(_ requests: [PlaceRequest], at time: Double) -> [PlaceEdit] {
        var edits: [PlaceEdit] = []
        for r in requests {
            switch r {
            case .add(let c):
                if let id = document.add(at: c) { edits.append(.added(id)) }
            case .rename(let place, let name):
                if document.rename(PlaceID(place), to: name) { edits.append(.renamed(PlaceID(place))) }
            case .delete(let place):
                if document.delete(PlaceID(place)) { edits.append(.deleted(PlaceID(place))) }
            case .undo:
                // Not returned: undoing a delete must not offer "Undo" again.
                if let edit = document.undo() { changed(edit, at: time, kind: "undo") }
                continue
            }
            if let e = edits.last { changed(e, at: time) }
        }
        return edits
    }

    /// The app built a new page (the set of places changed): its log starts empty.
    func pageReplaced() { seenPageLog = 0 }

    /// Ctrl+Z undoes, Ctrl+Shift+Z (and Ctrl+Y) redoes. True when the key was one of those.
    func handleKey(_ k: KeyEvent) -> Bool {
        guard k.state != .released, k.modifiers.contains(.control) else { return false }
        let key = k.keysym.lowercased()
        if key == "z" && !k.modifiers.contains(.shift) {
            if let edit = document.undo() { changed(edit, at: k.time, kind: "undo") }
            return true
        }
        if key == "z" || key == "y" {
            if let edit = document.redo() { changed(edit, at: k.time, kind: "redo") }
            return true
        }
        return false
    }

    var nextDeadline: Double? { schedule.deadline }

    /// Saves when the schedule says so. True when what the page shows may have changed
    /// (a reload from disk, a conflict, a new notice).
    func advance(to time: Double) -> Bool {
        guard schedule.isDue(at: time) else { return false }
        schedule.saved()
        return save()
    }

    /// Another program may have written the file (the folder watch fired).
    func fileMayHaveChanged() -> Bool {
        guard persistent else { return false }
        return document.checkDisk() != .clean
    }

    /// Saves now (at exit, or when due). True when the page should look again.
    @discardableResult
    func save() -> Bool {
        guard persistent else { return false }
        let notices = document.notices.count
        let result = document.save()
        if case .failed(let why) = result { printError("meridian: \(why)") }
        if case .conflict(let beside) = result { printError("meridian: \(document.path) changed on disk; your version is saved as \(beside)") }
        return document.notices.count != notices || result == .reloaded
    }
}

/// The shipped sample's places as the page shows them (empty when it is not installed): what
/// `meridian --headless` opens with, for the benchmarks that drive the shipped page.
public enum ShippedSample {
    public static func places() -> [UI.Place] { DocumentSession.scratchSample()?.pagePlaces ?? [] }
}
