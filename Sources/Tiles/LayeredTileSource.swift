/// Several sources drawn as one, in order (e.g. the Natural Earth world, then a city on top):
/// a tile holds the layers of every source that answers for it, earlier sources' layers first.
///
/// Each source has its own zoom range: it is asked only for zooms from its `minZoom` up to
/// its `visibleZooms` limit, and overzooms itself past its `maxZoom`. Layer names may repeat
/// across sources (each keeps its own extent); a renderer styling by name draws both.
public struct LayeredTileSource: VectorTileSource {
    /// One source and the zooms at which it takes part.
    public struct Entry: Sendable {
        public var source: any VectorTileSource
        /// The zooms at which this source is asked for tiles.
        public var visibleZooms: ClosedRange<Int>

        /// `source` at zooms from its own `minZoom` up to `maxVisibleZoom` (overzooming past its
        /// `maxZoom`), by default every zoom a tile can have.
        public init(_ source: any VectorTileSource, maxVisibleZoom: Int = TileID.maxZoom) {
            self.source = source
            let low = max(source.minZoom, 0)
            visibleZooms = low...max(low, maxVisibleZoom)
        }

        public init(_ source: any VectorTileSource, visibleZooms: ClosedRange<Int>) {
            self.source = source
            self.visibleZooms = visibleZooms
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// Every source at every zoom from its own `minZoom` up.
    public init(sources: [any VectorTileSource]) { self.init(sources.map { Entry($0) }) }

    public var name: String { entries.map(\.source.name).joined(separator: " + ") }
    public var minZoom: Int { entries.map(\.visibleZooms.lowerBound).min() ?? 0 }
    public var maxZoom: Int { entries.map(\.source.maxZoom).max() ?? 0 }

    /// The sources' attributions, each once, joined with " · ".
    public var attribution: String? {
        var seen: [String] = []
        for text in entries.compactMap(\.source.attribution) where !seen.contains(text) { seen.append(text) }
        return seen.isEmpty ? nil : seen.joined(separator: " · ")
    }

    /// The layers of every source that has tile `id`; nil when none has it. A damaged tile in
    /// any source throws that source's error: a partial tile would be silently wrong.
    public func tile(_ id: TileID) throws -> VectorTile? { try tile(id, layers: nil) }

    public func tile(_ id: TileID, layers wanted: Set<String>) throws -> VectorTile? { try tile(id, layers: Optional(wanted)) }

    private func tile(_ id: TileID, layers wanted: Set<String>?) throws -> VectorTile? {
        var layers: [VectorLayer] = []
        var found = false
        for entry in entries where entry.visibleZooms.contains(id.z) {
            guard let tile = try wanted.map({ try entry.source.tile(id, layers: $0) }) ?? entry.source.tile(id) else { continue }
            found = true
            layers.append(contentsOf: tile.layers)
        }
        return found ? VectorTile(layers: layers) : nil
    }
}
