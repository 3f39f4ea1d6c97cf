import Dispatch
import Synchronization
import Tiles
#if canImport(Glibc)
import Glibc
#endif

/// What the worker threads share with the cache: the locked table and queue, the wake-up
/// semaphore and the "tiles ready" pipe.
final class SharedWork: Sendable {
    let state = Mutex(CacheState())
    let work = DispatchSemaphore(value: 0)
    let rasterizer: TileRasterizer
    let scale: Double
    let byteBudget: Int
    let readEnd: Int32
    let wakeWriteEnd: Int32
    let onTileReady: (@Sendable () -> Void)?
    /// Where evicted tiles' pixels wait for the next tiles; its limit is the budget minus what
    /// the cached tiles hold, so the two together stay within the budget.
    let pool: PixelPool

    init(rasterizer: TileRasterizer, scale: Double, byteBudget: Int, pipe: (Int32, Int32), onTileReady: (@Sendable () -> Void)?) {
        self.rasterizer = rasterizer
        self.scale = scale
        self.byteBudget = byteBudget
        readEnd = pipe.0
        wakeWriteEnd = pipe.1
        self.onTileReady = onTileReady
        pool = PixelPool(limitBytes: byteBudget)
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if wakeWriteEnd >= 0 { close(wakeWriteEnd) }
    }

    func workLoop() {
        while true {
            work.wait()
            guard let job = state.withLock({ s -> TileKey?? in
                if s.stopped { return .some(nil) }
                guard !s.queue.isEmpty else { return nil }
                let id = s.queue.removeFirst()
                s.inFlight.insert(id)
                return .some(id)
            }) else { continue }
            guard let id = job else { return }
            // More work left: wake a sibling so both cores stay busy.
            if state.withLock({ !$0.queue.isEmpty }) { work.signal() }
            let rendered = rasterizer.render(id.tile, pixelSize: id.pixelSize, scale: scale, bearing: id.bearing, pool: pool)
            state.withLock { s in
                s.inFlight.remove(id)
                if let rendered { s.insert(id, rendered, budget: byteBudget, pool: pool) }
                s.newTiles = true
            }
            if wakeWriteEnd >= 0 {
                // A full pipe already says "ready"; a failed write loses nothing.
                var one: UInt8 = 1
                _ = write(wakeWriteEnd, &one, 1)
            }
            onTileReady?()
        }
    }
}

/// The cache's table and queue, only ever touched under the cache's lock.
struct CacheState: ~Copyable {
    struct Entry {
        var image: RasterImage
        var labels: TileLabelSet
        var lastUse: UInt64
        /// Only this part of the tile is drawn (an edge tile of a cold frame), nil for all of it.
        /// Such a tile is shown only by a frame that needs no more of it (`renderNow` with
        /// areas); anything else takes it as missing and draws it whole.
        var area: TileArea? = nil
    }
    var entries: [TileKey: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    var queue: [TileKey] = []
    var inFlight: Set<TileKey> = []
    var newTiles = false
    var stopped = false
    /// Every distinct tile failure met so far (one per source and tile), oldest first.
    var errors: [TileFailure] = []
    var reported: Set<FailureKey> = []
    /// How many of `errors` were already handed out by `takeNewErrors`.
    var announced = 0
    struct FailureKey: Hashable { var source: String; var tile: TileID }
    /// A damaged planet file could fail on every tile; past this many the rest are dropped.
    static let maxErrors = 256

    /// The cached tile when it is drawn whole (or at least `area` of it is), marked as just used.
    mutating func touch(_ id: TileKey, needing area: TileArea? = nil) -> RasterImage? {
        guard let e = entries[id] else { return nil }
        if let drawn = e.area {
            guard let area, drawn.contains(area) else { return nil }
        }
        clock += 1
        entries[id]?.lastUse = clock
        return e.image
    }

    mutating func insert(_ id: TileKey, _ r: RenderedTile, budget: Int, pool: PixelPool) {
        for failure in r.errors where errors.count < Self.maxErrors {
            if reported.insert(FailureKey(source: failure.source, tile: failure.tile)).inserted { errors.append(failure) }
        }
        clock += 1
        if let old = entries[id] {
            // A part drawn for one frame never replaces the whole tile a worker drew meanwhile.
            if r.area != nil, old.area == nil { return }
            bytes -= old.image.memoryBytes
        }
        entries[id] = Entry(image: r.image, labels: r.labels, lastUse: clock, area: r.area)
        bytes += r.image.memoryBytes
        // Evict least recently used first; the tile just drawn is the newest, so it stays.
        // An evicted tile's pixels go to the pool (once no frame holds it) for the next tile.
        while bytes > budget, entries.count > 1,
              let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= victim.value.image.memoryBytes
            entries[victim.key] = nil
        }
        pool.setLimit(budget - bytes)
    }
}
