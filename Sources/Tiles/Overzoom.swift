/// Makes a tile deeper than the data from an ancestor tile: the ancestor's features clipped to
/// the descendant's square (plus a small buffer, so strokes do not show seams at tile edges)
/// and rescaled to the descendant's own 0…extent coordinates. The result is a normal tile:
/// a renderer draws it exactly like a tile read from the file.
enum Overzoom {
    /// Geometry kept beyond each edge of the descendant, as a fraction of the extent
    /// (64 units of 4096, i.e. 4 px of a 256-px tile, as MapLibre's default buffer).
    static let bufferFraction = 1.0 / 64

    /// `ancestor` (the tile at `ancestorID`) cut down and scaled up to `id`, which must lie
    /// inside `ancestorID` and be deeper.
    static func tile(_ ancestor: VectorTile, at ancestorID: TileID, scaledTo id: TileID) -> VectorTile {
        let depth = id.z - ancestorID.z
        guard depth > 0 else { return ancestor }
        let factor = Double(1 << depth)
        let column = Double(id.x - (ancestorID.x << depth)), row = Double(id.y - (ancestorID.y << depth))
        let layers = ancestor.layers.map { layer -> VectorLayer in
            let extent = Double(layer.extent)
            let size = extent / factor, buffer = extent * bufferFraction / factor
            let origin = (x: column * size, y: row * size)
            let window = ClipRect(
                minX: origin.x - buffer, minY: origin.y - buffer,
                maxX: origin.x + size + buffer, maxY: origin.y + size + buffer)
            let transform = { (p: (x: Double, y: Double)) -> TilePoint in
                TilePoint(x: Int32(((p.x - origin.x) * factor).rounded()), y: Int32(((p.y - origin.y) * factor).rounded()))
            }
            var features: [VectorFeature] = []
            for feature in layer.features {
                // Most features lie wholly inside or outside a deep child: only the few that
                // cross its edge need the clipping work.
                let placement = window.placement(of: feature.parts)
                if placement == .outside { continue }
                let crossing = placement == .crossing
                let kept: [[TilePoint]]
                switch feature.type {
                case .polygon:
                    kept = clipPolygon(feature.parts, to: crossing ? window : nil, transform: transform)
                case .lineString where crossing:
                    kept = clip(feature, to: window).map { dedupe($0.map(transform)) }.filter { $0.count >= 2 }
                case .lineString:
                    kept = feature.parts.map { dedupe($0.map { transform((x: Double($0.x), y: Double($0.y))) }) }.filter { $0.count >= 2 }
                case .point, .unknown:
                    kept = clip(feature, to: window).map { $0.map(transform) }
                }
                if kept.isEmpty { continue }
                features.append(VectorFeature(id: feature.id, type: feature.type, parts: kept, properties: feature.properties))
            }
            return VectorLayer(name: layer.name, extent: layer.extent, features: features)
        }
        return VectorTile(layers: layers)
    }

    /// The parts of a point or line feature inside `rect`, in the ancestor's coordinates.
    static func clip(_ feature: VectorFeature, to rect: ClipRect) -> [[(x: Double, y: Double)]] {
        let parts = feature.parts.map { $0.map { (x: Double($0.x), y: Double($0.y)) } }
        switch feature.type {
        case .point, .unknown:
            return parts.map { $0.filter(rect.contains) }.filter { !$0.isEmpty }
        case .lineString, .polygon:
            return parts.flatMap { rect.clipLine($0) }
        }
    }

    /// Clips and transforms polygon rings in MVT order. A ring that ends up with no area, or
    /// whose winding rounding flipped, is dropped; a hole whose outer ring was dropped goes
    /// with it, so it cannot turn into a filled shape of its own.
    /// A nil `rect` means the rings lie inside the window and only need transforming.
    static func clipPolygon(
        _ rings: [[TilePoint]], to rect: ClipRect?, transform: ((x: Double, y: Double)) -> TilePoint
    ) -> [[TilePoint]] {
        let rings = rings.map { $0.map { (x: Double($0.x), y: Double($0.y)) } }
        guard let first = rings.first else { return [] }
        // Exterior rings share the first ring's winding (positive area in MVT 2; version 1
        // tiles may use either, consistently).
        let outerSign = signedArea(first) >= 0
        var result: [[TilePoint]] = []
        var keepHoles = false
        for ring in rings {
            let isOuter = (signedArea(ring) >= 0) == outerSign
            if !isOuter && !keepHoles { continue }
            let cut = rect.map { $0.clipRing(ring) } ?? ring
            let clipped = openRing(dedupe(cut.map(transform)))
            let area = signedArea(clipped.map { (x: Double($0.x), y: Double($0.y)) })
            let usable = clipped.count >= 3 && area != 0 && (area > 0) == (isOuter == outerSign)
            if isOuter { keepHoles = usable }
            if usable { result.append(clipped) }
        }
        return result
    }

