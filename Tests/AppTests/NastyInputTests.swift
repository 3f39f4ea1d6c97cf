import Glibc
import Testing
@testable import MeridianApp

/// Inputs no sane user makes, fed to the whole headless app: it either runs to a sensible
/// state or refuses with exit status 2 and a message — never a crash, NaN or hang.
@Suite struct NastyInputTests {
    /// The number after `"key": ` in the state dump, nil when absent or `null` (non-finite).
    static func number(_ key: String, in state: String) -> Double? {
        guard let r = state.range(of: "\"\(key)\": ") else { return nil }
        let digits = state[r.upperBound...].prefix { "-+.0123456789e".contains($0) }
        return Double(digits)
    }

    /// The map camera in the dump is finite and inside Web Mercator's range.
    static func expectSaneCamera(_ state: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lat = number("lat", in: String(state[(state.range(of: "\"center\"")?.lowerBound ?? state.startIndex)...]))
        let lon = number("lon", in: String(state[(state.range(of: "\"center\"")?.lowerBound ?? state.startIndex)...]))
        let zoom = number("zoom", in: state)
        #expect(lat.map { abs($0) <= 85.06 } == true, "latitude \(String(describing: lat))", sourceLocation: sourceLocation)
        #expect(lon.map { abs($0) <= 180 } == true, "longitude \(String(describing: lon))", sourceLocation: sourceLocation)
        #expect(zoom.map { $0 >= 0 && $0 <= 22 } == true, "zoom \(String(describing: zoom))", sourceLocation: sourceLocation)
    }

