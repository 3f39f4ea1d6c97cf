import Input

/// The plain title bar we draw where the compositor offers no server-side decorations
/// (weston, GNOME) and we are not fullscreen: a bar and a close button, drawn straight into
/// the buffer so the platform layer needs no drawing library.
enum TitleBar {
    /// What a drawn title bar shows (its width is the buffer's).
    struct State: Equatable {
        var pixels: Int
        var windowWidth: Int
        var active: Bool
    }

    /// The close button, in logical window coordinates.
    static func closeButton(windowWidth: Int) -> SquareButton {
        let size = Double(Window.titleBarHeight)
        return SquareButton(x: Double(windowWidth) - size, y: 0, size: size)
    }

    static let activeColor: UInt32 = 0xFF2B_3440
    /// Lighter while another window has the focus, as every desktop shows it.
    static let inactiveColor: UInt32 = 0xFF6B_7380

    static func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, scale: Double,
                     windowWidth: Int, active: Bool) {
        guard height > 0, width > 0 else { return }
        let bar = active ? activeColor : inactiveColor
        let cross: UInt32 = 0xFFE5_E9F0
        let button = closeButton(windowWidth: windowWidth)
        let bx = Int(button.x * scale), bs = Int(button.size * scale)
        let inset = bs / 3
        let thickness = max(1, Int(scale * 1.5))
        for y in 0..<height {
            let row = (pixels + y * stride).bindMemory(to: UInt32.self, capacity: width)
            for x in 0..<width {
                var c = bar
                let lx = x - bx
                if lx >= inset, lx < bs - inset, y >= inset, y < bs - inset {
                    // Two diagonals make the ×.
                    let d1 = abs(lx - y), d2 = abs(lx + y - (bs - 1))
                    if d1 < thickness || d2 < thickness { c = cross }
                }
                row[x] = c
            }
        }
    }
}

/// A square button in logical window coordinates.
struct SquareButton {
    var x: Double
    var y: Double
    var size: Double

    func contains(_ p: Point) -> Bool { p.x >= x && p.x < x + size && p.y >= y && p.y < y + size }
}
