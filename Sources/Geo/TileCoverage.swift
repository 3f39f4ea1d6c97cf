/// One tile of the grid at some zoom that covers part of the view, with where to draw it.
///
/// `x` is wrapped into `0..<2^zoom` (the tile to load); `unwrappedX` says which copy of the
/// world it is drawn on (negative west of the primary copy, ≥ 2^zoom east of it), so the
/// same tile may appear twice when the view spans the antimeridian or the whole world.
public struct TileCoverage: Sendable, Hashable, CustomStringConvertible {
    /// The tile grid's zoom level (2^zoom tiles per side).
    public var zoom: Int
    /// The column to load, 0 at 180° W, wrapped into 0..<2^zoom.
    public var x: Int
    /// The row, 0 at the north edge (XYZ scheme).
    public var y: Int
    /// The column before wrapping: `x + k · 2^zoom` for world copy k.
    public var unwrappedX: Int
    /// The tile's top-left (north-west) corner on screen, in logical px (not rounded). At a
    /// bearing the tile is drawn turned about this corner by the camera's rotation.
    public var origin: ScreenPoint
    /// The tile's edge on screen in logical px: 256 · 2^(cameraZoom − zoom).
    public var size: Double

    public init(zoom: Int, x: Int, y: Int, unwrappedX: Int, origin: ScreenPoint, size: Double) {
        self.zoom = zoom
        self.x = x
        self.y = y
        self.unwrappedX = unwrappedX
        self.origin = origin
        self.size = size
    }

    public var description: String { "\(zoom)/\(x)/\(y)@(\(origin.x), \(origin.y))" }
}

extension MapCamera {
    /// The deepest tile zoom the grid supports; 2^30 columns still fit comfortably in `Int`.
    public static let maxTileZoom = 30

    /// More tiles than this for one view means the tile zoom is far too deep for the camera.
    public static let maxVisibleTiles = 1 << 16

    /// The tiles of the zoom-`tileZoom` grid that cover the view, nearest the view centre first.
    /// At a bearing these are the tiles that overlap the turned view rectangle: the grid cells
    /// inside the box around it whose turned square meets the view.
    ///
    /// Columns repeat across world copies, so the antimeridian and views wider than the world
    /// work; rows outside the world are left out. `tileZoom` is clamped to 0…`maxTileZoom`;
    /// the count grows as 4^(tileZoom − zoom), so pass a tile zoom near the camera's. A request
    /// that would need more than `maxVisibleTiles` tiles returns an empty list.
    public func visibleTiles(tileZoom: Int) -> [TileCoverage] {
        let z = min(max(tileZoom, 0), Self.maxTileZoom)
        guard viewWidth > 0, viewHeight > 0 else { return [] }
        let count = 1 << z
        let tileWorld = WebMercator.tileSize / Double(count)
        // The box around the view in world units (the view itself when unrotated).
        let extent = worldExtent
        let topLeft = WorldPoint(x: center.x - extent.width / 2, y: center.y - extent.height / 2)
        let bottomRight = WorldPoint(x: center.x + extent.width / 2, y: center.y + extent.height / 2)
        let rotated = bearing != 0

        // A tile [i, i+1) · tileWorld is visible when it overlaps the open view rectangle.
        // Work in Double first: converting an absurd range to Int would trap.
        let columnsFrom = (topLeft.x / tileWorld).rounded(.down)
        let columnsTo = (bottomRight.x / tileWorld).rounded(.up) - 1
        let rowsFrom = max((topLeft.y / tileWorld).rounded(.down), 0)
        let rowsTo = min((bottomRight.y / tileWorld).rounded(.up) - 1, Double(count - 1))
        guard columnsFrom <= columnsTo, rowsFrom <= rowsTo,
              (columnsTo - columnsFrom + 1) * (rowsTo - rowsFrom + 1) <= Double(Self.maxVisibleTiles)
        else { return [] }
        let firstColumn = Int(columnsFrom), lastColumn = Int(columnsTo)
        let firstRow = Int(rowsFrom), lastRow = Int(rowsTo)

        let edge = tileWorld * worldScale
        let mid = ScreenPoint(x: viewWidth / 2, y: viewHeight / 2)
        var tiles: [(TileCoverage, Double)] = []
        tiles.reserveCapacity((lastColumn - firstColumn + 1) * (lastRow - firstRow + 1))
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let origin = screenPoint(ofWorld: WorldPoint(x: Double(column) * tileWorld, y: Double(row) * tileWorld))
                if rotated, !meetsView(column: column, row: row, tileWorld: tileWorld) { continue }
                let wrapped = ((column % count) + count) % count
                let tile = TileCoverage(zoom: z, x: wrapped, y: row, unwrappedX: column, origin: origin, size: edge)
                let tileMid = rotated
                    ? screenPoint(ofWorld: WorldPoint(x: (Double(column) + 0.5) * tileWorld, y: (Double(row) + 0.5) * tileWorld))
                    : ScreenPoint(x: origin.x + edge / 2, y: origin.y + edge / 2)
                tiles.append((tile, tileMid.distance(to: mid)))
            }
        }
        tiles.sort { $0.1 < $1.1 }
        return tiles.map(\.0)
    }

    /// Whether the turned square of grid cell (`column`, `row`) overlaps the open view
    /// rectangle. With the world-axis box already checked by the caller, comparing the cell's
    /// screen box with the view completes the separating-axis test of two rectangles.
    private func meetsView(column: Int, row: Int, tileWorld: Double) -> Bool {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (i, j) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let p = screenPoint(ofWorld: WorldPoint(x: Double(column + i) * tileWorld, y: Double(row + j) * tileWorld))
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return minX < viewWidth && maxX > 0 && minY < viewHeight && maxY > 0
    }
}
