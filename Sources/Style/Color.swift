extension StyleColor {
    /// Parses a CSS colour as the MapLibre style specification allows: `#rgb`, `#rgba`,
    /// `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` and `hsl()`/`hsla()` with commas or spaces (and
    /// `/ alpha`), percentages, and the CSS named colours plus `transparent`. Nil otherwise.
    public init?(css text: String) {
        let s = text.trimmingSpaces().lowercased()
        if s.hasPrefix("#") {
            guard let c = Self.hex(String(s.dropFirst())) else { return nil }
            self = c
            return
        }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let name = String(s[..<open]).trimmingSpaces()
            let inner = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
            guard let c = Self.function(name, inner) else { return nil }
            self = c
            return
        }
        if s == "transparent" { self = .transparent; return }
        guard let hex = cssNamedColors[s] else { return nil }
        self.init(r: Double(hex >> 16 & 0xFF) / 255, g: Double(hex >> 8 & 0xFF) / 255, b: Double(hex & 0xFF) / 255)
    }

    private static func hex(_ h: String) -> StyleColor? {
        let digits = h.compactMap { $0.hexDigitValue }
        guard digits.count == h.count else { return nil }
        func pair(_ k: Int) -> Double { Double(digits[k] * 16 + digits[k + 1]) / 255 }
        func single(_ k: Int) -> Double { Double(digits[k] * 17) / 255 }
        switch digits.count {
        case 3: return StyleColor(r: single(0), g: single(1), b: single(2))
        case 4: return StyleColor(r: single(0), g: single(1), b: single(2), a: single(3))
        case 6: return StyleColor(r: pair(0), g: pair(2), b: pair(4))
        case 8: return StyleColor(r: pair(0), g: pair(2), b: pair(4), a: pair(6))
        default: return nil
        }
    }

    private static func function(_ name: String, _ inner: String) -> StyleColor? {
        // Legacy syntax separates by commas; the modern one by spaces with "/ alpha".
        var parts: [String]
        var alphaPart: String?
        if inner.contains(",") {
            parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            if parts.count == 4 { alphaPart = parts.removeLast() }
        } else {
            let halves = inner.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard halves.count <= 2 else { return nil }
            parts = halves[0].split(separator: " ").map(String.init)
            if halves.count == 2 { alphaPart = halves[1] }
        }
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else { return nil }
        var alpha = 1.0
        if let alphaPart {
            guard let a = number(alphaPart, percentOf: 1) else { return nil }
            alpha = clamp(a)
        }
        switch name {
        case "rgb", "rgba":
            guard let r = number(parts[0], percentOf: 255), let g = number(parts[1], percentOf: 255),
                  let b = number(parts[2], percentOf: 255) else { return nil }
            return StyleColor(r: clamp(r / 255), g: clamp(g / 255), b: clamp(b / 255), a: alpha)
        case "hsl", "hsla":
            let hText = parts[0].hasSuffix("deg") ? String(parts[0].dropLast(3)) : parts[0]
            guard let h = Double(hText), parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                  let sat = number(parts[1], percentOf: 1), let l = number(parts[2], percentOf: 1) else { return nil }
            let (r, g, b) = hslToRGB(h, clamp(sat), clamp(l))
            return StyleColor(r: r, g: g, b: b, a: alpha)
        default:
            return nil
        }
    }

    /// A number, or a percentage of `percentOf`.
    private static func number(_ s: String, percentOf full: Double) -> Double? {
        if s.hasSuffix("%") { return Double(s.dropLast()).map { $0 / 100 * full } }
        return Double(s)
    }

    private static func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }

    private static func hslToRGB(_ hue: Double, _ s: Double, _ l: Double) -> (Double, Double, Double) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        h /= 360
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s
        let p = 2 * l - q
        func channel(_ t0: Double) -> Double {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        return (channel(h + 1.0 / 3), channel(h), channel(h - 1.0 / 3))
    }

    /// 0xRRGGBB of the colour's channels (alpha left out).
    public var rgbHex: UInt32 {
        func c(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return c(r) << 16 | c(g) << 8 | c(b)
    }

    /// Linear blend toward `other` by `t` (0…1) in straight RGBA, as MapLibre's `interpolate` does.
    public func mixed(with other: StyleColor, _ t: Double) -> StyleColor {
        StyleColor(r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// The CSS Color Module Level 4 named colours (the facts of the CSS specification).
let cssNamedColors: [String: UInt32] = [
    "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
    "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
    "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00,
    "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
    "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9,
    "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B,
    "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC, "darkred": 0x8B0000,
    "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F,
    "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3, "deeppink": 0xFF1493,
    "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1E90FF,
    "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22, "fuchsia": 0xFF00FF,
    "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700, "goldenrod": 0xDAA520, "gray": 0x808080,
    "green": 0x008000, "greenyellow": 0xADFF2F, "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4,
    "indianred": 0xCD5C5C, "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA,
    "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6,
    "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3,
    "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A,
    "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899,
    "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32,
    "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000, "mediumaquamarine": 0x66CDAA,
    "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371,
    "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC,
    "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1,
    "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6, "olive": 0x808000,
    "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
    "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
    "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD,
    "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000,
    "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072,
    "sandybrown": 0xF4A460, "seagreen": 0x2E8B57, "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0,
    "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
    "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8,
    "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF,
    "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32,
]
