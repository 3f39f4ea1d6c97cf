import Foundation
import Geo
@testable import MeridianApp

/// A point in window coordinates.
struct P: Equatable, CustomStringConvertible {
    var x: Double
    var y: Double
    static func + (a: P, b: P) -> P { P(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: P, b: P) -> P { P(x: a.x - b.x, y: a.y - b.y) }
    func distance(to o: P) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }
    var description: String { "(\(x), \(y))" }
}

struct Box {
    var x, y, width, height: Double
    var center: P { P(x: x + width / 2, y: y + height / 2) }
    func contains(_ p: P) -> Bool { p.x >= x && p.x < x + width && p.y >= y && p.y < y + height }
    func overlaps(_ o: Box) -> Bool { x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height }
    init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
    init(_ json: Any?) {
        let d = json as? [String: Any] ?? [:]
        x = d["x"] as? Double ?? .nan
        y = d["y"] as? Double ?? .nan
        width = d["width"] as? Double ?? .nan
        height = d["height"] as? Double ?? .nan
    }
}

/// The state dump, read back for assertions: every geometry a test uses comes from here.
struct Dump {
    let raw: [String: Any]
    var scrollY: Double { (raw["page"] as? [String: Any])?["scrollY"] as? Double ?? .nan }
    var contentHeight: Double { (raw["page"] as? [String: Any])?["contentHeight"] as? Double ?? .nan }
    var windowHeight: Double { (raw["window"] as? [String: Any])?["height"] as? Double ?? .nan }
    private var map: [String: Any] { raw["map"] as? [String: Any] ?? [:] }
    var mapFrame: Box { Box(map["frame"]) }
    var zoom: Double { map["zoom"] as? Double ?? .nan }
    var center: Coordinate {
        let c = map["center"] as? [String: Any] ?? [:]
        return Coordinate(latitude: c["lat"] as? Double ?? .nan, longitude: c["lon"] as? Double ?? .nan)
    }
    var observedTaps: Int { map["observedTaps"] as? Int ?? -1 }
    /// The compass direction that points up (0 when the dump predates rotation).
    var bearing: Double { map["bearing"] as? Double ?? 0 }
    var focus: String? { raw["focus"] as? String }

    /// The map camera the dump describes, to turn window points into coordinates and back.
    var camera: MapCamera {
        MapCamera(center: center, zoom: zoom, size: ViewSize(width: mapFrame.width, height: mapFrame.height), minZoom: 1, maxZoom: 19,
                  bearing: bearing)
    }

    func coordinate(at p: P) -> Coordinate {
        camera.coordinate(at: ScreenPoint(x: p.x - mapFrame.x, y: p.y - mapFrame.y))
    }

    func windowPoint(of c: Coordinate) -> P {
        let s = camera.screenPoint(of: c)
        return P(x: s.x + mapFrame.x, y: s.y + mapFrame.y)
    }

    struct Item {
        let id: String
        let frame: Box
        let hitFrame: Box
        let coordinate: Coordinate?
    }

    private func items(_ key: String) -> [Item] {
        (raw[key] as? [[String: Any]] ?? []).map { d in
            let lat = d["lat"] as? Double, lon = d["lon"] as? Double
            return Item(id: d["id"] as? String ?? "", frame: Box(d["frame"]), hitFrame: Box(d["hitFrame"]),
                        coordinate: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } })
        }
    }

    var pins: [Item] { items("pins") }
    var targets: [Item] { items("targets") }
    func pin(_ id: String) -> Item? { pins.first { $0.id == id } }
    func target(_ id: String) -> Item? { targets.first { $0.id == id } }

    /// Pins drawn well inside the map, so a finger on them lands on the pin.
    var visiblePins: [Item] {
        let m = mapFrame
        return pins.filter { $0.frame.x > m.x + 30 && $0.frame.x < m.x + m.width - 90 && $0.frame.y > m.y + 30 && $0.frame.y < m.y + m.height - 40 }
    }

    /// A point on the map at least `clearance` px from every pin's and button's hit area,
    /// nearest to `near` (default: the map's centre).
    func freeMapPoint(near: P? = nil, clearance: Double = 40) -> P {
        let m = mapFrame
        let goal = near ?? m.center
        var best: P?
        var y = m.y + 60
        while y < m.y + m.height - 60 {
            var x = m.x + 60
            while x < m.x + m.width - 100 {
                let p = P(x: x, y: y)
                let clear = (pins + targets.filter { !$0.id.hasPrefix("place-") }).allSatisfy { item in
                    let h = item.hitFrame
                    let dx = max(h.x - p.x, 0, p.x - (h.x + h.width)), dy = max(h.y - p.y, 0, p.y - (h.y + h.height))
                    return (dx * dx + dy * dy).squareRoot() >= clearance
                }
                if clear, best.map({ p.distance(to: goal) < $0.distance(to: goal) }) ?? true { best = p }
                x += 10
            }
            y += 10
        }
        return best ?? m.center
    }

    var log: [[String: Any]] { raw["log"] as? [[String: Any]] ?? [] }
    func log(_ kind: String) -> [[String: Any]] { log.filter { $0["kind"] as? String == kind } }
    var logKinds: [String] { log.compactMap { $0["kind"] as? String } }
}

