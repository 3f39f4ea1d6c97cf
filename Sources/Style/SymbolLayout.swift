import Tiles

/// A symbol layer's properties at one zoom, and how they turn a feature into a `SymbolFeature`.
public struct SymbolLayout: Sendable {
    let layerID: String
    let index: Int
    let field: Prop<String>
    /// The name properties with a language `text-field` reads (`LabelLanguage.fields`).
    let languageFields: [(key: String, language: String)]
    let transform: String
    let font: Prop<[String]>
    let size: Prop<Double>
    let color: Prop<StyleColor>
    let haloColor: Prop<StyleColor>
    let haloWidth: Prop<Double>
    let haloBlur: Prop<Double>
    let letterSpacing: Prop<Double>
    let maxWidth: Prop<Double>
    let lineHeight: Prop<Double>
    let anchor: Prop<String>
    let justify: Prop<String>
    let offset: Prop<[Double]>
    let rotate: Prop<Double>
    let padding: Prop<Double>
    let allowOverlap: Bool
    let ignorePlacement: Bool
    let optional: Bool
    let maxAngle: Double
    let keepUpright: Bool
    let rotationAlignment: RotationAlignment
    let translate: Prop<[Double]>
    let translateInViewport: Bool
    public let placement: SymbolPlacement
    let spacing: Double
    let sortKey: Prop<Double>?
    /// `text-font` mapped once when it does not depend on the feature (nearly always).
    let constantFont: (families: [String], bold: Bool, italic: Bool)?
    /// The icon properties, when the layer has an `icon-image` and the style a sprite.
    let icon: IconLayout?

    struct IconLayout: Sendable {
        let sprite: Sprite
        let image: Prop<String>
        let size: Prop<Double>
        let anchor: Prop<String>
        let offset: Prop<[Double]>
        let rotate: Prop<Double>
        let opacity: Prop<Double>
        let padding: Prop<Double>
        let color: Prop<StyleColor>
        let haloColor: Prop<StyleColor>
        let haloWidth: Prop<Double>
        let haloBlur: Prop<Double>
        let textFit: IconTextFit
        let textFitPadding: Prop<[Double]>
        let rotationAlignment: RotationAlignment
        let keepUpright: Bool
        let translate: Prop<[Double]>
        let translateInViewport: Bool
        let allowOverlap: Bool
        let ignorePlacement: Bool
        let optional: Bool
    }

