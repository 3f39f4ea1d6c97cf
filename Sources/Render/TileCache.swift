import Dispatch
import Foundation
import Synchronization
import Tiles
#if canImport(Glibc)
import Glibc
#endif

/// Raster tiles drawn on worker threads and kept in memory, least recently used first out.
///
/// The UI thread never waits for a tile: `request` returns what is cached now and queues
/// the rest; the newest request wins (tiles queued earlier but no longer asked for are
/// dropped before they are drawn, so a fling does not leave a backlog of tiles it flew
/// past). When tiles land, `readyFileDescriptor` becomes readable (a pipe the live loop
/// polls), `onTileReady` is called on the worker thread, and `takeNewTiles()` turns true.
///
/// The budget counts pixel bytes: at buffer scale 1 a tile is 256 KiB, at scale 2 it is 1 MiB,
/// so the default 64 MiB holds nearly three 2560x1600 screens at scale 1.
public final class TileCache: Sendable {
    /// The buffer scale every tile in this cache is drawn at.
    public let scale: Double
    public let rasterizer: TileRasterizer
    public let byteBudget: Int
    /// Readable whenever tiles have landed since the last `takeNewTiles()` (the read end of a
    /// non-blocking pipe); -1 when the system refused a pipe (then only polling and
    /// `onTileReady` tell).
    public let readyFileDescriptor: Int32

    private let shared: SharedWork
    private var work: DispatchSemaphore { shared.work }
    private let workerCount: Int

    /// - Parameters:
    ///   - workers: threads drawing tiles; the default matches the cores.
    ///   - onTileReady: called on a worker thread after each tile lands (keep it short).
    public init(rasterizer: TileRasterizer, scale: Double, byteBudget: Int = 64 << 20,
                workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                onTileReady: (@Sendable () -> Void)? = nil) {
        self.rasterizer = rasterizer
        self.scale = scale
        self.byteBudget = byteBudget
        self.workerCount = max(1, workers)
        // A pipe, not an eventfd: Glibc's Swift module does not export sys/eventfd.h, and a
        // pipe polls the same way.
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readyFileDescriptor = fds[0]
        // Workers hold only the shared part, so dropping the cache stops them.
        let shared = SharedWork(rasterizer: rasterizer, scale: scale, byteBudget: byteBudget, pipe: (fds[0], fds[1]), onTileReady: onTileReady)
        self.shared = shared
        for i in 0..<workerCount {
            let t = Thread {
                TileCache.leaveRealTimePolicy()
                shared.workLoop()
            }
            t.name = "meridian-tiles-\(i)"
            t.start()
        }
    }

