import CZlib

/// Test-only deflate, to store fixture tiles the way MBTiles producers do.
enum Compression {
    enum Wrapper { case gzip, zlib }

    static func compress(_ data: [UInt8], as wrapper: Wrapper) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 writes a zlib header; +16 writes a gzip header instead.
        let windowBits: Int32 = wrapper == .gzip ? 31 : 15
        guard deflateInit2_(&stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return []
        }
        defer { deflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(data.count))) + 32)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
}
