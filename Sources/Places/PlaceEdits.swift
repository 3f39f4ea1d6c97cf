import Geo
import JSONText

/// What one user edit did, named as the state dump's log names it (contracts.md §3.1).
public enum PlaceEdit: Equatable, Sendable {
    case added(PlaceID)
    case renamed(PlaceID)
    case moved(PlaceID)
    case deleted(PlaceID)

    public var placeID: PlaceID {
        switch self {
        case .added(let id), .renamed(let id), .moved(let id), .deleted(let id): return id
        }
    }

    /// `placeAdded`, `placeRenamed`, `placeMoved`, `placeDeleted`.
    public var logKind: String {
        switch self {
        case .added: return "placeAdded"
        case .renamed: return "placeRenamed"
        case .moved: return "placeMoved"
        case .deleted: return "placeDeleted"
        }
    }
}

/// One change to the feature list: a feature inserted, removed or replaced at an index. Every
/// edit is one of these, so undoing any edit is the same three lines.
struct FeatureChange: Equatable, Sendable {
    var edit: PlaceEdit
    var index: Int
    var before: PlacesCollection.Feature?
    var after: PlacesCollection.Feature?

    var inverse: FeatureChange { FeatureChange(edit: edit, index: index, before: after, after: before) }
}

extension PlacesCollection {
    func index(of id: PlaceID) -> Int? {
        features.firstIndex { $0.place?.id == id }
    }

    mutating func apply(_ change: FeatureChange) {
        switch (change.before, change.after) {
        case (nil, let f?): features.insert(f, at: min(change.index, features.count))
        case (_?, nil): features.remove(at: change.index)
        case (_?, let f?): features[change.index] = f
        case (nil, nil): break
        }
    }

    /// A new id like `p9`, used by no feature.
    func freshID() -> PlaceID {
        let used = Set(features.compactMap { $0.place?.id.rawValue ?? PlacesCollection.featureID($0.json) })
        var n = features.count + 1
        while used.contains("p\(n)") { n += 1 }
        return PlaceID("p\(n)")
    }

    /// A name like "Place 3" that no place has yet.
    func freshName() -> String {
        let names = Set(places.map(\.name))
        var n = places.count + 1
        while names.contains("Place \(n)") { n += 1 }
        return "Place \(n)"
    }

    func adding(name: String, at coordinate: Coordinate) -> FeatureChange? {
        guard let lon = JSONValue.number(of: coordinate.longitude), let lat = JSONValue.number(of: coordinate.latitude),
              abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180
        else { return nil }
        let id = freshID()
        let json = JSONValue.object([
            JSONMember("type", .string("Feature")),
            JSONMember("id", .string(id.rawValue)),
            JSONMember("geometry", .object([JSONMember("type", .string("Point")), JSONMember("coordinates", .array([lon, lat]))])),
            JSONMember("properties", .object([JSONMember("name", .string(name))])),
        ])
        let place = DocumentPlace(id: id, name: name, coordinate: coordinate)
        return FeatureChange(edit: .added(id), index: features.count, before: nil, after: .place(place, json: json))
    }

    func renaming(_ id: PlaceID, to name: String) -> FeatureChange? {
        guard let i = index(of: id), case .place(var place, let json) = features[i], place.name != name else { return nil }
        place.name = name
        let properties: JSONValue
        if case .object = json["properties"] ?? .null {
            properties = (json["properties"] ?? .null).setting("name", to: .string(name))
        } else {
            properties = .object([JSONMember("name", .string(name))])
        }
        return FeatureChange(edit: .renamed(id), index: i, before: features[i],
                             after: .place(place, json: json.setting("properties", to: properties)))
    }

    func moving(_ id: PlaceID, to coordinate: Coordinate) -> FeatureChange? {
        guard let i = index(of: id), case .place(var place, let json) = features[i], place.coordinate != coordinate,
              abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180,
              let lon = JSONValue.number(of: coordinate.longitude), let lat = JSONValue.number(of: coordinate.latitude),
              let geometry = json["geometry"], var coordinates = geometry["coordinates"]?.arrayValue, coordinates.count >= 2
        else { return nil }
        place.coordinate = coordinate
        // An altitude (a third number) and anything after it stay as they were.
        coordinates[0] = lon
        coordinates[1] = lat
        let moved = json.setting("geometry", to: geometry.setting("coordinates", to: .array(coordinates)))
        return FeatureChange(edit: .moved(id), index: i, before: features[i], after: .place(place, json: moved))
    }

    func deleting(_ id: PlaceID) -> FeatureChange? {
        guard let i = index(of: id) else { return nil }
        return FeatureChange(edit: .deleted(id), index: i, before: features[i], after: nil)
    }
}

/// Undo and redo over feature changes, and whether the current state is the one on disk.
struct EditHistory: Sendable {
    private(set) var done: [FeatureChange] = []
    private(set) var undone: [FeatureChange] = []
    /// How many changes of `done` the saved file reflects; nil once the saved state can no
    /// longer be reached by undo or redo.
    private var savedDepth: Int? = 0

    var isDirty: Bool { savedDepth != done.count }
    var canUndo: Bool { !done.isEmpty }
    var canRedo: Bool { !undone.isEmpty }

    mutating func record(_ change: FeatureChange) {
        // A new edit after undoing drops the redo branch; if the saved state was on it, it is gone.
        if let s = savedDepth, s > done.count { savedDepth = nil }
        undone.removeAll()
        done.append(change)
    }

    /// The change that undoes the last edit (already moved to the redo stack).
    mutating func undo() -> FeatureChange? {
        guard let c = done.popLast() else { return nil }
        undone.append(c)
        return c.inverse
    }

    mutating func redo() -> FeatureChange? {
        guard let c = undone.popLast() else { return nil }
        done.append(c)
        return c
    }

    mutating func markSaved() { savedDepth = done.count }

    /// The file was replaced from disk: nothing to undo into.
    mutating func reset() {
        done.removeAll()
        undone.removeAll()
        savedDepth = 0
    }
}
