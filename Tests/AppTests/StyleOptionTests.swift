import Glibc
import Testing
@testable import MeridianApp

/// `--style FILE`: a user's MapLibre style drives the map, and a broken one stops before any
/// window or output.
@Suite struct StyleOptionTests {
    static let repo: String = {
        var p = #filePath
        for _ in 0..<3 { p = String(p[..<(p.lastIndex(of: "/") ?? p.endIndex)]) }
        return p
    }()
    let trace = "meridian-trace 1\n0 touch down 0 100 1200\n0 touch frame\n50 touch up 0\n"

    @Test func aStyleThatIsNotJSONOrNotAStyleExitsTwoAndWritesNothing() {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        for (name, text) in [("broken.json", "{\"version\": 8,\n  \"layers\": [}"), ("list.json", "[1]"),
                             ("nosource.json", "{\"version\": 8, \"layers\": [{\"id\": \"x\", \"type\": \"fill\"}]}")] {
            let s = dir.write(name, text)
            let status = MeridianApp.run(["--headless", "--replay", t, "--style", s, "--screenshot", dir.file("s.png"),
                                          "--state-out", dir.file("s.json")])
            #expect(status == 2, "\(name)")
            #expect(!dir.exists("s.png") && !dir.exists("s.json"))
        }
        #expect(MeridianApp.run(["--headless", "--replay", t, "--style", dir.file("missing.json")]) == 2)
    }

    /// Pure red, green and blue pixels (every 8th pixel each way) of a headless run in
    /// central Helsinki at z17 with `args` added.
    func colours(_ dir: ScratchDirectory, _ args: [String]) throws -> (red: Int, green: Int, blue: Int) {
        let t = dir.write("t.trace", trace)
        let status = MeridianApp.run(["--headless", "--replay", t, "--center", "60.1645,24.93852", "--zoom", "17",
                                      "--size", "800x1280", "--screenshot", dir.file("s.png"), "--state-out", dir.file("s.json")] + args)
        #expect(status == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        var red = 0, green = 0, blue = 0
        for y in stride(from: 0, to: img.height, by: 8) {
            for x in stride(from: 0, to: img.width, by: 8) {
                let p = img.rgb(x, y)
                if p.r > 240 && p.g < 15 && p.b < 15 { red += 1 }
                if p.g > 240 && p.r < 15 && p.b < 15 { green += 1 }
                if p.b > 240 && p.r < 15 && p.g < 15 { blue += 1 }
            }
        }
        return (red, green, blue)
    }

    @Test func aUserStyleWithALocalSourceDrawsTheMapAndIsNamedInTheStateDump() throws {
        let dir = ScratchDirectory()
        // Everything red but buildings, which are blue: the page's map shows the style's colours.
        let style = dir.write("red.json", """
            {"version": 8,
             "sources": {"city": {"type": "vector", "url": "mbtiles://\(Self.repo)/data/helsinki.mbtiles"}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
               {"id": "b", "type": "fill", "source": "city", "source-layer": "building", "paint": {"fill-color": "rgb(0, 0, 255)"}}
             ]}
            """)
        let seen = try colours(dir, ["--style", style])
        #expect(seen.red > 100, "the style's background")
        #expect(seen.blue > 100, "the style's buildings")
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"style\": {\"path\": \"\(style)\", \"schema\": null}"), "\(state)")
    }

    /// A style over the Shortbread build of Helsinki: red ground, its `buildings` (a layer the
    /// shipped data does not have, so only this file can draw them) blue, from source `url`.
    func shortbreadStyle(_ dir: ScratchDirectory, url: String) -> String {
        dir.write("sb.json", """
            {"version": 8,
             "sources": {"city": {"type": "vector", "url": "\(url)"}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
               {"id": "b", "type": "fill", "source": "city", "source-layer": "buildings", "paint": {"fill-color": "#0000ff"}}
             ]}
            """)
    }

    @Test func aStyleSourceGivenAsAFileURLLoadsThatFileAndTheMapIsDrawn() throws {
        let dir = ScratchDirectory()
        // Relative to the style file (a link beside it), and absolute, to the PMTiles copy.
        #expect(symlink("\(Self.repo)/data/test/helsinki-shortbread.mbtiles", dir.file("city.mbtiles")) == 0)
        for url in ["file://city.mbtiles", "file://\(Self.repo)/data/test/helsinki-shortbread.pmtiles"] {
            let seen = try colours(dir, ["--style", shortbreadStyle(dir, url: url)])
            #expect(seen.red > 100, "\(url): the style's background")
            #expect(seen.blue > 100, "\(url): the file's buildings")
        }
    }

    @Test func aDataFileFillsTheStyleSourceWhoseLayersItCarries() throws {
        let dir = ScratchDirectory()
        // Two sources without URLs, the world's first: the world file's countries green, the
        // city's buildings blue, over a red background.
        let style = dir.write("two.json", """
            {"version": 8,
             "sources": {"world": {"type": "vector"}, "city": {"type": "vector"}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
               {"id": "land", "type": "fill", "source": "world", "source-layer": "countries", "paint": {"fill-color": "#00ff00"}},
               {"id": "b", "type": "fill", "source": "city", "source-layer": "buildings", "paint": {"fill-color": "#0000ff"}}
             ]}
            """)
        let world = "\(Self.repo)/data/world.mbtiles", city = "\(Self.repo)/data/test/helsinki-shortbread.mbtiles"
        // Whichever order the files come in, each fills its own source.
        for data in [[world, city], [city, world]] {
            let seen = try colours(dir, ["--style", style] + data.flatMap { ["--data", $0] })
            #expect(seen.green > 100, "\(data): the world's countries")
            #expect(seen.blue > 100, "\(data): the city's buildings")
        }
        // The city alone: only its buildings over the background, no countries.
        let alone = try colours(dir, ["--style", style, "--data", city])
        #expect(alone.blue > 100 && alone.green == 0 && alone.red > 100)
        // A one-source style takes a file whatever its layers are called.
        let seen = try colours(dir, ["--style", shortbreadStyle(dir, url: ""), "--data", city])
        #expect(seen.blue > 100, "the one source takes the file")
    }

    @Test func theShippedDataIsNamedByItsSchemas() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json")]) == 0)
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"style\": {\"name\": \"world+openmaptiles\", \"schema\": \"world+openmaptiles\"}"), "\(state)")
    }
}
