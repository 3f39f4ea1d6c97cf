/// What a tap target (or a focus stop) on the page is, by kind and by place: the one identity
/// the pins, the rows, the focus order, the log and the state dump share. `name` is the
/// outside contract's spelling (contracts.md section 3 and 3.1); nothing else spells it.
public enum TargetID: Hashable, Sendable, CustomStringConvertible {
    /// The map itself: a focus stop (arrows pan it), not a tap target.
    case map
    case zoomIn
    case zoomOut
    /// Shown while the map is rotated; a tap turns north up.
    case compass
    /// A place's pin on the map, by the place's id.
    case pin(String)
    /// A place's row in the list, by the place's id.
    case row(String)
    /// The tapped point's callout action.
    case addPlace
    /// The delete button in the selected place's row.
    case delete(String)
    /// The on-screen undo shown for a while after a delete.
    case undo
    /// The name field in the selected place's row (beyond contracts.md §3.1).
    case nameField(String)

    /// The name the state dump and the log use: `zoomIn`, `pin-<id>`, `place-<id>`, `delete-<id>`, …
    public var name: String {
        switch self {
        case .map: "map"
        case .zoomIn: "zoomIn"
        case .zoomOut: "zoomOut"
        case .compass: "compass"
        case .pin(let id): "pin-\(id)"
        case .row(let id): "place-\(id)"
        case .addPlace: "addPlace"
        case .delete(let id): "delete-\(id)"
        case .undo: "undo"
        case .nameField(let id): "name-\(id)"
        }
    }

    /// The target a contract name names, if any (the inverse of `name`).
    public init?(name: String) {
        switch name {
        case "map": self = .map
        case "zoomIn": self = .zoomIn
        case "zoomOut": self = .zoomOut
        case "compass": self = .compass
        case "addPlace": self = .addPlace
        case "undo": self = .undo
        default:
            for (prefix, make) in [("pin-", TargetID.pin), ("place-", TargetID.row), ("delete-", TargetID.delete),
                                   ("name-", TargetID.nameField)]
            where name.hasPrefix(prefix) && name.count > prefix.count {
                self = make(String(name.dropFirst(prefix.count)))
                return
            }
            return nil
        }
    }

    /// The place a pin, row or delete button belongs to.
    public var placeID: String? {
        switch self {
        case .pin(let id), .row(let id), .delete(let id), .nameField(let id): id
        default: nil
        }
    }

    public var description: String { name }
}
