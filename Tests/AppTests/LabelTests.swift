import Foundation
import Geo
import Testing
@testable import MeridianApp

/// `map.labels` from the state dump of headless replays over the shipped data.
struct DumpLabel {
    let text: String
    let layer: String
    let anchor: P
    let angle: Double
    let box: Box
    let collision: [Box]
    let glyphs: [(x: Double, y: Double, angle: Double)]

    init(_ d: [String: Any]) {
        text = d["text"] as? String ?? ""
        layer = d["layer"] as? String ?? ""
        let a = d["anchor"] as? [String: Any] ?? [:]
        anchor = P(x: a["x"] as? Double ?? .nan, y: a["y"] as? Double ?? .nan)
        angle = d["angle"] as? Double ?? .nan
        box = Box(d["box"])
        collision = (d["collision"] as? [Any] ?? []).map { Box($0) }
        glyphs = (d["glyphs"] as? [[String: Any]] ?? []).map { g in
            (g["x"] as? Double ?? .nan, g["y"] as? Double ?? .nan, g["angle"] as? Double ?? .nan)
        }
    }
}

extension Dump {
    var labels: [DumpLabel] {
        ((raw["map"] as? [String: Any])?["labels"] as? [[String: Any]] ?? []).map(DumpLabel.init)
    }
}

@Suite struct LabelTests {
    static let city = "60.1699,24.9384"

    static func view(_ center: String, zoom: Double, _ trace: TraceBuilder = TraceBuilder()) throws -> Dump {
        try Replay.dump(trace, ["--size", "1000x1400", "--center", center, "--zoom", String(zoom)])
    }

