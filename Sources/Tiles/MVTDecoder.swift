/// Decodes Mapbox Vector Tile protobuf bytes (MVT 2.1, also version 1) into `VectorTile`.
///
/// Written against the vector-tile-spec 2.1 text: Tile.layers = 3; Layer: version 15, name 1,
/// features 2, keys 3, values 4, extent 5; Feature: id 1, tags 2, type 3, geometry 4; Value:
/// string 1, float 2, double 3, int64 4, uint64 5, sint64 6, bool 7. Every input either
/// decodes or throws `ProtobufError`; counts are checked against the bytes that remain and
/// capped by `Limits`, so damaged data cannot crash, loop or exhaust memory.
///
/// Errors follow the spec's split, as the `mapbox/mvt-fixtures` suite marks them
/// (docs/MAP-ENGINE.md, "Damaged tiles"). Recoverable: a feature without a type or geometry,
/// with a type outside the enum, or with an odd number of tags is dropped and counted in
/// `VectorTile.droppedFeatures`; the rest of the tile stands. Fatal (the tile is refused): a
/// layer without a name, a field with the wrong wire type, a tag pointing past the
/// keys or values, a value of no known type, geometry that starts with ClosePath, a ClosePath
/// count other than 1, ClosePath in a version-2 line, half a coordinate pair. Valid oddities
/// decode: coordinates accumulate in 64 bits (a cursor past Int32 is clamped to ±2^30 when
/// stored), and a command count larger than the pairs that follow reads the pairs there are.
enum MVTDecoder {
    /// Sanity caps far above what any real tile holds.
    enum Limits {
        static let layers = 1_000
        static let featuresPerLayer = 2_000_000
        /// Coordinates stay within ±2^30 so that clipping and rescaling cannot overflow.
        static let coordinateMagnitude: Int64 = 1 << 30
    }

    /// Decodes `data`; with `layers`, only the layers named there (see `decodeResult`).
    static func decode(_ data: [UInt8], layers: Set<String>? = nil) throws(ProtobufError) -> VectorTile {
        try data.withUnsafeBytes { decodeResult($0, layers: layers) }.get()
    }

    /// Decodes `raw` (valid only during the call), as a Result because the closures that
    /// hand out raw bytes rethrow only untyped errors.
    ///
    /// With `layers`, a layer named elsewhere is left out of the tile: its features are
    /// skipped unread once its name is known (the name comes first in every encoder's
    /// output), and never built otherwise, so nothing in them can fail the tile. The layer's
    /// own fields (name, version, extent) are still checked. A renderer asks only for the
    /// layers its style draws: the Natural Earth file's `countries` polygons, two fifths of a
    /// z4 tile's vertices, are drawn by no shipped style.
    static func decodeResult(_ raw: UnsafeRawBufferPointer, layers: Set<String>? = nil) -> Result<VectorTile, ProtobufError> {
        do throws(ProtobufError) {
            return .success(try decodeTile(raw, layers: layers))
        } catch {
            return .failure(error)
        }
    }

    private static func decodeTile(_ raw: UnsafeRawBufferPointer, layers wanted: Set<String>?) throws(ProtobufError) -> VectorTile {
        var reader = ProtobufReader(raw)
        var layers: [VectorLayer] = []
        while !reader.isAtEnd {
            let (field, type) = try reader.fieldKey()
            if field == 3, type == .lengthDelimited {
                guard layers.count < Limits.layers else {
                    throw ProtobufError(message: "more than \(Limits.layers) layers", offset: reader.offset)
                }
                var layerReader = try reader.nested()
                if let layer = try decodeLayer(&layerReader, wanted: wanted) { layers.append(layer) }
            } else {
                try reader.skip(type)
            }
        }
        return VectorTile(layers: layers)
    }

