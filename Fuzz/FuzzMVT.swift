/// libFuzzer target: the Mapbox Vector Tile decoder on raw (uncompressed) bytes.
///
/// Built by scripts/fuzz.sh together with Sources/Tiles; a throw is a clean rejection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMVT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? MVTDecoder.decode(bytes)
    return 0
}
