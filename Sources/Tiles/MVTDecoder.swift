/// Decodes Mapbox Vector Tile protobuf bytes (MVT 2.1, also version 1) into `VectorTile`.
///
/// Written against the vector-tile-spec 2.1 text: Tile.layers = 3; Layer: version 15, name 1,
/// features 2, keys 3, values 4, extent 5; Feature: id 1, tags 2, type 3, geometry 4; Value:
/// string 1, float 2, double 3, int64 4, uint64 5, sint64 6, bool 7. Every input either
/// decodes or throws `ProtobufError`; counts are checked against the bytes that remain and
/// capped by `Limits`, so damaged data cannot crash, loop or exhaust memory.
enum MVTDecoder {
    /// Sanity caps far above what any real tile holds.
    enum Limits {
        static let layers = 1_000
        static let featuresPerLayer = 2_000_000
        /// Coordinates stay within ±2^30 so that clipping and rescaling cannot overflow.
        static let coordinateMagnitude: Int64 = 1 << 30
    }

    static func decode(_ data: [UInt8]) throws(ProtobufError) -> VectorTile {
        try data.withUnsafeBytes(decodeResult).get()
    }

    /// Decodes `raw` (valid only during the call), as a Result because the closures that
    /// hand out raw bytes rethrow only untyped errors.
    static func decodeResult(_ raw: UnsafeRawBufferPointer) -> Result<VectorTile, ProtobufError> {
        do throws(ProtobufError) {
            return .success(try decodeTile(raw))
        } catch {
            return .failure(error)
        }
    }

    private static func decodeTile(_ raw: UnsafeRawBufferPointer) throws(ProtobufError) -> VectorTile {
        var reader = ProtobufReader(raw)
        var layers: [VectorLayer] = []
        while !reader.isAtEnd {
            let (field, type) = try reader.fieldKey()
            if field == 3, type == .lengthDelimited {
                guard layers.count < Limits.layers else {
                    throw ProtobufError(message: "more than \(Limits.layers) layers", offset: reader.offset)
                }
                var layerReader = try reader.nested()
                layers.append(try decodeLayer(&layerReader))
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

    private static func decodeLayer(_ reader: inout ProtobufReader) throws(ProtobufError) -> VectorLayer {
        let start = reader.offset
        var name: String?
        var version: UInt64 = 1
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
            case (15, .varint): version = try reader.varint()
            default: try reader.skip(type)
            }
        }
        guard let name else { throw ProtobufError(message: "a layer has no name", offset: start) }
        guard version == 1 || version == 2 else {
            throw ProtobufError(message: "layer '\(name)' has version \(version); only 1 and 2 exist", offset: start)
        }
        guard extent > 0, extent <= UInt64(Limits.coordinateMagnitude) else {
            throw ProtobufError(message: "layer '\(name)' has extent \(extent)", offset: start)
        }

        var features: [VectorFeature] = []
        features.reserveCapacity(raw.count)
        var points = PointBuffer()
        for feature in raw {
            guard feature.tags.count % 2 == 0 else {
                throw ProtobufError(message: "a feature in '\(name)' has an odd number of tags", offset: start)
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
            let parts: [[TilePoint]]
            switch feature.geometry {
            case .none: parts = []
            case .packed(var reader): parts = try decodeGeometry(&reader, into: &points, layer: name, offset: start)
            case .unpacked(let integers):
                var stream = IntegerList(integers: integers)
                parts = try decodeGeometry(&stream, into: &points, layer: name, offset: start)
            }
            features.append(VectorFeature(id: feature.id, type: feature.type, parts: parts, properties: properties))
        }
        return VectorLayer(name: name, extent: UInt32(extent), features: features)
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
                switch try reader.varint() {
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
        _ commands: inout Stream, into points: inout PointBuffer, layer: String, offset: Int
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
                // Each repetition takes two parameters; the stream cannot hold more than this
                // many, so a damaged count cannot make us reserve or loop beyond the data.
                guard count <= commands.remainingUpperBound / 2 else { throw damaged("a command needs more numbers than remain") }
                if command == 1 {
                    if !points.isEmpty { parts.append(points.takeAll()) }
                } else if points.isEmpty {
                    throw damaged("LineTo before any MoveTo")
                }
                points.reserveCapacity(points.count + count)
                for _ in 0..<count {
                    guard let dx = try commands.next(), let dy = try commands.next() else {
                        throw damaged("a command needs more numbers than remain")
                    }
                    // The cursor stays within ±2^30 and a delta within Int32, so the sums
                    // cannot overflow and the checked coordinates fit Int32: no trap checks
                    // needed in this, the decoder's hottest loop.
                    x &+= Int64(ProtobufReader.zigzag(dx))
                    y &+= Int64(ProtobufReader.zigzag(dy))
                    guard (-magnitude...magnitude).contains(x), (-magnitude...magnitude).contains(y) else {
                        throw damaged("a coordinate is out of range")
                    }
                    points.appendReserved(TilePoint(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y)))
                }
            case 7:
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
