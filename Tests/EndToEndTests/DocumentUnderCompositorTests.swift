import Foundation
import Glibc
import XCTest

/// The places document end to end: the real binary under the wlroots test compositor, a pin
/// dragged by an injected finger and a double tap, the window closed, the binary started again.
/// The place must be where it was dropped, in the file and on the map, and the view restored.
final class DocumentUnderCompositorTests: XCTestCase {
    func testAPinDroppedSomewhereIsThereAfterARestartAndSoIsTheView() throws {
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
        let dir = c.runtimeDirectory
        let sample = PackagePaths.root + "/data/sample-places.geojson"
        let file = dir + "/trip.geojson"
        try FileManager.default.copyItem(atPath: sample, toPath: file)
        let first = try c.runMeridian(file, name: "first")
        let pins = first["pins"] as? [[String: Any]] ?? []
        let ateneum = try XCTUnwrap(pins.first { $0["id"] as? String == "pin-ateneum" })
        let pf = ateneum["frame"] as? [String: Double] ?? [:]
        let (px, py) = ((pf["x"] ?? 0) + 10, (pf["y"] ?? 0) + 10)

        let second = try c.runMeridian(file, name: "second") { c in
            // Drag the pin 90 px right and down.
            try c.frame(["down 0 \(px) \(py)"])
            for i in 1...10 { try c.frame(["motion 0 \(px + 9 * Double(i)) \(py + 9 * Double(i))"]) }
            try c.send("sleep 80")
            try c.frame(["up 0"])
            try c.settle(quiet: 0.6)
            // Then a double tap far from the pins zooms in one level.
            let (x, y) = (px - 150, py + 200)
            for _ in 0..<2 {
                try c.frame(["down 1 \(x) \(y)"])
                try c.send("sleep 40")
                try c.frame(["up 1"])
                try c.send("sleep 60")
            }
        }
        let moved = try XCTUnwrap(documentPlace(second, "ateneum"))
        XCTAssertNotEqual(moved["lat"] as? Double, documentPlace(first, "ateneum")?["lat"] as? Double, "the pin was dragged")
        XCTAssertTrue((second["log"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "placeMoved" })
        XCTAssertEqual((second["document"] as? [String: Any])?["dirty"] as? Bool, false, "saved by the time the window closed")
        let onDisk = try readJSON(file)
        let feature = (onDisk["features"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "ateneum" }
        let coordinates = (feature?["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
        XCTAssertEqual(coordinates.count, 2)
        XCTAssertEqual(coordinates.last ?? 0, moved["lat"] as? Double ?? 0, accuracy: 1e-9)
        XCTAssertEqual(coordinates.first ?? 0, moved["lon"] as? Double ?? 0, accuracy: 1e-9)

        // Started again: the place is where it was dropped and the map looks where it was left.
        let third = try c.runMeridian(file, name: "third")
        let again = try XCTUnwrap(documentPlace(third, "ateneum"))
        XCTAssertEqual(again["lat"] as? Double ?? 0, moved["lat"] as? Double ?? 1, accuracy: 1e-9)
        let pinAgain = (third["pins"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "pin-ateneum" }
        XCTAssertEqual(pinAgain?["lat"] as? Double ?? 0, moved["lat"] as? Double ?? 1, accuracy: 1e-9)
        let zoom = { (d: [String: Any]) in (d["map"] as? [String: Any])?["zoom"] as? Double ?? -1 }
        XCTAssertEqual(zoom(second), zoom(first) + 1, "the double tap zoomed in")
        XCTAssertEqual(zoom(third), zoom(second), "the view was restored")
        let center = { (d: [String: Any]) in (d["map"] as? [String: Any])?["center"] as? [String: Double] ?? [:] }
        // The saved centre goes through Web Mercator and back: the same place to 1e-9 degrees.
        XCTAssertEqual(center(third)["lat"] ?? 0, center(second)["lat"] ?? 1, accuracy: 1e-9)
        XCTAssertEqual(center(third)["lon"] ?? 0, center(second)["lon"] ?? 1, accuracy: 1e-9)
        XCTAssertNotEqual(center(second)["lat"], center(first)["lat"], "the double tap moved the centre")
    }

    func testAFileAnotherProgramSavesWhileOpenIsReloaded() throws {
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
        let file = c.runtimeDirectory + "/trip.geojson"
        let sample = try String(contentsOfFile: PackagePaths.root + "/data/sample-places.geojson", encoding: .utf8)
        try sample.write(toFile: file, atomically: false, encoding: .utf8)
        let theirs = sample.replacingOccurrences(of: "\"Kiasma\"", with: "\"Kiasma (theirs)\"")
        let rowFrame = { (d: [String: Any]) -> PixelRect in
            let row = (d["targets"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "place-kiasma" }
            let f = row?["frame"] as? [String: Double] ?? [:]
            return PixelRect(x: Int(f["x"] ?? 0), y: Int(f["y"] ?? 0), width: Int(f["width"] ?? 0), height: Int(f["height"] ?? 0))
        }
        var before = 0, after = 0
        _ = try c.runMeridian(file, name: "reload")   // the page's geometry, from its own dump
        let dump = try c.runMeridian(file, name: "reload") { c in
            let shown = try readJSON(c.runtimeDirectory + "/reload.json")
            let text = RGBA(r: 51, g: 56, b: 64)
            before = try c.screenshot().count(of: text, tolerance: 40, in: rowFrame(shown))
            // An editor's save: a new file renamed over the old one, while Meridian has it open.
            try theirs.write(toFile: file, atomically: true, encoding: .utf8)
            // Until the row shows their longer name (the folder watch must wake the loop by itself).
            after = try c.screenshot { $0.count(of: text, tolerance: 40, in: rowFrame(shown)) > before + 50 }
                .count(of: text, tolerance: 40, in: rowFrame(shown))
        }
        // The longer name is on screen while the window is still open: the folder watch woke the loop.
        XCTAssertGreaterThan(after, before + 50, "the list did not show their version while open")
        XCTAssertEqual(documentPlace(dump, "kiasma")?["name"] as? String, "Kiasma (theirs)", "the window shows their version")
        let notices = (dump["document"] as? [String: Any])?["notices"] as? [String] ?? []
        XCTAssertTrue(notices.contains { $0.contains("reloaded") }, "\(notices)")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), theirs, "their file is left as they wrote it")
    }

    func testAPlacesFileThatIsNotGeoJSONExits2BeforeAnyWindow() throws {
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
        let file = c.runtimeDirectory + "/bad.geojson"
        let text = "{\"type\": \"FeatureCollection\",\n \"features\": [1]}\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let app = try c.spawnClient(executable: try PackagePaths.meridianExecutable(), arguments: [file])
        XCTAssertEqual(try app.waitForExit(timeout: 10), .exited(2))
        XCTAssertTrue(app.standardError.contains("\(file):2:15: not GeoJSON"), app.standardError)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text)
        XCTAssertEqual(try c.commits(), 0, "a window was shown")
    }
}
