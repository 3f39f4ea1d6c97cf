import Dispatch
import Synchronization
import Testing
@testable import Tiles

/// Tile workers share one source: reads from many threads at once give the same tiles as
/// reading one by one.
@Suite struct ConcurrentReadTests {
    @Test func manyThreadsReadTheSameTilesAsOne() throws {
        let dir = try TemporaryDirectory()
        let world = try MBTilesSource(path: try KnownTiles.writeWorld(in: dir))
        let city = try MBTilesSource(path: try KnownTiles.writeCity(in: dir, at: TileID(z: 3, x: 2, y: 2)))
        let layered = LayeredTileSource(sources: [world, city])
        // Stored tiles, missing tiles and overzoomed children (which share the ancestor cache).
        let ids = [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 1), TileID(z: 2, x: 1, y: 1), TileID(z: 2, x: 0, y: 0)]
            + (4..<8).flatMap { x in (4..<8).map { y in TileID(z: 4, x: x, y: y) } }
            + (16..<20).map { x in TileID(z: 6, x: x, y: 17) }

        var expected: [TileID: VectorTile?] = [:]
        for id in ids { expected[id] = try layered.tile(id) }
        let serial = expected

        let mismatches = Mutex(0), failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<40 {
                // Each worker walks the list from a different place, so threads collide.
                let id = ids[(worker * 7 + round) % ids.count]
                do {
                    let tile = try layered.tile(id)
                    if tile != serial[id] ?? nil { mismatches.withLock { $0 += 1 } }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(failures.withLock { $0 } == 0)
        #expect(expected.values.compactMap { $0 }.count > 10)
    }

    @Test func twoWorkersReadTheShippedFilesAsOneDoes() throws {
        let world = try MBTilesSource(path: ShippedData.world)
        let city = try MBTilesSource(path: ShippedData.helsinki)
        let layered = LayeredTileSource(sources: [world, city])
        // World tiles to z4, every Helsinki tile, and street-level children of the city.
        let ids = try world.storedTileIDs().filter { $0.z <= 4 } + city.storedTileIDs()
            + city.storedTileIDs().filter { $0.z == 14 }.flatMap { id in (0..<4).map { TileID(z: 16, x: id.x * 4 + $0, y: id.y * 4 + 1) } }
        let serial = try ids.map { try layered.tile($0) }

        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            // The two workers walk the list in opposite directions and meet in the middle.
            let order = worker == 0 ? Array(ids.indices) : ids.indices.reversed()
            for index in order {
                let tile = try? layered.tile(ids[index])
                if tile != serial[index] { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(serial.count > 300)
    }
}
