import Tiles

/// libFuzzer target: the MapLibre style reader and compiler on arbitrary bytes.
///
/// Built by scripts/fuzz.sh with Sources/Style (over the Tiles module), so it calls `Style`
/// directly. Beyond "never crash": a refused file names a line and column inside it, and a
/// style that reads compiles at every zoom and evaluates every layer's filter, paint and
/// symbols over features of each geometry type with a few kinds of property values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let style: Style
    do {
        style = try Style.parse(bytes, path: "/fuzz/style.json")
    } catch {
        let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        if error.line < 1 || error.line > lines || error.column < 1 { fatalError("error outside the file: \(error) (\(lines) lines)") }
        return 0
    }
    let props: [String: PropertyValue] = ["name": .string("Aß 東京"), "class": .string("primary"), "rank": .int(3),
                                          "height": .double(-1e308), "flag": .bool(true), "id": .int(Int64.min)]
    let square = [TilePoint(x: 0, y: 0), TilePoint(x: 4096, y: 0), TilePoint(x: 4096, y: 4096), TilePoint(x: 0, y: 0)]
    let features = [
        VectorFeature(id: 7, type: .point, parts: [[TilePoint(x: 2048, y: 2048)]], properties: props),
        VectorFeature(type: .lineString, parts: [[TilePoint(x: -10, y: 5), TilePoint(x: 5000, y: 4000)]], properties: props),
        VectorFeature(type: .polygon, parts: [square], properties: [:]),
        VectorFeature(type: .unknown, parts: [], properties: ["name": .string("")]),
    ]
    let names = Set(style.layers.compactMap(\.sourceLayer))
    let tile = VectorTile(layers: names.map { VectorLayer(name: $0, extent: 4096, features: features) })
    for zoom in [0.0, 1, 5.5, 14, 23, 30] {
        let compiled = style.at(zoom: zoom)
        for layer in compiled.layers {
            for f in features {
                _ = layer.matches(f)
                switch layer.kind {
                case .fill(let p): _ = p.color.value(f); _ = p.outline?.value(f); _ = p.pattern?.image.value(f)
                case .line(let p): _ = p.color.value(f); _ = p.width.value(f); _ = p.offset.value(f); _ = p.gapWidth.value(f)
                case .circle(let p): _ = p.color.value(f); _ = p.radius.value(f); _ = p.strokeWidth.value(f)
                case .background, .ground, .symbol: break
                }
                _ = layer.sortKey?.value(f)
            }
        }
        _ = compiled.symbols(in: tile, source: nil)
    }
    return 0
}
