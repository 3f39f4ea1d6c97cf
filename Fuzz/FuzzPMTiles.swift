import Glibc

/// libFuzzer target: arbitrary bytes written to a file and opened as a PMTiles archive.
///
/// Built by scripts/fuzz.sh together with Sources/Tiles. When the archive opens, every tile of
/// its lowest zoom level, a few deeper ones (through any leaf directories) and one overzoomed
/// tile are read, the way the map would on start.
nonisolated(unsafe) private var scratchPath: String?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = scratch()
    guard let file = fopen(path, "wb") else { return 0 }
    _ = fwrite(data, 1, size, file)
    fclose(file)
    guard let source = try? PMTilesSource(path: path) else { return 0 }
    _ = source.metadata.vectorLayerIDs
    let z = max(0, min(source.minZoom, 3))
    let side = 1 << z
    for x in 0..<side {
        for y in 0..<side { _ = try? source.tile(TileID(z: z, x: x, y: y)) }
    }
    for deeper in [source.maxZoom, min(source.maxZoom, 12)] {
        let n = 1 << deeper
        _ = try? source.tile(TileID(z: deeper, x: n / 2, y: n / 3))
    }
    _ = try? source.tile(TileID(z: min(source.maxZoom + 2, 24), x: 0, y: 0))
    return 0
}

/// One file per process, in the working directory (scripts/fuzz.sh runs each target in its own).
private func scratch() -> String {
    if let p = scratchPath { return p }
    let p = "fuzz-pmtiles-\(getpid()).pmtiles"
    scratchPath = p
    return p
}
