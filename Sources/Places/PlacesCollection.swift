import Geo
import JSONText

/// A place's identity in its document, never its name: names change and repeat. It is the
/// feature's GeoJSON `id` when that is a string or number unique in the file, otherwise one
/// Meridian gives it (`p1`, `p2`, … by position) for as long as the file is open.
public struct PlaceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (a: PlaceID, b: PlaceID) -> Bool { a.rawValue < b.rawValue }
}

/// One place of the document: a GeoJSON Point feature, with what Meridian shows of it.
public struct DocumentPlace: Equatable, Sendable {
    public let id: PlaceID
    /// `properties.name` (a number is shown as written; anything else as "").
    public var name: String
    /// `properties.description`, shown under the name.
    public var description: String
    public var coordinate: Coordinate

    public init(id: PlaceID, name: String, description: String = "", coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.description = description
        self.coordinate = coordinate
    }
}

/// A problem in a GeoJSON file that does not stop it from opening (the value is left as it is).
public struct GeoJSONWarning: Equatable, Sendable, CustomStringConvertible {
    public var location: TextPosition
    public var message: String

    public var description: String { "\(location): \(message)" }
}

/// A GeoJSON (RFC 7946) FeatureCollection whose Point features are places. Everything else in
/// the file — other properties, foreign members, other geometries, numbers as written — is
/// kept and written back as it was read; only what an edit changes is rewritten.
public struct PlacesCollection: Equatable, Sendable {
    /// One feature, in file order.
    enum Feature: Equatable, Sendable {
        /// A Point Meridian shows; `json` is the whole feature object, edits applied.
        case place(DocumentPlace, json: JSONValue)
        /// Anything else, written back untouched.
        case other(JSONValue)

        var place: DocumentPlace? {
            if case .place(let p, _) = self { return p }
            return nil
        }

        var json: JSONValue {
            switch self {
            case .place(_, let j), .other(let j): return j
            }
        }
    }

    /// The top-level object; its `features` member is rebuilt from `features` on write.
    var root: JSONValue
    var features: [Feature]
    public private(set) var warnings: [GeoJSONWarning] = []

    /// The places, in file order.
    public var places: [DocumentPlace] { features.compactMap(\.place) }

    public func place(_ id: PlaceID) -> DocumentPlace? {
        features.lazy.compactMap(\.place).first { $0.id == id }
    }

    /// The root's own `"name"` member when it is a string (uMap, QGIS and others write one).
    public var name: String? { root["name"]?.stringValue }

    /// An empty collection.
    public init() {
        root = .object([JSONMember("type", .string("FeatureCollection")), JSONMember("features", .array([]))])
        features = []
    }

    /// The document as JSON, edits applied.
    public var json: JSONValue { root.setting("features", to: .array(features.map(\.json))) }

    /// The file's text: indented UTF-8 JSON.
    public var text: String { json.text }

    // MARK: Reading

