/// A failure to read protobuf bytes: what was expected and where.
struct ProtobufError: Error, Equatable {
    var message: String
    var offset: Int
}

/// A bounds-checked reader over protobuf wire format: every read either consumes at least one
/// byte or throws, so no input can make a decoding loop spin or read out of bounds.
struct ProtobufReader {
    /// The protobuf wire types MVT uses (groups, types 3 and 4, are obsolete and rejected).
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    private let end: Int

    /// Reads `bytes[range]`; the caller keeps the buffer alive while the reader is used.
    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        let r = range ?? 0..<bytes.count
        offset = r.lowerBound
        end = r.upperBound
    }

    var isAtEnd: Bool { offset >= end }

    /// Bytes left to read.
    var remainingUpperBound: Int { end - offset }

    private func fail(_ message: String) -> ProtobufError { ProtobufError(message: message, offset: offset) }

    /// A base-128 varint of at most 10 bytes.
    @inline(__always)
    mutating func varint() throws(ProtobufError) -> UInt64 {
        // Most varints in a tile (field keys, tags, geometry deltas) are below 128: one byte,
        // read here without the loop; two-byte ones are the next most common. Everything
        // else, errors included, takes the general path from the same offset, so results and
        // error offsets do not depend on these shortcuts.
        if offset < end {
            let byte = bytes[offset]
            if byte < 0x80 {
                offset += 1
                return UInt64(byte)
            }
            // Two bytes (128…16383): geometry deltas at low zooms are often this long.
            if offset + 1 < end, bytes[offset + 1] < 0x80 {
                let value = UInt64(byte & 0x7F) | UInt64(bytes[offset + 1]) << 7
                offset += 2
                return value
            }
        }
        return try multiByteVarint()
    }

    /// `varint()` for values of three or more bytes, and for the errors.
    @inline(never)
    private mutating func multiByteVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw fail("a number runs past the end of its field") }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64 else { throw fail("a number is longer than 10 bytes") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A field key: its number and wire type.
    mutating func fieldKey() throws(ProtobufError) -> (field: UInt64, wireType: WireType) {
        let key = try varint()
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw fail("unknown wire type \(key & 7)")
        }
        let field = key >> 3
        guard field > 0 else { throw fail("field number 0") }
        return (field, type)
    }

    mutating func fixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw fail("a 4-byte number runs past the end") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return value
    }

    mutating func fixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw fail("an 8-byte number runs past the end") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return value
    }

    /// The byte range of a length-delimited field, which the reader then skips.
    mutating func lengthDelimited() throws(ProtobufError) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - offset) else {
            throw fail("a field claims \(length) bytes but only \(end - offset) remain")
        }
        let start = offset
        offset += Int(length)
        return start..<offset
    }

    /// A reader for a nested message or packed field.
    mutating func nested() throws(ProtobufError) -> ProtobufReader {
        let range = try lengthDelimited()
        return ProtobufReader(bytes, range: range)
    }

    mutating func string() throws(ProtobufError) -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Skips a field of `type` that the decoder does not use.
    mutating func skip(_ type: WireType) throws(ProtobufError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        }
    }

    /// Calls `body` with each uint32 of a repeated field, packed (wire type 2) or not (0).
    mutating func uint32s(_ type: WireType, _ body: (UInt32) throws(ProtobufError) -> Void) throws(ProtobufError) {
        switch type {
        case .varint:
            try body(UInt32(truncatingIfNeeded: try varint()))
        case .lengthDelimited:
            var packed = try nested()
            while !packed.isAtEnd { try body(UInt32(truncatingIfNeeded: try packed.varint())) }
        default:
            throw fail("a list of numbers has wire type \(type.rawValue)")
        }
    }

    /// Decodes a zigzag-encoded signed value (0 → 0, 1 → -1, 2 → 1, …).
    static func zigzag(_ value: UInt32) -> Int32 {
        Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    static func zigzag64(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
