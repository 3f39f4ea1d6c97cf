import Tiles

// The seam between the style engine and the label placer.
//
// The style compiles a MapLibre `symbol` layer, per zoom, into `SymbolFeature` values: the
// text already resolved from `text-field` (tokens and expressions evaluated, `text-transform`
// applied), its look and its placement rules, and the feature's geometry in tile coordinates.
// Tile workers extract them beside the raster tile; the label placer (Render) turns them
// into world-anchored candidates for the whole screen, collides them and draws them as
// screen-aligned text. Neither side needs to know how the other works.
//
// Units follow the MapLibre style specification unless noted: sizes and paddings in logical
// px, `letterSpacing`, `maxWidth`, `lineHeight` and `offset` in ems (multiples of `size`),
// angles in degrees.

/// A colour with straight (not premultiplied) alpha, 0…1 per channel, sRGB.
public struct StyleColor: Sendable, Equatable, Hashable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    public static let black = StyleColor(r: 0, g: 0, b: 0)
    public static let white = StyleColor(r: 1, g: 1, b: 1)
    public static let transparent = StyleColor(r: 0, g: 0, b: 0, a: 0)
}

/// `symbol-placement`.
public enum SymbolPlacement: String, Sendable, Equatable {
    case point
    /// Along the line, repeated every `spacing` px.
    case line
    /// Once, at the middle of the line.
    case lineCenter = "line-center"
}

/// `text-anchor`: which part of the text sits at the anchor point.
public enum TextAnchor: String, Sendable, Equatable, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}

/// `text-justify` for multi-line text.
public enum TextJustify: String, Sendable, Equatable { case auto, left, center, right }

/// How a symbol's text looks and how it may be placed, evaluated for one feature at one zoom.
public struct TextStyle: Sendable, Equatable {
    /// fontconfig family names to try in order, from `text-font` (e.g. "Noto Sans Bold" maps
    /// to family "Noto Sans" with `bold`); the placer falls back to "DejaVu Sans".
    public var fontFamilies: [String] = ["DejaVu Sans"]
    public var bold = false
    public var italic = false
    /// `text-size`, logical px.
    public var size: Double = 16
    /// `text-color` with `text-opacity` folded into its alpha.
    public var color: StyleColor = .black
    /// `text-halo-color`; a width of 0 means no halo.
    public var haloColor: StyleColor = .transparent
    public var haloWidth: Double = 0
    public var haloBlur: Double = 0
    public var letterSpacing: Double = 0
    /// `text-max-width` in ems; point labels wrap at it (line labels never wrap).
    public var maxWidth: Double = 10
    public var lineHeight: Double = 1.2
    public var anchor: TextAnchor = .center
    public var justify: TextJustify = .center
    /// `text-offset` in ems, x right, y down.
    public var offset: (x: Double, y: Double) = (0, 0)
    /// `text-rotate`, degrees clockwise.
    public var rotate: Double = 0
    /// `text-padding`, px added around the collision box.
    public var padding: Double = 2
    public var allowOverlap = false
    /// `text-ignore-placement`: others may be placed over this one.
    public var ignorePlacement = false
    /// `text-optional`: with an icon, the text may be dropped and the icon kept.
    public var optional = false
    /// `text-max-angle`: the largest bend between neighbouring glyphs along a line.
    public var maxAngle: Double = 45
    /// `text-keep-upright`.
    public var keepUpright = true
    /// `text-rotation-alignment`, resolved for the placement (`auto` is `map` along lines,
    /// `viewport` at points).
    public var rotationAlignment: RotationAlignment = .auto
    /// `text-translate` in px (right, down) and whether it is along the screen's axes
    /// (`text-translate-anchor: viewport`) or the map's (`map`, the default). Drawn only: the
    /// collision boxes stay where the label was placed, as in MapLibre.
    public var translate: (x: Double, y: Double) = (0, 0)
    public var translateInViewport = false
    /// The language the text is in (a BCP 47 tag: "sr", "ja", "zh-Hant"), from the field it
    /// came from (`name:sr`); nil when nothing says (a bare `name`). Shaping uses it for the
    /// font's language forms and line breaking for its rules.
    public var language: String?

    public init() {}

