import Geo

/// Tile arithmetic: validity, ancestors, the MBTiles (TMS) row and the bridge from `Geo`.
extension TileID {
    /// The deepest zoom any source answers for; 2^30 rows still fit in `Int64` arithmetic.
    public static let maxZoom = 30

    /// The tile to load for a tile that `MapCamera.visibleTiles` says covers the view.
    public init(_ coverage: TileCoverage) {
        self.init(z: coverage.zoom, x: coverage.x, y: coverage.y)
    }

    /// True when z is within 0…`maxZoom` and x, y name a tile of that zoom's grid.
    public var isValid: Bool {
        guard z >= 0, z <= Self.maxZoom else { return false }
        let n = 1 << z
        return x >= 0 && x < n && y >= 0 && y < n
    }

    /// The tile `levels` zooms up that contains this one (self for 0).
    public func ancestor(levelsUp levels: Int) -> TileID {
        let d = min(max(levels, 0), z)
        return TileID(z: z - d, x: x >> d, y: y >> d)
    }

    /// The row as MBTiles stores it: TMS numbering, row 0 at the south.
    public var tmsRow: Int { (1 << z) - 1 - y }
}