    /// A feature before its tags are resolved against the layer's keys and values, which
    /// the protobuf may list after the features.
    private struct RawFeature {
        var id: UInt64?
        var type: GeometryType = .unknown
        /// The raw `type` field, nil when absent (0 is a valid UNKNOWN; absent or > 3 is not).
        var rawType: UInt64?
        /// Where this feature's tags are in the layer's list of all tags (one list per layer
        /// rather than one small array per feature).
        var tags: Range<Int> = 0..<0
        var geometry = GeometryField.none
    }

    /// Where a feature's geometry commands are: usually one packed field, decoded straight
    /// from the tile's bytes without an intermediate array.
    private enum GeometryField {
        case none
        case packed(ProtobufReader)
        case unpacked([UInt32])

        /// All integers so far, as a list.
        func integers() throws(ProtobufError) -> [UInt32] {
            switch self {
            case .none: return []
            case .unpacked(let list): return list
            case .packed(var reader):
                var list: [UInt32] = []
                while let integer = try reader.next() { list.append(integer) }
                return list
            }
        }
    }

    /// The layer, or nil when `wanted` does not name it.
    private static func decodeLayer(_ reader: inout ProtobufReader, wanted: Set<String>?) throws(ProtobufError) -> VectorLayer? {
        let start = reader.offset
        var name: String?
        var rawVersion: UInt64?
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [PropertyValue] = []
        var raw: [RawFeature] = []
        var tags: [UInt32] = []
        while !reader.isAtEnd {
            let (field, type) = try reader.fieldKey()
            switch (field, type) {
            case (1, .lengthDelimited): name = try reader.string()
            case (2, .lengthDelimited):
                if let wanted, let name, !wanted.contains(name) {
                    _ = try reader.lengthDelimited()
                    continue
                }
                guard raw.count < Limits.featuresPerLayer else {
                    throw ProtobufError(message: "more than \(Limits.featuresPerLayer) features in a layer", offset: reader.offset)
                }
                var featureReader = try reader.nested()
                raw.append(try decodeFeature(&featureReader, tags: &tags))
            case (3, .lengthDelimited): keys.append(try reader.string())
            case (4, .lengthDelimited):
                var valueReader = try reader.nested()
                values.append(try decodeValue(&valueReader))
            case (5, .varint): extent = try reader.varint()
            case (15, .varint): rawVersion = try reader.varint()
            case (1...5, _), (15, _):
                // A known field with the wrong wire type (a version or extent as a string, a
                // key as a number): the layer cannot be trusted.
                throw ProtobufError(message: "layer field \(field) has wire type \(type.rawValue)", offset: reader.offset)
            default: try reader.skip(type)
            }
        }
        guard let name else { throw ProtobufError(message: "a layer has no name", offset: start) }
        // Absent: proto2's default, 1. (The suite calls its 024 fatal, but its 061, valid in
        // version 1, has no version field either; version-1 decoding is the lenient reading.)
        let version = rawVersion ?? 1
        guard version == 1 || version == 2 else {
            throw ProtobufError(message: "layer '\(name)' has version \(version); only 1 and 2 exist", offset: start)
        }
        guard extent > 0, extent <= UInt64(Limits.coordinateMagnitude) else {
            throw ProtobufError(message: "layer '\(name)' has extent \(extent)", offset: start)
        }
        if let wanted, !wanted.contains(name) { return nil }

        var features: [VectorFeature] = []
        features.reserveCapacity(raw.count)
        var points = PointBuffer()
        var dropped = 0
        for feature in raw {
            // Recoverable: this feature cannot be styled or drawn right, the others can.
            guard feature.tags.count % 2 == 0 else {
                dropped += 1
                continue
            }
            var properties = [String: PropertyValue](minimumCapacity: feature.tags.count / 2)
            var i = feature.tags.lowerBound
            while i < feature.tags.upperBound {
                let k = Int(tags[i]), v = Int(tags[i + 1])
                guard k < keys.count, v < values.count else {
                    throw ProtobufError(message: "a feature in '\(name)' refers to a missing key or value", offset: start)
                }
                properties[keys[k]] = values[v]
                i += 2
            }
            let noGeometry: Bool
            if case .none = feature.geometry { noGeometry = true } else { noGeometry = false }
            guard let rawType = feature.rawType, rawType <= 3, !noGeometry else {
                dropped += 1
                continue
            }
            let parts: [[TilePoint]]
            // Version 1 allowed ClosePath in lines and with any count; version 2 does not.
            let closes: ClosePathRule = version == 1 ? .any : (feature.type == .polygon || feature.type == .unknown ? .once : .never)
            switch feature.geometry {
            case .none: parts = []
            case .packed(var reader):
                parts = try decodeGeometry(&reader, into: &points, layer: name, offset: start, closesLines: closes)
            case .unpacked(let integers):
                var stream = IntegerList(integers: integers)
                parts = try decodeGeometry(&stream, into: &points, layer: name, offset: start, closesLines: closes)
            }
            features.append(VectorFeature(id: feature.id, type: feature.type, parts: parts, properties: properties))
        }
        var layer = VectorLayer(name: name, extent: UInt32(extent), features: features)
        layer.droppedFeatures = dropped
        return layer
    }

