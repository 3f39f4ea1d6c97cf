import Geo

/// A place listed on the page and pinned on the map.
public struct Place: Sendable, Equatable {
    public var id: String
    public var name: String
    public var detail: String
    public var coordinate: Coordinate

    public init(id: String, name: String, detail: String, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.detail = detail
        self.coordinate = coordinate
    }
}

/// Where the map looks at start when nothing else says: central Helsinki, where the shipped
/// OpenStreetMap extract and the shipped sample places (`data/sample-places.geojson`) are.
public enum HelsinkiPlaces {
    /// Where the map looks at start: the middle of the OpenStreetMap extract (lon 24.935…24.953,
    /// lat 60.164…60.179), at a whole zoom so tiles are drawn 1:1 and streets are readable.
    public static let startCenter = Coordinate(latitude: 60.17000, longitude: 24.94400)
    public static let startZoom = 16.0
}
