import Gestures

/// Where everything sits on the page, in page (content) coordinates, for a window size.
/// Pure arithmetic, so tests and the renderer agree on it.
public struct PageLayout: Sendable, Equatable {
    public var windowWidth: Double
    public var windowHeight: Double

    public static let margin = 16.0
    public static let headerHeight = 72.0
    public static let introTop = 88.0
    public static let introHeight = 96.0
    public static let rowHeight = 72.0
    public static let listTitleHeight = 48.0
    public static let buttonSize = 32.0
    public static let pinSize = 20.0
    public static let minimumTarget = 48.0

    public init(windowWidth: Double, windowHeight: Double) {
        self.windowWidth = max(1, windowWidth)
        self.windowHeight = max(1, windowHeight)
    }

    /// The map: full width less margins, and short enough to be fully visible at start.
    public var mapFrame: Rect {
        let top = PageLayout.introTop + PageLayout.introHeight
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
        max(2 * windowHeight, moreContentTop(rows: rows) + 600)
    }
}
