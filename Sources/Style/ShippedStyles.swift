#if canImport(Glibc)
import Glibc
#endif

/// The schemas Meridian ships a style for, told apart by the layer names a file carries.
public enum Schema: String, Sendable, CaseIterable {
    case openmaptiles, shortbread, protomaps
    /// The shipped Natural Earth world file's own layers.
    case world
    /// None of the above: a style that shows any file's polygons, lines and names.
    case generic

    /// Layer names found only (or mostly) in each schema; the best match wins.
    static let markers: [(Schema, Set<String>)] = [
        (.openmaptiles, ["transportation", "transportation_name", "water_name", "housenumber", "mountain_peak",
                         "aerodrome_label", "aeroway", "park", "boundary", "landcover", "place", "poi", "waterway",
                         "water", "building", "landuse"]),
        (.world, ["countries", "coastline", "lakes", "land", "boundaries", "places"]),
        (.shortbread, ["streets", "street_labels", "street_labels_points", "water_polygons", "water_lines", "ocean",
                       "place_labels", "sites", "addresses", "buildings", "land", "boundary_labels", "bridges",
                       "street_polygons", "water_polygons_labels", "water_lines_labels", "public_transport", "dam_lines"]),
        (.protomaps, ["earth", "roads", "transit", "natural", "buildings", "places", "pois", "boundaries", "water", "landuse"]),
    ]

    /// The schema whose distinctive layers `names` holds most of (earlier in `markers` on a
    /// tie); `.generic` when none fits.
    public static func detect(layerNames names: some Sequence<String>) -> Schema {
        let have = Set(names)
        var best: (Schema, Int) = (.generic, 0)
        for (schema, marks) in markers {
            let n = marks.intersection(have).count
            if n > best.1 { best = (schema, n) }
        }
        // One shared name ("water", "boundaries") is not a schema.
        return best.1 >= 2 || (best.1 == 1 && have.count == 1) ? best.0 : .generic
    }

    /// The file name of its style under the shipped styles folder.
    public var fileName: String { "\(rawValue).json" }
}

/// Finding and reading style files.
public enum ShippedStyles {
    /// Where the shipped data may be, in the order it is looked for: $MERIDIAN_DATA_DIR, an
    /// installed share/ folder beside the binary's bin/ (scripts/install.sh), beside the build
    /// tree the binary came from, or ./data. The data (MapData) and the styles (its `styles`
    /// folder) are found through this one list.
    public static func dataDirectoryCandidates() -> [String] {
        var candidates: [String] = []
        if let env = getenv("MERIDIAN_DATA_DIR") { candidates.append(String(cString: env)) }
        if let exe = executableDirectory() {
            candidates += ["\(exe)/../share/meridian/data", "\(exe)/../../data", "\(exe)/../../../data"]
        }
        candidates.append("data")
        return candidates
    }

    /// Where the shipped styles are: $MERIDIAN_STYLE_DIR, else the `styles` folder of the
    /// first data folder candidate that has them.
    public static func directory() -> String? {
        var candidates: [String] = []
        if let env = getenv("MERIDIAN_STYLE_DIR") { candidates.append(String(cString: env)) }
        candidates += dataDirectoryCandidates().map { $0 + "/styles" }
        return candidates.first { access("\($0)/\(Schema.generic.fileName)", R_OK) == 0 }
    }

    /// The folder of the running binary (the shipped data and styles are found from it).
    public static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// The bytes of a file, or a `StyleError` saying why not.
    public static func read(_ path: String) throws(StyleError) -> [UInt8] {
        guard let f = fopen(path, "rb") else {
            throw StyleError(file: path, line: 0, column: 0, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { out += chunk[0..<n] }
            if n < chunk.count { break }
            if out.count > 64 << 20 { throw StyleError(file: path, line: 0, column: 0, message: "larger than 64 MB, not a style") }
        }
        return out
    }

    /// Reads and parses a style file.
    public static func load(_ path: String, schema: String? = nil) throws(StyleError) -> Style {
        try Style.parse(try read(path), path: path, schema: schema)
    }

    /// The shipped style for `schema`; for `.generic`, its `"source-layer": "*"` layers are
    /// repeated for each of `layerNames`.
    public static func style(for schema: Schema, layerNames: [String], directory dir: String) throws(StyleError) -> Style {
        let s = try load("\(dir)/\(schema.fileName)", schema: schema.rawValue)
        return schema == .generic ? s.expandingWildcards(layerNames: layerNames) : s
    }
}

extension Style {
    /// Layers whose `source-layer` is "*" become one copy per layer name (ids suffixed with
    /// "/name"): the generic style's way of showing every layer of a file it knows nothing of.
    public func expandingWildcards(layerNames: [String]) -> Style {
        var out: [StyleLayer] = []
        for l in layers {
            guard l.sourceLayer == "*" else { out.append(l); continue }
            for name in layerNames {
                var copy = l
                copy.id = "\(l.id)/\(name)"
                copy.sourceLayer = name
                out.append(copy)
            }
        }
        return Style(name: name, schema: schema, sources: sources, layers: out, notes: notes)
    }

    /// The layer names the layers of source `id` read.
    public func sourceLayers(of id: String) -> Set<String> {
        Set(layers.filter { $0.source == id }.compactMap(\.sourceLayer))
    }
}
