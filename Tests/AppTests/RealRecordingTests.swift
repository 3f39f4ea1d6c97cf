import Geo
import Gestures
import Glibc
import Input
import Testing
import UI

/// Real fingers on real touchscreens (data/recordings, converted from public evemu recordings
/// with their timing and jitter): the map and the page follow the fingers within a few px at
/// every frame, and taps are taps.
@Suite struct RealRecordingTests {
    static let directory = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/") + "/data/recordings/"

    /// Every recording in data/recordings, by trace name.
    static let all: [String] = {
        guard let d = opendir(directory) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".trace") { names.append(String(name.dropLast(6))) }
        }
        return names.sorted()
    }()

    /// The recordings, by trace name (data/recordings/SOURCES.md).
    static func trace(_ name: String) throws -> Trace {
        let path = directory + name + ".trace"
        guard let f = fopen(path, "r") else { throw ReplayFailure(description: "cannot open \(path)") }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            bytes += buf[0..<n]
            if n < buf.count { break }
        }
        return try TraceFormat.parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// What happened frame by frame: the worst distance between where the fingers that stayed
    /// down put the map and where they are, and the same for the page.
    struct Following {
        var worstMapError = 0.0
        /// The exact scroll offset against the finger, per frame.
        var worstPageError = 0.0
        /// The drawn offset against the exact one (the page is drawn on the device pixel grid).
        var worstDrawnError = 0.0
        var mapFramesChecked = 0
        var pageFramesChecked = 0
        var page: MeridianPage
    }

    /// Replays `trace` through the page as it ships and measures, at every frame, whether the
    /// map (while a map gesture runs) keeps the place under the staying fingers' centroid under
    /// it, and whether the page (while it scrolls, between its ends) moves with the finger.
    static func follow(_ trace: Trace) -> Following {
        let page = MeridianPage(.init(width: 800, height: 1280))
        var fingers: [Int32: Point] = [:]
        var result = Following(page: page)
        for frame in trace.frames {
            guard case .touch(let f) = frame else {
                page.handle(frame)
                continue
            }
            let before = fingers
            let camera = page.camera, scroll = page.exactScrollY, map = page.mapFrameInWindow
            let mapWasMoving = page.graph.isMapGroupActive, pageWasScrolling = page.graph.pageScroll.state.isActive
            // The page follows its own finger (others may drag a pin meanwhile).
            let scrollFingers = Set(page.graph.pageScroll.touches.map(\.id))
            for c in f.changes {
                switch c {
                case .down(let id, let p), .moved(let id, let p): fingers[id] = p
                case .up(let id, _): fingers[id] = nil
                }
            }
            page.handle(frame)
            let staying = before.keys.filter { fingers[$0] != nil }
            guard !staying.isEmpty else { continue }
            func centroid(_ points: [Int32: Point]) -> Point {
                var s = Point.zero
                for id in staying { s = s + (points[id] ?? .zero) }
                return s * (1 / Double(staying.count))
            }
            let from = centroid(before), to = centroid(fingers)
            if mapWasMoving && page.graph.isMapGroupActive {
                let place = camera.worldPoint(at: ScreenPoint(x: from.x - map.minX, y: from.y - map.minY))
                let now = page.camera.screenPoint(ofWorld: place)
                let m = page.mapFrameInWindow
                let error = ((now.x + m.minX - to.x) * (now.x + m.minX - to.x) + (now.y + m.minY - to.y) * (now.y + m.minY - to.y)).squareRoot()
                result.worstMapError = max(result.worstMapError, error)
                result.mapFramesChecked += 1
            }
            let scrolling = staying.filter(scrollFingers.contains)
            if pageWasScrolling && page.graph.pageScroll.state.isActive, !scrolling.isEmpty, scroll > 0, page.scrollY > 0,
               scroll < page.maxScrollY, page.scrollY < page.maxScrollY {
                let dy = scrolling.reduce(0.0) { $0 + (fingers[$1]?.y ?? 0) - (before[$1]?.y ?? 0) } / Double(scrolling.count)
                result.worstPageError = max(result.worstPageError, abs((page.exactScrollY - scroll) + dy))
                result.worstDrawnError = max(result.worstDrawnError, abs(page.scrollY - page.exactScrollY))
                result.pageFramesChecked += 1
            }
        }
        page.advance(to: trace.endTime + 10_000)
        return result
    }

    @Test(arguments: ["ep0430m09-2-finger-drag", "ep0430m09-4-finger-drag", "atmel-maxtouch-4-finger-drag"])
    func theMapFollowsRealFingersAtEveryFrameAsTheyLandAndLift(_ name: String) throws {
        let result = Self.follow(try Self.trace(name))
        #expect(result.mapFramesChecked > 15, "the recording moved the map (\(result.mapFramesChecked) frames checked)")
        #expect(result.worstMapError < 1, "the place under the fingers stayed under them: worst \(result.worstMapError) px")
        #expect(result.page.scrollY == 0, "the page did not move")
        #expect(result.page.log.isEmpty, "no tap, no hint: \(result.page.log.map(\.kind))")
    }

    @Test(arguments: ["ep0430m09-1-finger-drag", "elan-cando-1-finger-drag", "atmel-maxtouch-1-finger-drag"])
    func oneRealFingerOnTheMapScrollsThePageWithTheFinger(_ name: String) throws {
        let result = Self.follow(try Self.trace(name))
        let start = MeridianPage(.init(width: 800, height: 1280)).camera
        #expect(result.page.camera.center == start.center && result.page.camera.zoom == start.zoom, "the map did not move")
        #expect(result.worstPageError < 0.5, "the page moved with the finger: worst \(result.worstPageError) px")
        #expect(result.worstDrawnError <= 0.5, "and is drawn within half a pixel of it: worst \(result.worstDrawnError) px")
        #expect(result.page.log.map(\.kind).contains("cooperativeHint"))
    }

    @Test(arguments: ["atmel-maxtouch-2-finger-tap", "ep0430m09-2-finger-tap"])
    func realTwoFingerTapsSettleAndStillZoomOut(_ name: String) throws {
        let result = Self.follow(try Self.trace(name))
        let kinds = result.page.log.map(\.kind)
        #expect(kinds == ["twoFingerTapZoom"], "log: \(kinds)")
        #expect(result.page.camera.zoom == HelsinkiPlaces.startZoom - 1)
    }

    /// Every recording, whatever its fingers do: wherever a map gesture runs, the place under
    /// the fingers that stay stays under them at every frame (fingers landing and lifting
    /// included); wherever the page scrolls, it moves with the finger.
    @Test(arguments: Self.all)
    func everyRealRecordingKeepsThePlaceUnderTheStayingFingers(_ name: String) throws {
        let result = Self.follow(try Self.trace(name))
        #expect(result.worstMapError < 1, "\(name): worst \(result.worstMapError) px over \(result.mapFramesChecked) frames")
        #expect(result.worstPageError < 0.5, "\(name): the page lagged the finger by \(result.worstPageError) px")
        #expect(result.worstDrawnError <= 0.5, "\(name): the page was drawn \(result.worstDrawnError) px from where the finger put it")
    }

    /// Real taps on other devices are what they look like: one finger a tap, two quick ones a
    /// double tap, two fingers together a two-finger tap, even with one of them on a pin
    /// (isdv4-e6-2fg-tap lands a finger on pin-ateneum: it used to select the pin) and even
    /// when the contact lasts 0 ms (empia-pcap-tap); two fingers held for seconds are none
    /// (ntrig-2-finger-hold, GestureConstants.twoFingerTapMaximumDuration).
    @Test(arguments: [
        ("isdv4-e6-single-tap-center", ["mapTap"]), ("empia-pcap-tap", ["mapTap"]),
        ("isdv4-e6-double-tap-center", ["doubleTapZoom"]),
        ("isdv4-e6-2fg-tap", ["twoFingerTapZoom"]), ("isdv4-e6-2fg-double-tap", ["twoFingerTapZoom"]),
        ("dell-canvas-2-finger-tap", ["twoFingerTapZoom"]), ("bamboo-16fg-double-tap", ["twoFingerTapZoom"]),
        ("intuos5-touch-m-double-tap", ["twoFingerTapZoom"]),
        // One finger rests alone for 1.27 s (a long press: a new place), then a second lands
        // and both stay 1.7 s: a hold, neither a two-finger tap (no zoom out) nor a tap.
        ("ntrig-2-finger-hold", ["mapLongPress"]),
    ])
    func realTapsAreWhatTheyLookLike(_ name: String, _ expected: [String]) throws {
        let result = Self.follow(try Self.trace(name))
        #expect(result.page.log.map(\.kind) == expected, "\(name)")
        #expect(result.page.scrollY == 0)
    }

    @Test func theRecordingsCoverManyDevices() {
        #expect(Self.all.count >= 39, "\(Self.all.count) recordings")
    }

    /// dth2242-slow-double-tap, at its true size (6 px per mm): the second press of a slow
    /// double tap slides 5.3 mm. Replayed headless, the state dump shows one +1 zoom.
    @Test func aRealSlowDoubleTapWhoseSecondPressSlidesZoomsInOnce() throws {
        let start = try Replay.initial()
        let dump = try Replay.dump(traceFile: Self.directory + "dth2242-slow-double-tap.trace")
        #expect(dump.zoom == start.zoom + 1, "zoom \(dump.zoom), from \(start.zoom)")
        #expect(dump.log.compactMap { $0["kind"] as? String } == ["doubleTapZoom"], "\(dump.log)")
        #expect(dump.scrollY == 0)
    }

    @Test func nineRealFastTapsAreNineTaps() throws {
        let result = Self.follow(try Self.trace("atmel-maxtouch-fast-taps"))
        let kinds = result.page.log.map(\.kind)
        let taps = kinds.filter { $0 == "doubleTapZoom" }.count * 2 + kinds.filter { $0 == "mapTap" }.count
        #expect(taps == 9, "log: \(kinds)")
        #expect(result.page.scrollY == 0)
    }
}