    public static func == (a: TextStyle, b: TextStyle) -> Bool {
        a.fontFamilies == b.fontFamilies && a.bold == b.bold && a.italic == b.italic && a.size == b.size
            && a.color == b.color && a.haloColor == b.haloColor && a.haloWidth == b.haloWidth
            && a.haloBlur == b.haloBlur && a.letterSpacing == b.letterSpacing && a.maxWidth == b.maxWidth
            && a.lineHeight == b.lineHeight && a.anchor == b.anchor && a.justify == b.justify
            && a.offset.x == b.offset.x && a.offset.y == b.offset.y && a.rotate == b.rotate
            && a.padding == b.padding && a.allowOverlap == b.allowOverlap && a.ignorePlacement == b.ignorePlacement
            && a.optional == b.optional && a.maxAngle == b.maxAngle && a.keepUpright == b.keepUpright
            && a.rotationAlignment == b.rotationAlignment && a.translate.x == b.translate.x && a.translate.y == b.translate.y
            && a.translateInViewport == b.translateInViewport
            && a.language == b.language
    }
}

/// An icon from the style's sprite (`icon-image`), when the style names a local sprite that
/// has it; nil otherwise.
public struct IconStyle: Sendable, Equatable {
    public var image: String
    /// `icon-size`, a factor of the sprite image's size.
    public var size: Double = 1
    public var anchor: TextAnchor = .center
    /// `icon-offset`, px (times `icon-size`, as the spec says).
    public var offset: (x: Double, y: Double) = (0, 0)
    public var allowOverlap = false
    public var optional = false
    /// `icon-rotate`, degrees clockwise.
    public var rotate: Double = 0
    /// `icon-opacity`, 0…1.
    public var opacity: Double = 1
    /// `icon-ignore-placement`: others may be placed over this icon.
    public var ignorePlacement = false
    /// `icon-padding`, px added around the icon's collision box.
    public var padding: Double = 2
    /// `icon-color` with `icon-opacity` not folded in: the tint of a distance-field (`sdf`)
    /// image; ignored for an ordinary image, drawn in its own colours.
    public var color: StyleColor = .black
    /// `icon-halo-color`, `icon-halo-width` (px) and `icon-halo-blur` (px), for SDF images.
    public var haloColor: StyleColor = .transparent
    public var haloWidth: Double = 0
    public var haloBlur: Double = 0
    /// `icon-text-fit`: which of the icon's sides are stretched around its text (a road shield).
    public var textFit: IconTextFit = .none
    /// `icon-text-fit-padding`, px added around the text: top, right, bottom, left.
    public var textFitPadding: (top: Double, right: Double, bottom: Double, left: Double) = (0, 0, 0, 0)
    /// The sprite the image is cut from, and the image's size in logical px (at `size` 1).
    public var sprite: Sprite?
    public var width: Double = 0
    public var height: Double = 0
    /// `icon-rotation-alignment`, resolved for the placement (`auto` is `map` along lines,
    /// `viewport` at points): `map` turns a point's icon with the map (its x-axis east) and a
    /// line's icon with the line; `viewport` keeps it level on screen.
    public var rotationAlignment: RotationAlignment = .auto
    /// `icon-keep-upright`: an icon turned with its line may be turned half round so that it is
    /// never upside down (only along lines, with `map` alignment).
    public var keepUpright = false
    /// `icon-translate` (px, right and down) and `icon-translate-anchor` (`viewport`: along the
    /// screen's axes; `map`, the default: along the map's, turned with it). Drawn only.
    public var translate: (x: Double, y: Double) = (0, 0)
    public var translateInViewport = false
    public init(image: String) { self.image = image }
    public static func == (a: IconStyle, b: IconStyle) -> Bool {
        a.image == b.image && a.size == b.size && a.anchor == b.anchor && a.offset.x == b.offset.x
            && a.offset.y == b.offset.y && a.allowOverlap == b.allowOverlap && a.optional == b.optional
            && a.rotate == b.rotate && a.opacity == b.opacity && a.ignorePlacement == b.ignorePlacement
            && a.padding == b.padding && a.sprite === b.sprite && a.width == b.width && a.height == b.height
            && a.color == b.color && a.haloColor == b.haloColor && a.haloWidth == b.haloWidth && a.haloBlur == b.haloBlur
            && a.rotationAlignment == b.rotationAlignment && a.keepUpright == b.keepUpright
            && a.translate.x == b.translate.x && a.translate.y == b.translate.y && a.translateInViewport == b.translateInViewport
            && a.textFit == b.textFit && a.textFitPadding.top == b.textFitPadding.top && a.textFitPadding.right == b.textFitPadding.right
            && a.textFitPadding.bottom == b.textFitPadding.bottom && a.textFitPadding.left == b.textFitPadding.left
    }
}

