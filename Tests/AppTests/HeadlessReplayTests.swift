import Testing
@testable import MeridianApp

@Suite struct HeadlessReplayTests {
    let trace = """
        meridian-trace 1
        0   touch down 0 200 300
        0   touch down 1 600 900
        0   touch frame
        16  touch motion 0 220 320
        16  touch frame
        32  pointer enter 400 100
        32  pointer frame
        """

    @Test func theScreenshotShowsAMarkerUnderEveryFingerStillDown() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        let status = MeridianApp.run(["--headless", "--replay", t, "--screenshot", dir.file("s.png"),
                                      "--state-out", dir.file("s.json"), "--show-touches"])
        #expect(status == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        #expect(img.width == 800 && img.height == 1280)
        #expect(img.isClose(220, 320, to: TouchOverlay.touchColor), "finger 0 moved to 220,320")
        #expect(img.isClose(600, 900, to: TouchOverlay.touchColor), "finger 1 rests at 600,900")
        #expect(!img.isClose(200 - 20, 300 - 20, to: TouchOverlay.touchColor), "no marker left where finger 0 started")
        #expect(img.isClose(400, 100, to: TouchOverlay.pointerColor))
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"touches\": [{\"id\": 0, \"x\": 220, \"y\": 320}, {\"id\": 1, \"x\": 600, \"y\": 900}]"))
        #expect(state.contains("\"touchDowns\": 2"))
    }

    @Test func scaleTwoDoublesThePixelsAndKeepsMarkersUnderTheFingers() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--scale", "2", "--size", "400x700",
                                 "--screenshot", dir.file("s.png"), "--show-touches"]) == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        #expect(img.width == 800 && img.height == 1400)
        #expect(img.isClose(440, 640, to: TouchOverlay.touchColor))
    }

    @Test func fractionalScaleRoundsTheBufferSize() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--scale", "1.5", "--size", "401x700",
                                 "--screenshot", dir.file("s.png"), "--show-touches"]) == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        #expect(img.width == 602 && img.height == 1050)
        #expect(img.isClose(330, 480, to: TouchOverlay.touchColor))
    }

    @Test func liftedFingersLeaveNoMarker() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", "meridian-trace 1\n0 touch down 0 100 500\n0 touch frame\n50 touch up 0\n")
        #expect(MeridianApp.run(["--headless", "--replay", t, "--screenshot", dir.file("s.png"), "--show-touches"]) == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        #expect(!img.isClose(100, 500, to: TouchOverlay.touchColor))
    }

    @Test func aMalformedTraceExitsTwoAndWritesNoOutput() {
        let dir = ScratchDirectory()
        let t = dir.write("bad.trace", "meridian-trace 1\n0 touch down 0 1 2\n0 touch frame\n-5 touch frame\n")
        let status = MeridianApp.run(["--headless", "--replay", t, "--screenshot", dir.file("s.png"),
                                      "--state-out", dir.file("s.json")])
        #expect(status == 2)
        #expect(!dir.exists("s.png") && !dir.exists("s.json"))
        #expect(dir.contents == ["bad.trace"], "no partial files either")
    }

    @Test func aMissingOrDirectoryTraceExitsTwo() {
        let dir = ScratchDirectory()
        #expect(MeridianApp.run(["--headless", "--replay", dir.file("nope.trace")]) == 2)
        #expect(MeridianApp.run(["--headless", "--replay", dir.path]) == 2)
    }

    @Test func anUnwritableOutputExitsOneAndLeavesNothing() {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--screenshot", dir.file("no/such/dir.png")]) == 1)
        #expect(dir.contents == ["t.trace"])
    }

    @Test func replayingOneTraceTwiceGivesIdenticalStateDumps() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("a.json")]) == 0)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("b.json")]) == 0)
        let a = try #require(dir.read("a.json")), b = try #require(dir.read("b.json"))
        #expect(a == b)
    }
}