    /// A thread inherits its creator's scheduling policy. Under a real-time one (a kiosk that
    /// runs the app with `chrt`, or the latency bench), threads of one priority never preempt
    /// each other, so on a 2-core machine two workers rasterizing cold tiles held the UI thread
    /// (and the compositor) off the cores for 10-27 ms at a time. Tiles are background work:
    /// the workers go back to the ordinary time-shared policy, which the UI thread preempts.
    static func leaveRealTimePolicy() {
        var policy: Int32 = 0
        var param = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &param) == 0,
              policy == SCHED_FIFO || policy == SCHED_RR else { return }
        param.sched_priority = 0
        _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &param)
    }

    deinit {
        shutDown()
        // Both pipe ends stay open until the last worker is gone (`SharedWork` closes them):
        // a worker writing to a pipe with no reader would get SIGPIPE.
    }

    /// Stops the workers once their current tile is done. The cache stays readable.
    public func shutDown() {
        shared.state.withLock { $0.stopped = true; $0.queue.removeAll() }
        for _ in 0..<workerCount { work.signal() }
    }

    // MARK: UI thread

    /// The tiles of `tiles` cached now; the missing ones are queued in the order given
    /// (put the most wanted first), replacing whatever was queued before. Never blocks on
    /// drawing: it only takes the lock that guards the table.
    public func request(_ tiles: [TileKey]) -> [TileKey: RasterImage] {
        var found: [TileKey: RasterImage] = [:]
        let added = shared.state.withLock { s -> Int in
            s.queue.removeAll(keepingCapacity: true)
            for id in tiles {
                if let image = s.touch(id) { found[id] = image } else if !s.inFlight.contains(id) && !s.queue.contains(id) { s.queue.append(id) }
            }
            return s.queue.count
        }
        for _ in 0..<min(added, workerCount) { work.signal() }
        return found
    }

    /// The cached tile, marked as just used; nil when it is not cached. Never queues.
    public func cached(_ tile: TileKey) -> RasterImage? { shared.state.withLock { $0.touch(tile) } }

    /// Whether the tile is cached, without changing its place in the LRU order.
    public func contains(_ tile: TileKey) -> Bool { shared.state.withLock { $0.entries[tile].map { $0.area == nil } ?? false } }

    /// The part of `tile` drawn when only part of it is cached (an edge tile of a cold frame
    /// drawn by `renderNow` with areas), nil when it is cached whole or not at all.
    public func drawnArea(_ tile: TileKey) -> TileArea? { shared.state.withLock { $0.entries[tile]?.area } }

    /// True once after tiles have landed (and drains the pipe): the headless loop's poll.
    public func takeNewTiles() -> Bool {
        if readyFileDescriptor >= 0 {
            var sink = [UInt8](repeating: 0, count: 256)
            while read(readyFileDescriptor, &sink, sink.count) > 0 {}
        }
        return shared.state.withLock { s in
            defer { s.newTiles = false }
            return s.newTiles
        }
    }

    /// The key of `tile` at the cache's standard size (256 logical px: 256 · scale device px).
    public func standardKey(_ tile: TileID) -> TileKey { TileKey(tile, pixelSize: TileRasterizer.pixelSize(scale: scale)) }

    /// `request` for tiles at the standard size.
    public func request(_ tiles: [TileID]) -> [TileID: RasterImage] {
        var out: [TileID: RasterImage] = [:]
        for (key, image) in request(tiles.map(standardKey)) { out[key.tile] = image }
        return out
    }

    /// `cached` for a tile at the standard size.
    public func cached(_ tile: TileID) -> RasterImage? { cached(standardKey(tile)) }

    /// `contains` for a tile at the standard size.
    public func contains(_ tile: TileID) -> Bool { contains(standardKey(tile)) }

    /// `renderNow` for tiles at the standard size.
    @discardableResult
    public func renderNow(_ tiles: [TileID]) -> [TileID: RasterImage] {
        var out: [TileID: RasterImage] = [:]
        for (key, image) in renderNow(tiles.map(standardKey)) { out[key.tile] = image }
        return out
    }

    /// Tiles waiting to be drawn (not counting the ones being drawn now).
    public var queuedCount: Int { shared.state.withLock { $0.queue.count } }
    /// Tiles cached and the bytes their pixels take.
    public var usage: (tiles: Int, bytes: Int) { shared.state.withLock { ($0.entries.count, $0.bytes) } }
    /// Bytes of freed tile pixels kept for the next tiles (with `usage.bytes`, within the budget).
    var keptPixelBytes: Int { shared.pool.keptBytes }
    /// Tiles the sources could not read, each once, oldest first (at most 256).
    public var errors: [TileFailure] { shared.state.withLock { $0.errors } }

    /// The failures not handed out before, for reporting each once.
    public func takeNewErrors() -> [TileFailure] {
        shared.state.withLock { s in
            let new = Array(s.errors[s.announced...])
            s.announced = s.errors.count
            return new
        }
    }

    /// Drops every cached tile (memory pressure, or a benchmark's cold start).
    public func removeAll() {
        shared.state.withLock { s in
            // The freed pixels stay in the pool (within the budget) for the tiles drawn next.
            shared.pool.setLimit(byteBudget)
            s.entries.removeAll()
            s.bytes = 0
        }
    }

    // MARK: synchronous path (headless, screenshots, benchmarks)

    /// Draws every tile of `tiles` not cached yet, on the calling thread and the other cores
    /// at once, and returns all of them (also ones the byte budget could not keep). For
    /// headless runs, never for the UI thread.
    @discardableResult
    public func renderNow(_ tiles: [TileKey]) -> [TileKey: RasterImage] { renderNowWithLabels(tiles).images }

    /// `renderNow` for one frame that shows only `areas` of some tiles (the edge tiles' parts
    /// on screen): those are drawn only there, and cached as drawn in part, so only a frame
    /// that needs no more of them uses them; `request`, `cached` and `renderNow` without areas
    /// take them as missing and draw them whole. The pixels inside an area are the bytes the
    /// whole tile has there. A tile cached in part that a frame needs more of is drawn whole.
    @discardableResult
    public func renderNow(_ tiles: [TileKey], areas: [TileKey: TileArea]) -> [TileKey: RasterImage] {
        renderNowWithLabels(tiles, areas: areas).images
    }

    /// The label candidates of the cached tiles among `tiles` (without touching the LRU order).
    func labels(_ tiles: [TileKey]) -> [TileKey: TileLabelSet] {
        shared.state.withLock { s in
            var out: [TileKey: TileLabelSet] = [:]
            for id in tiles { if let e = s.entries[id] { out[id] = e.labels } }
            return out
        }
    }

    /// `renderNow`, with each tile's label candidates.
    /// `whenDrawn` is called on the drawing thread with each tile it has drawn, right after.
    func renderNowWithLabels(_ tiles: [TileKey], areas: [TileKey: TileArea] = [:],
                             whenDrawn: (@Sendable (TileKey, RasterImage) -> Void)? = nil)
        -> (images: [TileKey: RasterImage], labels: [TileKey: TileLabelSet]) {
        var found: [TileKey: RasterImage] = [:]
        var labels: [TileKey: TileLabelSet] = [:]
        var partial: [TileKey: TileArea] = [:]
        let missing = shared.state.withLock { s in
            tiles.filter { id in
                if let image = s.touch(id, needing: areas[id]) {
                    found[id] = image
                    labels[id] = s.entries[id]?.labels
                    return false
                }
                if let old = s.entries[id], old.area != nil {
                    // Drawn in part before and more is needed now: drawn whole, once. The part
                    // leaves the table first, so its pixels can serve the whole tile (redrawing
                    // a screen's edge tiles otherwise took 8 MB more at the bench's peak).
                    s.entries[id] = nil
                    s.bytes -= old.image.memoryBytes
                    shared.pool.setLimit(byteBudget - s.bytes)
                } else if let area = areas[id] {
                    partial[id] = area
                }
                return true
            }
        }
        guard !missing.isEmpty else { return (found, labels) }
        // The biggest jobs first, so the cores finish together: whole tiles before the parts
        // of edge tiles, the smallest parts last (the order given among equals).
        let jobs = missing.enumerated().sorted { a, b in
            let pa = partial[a.element]?.pixels ?? Int.max, pb = partial[b.element]?.pixels ?? Int.max
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
        let results = Mutex<[TileKey: RenderedTile]>([:])
        let rasterizer = self.rasterizer, scale = self.scale, pool = shared.pool, drawnArea = partial
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let id = jobs[i]
            if let r = rasterizer.render(id.tile, pixelSize: id.pixelSize, scale: scale, bearing: id.bearing, pool: pool,
                                         area: drawnArea[id]) {
                whenDrawn?(id, r.image)
                results.withLock { $0[id] = r }
            }
        }
        let rendered = results.withLock { $0 }
        shared.state.withLock { s in
            // Inserted in the order asked, so the most wanted tiles are the last evicted.
            for id in missing.reversed() { if let r = rendered[id] { s.insert(id, r, budget: byteBudget, pool: shared.pool) } }
            // Still queued for a worker are the tiles drawn here only in part.
            s.queue.removeAll { rendered[$0].map { $0.area == nil } ?? false }
        }
        for (id, r) in rendered {
            found[id] = r.image
            labels[id] = r.labels
        }
        return (found, labels)
    }
}
