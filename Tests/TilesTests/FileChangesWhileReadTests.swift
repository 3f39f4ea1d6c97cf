import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Tiles

/// Users copy map files over the ones in use. While readers are busy, the file is replaced
/// in place by another map, cut short, and filled with garbage: every read either gives a tile
/// one of the versions holds, gives nothing, or throws an error naming the file — never a crash.
@Suite struct FileChangesWhileReadTests {
    @Test func readersSurviveTheFileBeingRewrittenUnderThem() throws {
        let dir = try TemporaryDirectory()
        let path = try KnownTiles.writeWorld(in: dir)
        let other = try KnownTiles.writeCity(in: dir, at: TileID(z: 3, x: 2, y: 2))
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let replacement = try Array(Data(contentsOf: URL(fileURLWithPath: other)))
        let source = try MBTilesSource(path: path)
        let ids = [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 2, x: 1, y: 1), TileID(z: 3, x: 2, y: 2),
                   TileID(z: 4, x: 4, y: 4), TileID(z: 5, x: 6, y: 6)]
        var known: [VectorTile] = []
        for id in ids { if let t = try source.tile(id) { known.append(t) } }
        let city = try MBTilesSource(path: other)
        for id in ids { if let t = try city.tile(id) { known.append(t) } }
        let valid = known

        let stop = Atomic(false)
        let outcomes = Mutex((tiles: 0, absent: 0, errors: 0, strangers: 0, unnamed: 0))
        let writer = Thread {
            var round = 0
            while !stop.load(ordering: .relaxed) {
                let bytes: [UInt8]
                switch round % 4 {
                case 0: bytes = replacement
                case 1: bytes = Array(original.prefix(original.count / 3))
                case 2: bytes = (0..<original.count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ round) }
                default: bytes = original
                }
                // In place, as `cp` over an open file does: same inode, new contents.
                if let f = fopen(path, "r+") {
                    ftruncate(fileno(f), 0)
                    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
                    fclose(f)
                }
                round += 1
                usleep(200)
            }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<300 {
                let id = ids[(worker + i) % ids.count]
                do {
                    if let t = try source.tile(id) {
                        outcomes.withLock { valid.contains(t) ? ($0.tiles += 1) : ($0.strangers += 1) }
                    } else {
                        outcomes.withLock { $0.absent += 1 }
                    }
                } catch let error as TileError where error.file == path {
                    outcomes.withLock { $0.errors += 1 }
                } catch {
                    outcomes.withLock { $0.unnamed += 1 }
                }
            }
        }
        stop.store(true, ordering: .relaxed)
        while !writer.isFinished { usleep(1000) }

        let o = outcomes.withLock { $0 }
        #expect(o.tiles + o.absent + o.errors == 1200)
        #expect(o.strangers == 0, "a read returned a tile neither version holds")
        #expect(o.unnamed == 0)
        // Once the file is whole again, a fresh open reads it as before.
        try Data(original).write(to: URL(fileURLWithPath: path))
        let reopened = try MBTilesSource(path: path)
        #expect(try reopened.tile(TileID(z: 0, x: 0, y: 0)) == known.first)
    }
}
