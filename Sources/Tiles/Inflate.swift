import CLibdeflate
import CZlib

/// Turns a tile blob as stored in MBTiles into protobuf bytes: gzip (what GDAL and tilemaker
/// write) and zlib streams are inflated, anything else is taken as uncompressed protobuf.
///
/// libdeflate inflates first (whole-buffer, about twice zlib's speed on tiles); whatever it
/// does not finish cleanly within the cap (damage, a stream larger than its hint and every
/// regrow up to the cap, no memory for its decompressor) is inflated again by zlib from the
/// start, so every failure and its message are zlib's, as before.
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
        withDecompressed(data) { Array($0) }
    }

    /// Calls `body` with the protobuf bytes in `data`, which are valid only during the call:
    /// inflated bytes are not copied into an array (the tile reader decodes them in place), and
    /// raw protobuf is passed as it is.
    static func withDecompressed<R>(
        _ data: [UInt8], using inflater: Inflater = .libdeflate, _ body: (UnsafeRawBufferPointer) -> R
    ) -> Result<R, InflateFailure> {
        let encoding = encoding(of: data)
        if encoding == .raw { return .success(data.withUnsafeBytes(body)) }
        return data.withUnsafeBufferPointer { input in
            var output = OutputBuffer(capacity: initialCapacity(for: input, encoding: encoding))
            if inflater == .libdeflate, inflateWhole(input, encoding: encoding, into: &output) {
                return .success(output.withBytes(body))
            }
            output.count = 0
            if let failure = inflate(input, into: &output) { return .failure(failure) }
            return .success(output.withBytes(body))
        }
    }

    /// Which library inflates: libdeflate with zlib behind it (what the app uses), or zlib
    /// alone (the tests compare the two).
    enum Inflater { case libdeflate, zlib }

    struct InflateFailure: Error { var message: String }

    /// Where to start the output buffer. A gzip stream ends with its inflated size modulo 2^32
    /// (ISIZE, RFC 1952), so a tile usually inflates in one call into exactly the memory it
    /// needs; a damaged or lying ISIZE costs only a regrow, since it is a hint, not a limit.
    /// 258 bytes of slack keep zlib on its fast loop (inflate_fast needs that much room) up to
    /// the stream's last byte. One byte over the cap is enough to tell that the cap was passed.
    static func initialCapacity(for input: UnsafeBufferPointer<UInt8>, encoding: Encoding) -> Int {
        var hint = input.count * 4
        if encoding == .gzip, input.count >= 18 {
            let end = input.count
            hint = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
        }
        return min(hint + 258, maxInflatedBytes + 1)
    }

    /// Inflates `input` whole with libdeflate into `output`, growing it while the stream does
    /// not fit, up to one byte over the cap; false when it did not come out cleanly within the
    /// cap (then `output` holds nothing to use). As with zlib, bytes after the stream's end
    /// (after a gzip stream's first member) are ignored, and the checksum and a gzip stream's
    /// size are checked.
    static func inflateWhole(_ input: UnsafeBufferPointer<UInt8>, encoding: Encoding, into output: inout OutputBuffer) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        while true {
            let spare = output.spare
            var read = 0, written = 0
            let result = encoding == .gzip
                ? libdeflate_gzip_decompress_ex(decompressor, input.baseAddress, input.count, spare.baseAddress, spare.count, &read, &written)
                : libdeflate_zlib_decompress_ex(decompressor, input.baseAddress, input.count, spare.baseAddress, spare.count, &read, &written)
            switch result {
            case LIBDEFLATE_SUCCESS:
                guard written <= maxInflatedBytes else { return false }
                output.count = written
                return true
            case LIBDEFLATE_INSUFFICIENT_SPACE where spare.count <= maxInflatedBytes:
                // Nothing written is kept: the whole stream is inflated again into more room.
                output.grow(limit: maxInflatedBytes + 1)
            default:
                return false
            }
        }
    }

    /// Inflates all of `input` into `output`; nil when the stream ended cleanly.
    private static func inflate(_ input: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> InflateFailure? {
        var stream = z_stream()
        // 15 + 32: the largest window, and accept either a gzip or a zlib header.
        let initCode = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initCode == Z_OK else { return InflateFailure(message: "zlib could not start (code \(initCode))") }
        defer { inflateEnd(&stream) }

        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        while true {
            if output.isFull { output.grow(limit: maxInflatedBytes + 1) }
            let spare = output.spare
            stream.next_out = spare.baseAddress
            stream.avail_out = UInt32(spare.count)
            // Z_FINISH: the whole input is here. When the output fits, zlib then finishes in one
            // call without keeping its 32 KiB history window; when it does not, the call stops
            // with Z_BUF_ERROR and a full buffer, and the next call carries on as usual.
            let code = CZlib.inflate(&stream, Z_FINISH)
            output.count += spare.count - Int(stream.avail_out)
            if output.count > maxInflatedBytes {
                return InflateFailure(message: "inflates to more than \(maxInflatedBytes >> 20) MiB")
            }
            switch code {
            case Z_STREAM_END:
                return nil
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_out == 0:
                continue   // out of room, not out of input: grow and go on
            case Z_BUF_ERROR:
                // Room was left, so zlib stopped for want of input.
                return InflateFailure(message: "the compressed stream ends early")
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                return InflateFailure(message: reason)
            }
        }
    }
}

/// Memory that inflated bytes are written into, growing when a stream turns out larger than
/// its hint; freed when the buffer goes out of scope. Shared by every decompressor.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var isFull: Bool { count == capacity }

    /// The unwritten part of the buffer.
    var spare: UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: base + count, count: capacity - count)
    }

    /// Doubles the capacity, to at most `limit`, keeping what was written.
    mutating func grow(limit: Int) {
        let grown = min(capacity * 2, limit)
        guard grown > capacity else { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
