import CBrotli
import CZstd

/// How a PMTiles file compresses its directories and its tiles (PMTiles v3 header bytes 97
/// and 98): 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd.
public enum TileCompression: UInt8, Sendable, Equatable, CustomStringConvertible {
    case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .none: return "none"
        case .gzip: return "gzip"
        case .brotli: return "brotli"
        case .zstd: return "zstd"
        }
    }
}

/// Decompresses bytes by a declared `TileCompression`, with the same 64 MiB cap and the same
/// shape of result as `Inflate` (which serves gzip, and sniffs gzip for `unknown`).
enum Decompression {
    static func withDecompressed<R>(
        _ data: [UInt8], _ compression: TileCompression, _ body: (UnsafeRawBufferPointer) -> R
    ) -> Result<R, Inflate.InflateFailure> {
        switch compression {
        case .none: return .success(data.withUnsafeBytes(body))
        // Inflate takes gzip and zlib streams and passes anything else through as it is.
        case .gzip, .unknown: return Inflate.withDecompressed(data, body)
        case .brotli, .zstd:
            return data.withUnsafeBufferPointer { input in
                var output = OutputBuffer(capacity: min(input.count * 4 + 256, Inflate.maxInflatedBytes + 1))
                let failure = compression == .brotli ? brotli(input, into: &output) : zstd(input, into: &output)
                if let failure { return .failure(failure) }
                return .success(output.withBytes(body))
            }
        }
    }

    static func decompress(_ data: [UInt8], _ compression: TileCompression) -> Result<[UInt8], Inflate.InflateFailure> {
        withDecompressed(data, compression) { Array($0) }
    }

    private static let cap = Inflate.maxInflatedBytes

    private static func brotli(_ input: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> Inflate.InflateFailure? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            return .init(message: "brotli could not start")
        }
        defer { BrotliDecoderDestroyInstance(state) }
        var availableIn = input.count
        var nextIn = input.baseAddress
        while true {
            if output.isFull { output.grow(limit: cap + 1) }
            let spare = output.spare
            var availableOut = spare.count
            var nextOut = spare.baseAddress
            let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
            output.count += spare.count - availableOut
            if output.count > cap { return .init(message: "decompresses to more than \(cap >> 20) MiB") }
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS:
                return availableIn == 0 ? nil : .init(message: "brotli stream ends before the data does")
            case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
            case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return .init(message: "the brotli stream ends early")
            default:
                let code = BrotliDecoderGetErrorCode(state)
                let text = BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                return .init(message: "brotli: \(text)")
            }
        }
    }

    private static func zstd(_ input: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) -> Inflate.InflateFailure? {
        guard let stream = ZSTD_createDStream() else { return .init(message: "zstd could not start") }
        defer { ZSTD_freeDStream(stream) }
        // A frame may ask for a window of up to 128 MiB by default; no tile needs more than
        // 8 MiB, and a damaged header then fails instead of allocating.
        _ = ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, 23)
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        while true {
            if output.isFull { output.grow(limit: cap + 1) }
            let spare = output.spare
            var target = ZSTD_outBuffer(dst: spare.baseAddress, size: spare.count, pos: 0)
            let result = ZSTD_decompressStream(stream, &target, &source)
            output.count += target.pos
            if ZSTD_isError(result) != 0 {
                return .init(message: "zstd: \(String(cString: ZSTD_getErrorName(result)))")
            }
            if output.count > cap { return .init(message: "decompresses to more than \(cap >> 20) MiB") }
            // 0: a frame is complete and flushed.
            if result == 0 {
                if source.pos == source.size { return nil }
                continue   // another frame follows
            }
            if source.pos == source.size && target.pos < target.size {
                return .init(message: "the zstd stream ends early")
            }
        }
    }
}