    /// Reads a FeatureCollection. Not GeoJSON: a `GeoJSONError` naming line and column.
    public init(parsing bytes: [UInt8]) throws(GeoJSONError) {
        let parsed: ParsedJSON
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            throw GeoJSONError(location: error.location, message: "not valid JSON: \(error.message)")
        }
        try self.init(parsed)
    }

    init(_ parsed: ParsedJSON) throws(GeoJSONError) {
        func fail(_ path: [Int], _ message: String) -> GeoJSONError {
            GeoJSONError(location: parsed.location(of: path), message: "not GeoJSON: \(message)")
        }
        guard case .object(let members) = parsed.value else {
            throw fail([], "the file must hold one JSON object, a FeatureCollection")
        }
        guard let type = parsed.value["type"] else { throw fail([], "the top-level object has no \"type\"") }
        guard type.stringValue == "FeatureCollection" else {
            let typeIndex = members.firstIndex { $0.key == "type" } ?? 0
            throw fail([typeIndex], "the top-level \"type\" is \(JSONValue.brief(type)), not \"FeatureCollection\"")
        }
        guard let featuresIndex = members.firstIndex(where: { $0.key == "features" }) else {
            throw fail([], "the FeatureCollection has no \"features\" array")
        }
        guard case .array(let items) = members[featuresIndex].value else {
            throw fail([featuresIndex], "\"features\" must be an array")
        }
        root = parsed.value
        features = []
        var usedIDs = Set<String>()
        var pending: [(index: Int, feature: JSONValue, place: DocumentPlace)] = []
        var outOfRange: [(path: [Int], message: String)] = []
        for (i, item) in items.enumerated() {
            let path = [featuresIndex, i]
            let f = try PlacesCollection.checkFeature(item, at: path, parsed, fail)
            guard let point = f.point else {
                features.append(.other(item))
                if let id = f.id { usedIDs.insert(id) }
                continue
            }
            let (lon, lat) = (point.lon, point.lat)
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                outOfRange.append((point.path, "a Point at longitude \(point.lonText), latitude \(point.latText) is outside ±180/±90 degrees; left as it is and not shown"))
                features.append(.other(item))
                if let id = f.id { usedIDs.insert(id) }
                continue
            }
            // IDs are settled once every feature is seen: a duplicated id is no identity.
            let place = DocumentPlace(id: PlaceID(f.id ?? ""), name: PlacesCollection.text(item["properties"]?["name"]),
                                      description: PlacesCollection.text(item["properties"]?["description"]),
                                      coordinate: Coordinate(latitude: lat, longitude: lon))
            pending.append((features.count, item, place))
            features.append(.other(item))
        }
        if !outOfRange.isEmpty {
            // One reread finds where they all are.
            let positions = parsed.locations(of: outOfRange.map(\.path))
            warnings = zip(positions, outOfRange).map { GeoJSONWarning(location: $0, message: $1.message) }
        }
        var counts: [String: Int] = [:]
        for f in features { if let id = PlacesCollection.featureID(f.json) { counts[id, default: 0] += 1 } }
        var next = 1
        for p in pending {
            var id = p.place.id.rawValue
            if id.isEmpty || counts[id, default: 0] > 1 {
                repeat { id = "p\(next)"; next += 1 } while counts[id] != nil || usedIDs.contains(id)
                usedIDs.insert(id)
            }
            var place = p.place
            place = DocumentPlace(id: PlaceID(id), name: place.name, description: place.description, coordinate: place.coordinate)
            features[p.index] = .place(place, json: p.feature)
        }
    }

    private struct CheckedFeature {
        var id: String?
        var point: (lon: Double, lat: Double, lonText: String, latText: String, path: [Int])?
    }

    private static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
                                                     "MultiPolygon", "GeometryCollection"]

    private static func checkFeature(_ item: JSONValue, at path: [Int], _ parsed: ParsedJSON,
                                     _ fail: ([Int], String) -> GeoJSONError) throws(GeoJSONError) -> CheckedFeature {
        guard case .object(let members) = item else { throw fail(path, "each feature must be an object") }
        guard item["type"]?.stringValue == "Feature" else {
            throw fail(path, "a member of \"features\" has type \(item["type"].map(JSONValue.brief) ?? "missing"), not \"Feature\"")
        }
        if let p = item["properties"] {
            switch p {
            case .object, .null: break
            default: throw fail(path + [members.firstIndex { $0.key == "properties" } ?? 0], "\"properties\" must be an object or null")
            }
        }
        guard let gIndex = members.firstIndex(where: { $0.key == "geometry" }) else {
            throw fail(path, "a Feature has no \"geometry\" (null is allowed)")
        }
        let geometry = members[gIndex].value
        let result = CheckedFeature(id: featureID(item), point: nil)
        if geometry == .null { return result }
        guard case .object(let gMembers) = geometry, let gType = geometry["type"]?.stringValue else {
            throw fail(path + [gIndex], "\"geometry\" must be null or an object with a \"type\"")
        }
        guard geometryTypes.contains(gType) else {
            throw fail(path + [gIndex], "unknown geometry type \(JSONValue.brief(.string(gType)))")
        }
        if gType == "GeometryCollection" {
            guard geometry["geometries"]?.arrayValue != nil else {
                throw fail(path + [gIndex], "a GeometryCollection needs a \"geometries\" array")
            }
            return result
        }
        guard let cIndex = gMembers.firstIndex(where: { $0.key == "coordinates" }),
              case .array(let coordinates) = gMembers[cIndex].value
        else { throw fail(path + [gIndex], "a \(gType) needs a \"coordinates\" array") }
        guard gType == "Point" else { return result }
        let cPath = path + [gIndex, cIndex]
        guard coordinates.count >= 2 else { throw fail(cPath, "a Point's coordinates need a longitude and a latitude") }
        for (k, c) in coordinates.enumerated() {
            guard case .number = c else { throw fail(cPath + [k], "a Point's coordinates must be numbers") }
        }
        guard case .number(let lonText) = coordinates[0], case .number(let latText) = coordinates[1],
              let lon = Double(lonText), let lat = Double(latText)
        else { throw fail(cPath, "a Point's coordinates must be numbers") }
        var r = result
        r.point = (lon, lat, lonText, latText, cPath)
        return r
    }

    static func featureID(_ feature: JSONValue) -> String? {
        switch feature["id"] {
        case .string(let s)?: return s
        case .number(let n)?: return n
        default: return nil
        }
    }

    static func text(_ v: JSONValue?) -> String {
        switch v {
        case .string(let s)?: return s
        case .number(let n)?: return n
        default: return ""
        }
    }
}

/// A file that is not JSON or not GeoJSON, with the line and column of the offending value.
public struct GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: TextPosition
    public var message: String

    public var description: String { "\(location): \(message)" }
}

extension JSONValue {
    /// A short rendering for messages: strings quoted, containers named.
    static func brief(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return "\"\(s.prefix(40))\""
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }
}
