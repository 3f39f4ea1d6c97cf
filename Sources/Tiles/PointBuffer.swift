/// A growable run of tile points that the geometry decoder reuses from part to part: the
/// points of the part being decoded collect here until its length is known, then leave as an
/// exactly sized array. Appending skips the checks a Swift array makes on every append
/// (uniqueness, capacity), because the decoder reserves room for a whole command first.
struct PointBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<TilePoint>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Makes room for at least `minimumCapacity` points, keeping those already there. The
    /// caller bounds it by the input's size (a point takes at least two bytes), so damaged
    /// counts cannot ask for more memory than the tile is long.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let grown = max(minimumCapacity, capacity * 2)
        let bigger = UnsafeMutablePointer<TilePoint>.allocate(capacity: grown)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    /// Appends `point`; room for it must have been reserved.
    @inline(__always)
    mutating func appendReserved(_ point: TilePoint) {
        precondition(count < capacity, "PointBuffer: append past the reserved capacity")
        (base + count).initialize(to: point)
        count += 1
    }

    /// Empties the buffer, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// The points as an array of exactly their count, leaving the buffer empty.
    mutating func takeAll() -> [TilePoint] {
        let points = Array(UnsafeBufferPointer(start: base, count: count))
        count = 0
        return points
    }
}
