import Gestures

/// Where everything sits on the page, in page (content) coordinates, for a window size.
/// Arithmetic on the window's size and the paragraphs' wrapped lines (set once here, at one font
/// size per paragraph, so the renderer draws exactly the lines the layout made room for).
public struct PageLayout: Sendable, Equatable {
    public var windowWidth: Double
    public var windowHeight: Double
    /// The intro paragraph and the paragraphs after the list, wrapped to the window's width.
    public let introLines: [String]
    public let aboutLines: [String]

    public static let margin = 16.0
    public static let headerHeight = 72.0
    public static let introTop = 88.0
    public static let rowHeight = 72.0
    public static let listTitleHeight = 48.0
    public static let buttonSize = 32.0
    public static let pinSize = 20.0
    public static let minimumTarget = 48.0

    public init(windowWidth: Double, windowHeight: Double) {
        self.windowWidth = max(1, windowWidth)
        self.windowHeight = max(1, windowHeight)
        let width = max(1, self.windowWidth - 2 * PageLayout.margin)
        (introLines, aboutLines) = PageText.measuring { cr in
            (PageText.wrap(PageText.intro, PageText.introFont, width: width, cr),
             PageText.wrap(PageText.about, PageText.aboutFont, width: width, cr))
        }
    }

    /// The intro's height: its lines (room for at least three, so the map stands where it always
    /// did on a window wide enough for them) and a line's worth of space under them.
    public var introHeight: Double { Double(max(3, introLines.count) + 1) * PageText.lineHeight }

    /// The map: full width less margins, and short enough to be fully visible at start.
    public var mapFrame: Rect {
        let top = PageLayout.introTop + introHeight
        let width = max(64, windowWidth - 2 * PageLayout.margin)
        let height = max(64, min(560, windowHeight - top - 96, width * 0.9))
        return Rect(x: PageLayout.margin, y: top, width: width, height: height)
    }

    /// The title above the list of places.
    public var listTop: Double { mapFrame.maxY + 24 }

    public func rowFrame(_ index: Int) -> Rect {
        Rect(x: 0, y: listTop + PageLayout.listTitleHeight + Double(index) * PageLayout.rowHeight,
             width: windowWidth, height: PageLayout.rowHeight)
    }

    /// The zoom buttons, in map coordinates (top-right corner of the map).
    public var zoomInFrame: Rect {
        Rect(x: mapFrame.size.width - PageLayout.margin - PageLayout.buttonSize, y: PageLayout.margin,
             width: PageLayout.buttonSize, height: PageLayout.buttonSize)
    }

    public var zoomOutFrame: Rect {
        Rect(x: zoomInFrame.minX, y: zoomInFrame.maxY + 20, width: PageLayout.buttonSize, height: PageLayout.buttonSize)
    }

    /// The compass, in map coordinates: under the zoom buttons, shown while the map is rotated.
    public var compassFrame: Rect {
        Rect(x: zoomInFrame.minX, y: zoomOutFrame.maxY + 20, width: PageLayout.buttonSize, height: PageLayout.buttonSize)
    }

    /// Where the paragraphs after the list start.
    public func moreContentTop(rows: Int) -> Double { rowFrame(rows).minY + 24 }

    /// At least twice the window's height, so there is always a page to scroll.
    public func contentHeight(rows: Int) -> Double {
        max(2 * windowHeight, moreContentTop(rows: rows) + max(600, 64 + Double(aboutLines.count) * PageText.lineHeight + 48))
    }
}
