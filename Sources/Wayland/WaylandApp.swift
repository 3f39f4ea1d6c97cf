import Input

/// What the Wayland layer needs from the application it shows. Everything is called on the
/// one thread that runs the loop.
public protocol WaylandApp: AnyObject {
    /// One input frame, in order. Times are monotonic milliseconds (`monotonicMilliseconds()`).
    func handle(_ frame: InputFrame)
    /// The content area's logical size or its scale changed.
    func resize(to geometry: WindowGeometry)
    /// True when something changed that the next frame should show.
    var needsFrame: Bool { get }
    /// What the next `draw` will change since the previous frame, in buffer pixels of a
    /// `width` x `height` content area (nil: everything). Asked right before drawing.
    func damage(width: Int, height: Int, geometry: WindowGeometry) -> [PixelRect]?
    /// Draws the content area into `pixels` (XRGB8888 = cairo RGB24, `stride` bytes per row,
    /// `geometry.width * scale` by `geometry.height * scale` pixels). Only `clip` must come out
    /// right (nil: all of it): the rest of the buffer already shows the newest frame. Drawing
    /// outside `clip` is allowed, as long as it draws the newest frame there too.
    func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              geometry: WindowGeometry, clip: [PixelRect]?)
    /// The next time (monotonic ms) the app has something to do without input: a gesture
    /// timeout, an animation step. nil while idle, so the loop sleeps until input arrives.
    var nextDeadline: Double? { get }
    /// Runs whatever is due at `time`.
    func advance(to time: Double)
    /// File descriptors the loop should also wait on (tile workers signalling finished work).
    var wakeupFileDescriptors: [Int32] { get }
    /// One of `wakeupFileDescriptors` became readable.
    func wakeup(_ fd: Int32)
    /// The window is no longer visible (xdg_toplevel `suspended`), or visible again. The loop
    /// itself stops drawing while suspended, and with no frames there are no animation steps;
    /// the app may finish work the user would otherwise lose (Meridian saves its places).
    func setSuspended(_ suspended: Bool)
    /// A text field with focus, for an on-screen keyboard (`zwp_text_input_v3`); nil for none.
    var textInput: TextInputRequest? { get }
}

extension WaylandApp {
    public var textInput: TextInputRequest? { nil }
}
