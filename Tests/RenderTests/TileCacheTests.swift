import Synchronization
import Tiles
import XCTest
@testable import Render
#if canImport(Glibc)
import Glibc
#endif

final class TileCacheTests: XCTestCase {
    let a = TileID(z: 4, x: 1, y: 1), b = TileID(z: 4, x: 2, y: 1), c = TileID(z: 4, x: 3, y: 1)
    let d = TileID(z: 4, x: 4, y: 1), e = TileID(z: 4, x: 5, y: 1)

    func testRequestReturnsAtOnceWithNothingAndTheTileLandsLater() {
        let source = FixtureSource(every: Fixture.halfLand, gated: true)
        let cache = TileCache(rasterizer: TileRasterizer(sources: [source]), scale: 1)
        // The source is blocked: a request that waited for drawing would never return.
        XCTAssertTrue(cache.request([a]).isEmpty)
        XCTAssertFalse(cache.takeNewTiles())
        source.open(1)
        XCTAssertTrue(eventually { cache.contains(a) })
        XCTAssertNotNil(cache.request([a])[a])
        XCTAssertTrue(cache.takeNewTiles(), "the poll reports the new tile once")
        XCTAssertFalse(cache.takeNewTiles())
    }

    func testTheReadyDescriptorBecomesReadableWhenATileLands() {
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)]), scale: 1)
        XCTAssertGreaterThanOrEqual(cache.readyFileDescriptor, 0)
        _ = cache.request([a])
        var p = pollfd(fd: cache.readyFileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 20_000), 1, "the live loop wakes on this descriptor")
        XCTAssertTrue(cache.takeNewTiles())
        p.revents = 0
        XCTAssertEqual(poll(&p, 1, 0), 0, "draining leaves nothing to wake for")
    }

    func testTheCallbackHearsAboutEveryTile() {
        let count = Mutex(0)
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)]), scale: 1,
                              onTileReady: { count.withLock { $0 += 1 } })
        _ = cache.request([a, b, c])
        XCTAssertTrue(eventually { count.withLock { $0 } == 3 })
    }

    func testTilesNoLongerVisibleAreDroppedBeforeTheyAreDrawn() {
        let source = FixtureSource(every: Fixture.halfLand, gated: true)
        let cache = TileCache(rasterizer: TileRasterizer(sources: [source]), scale: 1, workers: 1)
        _ = cache.request([a, b, c, d])
        XCTAssertTrue(eventually { source.requested.count == 1 }, "the one worker holds the first tile")
        // The map moved on: only e is visible now.
        _ = cache.request([e])
        source.open(10)
        XCTAssertTrue(eventually { cache.contains(e) })
        XCTAssertEqual(source.requested, [a, e], "b, c and d were cancelled, a was already being drawn")
    }

    func testTheCacheStaysWithinItsByteBudgetDroppingTheLeastRecentlyUsed() throws {
        let tileBytes = 256 * 256 * 4
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)]), scale: 1,
                              byteBudget: 3 * tileBytes)
        cache.renderNow([a, b, c])
        XCTAssertEqual(cache.usage.tiles, 3)
        // renderNow keeps the first-asked tile longest (a, b, c: c is the oldest); c was just
        // shown again, so b is now the least recently used.
        _ = cache.cached(c)
        cache.renderNow([d])
        XCTAssertLessThanOrEqual(cache.usage.bytes, 3 * tileBytes)
        XCTAssertTrue(cache.contains(a))
        XCTAssertFalse(cache.contains(b))
        XCTAssertTrue(cache.contains(c))
        XCTAssertTrue(cache.contains(d))
    }

    func testAReusedTileMemoryShowsOnlyTheNewTileAndStaysWithinTheBudget() throws {
        let tileBytes = 256 * 256 * 4
        let all = VectorTile(layers: [Fixture.layer("land", [Fixture.rect(-64, -64, 4160, 4160)])])
        let tiles = [a: all, b: Fixture.halfLand, c: all, d: Fixture.halfLand]
        let fresh = try XCTUnwrap(TileRasterizer(sources: [FixtureSource(tiles: tiles)]).render(b, scale: 1)).image.bytes()
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(tiles: tiles)]), scale: 1, byteBudget: 2 * tileBytes)
        cache.renderNow([a, c])
        cache.removeAll()
        XCTAssertEqual(cache.keptPixelBytes, 2 * tileBytes, "the dropped tiles' memory waits for the next tiles")
        // b lands in memory that held an all-land tile: not one pixel of it may show through.
        let drawn = try XCTUnwrap(cache.renderNow([b])[b])
        XCTAssertEqual(drawn.bytes(), fresh)
        XCTAssertEqual(cache.keptPixelBytes, tileBytes)
        // More tiles than the budget: tiles and kept memory together never exceed it.
        cache.renderNow([d, a, c])
        XCTAssertLessThanOrEqual(cache.usage.bytes + cache.keptPixelBytes, 2 * tileBytes)
    }

    func testRenderNowLeavesEveryAskedTileCached() {
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)]), scale: 2)
        cache.renderNow([a, b, c, d, e])
        XCTAssertEqual([a, b, c, d, e].filter(cache.contains).count, 5)
        XCTAssertEqual(cache.cached(a)?.width, 512)
    }

    func testSourceErrorsAreKeptForTheUser() {
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(failing: true)]), scale: 1)
        cache.renderNow([a])
        XCTAssertEqual(cache.errors.count, 1)
        // Reported once: drawing the tile again adds nothing, and a reader takes it once.
        cache.removeAll()
        cache.renderNow([a])
        XCTAssertEqual(cache.errors.count, 1)
        XCTAssertEqual(cache.takeNewErrors().count, 1)
        XCTAssertEqual(cache.takeNewErrors().count, 0)
    }
}
