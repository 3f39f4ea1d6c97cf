import Foundation
import Glibc
import XCTest

/// Editing places in the real binary under the wlroots test compositor: a place added by a
/// long press and named with keys the compositor injects, kept across a restart; and a name
/// typed by the compositor acting as an on-screen keyboard (`zwp_text_input_v3`).
final class PlaceEditingUnderCompositorTests: XCTestCase {
    /// evdev key codes (linux/input-event-codes.h).
    enum Key {
        static let backspace = 14, enter = 28, x = 45, leftShift = 42, k = 37, end = 107, apostrophe = 40, e = 18
    }

    private func key(_ c: TestCompositor, _ code: Int) throws {
        try c.send("key \(code) press")
        try c.send("sleep 20")
        try c.send("key \(code) release")
        try c.send("sleep 20")
    }

    private func sampleCopy(_ c: TestCompositor) throws -> String {
        let file = c.runtimeDirectory + "/trip.geojson"
        try FileManager.default.copyItem(atPath: PackagePaths.root + "/data/sample-places.geojson", toPath: file)
        return file
    }

    private func box(_ item: [String: Any]?) -> (x: Double, y: Double, width: Double, height: Double) {
        let f = item?["frame"] as? [String: Double] ?? [:]
        return (f["x"] ?? .nan, f["y"] ?? .nan, f["width"] ?? .nan, f["height"] ?? .nan)
    }

    /// A point of the map at least 60 px from every pin and button.
    private func freeMapPoint(_ dump: [String: Any]) throws -> (x: Double, y: Double) {
        let map = box((dump["map"] as? [String: Any]))
        let items = (dump["pins"] as? [[String: Any]] ?? []) + (dump["targets"] as? [[String: Any]] ?? [])
        for y in stride(from: map.y + 80, to: map.y + map.height - 80, by: 20) {
            for x in stride(from: map.x + 80, to: map.x + map.width - 120, by: 20) {
                let clear = items.allSatisfy { i in
                    let b = box(i)
                    let dx = max(b.x - x, 0, x - (b.x + b.width)), dy = max(b.y - y, 0, y - (b.y + b.height))
                    return dx * dx + dy * dy >= 3600
                }
                if clear { return (x, y) }
            }
        }
        throw HarnessError("no free point on the map")
    }

