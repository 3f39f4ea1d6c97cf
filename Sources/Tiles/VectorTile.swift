/// A decoded Mapbox Vector Tile (MVT 2.1): layers of features whose geometry is in tile
/// coordinates, 0…extent on both axes (y down), possibly a little outside for buffers.
public struct VectorTile: Sendable, Equatable {
    public var layers: [VectorLayer]

    public init(layers: [VectorLayer]) { self.layers = layers }

    /// The first layer called `name` (layered sources may repeat a name; see LayeredTileSource).
    public func layer(named name: String) -> VectorLayer? { layers.first { $0.name == name } }

    /// Features the decoder dropped over all layers (recoverable errors in the tile).
    public var droppedFeatures: Int { layers.reduce(0) { $0 + $1.droppedFeatures } }
}

/// One named layer of a tile ("countries", "water", "building"…), styled by its name.
public struct VectorLayer: Sendable, Equatable {
    public var name: String
    /// Tile coordinates run from 0 to `extent` (usually 4096).
    public var extent: UInt32
    public var features: [VectorFeature]
    /// Features the decoder left out as unusable (no type or geometry, an odd tag list): the
    /// spec's recoverable errors. 0 for a clean layer.
    public var droppedFeatures = 0

    public init(name: String, extent: UInt32, features: [VectorFeature]) {
        self.name = name
        self.extent = extent
        self.features = features
    }
}

/// What a feature's parts describe; `unknown` features may be skipped by a renderer.
public enum GeometryType: Sendable, Equatable { case unknown, point, lineString, polygon }

/// A property value in an MVT layer.
public enum PropertyValue: Sendable, Equatable {
    case string(String)
    case double(Double)
    case int(Int64)
    case bool(Bool)
}

/// A vertex in tile coordinates (0…extent, y down; buffer geometry may lie outside).
public struct TilePoint: Sendable, Equatable {
    public var x: Int32
    public var y: Int32
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// One map object: a country, a road, a place, with its properties.
public struct VectorFeature: Sendable, Equatable {
    public var id: UInt64?
    public var type: GeometryType
    /// Points: one part per point group; lines: one part per line; polygons: rings in MVT
    /// order (an exterior ring, positive area in tile coordinates, then its holes).
    public var parts: [[TilePoint]]
    public var properties: [String: PropertyValue]

    public init(id: UInt64? = nil, type: GeometryType, parts: [[TilePoint]], properties: [String: PropertyValue] = [:]) {
        self.id = id
        self.type = type
        self.parts = parts
        self.properties = properties
    }
}

/// The address of a tile: zoom, column, row (XYZ scheme, row 0 at the north).
public struct TileID: Sendable, Hashable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }
    public var description: String { "\(z)/\(x)/\(y)" }
}

/// Something that hands out vector tiles: an MBTiles file, several layered, or a test fixture.
/// Implementations must be safe to call from tile worker threads.
public protocol VectorTileSource: Sendable {
    /// A short name for messages (the file path for files).
    var name: String { get }
    /// The credit line the data's licence asks for (e.g. "© OpenStreetMap contributors"),
    /// nil when the source names none.
    var attribution: String? { get }
    var minZoom: Int { get }
    var maxZoom: Int { get }
    /// The tile at `id`, nil where the source has none. Throws when the data is damaged.
    /// Past `maxZoom` a source overzooms: it returns the ancestor's features clipped to `id`
    /// and rescaled, so callers never need to know the data's depth.
    func tile(_ id: TileID) throws -> VectorTile?
    /// Tile `id` with at least the layers named in `layers`: a renderer asks for what its
    /// style draws, and a file source then decodes only those (the others' features are
    /// never built). Sources that cannot select hand out the whole tile (the default).
    func tile(_ id: TileID, layers: Set<String>) throws -> VectorTile?
}

extension VectorTileSource {
    public var attribution: String? { nil }
    public func tile(_ id: TileID, layers: Set<String>) throws -> VectorTile? { try tile(id) }
}