    init(layer l: StyleLayer, index: Int, zoom z: Double) {
        layerID = l.id
        self.index = index
        func e(_ n: String) -> Expr? { l.layout[n] ?? l.paint[n] }
        field = Prop(e("text-field"), zoom: z, default: "", toString)
        languageFields = LabelLanguage.fields(e("text-field"))
        transform = Prop(e("text-transform"), zoom: z, default: "none", toString).constant ?? "none"
        font = Prop(e("text-font"), zoom: z, default: ["Open Sans Regular", "Arial Unicode MS Regular"], toStrings)
        size = Prop(e("text-size"), zoom: z, default: 16, toNumber)
        color = ZoomStyle.withOpacity(Prop(e("text-color"), zoom: z, default: .black, toColor),
                                      Prop(e("text-opacity"), zoom: z, default: 1, toNumber))
        haloColor = Prop(e("text-halo-color"), zoom: z, default: .transparent, toColor)
        haloWidth = Prop(e("text-halo-width"), zoom: z, default: 0, toNumber)
        haloBlur = Prop(e("text-halo-blur"), zoom: z, default: 0, toNumber)
        letterSpacing = Prop(e("text-letter-spacing"), zoom: z, default: 0, toNumber)
        maxWidth = Prop(e("text-max-width"), zoom: z, default: 10, toNumber)
        lineHeight = Prop(e("text-line-height"), zoom: z, default: 1.2, toNumber)
        anchor = Prop(e("text-anchor"), zoom: z, default: "center", toString)
        justify = Prop(e("text-justify"), zoom: z, default: "center", toString)
        offset = Prop(e("text-offset"), zoom: z, default: [0, 0], toNumbers)
        rotate = Prop(e("text-rotate"), zoom: z, default: 0, toNumber)
        padding = Prop(e("text-padding"), zoom: z, default: 2, toNumber)
        func flag(_ n: String, _ d: Bool) -> Bool { Prop(e(n), zoom: z, default: d, toBool).constant ?? d }
        allowOverlap = flag("text-allow-overlap", false)
        ignorePlacement = flag("text-ignore-placement", false)
        optional = flag("text-optional", false)
        keepUpright = flag("text-keep-upright", true)
        maxAngle = Prop(e("text-max-angle"), zoom: z, default: 45, toNumber).constant ?? 45
        placement = SymbolPlacement(rawValue: Prop(e("symbol-placement"), zoom: z, default: "point", toString).constant ?? "point") ?? .point
        spacing = Prop(e("symbol-spacing"), zoom: z, default: 250, toNumber).constant ?? 250
        sortKey = e("symbol-sort-key").map { Prop($0, zoom: z, default: 0, toNumber) }
        constantFont = font.constant.map(Self.families)
        let place = self.placement
        func alignment(_ n: String) -> RotationAlignment {
            RotationAlignment.resolve(Prop(e(n), zoom: z, default: "auto", toString).constant, placement: place)
        }
        func inViewport(_ n: String) -> Bool { Prop(e(n), zoom: z, default: "map", toString).constant == "viewport" }
        rotationAlignment = alignment("text-rotation-alignment")
        translate = Prop(e("text-translate"), zoom: z, default: [0, 0], toNumbers)
        translateInViewport = inViewport("text-translate-anchor")
        if let sprite = l.sprite, let image = e("icon-image") {
            icon = IconLayout(sprite: sprite, image: Prop(image, zoom: z, default: "", toString),
                              size: Prop(e("icon-size"), zoom: z, default: 1, toNumber),
                              anchor: Prop(e("icon-anchor"), zoom: z, default: "center", toString),
                              offset: Prop(e("icon-offset"), zoom: z, default: [0, 0], toNumbers),
                              rotate: Prop(e("icon-rotate"), zoom: z, default: 0, toNumber),
                              opacity: Prop(e("icon-opacity"), zoom: z, default: 1, toNumber),
                              padding: Prop(e("icon-padding"), zoom: z, default: 2, toNumber),
                              color: Prop(e("icon-color"), zoom: z, default: .black, toColor),
                              haloColor: Prop(e("icon-halo-color"), zoom: z, default: .transparent, toColor),
                              haloWidth: Prop(e("icon-halo-width"), zoom: z, default: 0, toNumber),
                              haloBlur: Prop(e("icon-halo-blur"), zoom: z, default: 0, toNumber),
                              textFit: IconTextFit(rawValue: Prop(e("icon-text-fit"), zoom: z, default: "none", toString).constant ?? "none") ?? .none,
                              textFitPadding: Prop(e("icon-text-fit-padding"), zoom: z, default: [0, 0, 0, 0], toNumbers),
                              rotationAlignment: alignment("icon-rotation-alignment"), keepUpright: flag("icon-keep-upright", false),
                              translate: Prop(e("icon-translate"), zoom: z, default: [0, 0], toNumbers),
                              translateInViewport: inViewport("icon-translate-anchor"),
                              allowOverlap: flag("icon-allow-overlap", false), ignorePlacement: flag("icon-ignore-placement", false),
                              optional: flag("icon-optional", false))
        } else {
            icon = nil
        }
    }

    /// `f`'s icon: the image `icon-image` names when the sprite has it (a name it lacks
    /// leaves the text alone, as MapLibre does), with its properties.
    func icon(_ f: VectorFeature) -> IconStyle? {
        guard let l = icon else { return nil }
        let name = l.image.value(f)
        guard !name.isEmpty, let image = l.sprite.image(name) else { return nil }
        var s = IconStyle(image: name)
        s.sprite = l.sprite
        s.width = image.logicalWidth
        s.height = image.logicalHeight
        let size = l.size.value(f)
        s.size = size.isFinite ? max(size, 0) : 1
        s.anchor = TextAnchor(rawValue: l.anchor.value(f)) ?? .center
        let o = l.offset.value(f)
        s.offset = (o.count > 0 && o[0].isFinite ? o[0] : 0, o.count > 1 && o[1].isFinite ? o[1] : 0)
        let r = l.rotate.value(f)
        s.rotate = r.isFinite ? r : 0
        let a = l.opacity.value(f)
        s.opacity = a.isFinite ? min(max(a, 0), 1) : 1
        let p = l.padding.value(f)
        s.padding = p.isFinite ? p : 2
        if image.sdf {
            s.color = l.color.value(f)
            s.haloColor = l.haloColor.value(f)
            let hw = l.haloWidth.value(f), hb = l.haloBlur.value(f)
            s.haloWidth = hw.isFinite ? min(max(hw, 0), 64) : 0
            s.haloBlur = hb.isFinite ? min(max(hb, 0), 64) : 0
        }
        s.textFit = l.textFit
        if l.textFit != .none {
            let p = l.textFitPadding.value(f).map { $0.isFinite ? min(max($0, -1024), 1024) : 0 }
            if p.count == 4 { s.textFitPadding = (p[0], p[1], p[2], p[3]) }
        }
        s.rotationAlignment = l.rotationAlignment
        s.keepUpright = l.keepUpright
        s.translate = Self.pair(l.translate.value(f))
        s.translateInViewport = l.translateInViewport
        s.allowOverlap = l.allowOverlap
        s.ignorePlacement = l.ignorePlacement
        s.optional = l.optional
        return s
    }

