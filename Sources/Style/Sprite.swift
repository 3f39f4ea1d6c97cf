#if canImport(Glibc)
import Glibc
#endif

/// A style's `sprite`: the index of its icons (`sprite.json`) and where the sheet image
/// (`sprite.png`) is, at 1x and, when the files exist, at 2x (`sprite@2x.json`/`.png`).
///
/// Only the index is read here (the Style module draws nothing); Render loads the PNG once
/// through cairo. A sprite that is remote, missing or not a sprite index is left out with a
/// note: the symbols then show their text alone.
public final class Sprite: Sendable {
    /// One icon's rectangle in the sheet, in the sheet's pixels.
    public struct Image: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        /// Sheet pixels per logical px (2 in a @2x sheet).
        public var pixelRatio: Double
        /// A signed-distance-field icon: its alpha is a distance to the shape's edge (0.75 on the
        /// edge, falling by 1/8 per sheet px outwards, MapLibre's convention), drawn as a mask in
        /// `icon-color` with an optional `icon-halo-*`.
        public var sdf: Bool
        /// `stretchX`/`stretchY`: the sheet-px spans (from the image's left/top) that stretch
        /// when the icon is fitted to its text (`icon-text-fit`); the rest keeps its size.
        /// Empty: the whole image stretches.
        public var stretchX: [Span] = []
        public var stretchY: [Span] = []
        /// `content`: left, top, right, bottom in sheet px, the part the text is fitted into.
        public var content: (left: Double, top: Double, right: Double, bottom: Double)? = nil
        public struct Span: Sendable, Equatable {
            public var from: Double, to: Double
            public init(from: Double, to: Double) {
                self.from = from
                self.to = to
            }
        }
        /// The spans that stretch across (`vertical` false) or down the image: all of it when
        /// the index names none.
        public func stretchSpans(vertical: Bool) -> [Span] {
            let s = vertical ? stretchY : stretchX
            return s.isEmpty ? [Span(from: 0, to: Double(vertical ? height : width))] : s
        }
        /// Stretchable sheet px of `spans` between the image's start and `x`.
        public static func stretchable(_ spans: [Span], before x: Double) -> Double {
            spans.reduce(0) { $0 + max(min($1.to, x) - $1.from, 0) }
        }
        public static func == (a: Image, b: Image) -> Bool {
            a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.pixelRatio == b.pixelRatio
                && a.sdf == b.sdf && a.stretchX == b.stretchX && a.stretchY == b.stretchY
                && a.content.map { [$0.left, $0.top, $0.right, $0.bottom] } == b.content.map { [$0.left, $0.top, $0.right, $0.bottom] }
        }
        /// Logical px.
        public var logicalWidth: Double { Double(width) / pixelRatio }
        public var logicalHeight: Double { Double(height) / pixelRatio }
    }

    /// One resolution: its icons and the PNG they are cut from.
    public struct Sheet: Sendable {
        public let png: String
        public let images: [String: Image]
    }

    /// The base path as the style resolved it (no `.json`/`.png`).
    public let base: String
    public let sheet1x: Sheet?
    public let sheet2x: Sheet?

    init(base: String, sheet1x: Sheet?, sheet2x: Sheet?) {
        self.base = base
        self.sheet1x = sheet1x
        self.sheet2x = sheet2x
    }

    /// The sheet to draw from at `scale` device px per logical px: the 2x one on a 2x screen
    /// when there is one, else whichever exists.
    public func sheet(forScale scale: Double) -> Sheet? {
        scale > 1.5 ? (sheet2x ?? sheet1x) : (sheet1x ?? sheet2x)
    }

    /// The icon `name`'s logical size, from the 1x index (or the 2x one).
    public func image(_ name: String) -> Image? {
        sheet1x?.images[name] ?? sheet2x?.images[name]
    }

    /// Reads the sprite a style's `sprite` value names, relative to the style file at
    /// `stylePath`. Returns the sprite, or nil and why it is left out.
    static func load(_ value: StyleJSON, stylePath: String) -> (sprite: Sprite?, note: String?) {
        let url: String
        switch value {
        case .string(let s):
            url = s
        case .array(let entries):
            // The v8 multi-sprite form: the "default" one (or the only one) has unprefixed names.
            guard let pick = entries.first(where: { $0["id"]?.string == "default" }) ?? (entries.count == 1 ? entries.first : nil),
                  let u = pick["url"]?.string else {
                return (nil, "sprite: several sprites without a \"default\" are not supported; icons are left out")
            }
            url = u
        default:
            return (nil, "sprite: not a URL; icons are left out")
        }
        guard let base = Style.localFile(url, relativeTo: stylePath) else {
            return (nil, "sprite '\(url)' is not a local file; icons are left out")
        }
        let one = readSheet(base, suffix: "")
        let two = readSheet(base, suffix: "@2x")
        if one.sheet == nil && two.sheet == nil {
            return (nil, "sprite '\(url)': \(one.problem ?? "unreadable"); icons are left out")
        }
        return (Sprite(base: base, sheet1x: one.sheet, sheet2x: two.sheet), nil)
    }

    static func readSheet(_ base: String, suffix: String) -> (sheet: Sheet?, problem: String?) {
        let json = base + suffix + ".json", png = base + suffix + ".png"
        guard access(json, R_OK) == 0 else { return (nil, "cannot open \(json)") }
        guard access(png, R_OK) == 0 else { return (nil, "cannot open \(png)") }
        let bytes: [UInt8]
        do { bytes = try ShippedStyles.read(json) } catch { return (nil, error.description) }
        switch parseIndex(bytes) {
        case .success(let images): return (Sheet(png: png, images: images), nil)
        case .failure(let e): return (nil, "\(json): \(e.message)")
        }
    }

    struct IndexError: Error { var message: String }

    /// A sprite index: an object of icon name → {x, y, width, height, pixelRatio?, sdf?,
    /// stretchX?, stretchY?, content?}. Entries with missing or negative numbers are skipped;
    /// stretch spans and a content box outside the image or turned inside out are ignored.
    static func parseIndex(_ bytes: [UInt8]) -> Result<[String: Image], IndexError> {
        let root: StyleJSON
        do { root = try StyleJSON.parse(bytes: bytes) } catch { return .failure(IndexError(message: "not valid JSON: \(error)")) }
        guard let members = root.object else { return .failure(IndexError(message: "not a sprite index (the top level must be an object)")) }
        var out: [String: Image] = [:]
        for (name, v) in members {
            func int(_ k: String) -> Int? {
                guard let d = v[k]?.number, d.isFinite, d >= 0, d < 1_048_576, d == d.rounded() else { return nil }
                return Int(d)
            }
            guard let x = int("x"), let y = int("y"), let w = int("width"), let h = int("height"), w > 0, h > 0 else { continue }
            var ratio = v["pixelRatio"]?.number ?? 1
            if !(ratio.isFinite && ratio > 0 && ratio <= 8) { ratio = 1 }
            var sdf = false
            if case .bool(true)? = v["sdf"] { sdf = true }
            var image = Image(x: x, y: y, width: w, height: h, pixelRatio: ratio, sdf: sdf)
            image.stretchX = spans(v["stretchX"], length: Double(w))
            image.stretchY = spans(v["stretchY"], length: Double(h))
            if let c = v["content"]?.array?.compactMap(\.number), c.count == 4, c.allSatisfy(\.isFinite),
               0 <= c[0], c[0] < c[2], c[2] <= Double(w), 0 <= c[1], c[1] < c[3], c[3] <= Double(h) {
                image.content = (c[0], c[1], c[2], c[3])
            }
            out[name] = image
        }
        return .success(out)
    }

    /// `[[from, to], …]` spans inside 0…length, in order and not overlapping; others dropped.
    static func spans(_ v: StyleJSON?, length: Double) -> [Image.Span] {
        var out: [Image.Span] = []
        for pair in v?.array ?? [] {
            guard let p = pair.array?.compactMap(\.number), p.count == 2, p[0].isFinite, p[1].isFinite,
                  0 <= p[0], p[0] < p[1], p[1] <= length, p[0] >= (out.last?.to ?? 0) else { continue }
            out.append(Image.Span(from: p[0], to: p[1]))
        }
        return out
    }
}
