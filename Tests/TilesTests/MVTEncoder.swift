import Tiles

/// A test-only Mapbox Vector Tile encoder, so the tests can build tiles with known content.
/// It writes what the spec says a producer writes: version 2, packed tags and geometry,
/// ClosePath after each ring, keys and values deduplicated per layer.
enum MVTEncoder {
    static func encode(_ tile: VectorTile) -> [UInt8] {
        var out = ProtobufWriter()
        for layer in tile.layers { out.message(3, encodeLayer(layer)) }
        return out.bytes
    }

    static func encodeLayer(_ layer: VectorLayer) -> [UInt8] {
        var out = ProtobufWriter()
        out.varintField(15, 2)
        out.bytesField(1, Array(layer.name.utf8))
        var keys: [String] = [], values: [PropertyValue] = []
        for feature in layer.features {
            var f = ProtobufWriter()
            if let id = feature.id { f.varintField(1, id) }
            var tags: [UInt64] = []
            for (key, value) in feature.properties.sorted(by: { $0.key < $1.key }) {
                let k = keys.firstIndex(of: key) ?? { keys.append(key); return keys.count - 1 }()
                let v = values.firstIndex(of: value) ?? { values.append(value); return values.count - 1 }()
                tags += [UInt64(k), UInt64(v)]
            }
            if !tags.isEmpty { f.packed(2, tags) }
            let typeCode: UInt64
            switch feature.type {
            case .unknown: typeCode = 0
            case .point: typeCode = 1
            case .lineString: typeCode = 2
            case .polygon: typeCode = 3
            }
            f.varintField(3, typeCode)
            f.packed(4, geometry(feature.parts, type: feature.type))
            out.message(2, f.bytes)
        }
        for key in keys { out.bytesField(3, Array(key.utf8)) }
        for value in values {
            var v = ProtobufWriter()
            switch value {
            case .string(let s): v.bytesField(1, Array(s.utf8))
            case .double(let d):
                v.key(3, wireType: 1)
                for i in 0..<8 { v.bytes.append(UInt8(truncatingIfNeeded: d.bitPattern >> (8 * UInt64(i)))) }
            case .int(let i) where i < 0: v.varintField(6, UInt64(bitPattern: (i << 1) ^ (i >> 63)))
            case .int(let i): v.varintField(4, UInt64(i))
            case .bool(let b): v.varintField(7, b ? 1 : 0)
            }
            out.message(4, v.bytes)
        }
        out.varintField(5, UInt64(layer.extent))
        return out.bytes
    }

    static func zigzag(_ n: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (n << 1) ^ (n >> 31))) }

    static func command(_ id: UInt64, _ count: Int) -> UInt64 { id | UInt64(count) << 3 }

    static func geometry(_ parts: [[TilePoint]], type: GeometryType) -> [UInt64] {
        var out: [UInt64] = []
        var cx: Int32 = 0, cy: Int32 = 0
        func delta(_ p: TilePoint) {
            out += [zigzag(p.x - cx), zigzag(p.y - cy)]
            cx = p.x
            cy = p.y
        }
        for part in parts where !part.isEmpty {
            if type == .point {
                out.append(command(1, part.count))
                part.forEach(delta)
                continue
            }
            out.append(command(1, 1))
            delta(part[0])
            if part.count > 1 {
                out.append(command(2, part.count - 1))
                part.dropFirst().forEach(delta)
            }
            if type == .polygon { out.append(command(7, 1)) }
        }
        return out
    }
}

/// Protobuf wire-format output for the encoder.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func key(_ field: UInt64, wireType: UInt64) { varint(field << 3 | wireType) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, wireType: 0)
        varint(value)
    }

    mutating func bytesField(_ field: UInt64, _ data: [UInt8]) {
        key(field, wireType: 2)
        varint(UInt64(data.count))
        bytes += data
    }

    mutating func message(_ field: UInt64, _ data: [UInt8]) { bytesField(field, data) }

    mutating func packed(_ field: UInt64, _ values: [UInt64]) {
        var inner = ProtobufWriter()
        for v in values { inner.varint(v) }
        bytesField(field, inner.bytes)
    }
}