    /// Reads one feature, appending its tags to `tags`.
    private static func decodeFeature(_ reader: inout ProtobufReader, tags: inout [UInt32]) throws(ProtobufError) -> RawFeature {
        var feature = RawFeature()
        let firstTag = tags.count
        while !reader.isAtEnd {
            let (field, type) = try reader.fieldKey()
            switch (field, type) {
            case (1, .varint): feature.id = try reader.varint()
            case (2, _): try reader.uint32s(type) { tags.append($0) }
            case (3, .varint):
                let raw = try reader.varint()
                feature.rawType = raw
                switch raw {
                case 1: feature.type = .point
                case 2: feature.type = .lineString
                case 3: feature.type = .polygon
                default: feature.type = .unknown
                }
            case (4, .lengthDelimited):
                let packed = try reader.nested()
                if case .none = feature.geometry {
                    feature.geometry = .packed(packed)
                } else {
                    // Protobuf lets a repeated field arrive in several pieces; join them.
                    var integers = try feature.geometry.integers()
                    var more = packed
                    while let integer = try more.next() { integers.append(integer) }
                    feature.geometry = .unpacked(integers)
                }
            case (4, .varint):
                // Unpacked geometry (allowed by protobuf, rare in practice): collect it.
                var integers = try feature.geometry.integers()
                integers.append(UInt32(truncatingIfNeeded: try reader.varint()))
                feature.geometry = .unpacked(integers)
            default: try reader.skip(type)
            }
        }
        feature.tags = firstTag..<tags.count
        return feature
    }

    private static func decodeValue(_ reader: inout ProtobufReader) throws(ProtobufError) -> PropertyValue {
        // A Value holds exactly one field; if a damaged one holds several, the last wins.
        var value: PropertyValue?
        while !reader.isAtEnd {
            let (field, type) = try reader.fieldKey()
            switch (field, type) {
            case (1, .lengthDelimited): value = .string(try reader.string())
            case (2, .fixed32): value = .double(Double(Float(bitPattern: try reader.fixed32())))
            case (3, .fixed64): value = .double(Double(bitPattern: try reader.fixed64()))
            case (4, .varint): value = .int(Int64(bitPattern: try reader.varint()))
            case (5, .varint):
                let unsigned = try reader.varint()
                // Values past Int64.max cannot be an Int64; keep them approximately.
                value = unsigned <= UInt64(Int64.max) ? .int(Int64(unsigned)) : .double(Double(unsigned))
            case (6, .varint): value = .int(ProtobufReader.zigzag64(try reader.varint()))
            case (7, .varint): value = .bool(try reader.varint() != 0)
            default: try reader.skip(type)
            }
        }
        guard let value else { throw ProtobufError(message: "a property value is empty", offset: reader.offset) }
        return value
    }

