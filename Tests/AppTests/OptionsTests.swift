import Testing
@testable import MeridianApp

@Suite struct OptionsTests {
    @Test func defaultsAreAPortraitTabletLiveWindow() throws {
        let o = try Options.parse([])
        #expect(o.width == 800 && o.height == 1280 && o.scale == 1 && !o.headless)
    }

    @Test func everyContractOptionIsUnderstood() throws {
        let o = try Options.parse(["--headless", "--replay", "t.trace", "--size", "1920x1200", "--scale", "1.5",
                                   "--center", "60.17,24.94", "--zoom", "11", "--data", "a.mbtiles", "--data",
                                   "b.mbtiles", "--show-hit-areas", "--state-out", "s.json", "--screenshot", "s.png"])
        #expect(o.replay == "t.trace" && o.width == 1920 && o.height == 1200 && o.scale == 1.5)
        #expect(o.center?.latitude == 60.17 && o.center?.longitude == 24.94 && o.zoom == 11)
        #expect(o.data == ["a.mbtiles", "b.mbtiles"] && o.showHitAreas && o.stateOut == "s.json" && o.screenshot == "s.png")
    }

    @Test(arguments: [
        ["--size", "0x100"], ["--size", "big"], ["--scale", "nan"], ["--scale", "9"], ["--zoom", "-1"],
        ["--center", "91,0"], ["--center", "60"], ["--bogus"], ["--replay"], ["--headless"],
        ["--screenshot", "x.png"], ["--headless", "--replay", "t", "--record", "r"],
        ["--language"], ["--language", "Swedish"], ["--language", "s"], ["--language", "sv_SE"],
    ])
    func badUsageIsRefusedWithAMessage(_ args: [String]) {
        #expect(throws: UsageError.self) { try Options.parse(args) }
    }

    @Test func aLabelLanguageIsALanguageTag() throws {
        #expect(try Options.parse(["--language", "sv"]).language == "sv")
        #expect(try Options.parse(["--language", "zh-Hant"]).language == "zh-Hant")
        #expect(try Options.parse([]).language == nil)
    }

    @Test func badUsageExitsWithStatusTwo() {
        #expect(MeridianApp.run(["--size", "huge"]) == 2)
    }

    @Test func helpAndVersionExitZero() {
        #expect(MeridianApp.run(["--help"]) == 0)
        #expect(MeridianApp.run(["--version"]) == 0)
    }
}
