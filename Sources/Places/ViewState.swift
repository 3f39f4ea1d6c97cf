import Geo
import JSONText

/// How a document was last seen: the map camera, the page scroll and the selected place.
/// Kept per document under `$XDG_STATE_HOME/meridian/views/` (see `XDGPaths`).
public struct ViewState: Equatable, Sendable {
    public var documentPath: String
    public var center: Coordinate
    public var zoom: Double
    public var scrollY: Double
    public var selected: PlaceID?

    public init(documentPath: String, center: Coordinate, zoom: Double, scrollY: Double, selected: PlaceID?) {
        self.documentPath = documentPath
        self.center = center
        self.zoom = zoom
        self.scrollY = scrollY
        self.selected = selected
    }

    public var json: JSONValue {
        var members = [
            JSONMember("path", .string(documentPath)),
            JSONMember("center", .object([JSONMember("lat", JSONValue.number(of: center.latitude) ?? .null),
                                          JSONMember("lon", JSONValue.number(of: center.longitude) ?? .null)])),
            JSONMember("zoom", JSONValue.number(of: zoom) ?? .null),
            JSONMember("scrollY", JSONValue.number(of: scrollY) ?? .null),
        ]
        if let s = selected { members.append(JSONMember("selected", .string(s.rawValue))) }
        return .object(members)
    }

    /// Reads a saved view; nil for anything damaged or out of range (a view is only a convenience).
    public init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue, let lat = json["center"]?["lat"]?.doubleValue,
              let lon = json["center"]?["lon"]?.doubleValue, let zoom = json["zoom"]?.doubleValue,
              abs(lat) <= 90, abs(lon) <= 180, zoom.isFinite, (0...22).contains(zoom)
        else { return nil }
        let scroll = json["scrollY"]?.doubleValue ?? 0
        self.init(documentPath: path, center: Coordinate(latitude: lat, longitude: lon), zoom: zoom,
                  scrollY: scroll.isFinite ? max(0, scroll) : 0, selected: json["selected"]?.stringValue.map(PlaceID.init))
    }

    /// The view saved for `documentPath`, if any.
    public static func load(for documentPath: String, paths: XDGPaths) -> ViewState? {
        guard let read = try? AtomicFile.read(paths.viewStateFile(for: documentPath)),
              let parsed = try? JSONParser.parse(read.bytes),
              let view = ViewState(json: parsed.value), view.documentPath == documentPath
        else { return nil }
        return view
    }

    public func save(paths: XDGPaths) throws(DocumentError) {
        let file = paths.viewStateFile(for: documentPath)
        try AtomicFile.makeFolders(AtomicFile.split(file).folder)
        try AtomicFile.write(Array(json.text.utf8), to: file, mode: 0o600)
    }
}