    @Test func fingersAtTheEdgeOfTheRepresentableRangeLeaveAFiniteCamera() throws {
        let dir = ScratchDirectory()
        let far = 8_388_608
        // A pinch whose fingers fly from the map to the largest coordinates a trace allows and
        // back, then a fling from one end of that range to the other.
        let trace = """
            meridian-trace 1
            0 touch down 0 300 500
            0 touch down 1 500 700
            0 touch frame
            16 touch motion 0 -\(far) -\(far)
            16 touch motion 1 \(far) \(far)
            16 touch frame
            32 touch motion 0 399.999 599.999
            32 touch motion 1 400 600
            32 touch frame
            48 touch up 0
            48 touch up 1
            48 touch frame
            100 touch down 2 400 600
            100 touch frame
            101 touch motion 2 \(far) -\(far)
            101 touch frame
            102 touch up 2
            102 touch frame
            3000 wait
            """
        let t = dir.write("t.trace", trace)
        let status = MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json"),
                                      "--screenshot", dir.file("s.png")])
        #expect(status == 0)
        let state = try #require(dir.read("s.json"))
        Self.expectSaneCamera(state)
        #expect(PNGImage(path: dir.file("s.png")) != nil)
    }

    @Test(arguments: ["nan", "inf", "-inf", "1e400", "8388609", "0x1p99"])
    func aTraceWithANonFiniteOrOutOfRangeCoordinateIsRefusedWithItsLine(_ bad: String) {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n0 touch down 0 10 10\n0 touch frame\n16 touch motion 0 \(bad) 5\n")
        let status = MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json")])
        #expect(status == 2)
        #expect(!dir.exists("s.json"), "nothing is written from a refused trace")
    }

    @Test(arguments: ["nan", "inf", "-5", "1e400"])
    func aTraceWithANonFiniteOrNegativeTimeIsRefused(_ bad: String) {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n\(bad) touch down 0 10 10\n")
        #expect(MeridianApp.run(["--headless", "--replay", t]) == 2)
    }

    @Test func timeGoingBackwardsIsRefused() {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", """
            meridian-trace 1
            100 touch down 0 10 10
            100 touch frame
            50 touch up 0
            """)
        #expect(MeridianApp.run(["--headless", "--replay", t]) == 2)
    }

    @Test func tenThousandSimultaneousFingersAreAllCountedAndAllLifted() throws {
        let dir = ScratchDirectory()
        let n = 10_000
        var lines = ["meridian-trace 1"]
        for id in 0..<n { lines.append("0 touch down \(id) \(id % 800) \(id / 8 % 1280)") }
        lines.append("0 touch frame")
        for id in 0..<n { lines.append("16 touch motion \(id) \(id % 800 + 3) \(id / 8 % 1280 + 3)") }
        lines.append("16 touch frame")
        // Ids far apart and negative are ids too.
        lines.append("20 touch down 2147483647 10 10")
        lines.append("20 touch down -2147483648 20 20")
        lines.append("20 touch frame")
        for id in 0..<n { lines.append("32 touch up \(id)") }
        lines.append("32 touch up 2147483647")
        lines.append("32 touch up -2147483648")
        lines.append("32 touch frame")
        lines.append("1000 wait")
        let t = dir.write("t.trace", lines.joined(separator: "\n") + "\n")
        let status = MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json"), "--show-touches"])
        #expect(status == 0)
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"touchDowns\": \(n + 2)"))
        #expect(state.contains("\"touchUps\": \(n + 2)"))
        #expect(state.contains("\"touches\": []"), "no finger is left behind")
        Self.expectSaneCamera(state)
    }

    @Test(arguments: ["0x0", "0x100", "100x0", "-1x100", "16385x10", "x", "99999999999999999999x1"])
    func aZeroOrImpossibleWindowSizeIsBadUsage(_ size: String) {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n")
        #expect(MeridianApp.run(["--headless", "--replay", t, "--size", size]) == 2)
    }

    @Test(arguments: [(1, 1), (1, 2000), (2000, 1)])
    func aOnePixelWideWindowStillRendersAndTakesInput(_ size: (Int, Int)) throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", """
            meridian-trace 1
            0 touch down 0 0 0
            0 touch frame
            16 touch motion 0 0.5 0.5
            16 touch frame
            32 touch up 0
            32 touch frame
            """)
        let status = MeridianApp.run(["--headless", "--replay", t, "--size", "\(size.0)x\(size.1)",
                                      "--screenshot", dir.file("s.png"), "--state-out", dir.file("s.json")])
        #expect(status == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        #expect(img.width == size.0 && img.height == size.1)
        Self.expectSaneCamera(try #require(dir.read("s.json")))
    }

    @Test func aDatabaseThatIsADirectoryIsABadInputFile() {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n")
        mkdir(dir.file("maps.mbtiles"), 0o700)
        defer { rmdir(dir.file("maps.mbtiles")) }
        let status = MeridianApp.run(["--headless", "--replay", t, "--data", dir.file("maps.mbtiles"),
                                      "--state-out", dir.file("s.json")])
        #expect(status == 2)
    }

    @Test func aTraceThatIsADirectoryIsABadInputFile() {
        let dir = ScratchDirectory()
        mkdir(dir.file("t.trace"), 0o700)
        defer { rmdir(dir.file("t.trace")) }
        #expect(MeridianApp.run(["--headless", "--replay", dir.file("t.trace")]) == 2)
    }

    @Test(arguments: ["0", "-1", "8388608", "1e-300"])
    func aTouchpadPinchToAZeroNegativeOrHugeScaleAndHugeWheelTurnsLeaveAFiniteCamera(_ scale: String) throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", """
            meridian-trace 1
            0 pointer enter 400 700
            0 pointer frame
            10 pinch begin 2
            20 pinch update 0 0 \(scale) 0
            30 pinch update 8388608 -8388608 1 99999
            40 pinch end
            50 pointer axis vertical 8388608 discrete 2147483647
            50 pointer frame
            60 pointer axis horizontal -8388608
            60 pointer frame
            """)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json")]) == 0)
        Self.expectSaneCamera(try #require(dir.read("s.json")))
    }

    @Test(arguments: ["90,180", "-90,-180", "0,180", "85.1,0"])
    func aCentreAtThePolesOrTheDateLineStartsAFiniteMap(_ centre: String) throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n0 touch down 0 400 700\n0 touch frame\n16 touch motion 0 300 600\n16 touch frame\n32 touch up 0\n")
        #expect(MeridianApp.run(["--headless", "--replay", t, "--center", centre, "--zoom", "22",
                                 "--state-out", dir.file("s.json"), "--screenshot", dir.file("s.png")]) == 0)
        Self.expectSaneCamera(try #require(dir.read("s.json")))
    }
}
