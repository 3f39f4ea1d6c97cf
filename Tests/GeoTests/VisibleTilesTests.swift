import Testing
@testable import Geo
import TestSupport

/// `visibleTiles` returns exactly the tiles that cover the view, placed where they belong.
@Suite struct VisibleTilesTests {
    @Test func theWholeWorldAtZoomZeroIsOneTile() {
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: ViewSize(width: 256, height: 256))
        let tiles = camera.visibleTiles(tileZoom: 0)
        #expect(tiles == [TileCoverage(zoom: 0, x: 0, y: 0, unwrappedX: 0, origin: .zero, size: 256)])
    }

    @Test func helsinkiAtZoomTenShowsTile582Of296First() {
        let camera = MapCamera(center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 10, size: ViewSize(width: 800, height: 600))
        let tiles = camera.visibleTiles(tileZoom: 10)
        #expect(tiles.first.map { [$0.x, $0.y] } == [582, 296])
        #expect(tiles.allSatisfy { $0.size == 256 && $0.zoom == 10 })
        // 800 px need 4–5 columns, 600 px 3–4 rows.
        #expect((12...20).contains(tiles.count))
    }

    @Test func theAntimeridianShowsTilesFromBothEndsOfTheGrid() {
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 180), zoom: 2, size: ViewSize(width: 512, height: 512))
        let tiles = camera.visibleTiles(tileZoom: 2)
        #expect(Set(tiles.map(\.x)) == [3, 0])
        // The centre (180° = world x 256) wraps to x 0: the western tiles are column 3 drawn on
        // the copy west of the primary world, left of the view centre.
        let east = tiles.filter { $0.x == 0 }
        #expect(east.count == 2 && east.allSatisfy { $0.unwrappedX == 0 && $0.origin.x == 256 })
        let west = tiles.filter { $0.x == 3 }
        #expect(west.count == 2 && west.allSatisfy { $0.unwrappedX == -1 && $0.origin.x == 0 })
    }

    @Test func aViewWiderThanTheWorldRepeatsTheTiles() {
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: ViewSize(width: 1000, height: 256))
        let tiles = camera.visibleTiles(tileZoom: 0)
        #expect(tiles.count == 5)
        #expect(tiles.allSatisfy { $0.x == 0 && $0.y == 0 })
        #expect(Set(tiles.map(\.unwrappedX)) == [-2, -1, 0, 1, 2])
    }

    @Test func absurdlyDeepTileZoomReturnsNothingInsteadOfMillionsOfTiles() {
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: ViewSize(width: 1000, height: 800))
        #expect(camera.visibleTiles(tileZoom: 25).isEmpty)
        #expect(camera.visibleTiles(tileZoom: 99).isEmpty)
        #expect(!camera.visibleTiles(tileZoom: -3).isEmpty)
    }

    @Test func randomViewsAreCoveredExactlyOnceWhereverTheWorldIs() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<150 {
            let camera = MapCamera(
                center: Coordinate(latitude: random.double(in: -85...85), longitude: random.double(in: -180...180)),
                zoom: random.double(in: 0...18),
                size: ViewSize(width: random.double(in: 100...2560), height: random.double(in: 100...1600)),
                verticalBounds: random.next() % 2 == 0 ? .viewInsideWorld : .centerLatitude)
            let tileZoom = max(0, Int(camera.zoom.rounded(.down)) + Int(random.next() % 3) - 1)
            let tiles = camera.visibleTiles(tileZoom: tileZoom)
            #expect(Set(tiles.map { [$0.unwrappedX, $0.y] }).count == tiles.count)
            for _ in 0..<60 {
                let p = ScreenPoint(x: random.double(in: 0...camera.size.width - 1e-9), y: random.double(in: 0...camera.size.height - 1e-9))
                let w = camera.worldPoint(at: p)
                let covering = tiles.filter {
                    p.x >= $0.origin.x && p.x < $0.origin.x + $0.size && p.y >= $0.origin.y && p.y < $0.origin.y + $0.size
                }
                let insideWorld = w.y >= 0 && w.y < 256
                #expect(covering.count == (insideWorld ? 1 : 0))
                if let tile = covering.first {
                    // The tile under p is the one whose world square contains p's world point.
                    let n = Double(1 << tileZoom)
                    #expect(tile.unwrappedX == Int((w.x / 256 * n).rounded(.down)))
                    #expect(tile.y == Int((w.y / 256 * n).rounded(.down)))
                }
            }
        }
    }
}