/// Builds a trace line by line, with time moving forward as events are added.
struct TraceBuilder {
    private(set) var lines = ["meridian-trace 1"]
    private(set) var t = 0.0

    mutating func wait(_ ms: Double) { t += ms }
    mutating func line(_ s: String) { lines.append("\(t) \(s)") }
    mutating func down(_ id: Int, _ p: P) { line("touch down \(id) \(p.x) \(p.y)") }
    mutating func move(_ id: Int, _ p: P) { line("touch motion \(id) \(p.x) \(p.y)") }
    mutating func up(_ id: Int) { line("touch up \(id)") }
    mutating func frame() { line("touch frame") }

    /// One finger (or several, moving together) from `from` by `delta` in `steps` frames of 16 ms.
    mutating func drag(_ fingers: [(id: Int, from: P)], by delta: P, steps: Int = 15, rest: Double = 60, lift: Bool = true) {
        for f in fingers { down(f.id, f.from) }
        frame()
        for i in 1...steps {
            wait(16)
            let k = Double(i) / Double(steps)
            for f in fingers { move(f.id, f.from + P(x: delta.x * k, y: delta.y * k)) }
            frame()
        }
        wait(rest)
        if lift {
            for f in fingers { up(f.id) }
            frame()
        }
    }

    mutating func tap(_ p: P, id: Int = 0) {
        down(id, p)
        frame()
        wait(60)
        up(id)
        frame()
    }

    mutating func pointer(_ s: String) {
        line("pointer \(s)")
        line("pointer frame")
    }

    var text: String { (lines + ["\(t + 1) wait"]).joined(separator: "\n") + "\n" }
}

enum Replay {
    /// Replays `trace` headless and returns the state dump (and the screenshot path when asked).
    static func run(_ trace: TraceBuilder, arguments: [String] = [], screenshot: Bool = false,
                    sourceLocation: String = #function) throws -> (dump: Dump, png: String?) {
        let dir = ScratchDirectory()
        let path = dir.write("t.trace", trace.text)
        var args = ["--headless", "--replay", path, "--state-out", dir.file("s.json")] + arguments
        let png = "/tmp/meridian-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        if screenshot { args += ["--screenshot", png] }
        let status = MeridianApp.run(args)
        guard status == 0 else { throw ReplayFailure(description: "meridian exited \(status) in \(sourceLocation)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("s.json")))
        let raw = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (Dump(raw: raw), screenshot ? png : nil)
    }

    static func dump(_ trace: TraceBuilder, _ arguments: [String] = []) throws -> Dump { try run(trace, arguments: arguments).dump }

    /// Replays a trace file headless and returns the state dump.
    static func dump(traceFile: String, _ arguments: [String] = []) throws -> Dump {
        let dir = ScratchDirectory()
        let status = MeridianApp.run(["--headless", "--replay", traceFile, "--state-out", dir.file("s.json")] + arguments)
        guard status == 0 else { throw ReplayFailure(description: "meridian exited \(status) replaying \(traceFile)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("s.json")))
        return Dump(raw: try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
    }

    /// The page as it starts.
    static func initial(_ arguments: [String] = []) throws -> Dump { try dump(TraceBuilder(), arguments) }
}

struct ReplayFailure: Error, CustomStringConvertible { var description: String }