    /// Twice the shoelace area; positive for MVT exterior rings (clockwise with y down).
    static func signedArea(_ ring: [(x: Double, y: Double)]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum
    }

    /// `points` without consecutive repeats (rounding can merge neighbours).
    static func dedupe(_ points: [TilePoint]) -> [TilePoint] {
        var out: [TilePoint] = []
        out.reserveCapacity(points.count)
        for p in points where out.last != p { out.append(p) }
        return out
    }

    /// A ring without its closing repeat: a ring's first and last point must differ.
    static func openRing(_ ring: [TilePoint]) -> [TilePoint] {
        ring.count > 1 && ring.first == ring.last ? Array(ring.dropLast()) : ring
    }
}

/// An axis-aligned clip window in tile coordinates.
struct ClipRect {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// Where a feature's points lie relative to the window.
    enum Placement { case inside, outside, crossing }

    /// Compares the bounding box of `parts` with the window.
    func placement(of parts: [[TilePoint]]) -> Placement {
        var lowX = Int32.max, lowY = Int32.max, highX = Int32.min, highY = Int32.min
        for part in parts {
            for p in part {
                lowX = min(lowX, p.x)
                highX = max(highX, p.x)
                lowY = min(lowY, p.y)
                highY = max(highY, p.y)
            }
        }
        guard lowX <= highX else { return .outside }
        let box = (minX: Double(lowX), minY: Double(lowY), maxX: Double(highX), maxY: Double(highY))
        if box.maxX < minX || box.minX > maxX || box.maxY < minY || box.minY > maxY { return .outside }
        if box.minX >= minX && box.maxX <= maxX && box.minY >= minY && box.maxY <= maxY { return .inside }
        return .crossing
    }

    func contains(_ p: (x: Double, y: Double)) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// The pieces of a polyline inside the window (Liang–Barsky per segment); the line is
    /// split where it leaves the window and comes back.
    func clipLine(_ line: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        guard line.count >= 2 else { return [] }
        var pieces: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for i in 1..<line.count {
            guard let (a, b) = clipSegment(line[i - 1], line[i]) else {
                if current.count >= 2 { pieces.append(current) }
                current = []
                continue
            }
            if let last = current.last, last.x == a.x, last.y == a.y {
                current.append(b)
            } else {
                if current.count >= 2 { pieces.append(current) }
                current = [a, b]
            }
            // Leaving the window ends this piece.
            if b.x != line[i].x || b.y != line[i].y {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// The part of segment a→b inside the window, nil when none is.
    func clipSegment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        // For each edge: p·t ≤ q keeps the point inside.
        for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let t = q / p
            if p < 0 {
                if t > t1 { return nil }
                if t > t0 { t0 = t }
            } else {
                if t < t0 { return nil }
                if t < t1 { t1 = t }
            }
        }
        let start = t0 == 0 ? a : (x: a.x + t0 * dx, y: a.y + t0 * dy)
        let end = t1 == 1 ? b : (x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (start, end)
    }

    /// A closed ring clipped to the window (Sutherland–Hodgman); winding is preserved. Rings
    /// that straddle a corner gain edges along the window border, which are outside the
    /// visible tile thanks to the buffer.
    func clipRing(_ ring: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        var points = ring
        let edges: [(inside: ((x: Double, y: Double)) -> Bool, cross: ((x: Double, y: Double), (x: Double, y: Double)) -> (x: Double, y: Double))] = [
            ({ $0.x >= minX }, { a, b in (minX, a.y + (b.y - a.y) * (minX - a.x) / (b.x - a.x)) }),
            ({ $0.x <= maxX }, { a, b in (maxX, a.y + (b.y - a.y) * (maxX - a.x) / (b.x - a.x)) }),
            ({ $0.y >= minY }, { a, b in (a.x + (b.x - a.x) * (minY - a.y) / (b.y - a.y), minY) }),
            ({ $0.y <= maxY }, { a, b in (a.x + (b.x - a.x) * (maxY - a.y) / (b.y - a.y), maxY) }),
        ]
        for edge in edges {
            guard let last = points.last else { return [] }
            var output: [(x: Double, y: Double)] = []
            output.reserveCapacity(points.count + 4)
            var previous = last
            for p in points {
                let pIn = edge.inside(p), prevIn = edge.inside(previous)
                if pIn {
                    if !prevIn { output.append(edge.cross(previous, p)) }
                    output.append(p)
                } else if prevIn {
                    output.append(edge.cross(previous, p))
                }
                previous = p
            }
            points = output
        }
        return points
    }
}
