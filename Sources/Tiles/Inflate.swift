import CZlib

/// Turns a tile blob as stored in MBTiles into protobuf bytes: gzip (what GDAL and tilemaker
/// write) and zlib streams are inflated, anything else is taken as uncompressed protobuf.
enum Inflate {
    /// No vector tile comes near this; a larger result means a decompression bomb or damage.
    static let maxInflatedBytes = 64 << 20

    /// What the blob's first bytes say it is.
    enum Encoding: Equatable { case gzip, zlib, raw }

    static func encoding(of data: [UInt8]) -> Encoding {
        guard data.count >= 2 else { return .raw }
        if data[0] == 0x1F, data[1] == 0x8B { return .gzip }
        // zlib: deflate method with a window ≤ 32 KiB, header checksum divisible by 31. A
        // protobuf tile starts with 0x1A (field 3, length-delimited), so this cannot clash.
        if data[0] & 0x0F == 8, data[0] >> 4 <= 7, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0 { return .zlib }
        return .raw
    }

    /// The protobuf bytes in `data`; a message describing the damage when inflation fails.
    static func decompress(_ data: [UInt8]) -> Result<[UInt8], InflateFailure> {
        switch encoding(of: data) {
        case .raw: return .success(data)
        case .gzip, .zlib: return inflate(data)
        }
    }

    struct InflateFailure: Error { var message: String }

    private static func inflate(_ data: [UInt8]) -> Result<[UInt8], InflateFailure> {
        var stream = z_stream()
        // 15 + 32: the largest window, and accept either a gzip or a zlib header.
        let initCode = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initCode == Z_OK else { return .failure(InflateFailure(message: "zlib could not start (code \(initCode))")) }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        output.reserveCapacity(min(data.count * 4, maxInflatedBytes))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return data.withUnsafeBufferPointer { input -> Result<[UInt8], InflateFailure> in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > maxInflatedBytes {
                    return .failure(InflateFailure(message: "inflates to more than \(maxInflatedBytes >> 20) MiB"))
                }
                switch code {
                case Z_STREAM_END:
                    return .success(output)
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // Every call gets a fresh output chunk, so no progress means no more input.
                    return .failure(InflateFailure(message: "the compressed stream ends early"))
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                    return .failure(InflateFailure(message: reason))
                }
            }
        }
    }
}
