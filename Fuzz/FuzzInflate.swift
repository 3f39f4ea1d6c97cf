/// libFuzzer target: a stored tile blob as MBTiles hands it over — inflate, then decode.
///
/// Built by scripts/fuzz.sh together with Sources/Tiles. Seeds are gzip'd tiles from the
/// shipped data, so mutations reach both zlib's error paths and the decoder behind it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let inflated) = Inflate.decompress(bytes) {
        _ = try? MVTDecoder.decode(inflated)
    }
    return 0
}