    func testAPlaceAddedByLongPressAndNamedWithKeysIsThereAfterARestartWithTheView() throws {
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
        let file = try sampleCopy(c)
        let first = try c.runMeridian(file, name: "first")
        let p = try freeMapPoint(first)

        let second = try c.runMeridian(file, name: "second") { c in
            try c.frame(["down 0 \(p.x) \(p.y)"])
            try c.send("sleep 800")   // held still: a long press
            for i in 1...6 { try c.frame(["motion 0 \(p.x + 5 * Double(i)) \(p.y + 4 * Double(i))"]) }
            try c.frame(["up 0"])
            try c.settle(quiet: 0.4)
            // "Place 9": BackSpace, then Shift+K and x: "Place Kx"; Enter.
            try self.key(c, Key.backspace)
            try c.send("key \(Key.leftShift) press")
            try self.key(c, Key.k)
            try c.send("key \(Key.leftShift) release")
            try self.key(c, Key.x)
            try self.key(c, Key.enter)
        }
        let added = try XCTUnwrap((second["log"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "placeAdded" },
                                  "no place was added")
        let id = try XCTUnwrap(added["id"] as? String)
        XCTAssertEqual(documentPlace(second, id)?["name"] as? String, "Place Kx")
        XCTAssertEqual((second["document"] as? [String: Any])?["dirty"] as? Bool, false, "saved by the time the window closed")
        let features = try readJSON(file)["features"] as? [[String: Any]] ?? []
        XCTAssertEqual(features.count, 9)
        XCTAssertEqual((features.last?["properties"] as? [String: Any])?["name"] as? String, "Place Kx")

        // Started again: the place and its pin are there, and the page looks as it was left.
        let third = try c.runMeridian(file, name: "third")
        XCTAssertEqual(documentPlace(third, id)?["name"] as? String, "Place Kx")
        XCTAssertEqual(documentPlace(third, id)?["lat"] as? Double ?? 0, added["lat"] as? Double ?? 1, accuracy: 1e-9)
        XCTAssertTrue((third["pins"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == "pin-\(id)" })
        let map = { (d: [String: Any]) in d["map"] as? [String: Any] ?? [:] }
        XCTAssertEqual(map(third)["zoom"] as? Double, map(second)["zoom"] as? Double)
        let center = { (d: [String: Any]) in map(d)["center"] as? [String: Double] ?? [:] }
        XCTAssertEqual(center(third)["lat"] ?? 0, center(second)["lat"] ?? 1, accuracy: 1e-9)
        XCTAssertEqual(center(third)["lon"] ?? 0, center(second)["lon"] ?? 1, accuracy: 1e-9)
        let scroll = { (d: [String: Any]) in (d["page"] as? [String: Any])?["scrollY"] as? Double ?? -1 }
        XCTAssertGreaterThan(scroll(second), 0, "the page scrolled to show the new row")
        XCTAssertEqual(scroll(third), scroll(second), accuracy: 0.5, "the scroll was restored")
        let selected = (third["pins"] as? [[String: Any]] ?? []).first { $0["selected"] as? Bool == true }
        XCTAssertEqual(selected?["id"] as? String, "pin-\(id)", "the selection was restored")
    }

    func testADeadKeyOfTheCompositorsKeymapComposesInTheNameField() throws {
        // US international: the apostrophe key is a dead acute, as the compositor's keymap says.
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true,
                                   environment: ["XKB_DEFAULT_LAYOUT": "us", "XKB_DEFAULT_VARIANT": "intl"])
        let file = try sampleCopy(c)
        let first = try c.runMeridian(file, name: "first")
        let row = box((first["targets"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "place-kiasma" })
        let dump = try c.runMeridian(file, name: "typed") { c in
            try c.frame(["down 0 \(row.x + 400) \(row.y + 36)"]); try c.frame(["up 0"])
            try c.settle(quiet: 0.4)
            try c.frame(["down 0 \(row.x + 100) \(row.y + 24)"]); try c.frame(["up 0"])
            try c.settle(quiet: 0.3)
            for k in [Key.end, Key.apostrophe, Key.e, Key.enter] { try self.key(c, k) }
        }
        XCTAssertEqual(documentPlace(dump, "kiasma")?["name"] as? String, "Kiasmaé")
        let features = try readJSON(file)["features"] as? [[String: Any]] ?? []
        let kiasma = features.first { $0["id"] as? String == "kiasma" }
        XCTAssertEqual((kiasma?["properties"] as? [String: Any])?["name"] as? String, "Kiasmaé")
    }

    func testAnOnScreenKeyboardTypesIntoTheNameFieldThroughTextInputV3() throws {
        let c = try TestCompositor(width: 800, height: 1280, kiosk: true)
        let file = try sampleCopy(c)
        let first = try c.runMeridian(file, name: "first")
        let row = box((first["targets"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "place-ateneum" })
        var enabledStatus = "", typedStatus = "", closedStatus = ""
        let dump = try c.runMeridian(file, name: "typed") { c in
            XCTAssertTrue(try c.send("text-input-status").hasPrefix("enabled=no"), "enabled before any field has focus")
            // Select the row, then tap its name (the field's left part).
            try c.frame(["down 0 \(row.x + 400) \(row.y + 36)"]); try c.frame(["up 0"])
            try c.settle(quiet: 0.4)
            try c.frame(["down 0 \(row.x + 100) \(row.y + 24)"]); try c.frame(["up 0"])
            try c.waitForEvent("text-input enabled", timeout: 10)
            try c.settle(quiet: 0.3)
            enabledStatus = try c.send("text-input-status")
            try c.send("text-input-delete 3 0")
            try c.send("text-input-preedit Sä")
            try c.settle(quiet: 0.3)
            try c.send("text-input-commit a Sä")
            try c.settle(quiet: 0.3)
            typedStatus = try c.send("text-input-status")
            try self.key(c, Key.enter)
            try c.waitForEvent("text-input disabled", timeout: 10)
            closedStatus = try c.send("text-input-status")
        }
        // The field's text and caret (bytes), and where it is: inside the row, so a keyboard can keep clear.
        XCTAssertTrue(enabledStatus.contains("cursor=7") && enabledStatus.hasSuffix("text=Ateneum"), enabledStatus)
        let rect = enabledStatus.split(separator: " ").first { $0.hasPrefix("rect=") }
            .map { $0.dropFirst(5).split(separator: ",").compactMap { Double($0) } } ?? []
        XCTAssertEqual(rect.count, 4, enabledStatus)
        if rect.count == 4 {
            // The caret, drawn after "Ateneum" in the row's name field.
            XCTAssertTrue(rect[1] >= row.y && rect[1] + rect[3] <= row.y + row.height, enabledStatus)
            XCTAssertTrue(rect[0] > row.x + 44 + 40 && rect[0] < row.x + 400, enabledStatus)
        }
        XCTAssertTrue(typedStatus.hasSuffix("text=Atena Sä"), typedStatus)
        XCTAssertTrue(typedStatus.contains("cursor=9"), "the caret after the commit, in bytes: \(typedStatus)")
        XCTAssertTrue(closedStatus.hasPrefix("enabled=no"), closedStatus)
        XCTAssertEqual(documentPlace(dump, "ateneum")?["name"] as? String, "Atena Sä")
        let features = try readJSON(file)["features"] as? [[String: Any]] ?? []
        let ateneum = features.first { $0["id"] as? String == "ateneum" }
        XCTAssertEqual((ateneum?["properties"] as? [String: Any])?["name"] as? String, "Atena Sä")
    }
}