    /// A two-number array as (x, y), each finite and within ±4096 px (else 0).
    static func pair(_ v: [Double]) -> (x: Double, y: Double) {
        func at(_ k: Int) -> Double { k < v.count && v[k].isFinite ? min(max(v[k], -4096), 4096) : 0 }
        return (at(0), at(1))
    }

    /// Fontconfig families (in order, no repeats) and the first font's weight and slant.
    static func families(_ fonts: [String]) -> (families: [String], bold: Bool, italic: Bool) {
        var families: [String] = []
        var bold = false, italic = false
        for (k, name) in fonts.enumerated() {
            let mapped = fontconfig(name)
            if !families.contains(mapped.family) { families.append(mapped.family) }
            if k == 0 { bold = mapped.bold; italic = mapped.italic }
        }
        return (families.isEmpty ? ["DejaVu Sans"] : families, bold, italic)
    }

    /// `f`'s symbols (one per point, line part, or polygon), nil text skipped.
    public func symbols(_ f: VectorFeature, featureIndex: Int, extent: UInt32, into out: inout [SymbolFeature]) {
        var text = field.value(f)
        let language = languageFields.isEmpty ? nil : LabelLanguage.language(of: text, fields: languageFields, feature: f)
        switch transform {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        // Along lines too: an icon alone (one-way arrows) or at the middle of its text.
        let icon = icon(f)
        guard !text.isEmpty || icon != nil else { return }
        var style = TextStyle()
        (style.fontFamilies, style.bold, style.italic) = constantFont ?? Self.families(font.value(f))
        style.size = size.value(f)
        style.color = color.value(f)
        style.haloColor = haloColor.value(f)
        style.haloWidth = haloWidth.value(f)
        style.haloBlur = haloBlur.value(f)
        style.letterSpacing = letterSpacing.value(f)
        style.maxWidth = maxWidth.value(f)
        style.lineHeight = lineHeight.value(f)
        style.anchor = TextAnchor(rawValue: anchor.value(f)) ?? .center
        style.justify = TextJustify(rawValue: justify.value(f)) ?? .center
        let o = offset.value(f)
        style.offset = (o.count > 0 ? o[0] : 0, o.count > 1 ? o[1] : 0)
        style.rotate = rotate.value(f)
        style.padding = padding.value(f)
        style.allowOverlap = allowOverlap
        style.ignorePlacement = ignorePlacement
        style.optional = optional
        style.maxAngle = maxAngle
        style.keepUpright = keepUpright
        style.rotationAlignment = rotationAlignment
        style.translate = Self.pair(translate.value(f))
        style.translateInViewport = translateInViewport
        style.language = language
        let key = sortKey?.value(f)
        func emit(_ g: SymbolGeometry) {
            out.append(SymbolFeature(layerID: layerID, layerIndex: index, text: text, textStyle: style, icon: icon, placement: placement,
                                     spacing: spacing, sortKey: key, featureIndex: featureIndex, featureID: f.id,
                                     geometry: g, extent: extent))
        }
        switch (f.type, placement) {
        case (.point, _):
            for part in f.parts { for p in part { emit(.point(p)) } }
        case (.lineString, .point):
            for part in f.parts where !part.isEmpty { emit(.point(part[part.count / 2])) }
        case (.lineString, _):
            for part in f.parts where part.count >= 2 { emit(.line(part)) }
        case (.polygon, .point):
            if let p = Self.representativePoint(f.parts) { emit(.point(p)) }
        case (.polygon, _):
            for ring in f.parts where ring.count >= 2 { emit(.line(ring)) }
        case (.unknown, _):
            break
        }
    }

    /// A point inside the largest ring of a polygon: its centroid when that lies inside,
    /// else the middle of the widest span across the ring at the centroid's height.
    static func representativePoint(_ rings: [[TilePoint]]) -> TilePoint? {
        var best: (area: Double, ring: [TilePoint])?
        for r in rings where r.count >= 3 {
            let a = abs(signedArea(r))
            if best == nil || a > best!.area { best = (a, r) }
        }
        guard let (area, ring) = best, area > 0 else { return rings.first?.first }
        var cx = 0.0, cy = 0.0
        var a2 = 0.0
        for k in 0..<ring.count {
            let p = ring[k], q = ring[(k + 1) % ring.count]
            let cross = Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            a2 += cross
            cx += (Double(p.x) + Double(q.x)) * cross
            cy += (Double(p.y) + Double(q.y)) * cross
        }
        guard a2 != 0 else { return ring[0] }
        cx /= 3 * a2
        cy /= 3 * a2
        // Crossings of the horizontal line at cy.
        var xs: [Double] = []
        for k in 0..<ring.count {
            let p = ring[k], q = ring[(k + 1) % ring.count]
            let y0 = Double(p.y), y1 = Double(q.y)
            if (y0 <= cy) != (y1 <= cy) {
                xs.append(Double(p.x) + (cy - y0) / (y1 - y0) * (Double(q.x) - Double(p.x)))
            }
        }
        xs.sort()
        var inside = false
        var widest: (Double, Double)?
        var k = 0
        while k + 1 < xs.count {
            if xs[k] <= cx && cx <= xs[k + 1] { inside = true }
            if widest == nil || xs[k + 1] - xs[k] > widest!.1 - widest!.0 { widest = (xs[k], xs[k + 1]) }
            k += 2
        }
        if !inside, let w = widest { cx = (w.0 + w.1) / 2 }
        // Cancellation in a huge ring's area can throw the centroid far off: keep it in range.
        guard cx.isFinite, cy.isFinite, abs(cx) < 2e9, abs(cy) < 2e9 else { return ring[0] }
        return TilePoint(x: Int32(clamping: Int(cx.rounded())), y: Int32(clamping: Int(cy.rounded())))
    }

    static func signedArea(_ r: [TilePoint]) -> Double {
        var s = 0.0
        for k in 0..<r.count {
            let p = r[k], q = r[(k + 1) % r.count]
            s += Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
        }
        return s / 2
    }

    /// A glyph-PBF font stack name ("Noto Sans Bold Italic") as a fontconfig family and weight.
    public static func fontconfig(_ name: String) -> (family: String, bold: Bool, italic: Bool) {
        let styleWords: Set<String> = ["regular", "bold", "italic", "oblique", "medium", "semibold", "light", "black",
                                       "heavy", "extrabold", "thin", "book", "condensed", "extralight", "ultralight", "demibold"]
        var words = name.split(separator: " ").map(String.init)
        var bold = false, italic = false
        while let last = words.last, styleWords.contains(last.lowercased()) {
            switch last.lowercased() {
            case "bold", "semibold", "black", "heavy", "extrabold", "demibold": bold = true
            case "italic", "oblique": italic = true
            default: break
            }
            words.removeLast()
        }
        let family = words.joined(separator: " ")
        // "Arial Unicode MS" and friends are not on a Linux tablet; fontconfig substitutes.
        return (family.isEmpty ? "DejaVu Sans" : family, bold, italic)
    }
}

extension Style: SymbolSource {
    /// Symbols of every symbol layer whose `source-layer` the tile has (any source).
    public func symbols(in tile: VectorTile, zoom: Double) -> [SymbolFeature] {
        at(zoom: zoom).symbols(in: tile, source: nil)
    }
}

extension ZoomStyle {
    /// The symbols of `tile` (from `source`, or any source when nil), in layer order.
    public func symbols(in tile: VectorTile, source: String?) -> [SymbolFeature] {
        var out: [SymbolFeature] = []
        for l in layers {
            guard case .symbol(let s) = l.kind, source == nil || l.source == source,
                  let name = l.sourceLayer, let layer = tile.layer(named: name) else { continue }
            for (k, f) in layer.features.enumerated() where l.matches(f) {
                s.symbols(f, featureIndex: k, extent: layer.extent, into: &out)
            }
        }
        return out
    }
}
