/// libFuzzer target: the GeoJSON places reader on arbitrary bytes.
///
/// Built by scripts/fuzz.sh together with Sources/Places (and Geo), so it calls
/// `PlacesCollection` directly. Beyond "never crash": a file that reads must write back to
/// text that reads to the same JSON and the same places, since every save is such a write.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let collection = try? PlacesCollection(parsing: bytes) else { return 0 }
    let written = collection.text
    do {
        let again = try PlacesCollection(parsing: Array(written.utf8))
        if again.json != collection.json || again.places != collection.places {
            fatalError("writing back changed the document:\n\(written)")
        }
        if again.text != written { fatalError("a second write differs from the first:\n\(written)") }
    } catch {
        fatalError("a written document does not read: \(error)\n\(written)")
    }
    return 0
}
