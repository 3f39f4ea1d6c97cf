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

    @Test func aUserStyleWithALocalSourceDrawsTheMapAndIsNamedInTheStateDump() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        // Everything red but buildings, which are blue: the page's map shows the style's colours.
        let style = dir.write("red.json", """
            {"version": 8,
             "sources": {"city": {"type": "vector", "url": "mbtiles://\(Self.repo)/data/helsinki.mbtiles"}},
             "layers": [
               {"id": "bg", "type": "background", "paint": {"background-color": "#ff0000"}},
               {"id": "b", "type": "fill", "source": "city", "source-layer": "building", "paint": {"fill-color": "rgb(0, 0, 255)"}}
             ]}
            """)
        let status = MeridianApp.run(["--headless", "--replay", t, "--style", style, "--center", "60.1645,24.93852", "--zoom", "17",
                                      "--size", "800x1280", "--screenshot", dir.file("s.png"), "--state-out", dir.file("s.json")])
        #expect(status == 0)
        let img = try #require(PNGImage(path: dir.file("s.png")))
        var red = 0, blue = 0
        for y in stride(from: 0, to: img.height, by: 8) {
            for x in stride(from: 0, to: img.width, by: 8) {
                let p = img.rgb(x, y)
                if p.r > 240 && p.g < 15 && p.b < 15 { red += 1 }
                if p.b > 240 && p.r < 15 && p.g < 15 { blue += 1 }
            }
        }
        #expect(red > 100, "the style's background")
        #expect(blue > 100, "the style's buildings")
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"style\": {\"path\": \"\(style)\", \"schema\": null}"), "\(state)")
    }

    @Test func theShippedDataIsNamedByItsSchemas() throws {
        let dir = ScratchDirectory()
        let t = dir.write("t.trace", trace)
        #expect(MeridianApp.run(["--headless", "--replay", t, "--state-out", dir.file("s.json")]) == 0)
        let state = try #require(dir.read("s.json"))
        #expect(state.contains("\"style\": {\"name\": \"world+openmaptiles\", \"schema\": \"world+openmaptiles\"}"), "\(state)")
    }
}
