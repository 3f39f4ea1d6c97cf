import Foundation
import Testing
@testable import MeridianApp

/// POI icons from the shipped sprite, as a headless replay over the shipped data shows them:
/// each at its label's anchor in `map.labels` (the additive `icon` member), drawn there in the
/// screenshot, and colliding with the other labels.
@Suite struct IconDumpTests {
    struct Icon {
        var text: String
        var image: String
        var anchor: P
        var box: Box
        var alone: Bool
    }

    /// The discs' colours (scripts/data/make-sprite.py).
    static let discs: [(r: Int, g: Int, b: Int)] = [0xE0822A, 0xA0612E, 0xA23BA2, 0x3F8F3A, 0x8A6A3A, 0xD03A3A, 0x2E6DB4, 0x7A6F66]
        .map { (($0 >> 16) & 0xFF, ($0 >> 8) & 0xFF, $0 & 0xFF) }

    @Test func poiIconsAreDrawnAtTheirAnchorsAndReportedInTheLabels() throws {
        let run = try Replay.run(TraceBuilder(), arguments: ["--size", "1000x1400", "--center", LabelTests.city, "--zoom", "17"],
                                 screenshot: true)
        let png = try #require(run.png)
        defer { unlink(png) }
        let image = try #require(PNGImage(path: png))
        let raw = (run.dump.raw["map"] as? [String: Any])?["labels"] as? [[String: Any]] ?? []
        let icons: [Icon] = raw.compactMap { l in
            guard let i = l["icon"] as? [String: Any] else { return nil }
            let a = l["anchor"] as? [String: Any] ?? [:]
            return Icon(text: l["text"] as? String ?? "", image: i["image"] as? String ?? "",
                        anchor: P(x: a["x"] as? Double ?? .nan, y: a["y"] as? Double ?? .nan), box: Box(i["box"]),
                        alone: i["alone"] as? Bool ?? false)
        }
        #expect(icons.count > 5, "POI icons in central Helsinki at z17")
        for icon in icons {
            #expect(!icon.text.isEmpty && !icon.image.isEmpty)
            // The icon is centred on its anchor (`icon-anchor` center), about 16 px at z17.
            #expect(abs(icon.box.x + icon.box.width / 2 - icon.anchor.x) < 0.01 && abs(icon.box.y + icon.box.height / 2 - icon.anchor.y) < 0.01)
            #expect(icon.box.width > 14 && icon.box.width < 18)
            // Its disc is drawn there: left of the centre, inside the white ring, one of the
            // sprite's colours.
            let p = image.rgb(Int(icon.box.x + 2.7), Int(icon.anchor.y))
            #expect(Self.discs.contains { abs($0.r - p.r) < 40 && abs($0.g - p.g) < 40 && abs($0.b - p.b) < 40 },
                    "\(icon.text) (\(icon.image)) at \(icon.anchor): \(p)")
        }
        // Every label's boxes, the icons' included, keep clear of every other label's.
        let labels = run.dump.labels
        var overlaps = 0
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                for p in a.collision {
                    for q in b.collision where p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height {
                        overlaps += 1
                    }
                }
            }
        }
        #expect(overlaps == 0)
    }
}
