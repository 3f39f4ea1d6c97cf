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
        Place(id: "cathedral", name: "Helsinki Cathedral", detail: "Senate Square",
              coordinate: Coordinate(latitude: 60.17030, longitude: 24.95220)),
        Place(id: "market", name: "Market Square", detail: "Kauppatori, by the harbour",
              coordinate: Coordinate(latitude: 60.16750, longitude: 24.95300)),
        Place(id: "station", name: "Central Station", detail: "Rautatientori",
              coordinate: Coordinate(latitude: 60.17160, longitude: 24.94140)),
        Place(id: "uspenski", name: "Uspenski Cathedral", detail: "Katajanokka",
              coordinate: Coordinate(latitude: 60.16850, longitude: 24.95980)),
        Place(id: "esplanadi", name: "Esplanadi Park", detail: "Between the two Esplanades",
              coordinate: Coordinate(latitude: 60.16760, longitude: 24.94750)),
        Place(id: "kiasma", name: "Kiasma", detail: "Museum of contemporary art",
              coordinate: Coordinate(latitude: 60.17200, longitude: 24.93650)),
        Place(id: "oldmarket", name: "Old Market Hall", detail: "Vanha kauppahalli",
              coordinate: Coordinate(latitude: 60.16640, longitude: 24.95370)),
        Place(id: "stockmann", name: "Stockmann", detail: "Aleksanterinkatu",
              coordinate: Coordinate(latitude: 60.16850, longitude: 24.94200)),
    ]

    /// Where the map looks at start: the centre between the landmarks, close enough for streets.
    public static let startCenter = Coordinate(latitude: 60.16900, longitude: 24.94800)
    public static let startZoom = 14.6
}