/// `icon-rotation-alignment` and `text-rotation-alignment` after `auto` is resolved by the
/// placement. (`*-pitch-alignment` is read and has nothing to do: Meridian's map never tilts.)
public enum RotationAlignment: String, Sendable, Equatable {
    case map, viewport
    /// Not resolved (a `TextStyle` or `IconStyle` made by hand): `map` along lines, `viewport` at points.
    case auto
    /// Text along a line: the glyphs follow the line but each stays level on screen.
    case viewportGlyph = "viewport-glyph"

    /// The value a style gives, `auto` (or anything unknown) resolved for `placement`.
    public static func resolve(_ value: String?, placement: SymbolPlacement) -> RotationAlignment {
        switch value {
        case "map": return .map
        case "viewport": return .viewport
        case "viewport-glyph": return placement == .point ? .viewport : .viewportGlyph
        default: return placement == .point ? .viewport : .map
        }
    }
}

/// `icon-text-fit`.
public enum IconTextFit: String, Sendable, Equatable {
    case none, width, height, both
}

/// Where a symbol sits, in the tile coordinates of the tile it came from (0…extent, y down).
public enum SymbolGeometry: Sendable, Equatable {
    /// Point features (every point of a multipoint), and polygons labelled at a point inside
    /// them (the style picks a representative point: a pole of inaccessibility or centroid).
    case point(TilePoint)
    /// Each part of a line feature; polygons placed along lines give their rings.
    case line([TilePoint])
}

/// One symbol-layer feature ready for the placer: what to write, how, where, and how
/// important it is.
public struct SymbolFeature: Sendable, Equatable {
    /// The style layer's `id` (the state dump's `map.labels[].layer`).
    public var layerID: String
    /// The layer's position in the style. Later layers draw on top and are placed first, as
    /// MapLibre places symbol layers from the top of the style down; within a layer by sort
    /// key, then feature order.
    public var layerIndex: Int
    /// Resolved text (`text-field` evaluated, `text-transform` applied); empty when the
    /// symbol is an icon alone (then `icon` is set).
    public var text: String
    public var textStyle: TextStyle
    public var icon: IconStyle?
    public var placement: SymbolPlacement
    /// `symbol-spacing`, px between repeats along a line.
    public var spacing: Double
    /// `symbol-sort-key`: lower is placed first (more important); nil sorts after all keys
    /// of the layer, in feature order.
    public var sortKey: Double?
    /// The feature's index within its layer in the tile, the last tie-breaker, so placement
    /// never depends on hash order.
    public var featureIndex: Int
    /// The feature's id when the tile has one (a label that spans tiles has the same id in
    /// each, which lets the placer keep it once).
    public var featureID: UInt64?
    public var geometry: SymbolGeometry
    /// The tile's extent the geometry is measured in.
    public var extent: UInt32

    public init(layerID: String, layerIndex: Int, text: String, textStyle: TextStyle, icon: IconStyle? = nil,
                placement: SymbolPlacement, spacing: Double = 250, sortKey: Double? = nil, featureIndex: Int,
                featureID: UInt64? = nil, geometry: SymbolGeometry, extent: UInt32) {
        self.layerID = layerID
        self.layerIndex = layerIndex
        self.text = text
        self.textStyle = textStyle
        self.icon = icon
        self.placement = placement
        self.spacing = spacing
        self.sortKey = sortKey
        self.featureIndex = featureIndex
        self.featureID = featureID
        self.geometry = geometry
        self.extent = extent
    }
}

/// What hands the placer its symbols: the compiled style. The placer calls it for each
/// decoded tile (on a tile worker thread) at the zoom that tile is drawn at, in Meridian's
/// zoom (256-px tiles; the style's own zoom is one less, see the style module's docs).
public protocol SymbolSource: Sendable {
    /// The symbols of `tile`'s symbol layers at `zoom`, in the style's layer order.
    func symbols(in tile: VectorTile, zoom: Double) -> [SymbolFeature]
}