    @Test(arguments: [13.0, 15, 16, 17])
    func noTwoLabelsOverlapAndEveryOneIsInsideTheMap(zoom: Double) throws {
        let d = try Self.view(Self.city, zoom: zoom)
        let labels = d.labels
        #expect(labels.count > 3, "labels at z\(zoom)")
        let m = d.mapFrame
        for l in labels {
            #expect(l.box.x >= m.x && l.box.y >= m.y && l.box.x + l.box.width <= m.x + m.width && l.box.y + l.box.height <= m.y + m.height,
                    "\(l.text) inside the map")
            #expect(!l.text.isEmpty && !l.layer.isEmpty)
        }
        var overlaps: [String] = []
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                for p in a.collision {
                    for q in b.collision where p.overlaps(q) {
                        overlaps.append("\(a.text) / \(b.text)")
                    }
                }
            }
        }
        #expect(overlaps.isEmpty, "overlapping: \(overlaps.prefix(5))")
    }

    @Test func streetNamesFollowTheirRoadGlyphByGlyphAndReadUpright() throws {
        let d = try Self.view(Self.city, zoom: 17)
        let streets = d.labels.filter { $0.layer == "street-name" }
        #expect(streets.count >= 2)
        for s in streets {
            #expect(s.glyphs.count == s.text.count, "\(s.text): one glyph per letter")
            for (a, b) in zip(s.glyphs, s.glyphs.dropFirst()) {
                // Neighbouring letters bend by at most the style's max angle (45°)…
                var bend = abs(a.angle - b.angle)
                bend = min(bend, 360 - bend)
                #expect(bend <= 45.0001, "\(s.text) bends \(bend)°")
                // …and each step from one letter to the next runs the way the letters face.
                let step = atan2(b.y - a.y, b.x - a.x) * 180 / Double.pi
                var off = abs(step - (a.angle + b.angle) / 2)
                off = min(off, 360 - off)
                #expect(off < 25, "\(s.text): step \(step)° against glyphs \(a.angle)°, \(b.angle)°")
            }
            // Upright: read left to right (the last letter right of the first), never upside down.
            if let first = s.glyphs.first, let last = s.glyphs.last {
                #expect(last.x >= first.x, "\(s.text) reads left to right")
            }
            #expect(s.glyphs.allSatisfy { $0.angle > -135 && $0.angle < 135 }, "\(s.text) upright")
        }
    }

    @Test func aTwoFingerPanOfAFewPixelsMovesEveryLabelByExactlyThePan() throws {
        let before = try Self.view(Self.city, zoom: 16)
        let m = before.mapFrame
        var t = TraceBuilder()
        let a = P(x: m.x + m.width / 2 - 60, y: m.y + m.height / 2), b = P(x: m.x + m.width / 2 + 60, y: m.y + m.height / 2)
        // Slow and long enough to be a pan (a short two-finger touch is a tap that zooms out).
        t.drag([(0, a), (1, b)], by: P(x: -36, y: -24), steps: 20, rest: 400)
        t.wait(600)
        let after = try Self.view(Self.city, zoom: 16, t)
        #expect(after.zoom == before.zoom)
        // How far the map moved, from the dumps' cameras: where the old centre is drawn now.
        let moved = after.windowPoint(of: before.center) - before.windowPoint(of: before.center)
        #expect(abs(moved.x) + abs(moved.y) > 2, "the map moved (\(moved))")
        #expect(abs(moved.x) <= 40 && abs(moved.y) <= 40, "by a few px (\(moved))")
        guard after.zoom == before.zoom, abs(moved.x) + abs(moved.y) > 2 else { return }
        let inside = { (l: DumpLabel, dx: Double, dy: Double) in
            l.box.x + dx >= m.x && l.box.y + dy >= m.y && l.box.x + l.box.width + dx <= m.x + m.width && l.box.y + l.box.height + dy <= m.y + m.height
        }
        let kept = before.labels.filter { inside($0, moved.x, moved.y) }
        #expect(kept.count > 5)
        for l in kept {
            let match = after.labels.first { $0.text == l.text && $0.anchor.distance(to: l.anchor + moved) < 1e-4 }
            #expect(match != nil, "\(l.text) moved with the map")
            if let match {
                #expect(abs(match.box.width - l.box.width) < 1e-6 && abs(match.angle - l.angle) < 1e-6)
            }
        }
        // Nothing swapped in: a label not there before was outside the map before the pan.
        for l in after.labels where !before.labels.contains(where: { $0.text == l.text && $0.anchor.distance(to: l.anchor - moved) < 1e-4 }) {
            #expect(!inside(l, -moved.x, -moved.y), "\(l.text) appeared inside the map")
        }
    }

    /// The shipped OpenMapTiles style's symbol layers, bottom first, with the Meridian zoom
    /// each shows from (its minzoom + 1).
    static func symbolLayers() throws -> [(id: String, minZoom: Int)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: YourOwnMapTests.dataDirectory + "/styles/openmaptiles.json"))
        let layers = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["layers"] as? [[String: Any]] ?? []
        return layers.filter { $0["type"] as? String == "symbol" }.compactMap { l in
            (l["id"] as? String).map { ($0, ((l["minzoom"] as? NSNumber)?.intValue ?? 0) + 1) }
        }
    }

    @Test func aPlaceNameNearATileEdgeIsShownAtEveryZoomItsLayerNamesIt() throws {
        // The names of the style's `place-*` layers (over OpenMapTiles `place`) in the city at
        // z15 and z12 (the finer view's point first); for each, every zoom from the one its
        // layer shows from (z4 for the city, but the extract's tiles are empty below z5; z12
        // for suburbs, z14 for minor places) to 18 at which its point lies within 32 px of a
        // tile edge.
        let layers = try Self.symbolLayers()
        let rank = Dictionary(uniqueKeysWithValues: layers.enumerated().map { ($1.id, $0) })
        let minZoom = Dictionary(uniqueKeysWithValues: layers.map { ($0.id, $0.minZoom) })
        #expect(minZoom["place-suburb"] == 12 && minZoom["place-minor"] == 14, "\(minZoom)")
        var seen = Set<String>()
        var checked: [(name: String, zoom: Int, edge: Double)] = []
        for overview in [try Self.view(Self.city, zoom: 15), try Self.view(Self.city, zoom: 12)] {
            let places = overview.labels.filter { $0.layer.hasPrefix("place-") }
            #expect(places.count >= 3)
            for p in places where seen.insert(p.text).inserted {
                let c = overview.coordinate(at: p.anchor)
                let w = WebMercator.world(c)
                for z in max(minZoom[p.layer] ?? 12, 5)...18 {
                    let px = w.x * exp2(Double(z)), py = w.y * exp2(Double(z))
                    let fx = px.truncatingRemainder(dividingBy: 256), fy = py.truncatingRemainder(dividingBy: 256)
                    let edge = min(fx, 256 - fx, fy, 256 - fy)
                    guard edge < 32 else { continue }
                    // Centred on the name, it is shown unless its box (as in the overview, the
                    // text's size is fixed) would overlap a name of a higher layer placed there.
                    let d = try Self.view("\(c.latitude),\(c.longitude)", zoom: Double(z))
                    let a = d.windowPoint(of: c)
                    let boxes = p.collision.map { Box(x: $0.x - p.anchor.x + a.x, y: $0.y - p.anchor.y + a.y, width: $0.width, height: $0.height) }
                    let crowded = d.labels.filter { (rank[$0.layer] ?? -1) > (rank[p.layer] ?? -1) }.contains { l in
                        l.collision.contains { q in boxes.contains { $0.overlaps(q) } }
                    }
                    // Within a few px: a coarse overview's tile quantises the point (1/16 px at
                    // z12, a few px at z18).
                    let shown = d.labels.contains { $0.text == p.text && $0.layer == p.layer && $0.anchor.distance(to: a) < 8 }
                    #expect(shown || crowded, "\(p.text) (\(p.layer)) \(edge) px from a tile edge at z\(z)")
                    if !crowded { checked.append((p.text, z, edge)) }
                }
            }
        }
        // Names within a few px of an edge, at zooms below 15 too.
        #expect(checked.contains { $0.edge < 5 }, "\(checked)")
        #expect(checked.contains { $0.zoom < 15 && $0.edge < 16 }, "\(checked)")
    }
}