    /// Runs the geometry commands (MoveTo 1, LineTo 2, ClosePath 7, with zigzag deltas from a
    /// cursor that carries across the whole feature) into parts: one per MoveTo for points
    /// and lines, one per ring for polygons. Rings are not closed explicitly: the last point
    /// is not a repeat of the first.
    static func decodeGeometry<Stream: IntegerStream>(
        _ commands: inout Stream, into points: inout PointBuffer, layer: String, offset: Int, closesLines: ClosePathRule = .once
    ) throws(ProtobufError) -> [[TilePoint]] {
        func damaged(_ what: String) -> ProtobufError {
            ProtobufError(message: "a feature in '\(layer)' has bad geometry: \(what)", offset: offset)
        }
        // The open part collects in `points` (reused from feature to feature) and is copied
        // out at its exact length when it ends, so a part costs one allocation however many
        // commands build it.
        var parts: [[TilePoint]] = []
        points.removeAll()
        var x: Int64 = 0, y: Int64 = 0
        let magnitude = Limits.coordinateMagnitude
        while let integer = try commands.next() {
            let command = integer & 7
            let count = Int(integer >> 3)
            switch command {
            case 1, 2:
                if command == 1 {
                    if !points.isEmpty { parts.append(points.takeAll()) }
                } else if points.isEmpty {
                    throw damaged("LineTo before any MoveTo")
                }
                // A count larger than the pairs that follow reads the pairs there are (the
                // valid fixture 057 has a MoveTo count of 2^29 − 1 and one pair); room is
                // reserved only for what the stream can hold, so a damaged count cannot make
                // us allocate or loop beyond the data.
                let pairs = min(count, commands.remainingUpperBound / 2 + 1)
                points.reserveCapacity(points.count + pairs)
                for _ in 0..<pairs {
                    guard let dx = try commands.next() else { break }
                    guard let dy = try commands.next() else { throw damaged("half a coordinate pair") }
                    // 64-bit sums of 32-bit deltas over at most 2^26 pairs cannot overflow.
                    x &+= Int64(ProtobufReader.zigzag(dx))
                    y &+= Int64(ProtobufReader.zigzag(dy))
                    // A cursor beyond ±2^30 is nowhere near the tile; clamped, the feature
                    // keeps its shape inside and clipping and rescaling cannot overflow.
                    points.appendReserved(TilePoint(x: Int32(min(max(x, -magnitude), magnitude)), y: Int32(min(max(y, -magnitude), magnitude))))
                }
            case 7:
                guard closesLines != .never else { throw damaged("ClosePath in a line") }
                guard count == 1 || closesLines == .any else { throw damaged("ClosePath with count \(count)") }
                guard !points.isEmpty else { throw damaged("ClosePath with no open ring") }
                // ClosePath only ends the ring; the closing edge is implied.
                parts.append(points.takeAll())
            default:
                throw damaged("unknown command \(command)")
            }
        }
        if !points.isEmpty { parts.append(points.takeAll()) }
        return parts
    }
}

/// Where ClosePath may appear: version 2 allows it once per ring of a polygon (or of unknown
/// geometry); version-1 encoders also wrote it in lines and with other counts.
enum ClosePathRule { case once, never, any }

/// A source of geometry integers: a packed protobuf field or a list.
protocol IntegerStream {
    /// The next integer, nil at the end.
    mutating func next() throws(ProtobufError) -> UInt32?
    /// At least as many integers as remain (a packed varint takes at least one byte).
    var remainingUpperBound: Int { get }
}

extension ProtobufReader: IntegerStream {
    mutating func next() throws(ProtobufError) -> UInt32? {
        isAtEnd ? nil : UInt32(truncatingIfNeeded: try varint())
    }
}

/// Geometry integers that arrived unpacked.
struct IntegerList: IntegerStream {
    var integers: [UInt32]
    var index = 0

    mutating func next() throws(ProtobufError) -> UInt32? {
        guard index < integers.count else { return nil }
        defer { index += 1 }
        return integers[index]
    }

    var remainingUpperBound: Int { integers.count - index }
}
