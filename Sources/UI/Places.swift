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

/// The places of central Helsinki the page lists, all inside the shipped OpenStreetMap extract.
/// Coordinates are the landmarks' public positions (OpenStreetMap, ODbL).
public enum HelsinkiPlaces {
    public static let all: [Place] = [
        Place(id: "station", name: "Central Station", detail: "Rautatientori",
              coordinate: Coordinate(latitude: 60.17160, longitude: 24.94140)),
        Place(id: "ateneum", name: "Ateneum", detail: "Art museum on Railway Square",
              coordinate: Coordinate(latitude: 60.17020, longitude: 24.94420)),
        Place(id: "theatre", name: "National Theatre", detail: "Läntinen teatterikuja",
              coordinate: Coordinate(latitude: 60.17250, longitude: 24.94480)),
        Place(id: "kiasma", name: "Kiasma", detail: "Museum of contemporary art",
              coordinate: Coordinate(latitude: 60.17200, longitude: 24.93650)),
        Place(id: "stockmann", name: "Stockmann", detail: "Aleksanterinkatu",
              coordinate: Coordinate(latitude: 60.16850, longitude: 24.94200)),
        Place(id: "esplanadi", name: "Esplanadi Park", detail: "Between the two Esplanades",
              coordinate: Coordinate(latitude: 60.16760, longitude: 24.94750)),
        Place(id: "cathedral", name: "Helsinki Cathedral", detail: "Senate Square",
              coordinate: Coordinate(latitude: 60.17030, longitude: 24.95220)),
        Place(id: "oldchurch", name: "Old Church Park", detail: "Bulevardi",
              coordinate: Coordinate(latitude: 60.16530, longitude: 24.93800)),
    ]

    /// Where the map looks at start: the middle of the OpenStreetMap extract (lon 24.935…24.953,
    /// lat 60.164…60.179), at a whole zoom so tiles are drawn 1:1 and streets are readable.
    public static let startCenter = Coordinate(latitude: 60.17000, longitude: 24.94400)
    public static let startZoom = 16.0
}
