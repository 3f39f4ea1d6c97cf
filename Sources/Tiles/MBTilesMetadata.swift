import JSONText

/// What a tile file says about its tiles: an MBTiles 1.3 `metadata` table, or a PMTiles
/// archive's header and JSON metadata (both formats share this description).
public struct MBTilesMetadata: Sendable, Equatable {
    /// Where the file suggests the map opens (MBTiles `center` = "lon,lat,zoom"; the
    /// PMTiles header's centre).
    public struct Center: Sendable, Equatable {
        public var longitude: Double, latitude: Double
        /// The zoom in the file's own (256-px tile) numbering, when given.
        public var zoom: Double?
        public init(longitude: Double, latitude: Double, zoom: Double?) {
            self.longitude = longitude
            self.latitude = latitude
            self.zoom = zoom
        }
    }

    /// The area the tiles cover, in degrees.
    public struct Bounds: Sendable, Equatable {
        public var west: Double, south: Double, east: Double, north: Double
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
        }
    }

    /// The tileset's human-readable name, if given.
    public var name: String?
    /// The tile format; always "pbf" for a file `MBTilesSource` opened.
    public var format: String
    /// The shallowest and deepest zoom with tiles (metadata, or the tiles table when absent).
    public var minZoom: Int
    public var maxZoom: Int
    public var bounds: Bounds?
    /// The credit line to draw on the map, if the file names one, as plain text: tools often
    /// store HTML (`<a href=…>&copy; OpenStreetMap contributors</a>`), which is unwrapped.
    public var attribution: String?
    /// Every metadata row as stored, for keys this type does not interpret (`json`, `center`…).
    public var values: [String: String]
    /// The metadata's centre, nil when it has none (or an unusable one).
    public var center: Center?
    /// The `id` of each entry of `vector_layers` (MBTiles: inside the `json` row), in file
    /// order; empty when the metadata lists none. What a style picks its schema by.
    public var vectorLayerIDs: [String] = []

    public init(
        name: String?, format: String, minZoom: Int, maxZoom: Int, bounds: Bounds?,
        attribution: String?, values: [String: String]
    ) {
        self.name = name
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.attribution = attribution
        self.values = values
    }

    /// Reads the interpreted fields from raw rows. `tableZooms` supplies the zoom range when
    /// the metadata has none (it is asked only then: on a large file it costs a scan).
    static func parse(
        _ values: [String: String], file: String, tableZooms: () throws(TileError) -> (Int, Int)
    ) throws(TileError) -> MBTilesMetadata {
        guard let rawFormat = values["format"] else {
            throw TileError(file: file, kind: .wrongSchema("its metadata has no 'format' (it must be 'pbf' for vector tiles)"))
        }
        let format = rawFormat.trimmed.lowercased()
        guard format == "pbf" || format == "mvt" else { throw TileError(file: file, kind: .unsupportedFormat(rawFormat)) }

        func zoom(_ key: String) throws(TileError) -> Int? {
            guard let text = values[key] else { return nil }
            guard let value = Double(text.trimmed), value == value.rounded(), value >= 0, value <= Double(TileID.maxZoom) else {
                throw TileError(file: file, kind: .badMetadata(key: key, value: text))
            }
            return Int(value)
        }
        var minZoom = try zoom("minzoom"), maxZoom = try zoom("maxzoom")
        if minZoom == nil || maxZoom == nil {
            let (low, high) = try tableZooms()
            minZoom = minZoom ?? low
            maxZoom = maxZoom ?? high
        }
        guard let minZoom, let maxZoom, minZoom <= maxZoom else {
            throw TileError(file: file, kind: .badMetadata(key: "minzoom", value: "\(values["minzoom"] ?? "?") > maxzoom \(values["maxzoom"] ?? "?")"))
        }

        var bounds: Bounds?
        if let text = values["bounds"] {
            let numbers = text.split(separator: ",").compactMap { Double(String($0).trimmed) }
            guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
                throw TileError(file: file, kind: .badMetadata(key: "bounds", value: text))
            }
            bounds = Bounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
        }
        let attribution = values["attribution"].map { plainText($0) }.flatMap { $0.isEmpty ? nil : $0 }
        var metadata = MBTilesMetadata(
            name: values["name"], format: format, minZoom: minZoom, maxZoom: maxZoom, bounds: bounds,
            attribution: attribution, values: values)
        // A cosmetic key: an unusable centre is ignored rather than refusing the file.
        if let text = values["center"] {
            let numbers = text.split(separator: ",").compactMap { Double(String($0).trimmed) }
            if numbers.count >= 2, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 180, abs(numbers[1]) <= 90 {
                metadata.center = Center(longitude: numbers[0], latitude: numbers[1], zoom: numbers.count > 2 ? numbers[2] : nil)
            }
        }
        if let json = values["json"].flatMap({ JSONValue.parse($0, maximumDepth: maximumJSONDepth) }) {
            metadata.vectorLayerIDs = layerIDs(json["vector_layers"])
        }
        return metadata
    }

    /// The ids in a `vector_layers` array; entries without a string `id` are left out.
    static func layerIDs(_ layers: JSONValue?) -> [String] {
        (layers?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// Metadata JSON nesting deeper than this is refused as damaged (a hostile file must not
    /// exhaust the stack; real `vector_layers` nest four levels).
    static let maximumJSONDepth = 64
}

/// `html` without tags and with the few entities attributions use, trimmed.
func plainText(_ html: String) -> String {
    var text = ""
    var inTag = false
    for character in html {
        if character == "<" { inTag = true } else if character == ">" && inTag { inTag = false } else if !inTag { text.append(character) }
    }
    let entities = [("&copy;", "©"), ("&#169;", "©"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")]
    for (entity, replacement) in entities { text = text.replacingAll(entity, with: replacement) }
    return text.trimmed
}

extension String {
    /// The string with every occurrence of `target` replaced (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }

    /// The string without leading and trailing spaces, tabs and newlines.
    var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
