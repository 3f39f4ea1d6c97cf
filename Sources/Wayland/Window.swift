import CWaylandClient
import CWaylandShims
import CProtocols

/// What the window shows and how big it is, as the app needs to know it.
public struct WindowGeometry: Equatable, Sendable {
    /// Size of the app's content area in logical px (the title bar, when we draw one, excluded).
    public var width: Int
    public var height: Int
    /// Buffer pixels per logical px: 1, 2, or fractional (1.5) with wp_fractional_scale_v1.
    public var scale: Double

    public init(width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }
}

/// The toplevel window: wl_surface + xdg_surface + xdg_toplevel, its configure cycle, scale,
/// decorations and frame pacing. Rendering is asked for, never pushed: `WaylandClient.renderIfNeeded`
/// draws when the app `needsFrame` and no frame callback is pending, when a configure changed
/// what the window shows (`configurePending`, paced like any frame), or at once for the first
/// configure and a new scale (`forceDraw`). A configure that changes nothing drawn is acked with
/// a bare commit.
final class Window {
    private let client: WaylandClient
    let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private var frameCallback: OpaquePointer?
    let buffers: BufferSet
    /// What recent frames changed, for redrawing only that into a reused buffer.
    var damageHistory = DamageHistory()
    /// The title bar the last commit showed (nil: none), so an unchanged one is not damaged.
    var committedTitleBar: TitleBar.State?

    // Latched by xdg_toplevel.configure, applied on xdg_surface.configure.
    private var pendingSize: (Int32, Int32) = (0, 0)
    private var pendingStates: Set<UInt32> = []
    private var pendingDecorationMode: UInt32?
    private var unackedSerial: UInt32?

    private(set) var configured = false
    /// Window size in logical px, title bar included.
    private(set) var width: Int
    private(set) var height: Int
    private let naturalSize: (Int, Int)
    private let fitScreen: Bool
    /// `xdg_toplevel.configure_bounds` (v4): the largest size the compositor thinks fits; 0 = unknown.
    private var bounds: (Int32, Int32) = (0, 0)
    private(set) var states: Set<UInt32> = []
    private(set) var serverDecorated = false
    let wantsFullscreen: Bool
    private var enteredOutputs: [ObjectIdentifier: Output] = [:]
    private var fractional: Double?
    /// Something about the window itself (size, scale, decoration, a configure) needs a new frame
    /// even if the app has nothing new, and even when a frame callback is outstanding.
    private(set) var forceDraw = false
    /// A configure changed the size or the title bar: it is acked by the next frame, drawn when
    /// the compositor is ready for one (so a burst of resizes draws once per refresh, at the
    /// newest size), or after `configureGrace` ms even if it never says so.
    private(set) var configurePending = false
    /// When the oldest configure still waiting for its frame arrived (monotonic ms).
    private(set) var configurePendingSince = 0.0
    /// How long a configure may wait for the compositor's frame callback before it is drawn
    /// anyway: a hidden window, or a compositor that stopped answering, still gets its ack.
    static let configureGrace = 500.0
    /// How long a frame callback may stay unanswered after our last commit before new input is
    /// drawn anyway. Input reaching the window says it is on screen, so a compositor that holds
    /// the callback longer has lost it (wlroots 0.15's scene never answers one again after its
    /// output was removed and re-added): the finger is then drawn at this interval, not never.
    static let callbackStallGrace = 100.0
    /// When the newest frame was committed (monotonic ms; -infinity before the first).
    private(set) var lastCommitAt = -Double.infinity
    /// Window size and scale as last committed (viewport, buffer scale, opaque region).
    private var committedLayout: (width: Int, height: Int, scale: Double)?
    var frameCallbackPending: Bool { frameCallback != nil }
    /// The presentation-feedback sequence number of the newest commit (nil without wp_presentation).
    private(set) var lastCommitSequence: UInt64?
    var onGeometryChange: (() -> Void)?
    var onClose: (() -> Void)?
    /// The compositor answered the outstanding frame callback, with its time for the frame (ms).
    var onFrameDone: ((UInt32) -> Void)?

    static let titleBarHeight = 32

    init(client: WaylandClient, title: String, appID: String, size: (Int, Int), fitScreen: Bool,
         fullscreen: Bool) throws(WaylandError) {
        self.client = client
        naturalSize = size
        self.fitScreen = fitScreen
        width = size.0
        height = size.1
        wantsFullscreen = fullscreen
        guard let compositor = client.compositor?.proxy, let wmBase = client.wmBase?.proxy, let shm = client.shm?.proxy,
              let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface)
        else { throw WaylandError("the compositor did not give us a window (xdg_wm_base)") }
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        buffers = BufferSet(shm: shm)
        wl_surface_add_listener(surface, Window.surfaceListener.pointer, opaque(self))
        xdg_surface_add_listener(xdgSurface, Window.xdgSurfaceListener.pointer, opaque(self))
        xdg_toplevel_add_listener(toplevel, Window.toplevelListener.pointer, opaque(self))
        title.withCString { xdg_toplevel_set_title(toplevel, $0) }
        appID.withCString { xdg_toplevel_set_app_id(toplevel, $0) }
        xdg_toplevel_set_min_size(toplevel, 200, 200)
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        // Decorations must be negotiated before the first commit so that the first configure carries the mode.
        if let manager = client.decorationManager?.proxy, !fullscreen,
           let deco = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel) {
            decoration = deco
            zxdg_toplevel_decoration_v1_add_listener(deco, Window.decorationListener.pointer, opaque(self))
            zxdg_toplevel_decoration_v1_set_mode(deco, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
        if let manager = client.fractionalScaleManager?.proxy, let viewporter = client.viewporter?.proxy,
           let fs = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface),
           let vp = wp_viewporter_get_viewport(viewporter, surface) {
            fractionalScale = fs
            viewport = vp
            wp_fractional_scale_v1_add_listener(fs, Window.fractionalListener.pointer, opaque(self))
        }
        // The initial commit carries no buffer; the compositor answers with a configure.
        wl_surface_commit(surface)
    }

    /// Whether we draw our own title bar: no server-side decorations and not fullscreen.
    /// Never with `--fullscreen`: a kiosk or phone shell may answer with a maximized window
    /// rather than a fullscreen one, and the user asked for no chrome either way.
    var hasClientTitleBar: Bool {
        !serverDecorated && !isFullscreen && !wantsFullscreen
    }

    var isFullscreen: Bool { states.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) || (wantsFullscreen && !configured) }
    /// `xdg_toplevel.state.suspended` (v6); our wayland-protocols 1.31 headers predate its constant.
    static let suspendedState: UInt32 = 9
    var isSuspended: Bool { states.contains(Window.suspendedState) }
    var isActivated: Bool { states.contains(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue) }

    var titleBarHeight: Int { hasClientTitleBar ? Window.titleBarHeight : 0 }

    var scale: Double {
        if let fractional { return fractional }
        return Double(enteredOutputs.values.map(\.scale).max() ?? client.outputs.values.map(\.scale).max() ?? 1)
    }

    var geometry: WindowGeometry {
        WindowGeometry(width: width, height: max(1, height - titleBarHeight), scale: scale)
    }

    func outputChanged() {
        forceDraw = true
        onGeometryChange?()
    }

    func outputRemoved(_ o: Output) {
        enteredOutputsChanged { _ = enteredOutputs.removeValue(forKey: ObjectIdentifier(o)) }
    }

    /// What `present` did.
    enum Presented {
        /// Every buffer is busy (or no configure yet): nothing drawn.
        case busy
        /// The frame was committed in a buffer.
        case committed
        /// The frame changed nothing on screen (its damage was empty, the window's size, scale
        /// and configure as committed): no buffer was attached, only a frame callback asked
        /// for with a bare commit, so the loop stays paced.
        case unchanged
    }

    /// Commits a frame drawn by `draw` into a free buffer; `draw` returns the frame's damage
    /// (nil: all of it).
    func present(draw: (ShmBuffer, WindowGeometry, Int) -> [PixelRect]?) throws(WaylandError) -> Presented {
        guard configured else { return .busy }
        let s = scale
        let bufferWidth: Int, bufferHeight: Int
        if fractional != nil {
            // Toplevel sizes are rounded halfway away from zero (fractional-scale-v1.xml).
            bufferWidth = Int((Double(width) * s).rounded(.toNearestOrAwayFromZero))
            bufferHeight = Int((Double(height) * s).rounded(.toNearestOrAwayFromZero))
        } else {
            bufferWidth = width * Int(s)
            bufferHeight = height * Int(s)
        }
        guard let buffer = try buffers.acquire(width: bufferWidth, height: bufferHeight) else { return .busy }
        let damage = draw(buffer, geometry, Int((Double(titleBarHeight) * s).rounded()))?.filter { $0.width > 0 && $0.height > 0 }
        buffer.drawnFrame = damageHistory.frame
        let sameLayout = committedLayout?.width == width && committedLayout?.height == height && committedLayout?.scale == s
        if let damage, damage.isEmpty, sameLayout, unackedSerial == nil, !forceDraw {
            // Nothing on screen changes (tiles landing for a map scrolled out of view): the
            // buffer holds the newest picture for its next use, but the compositor is not asked
            // to show it again.
            if frameCallback == nil, let cb = wl_surface_frame(surface) {
                frameCallback = cb
                wl_callback_add_listener(cb, Window.frameListener.pointer, opaque(self))
                wl_surface_commit(surface)
            }
            return .unchanged
        }
        if let serial = unackedSerial {
            xdg_surface_ack_configure(xdgSurface, serial)
            unackedSerial = nil
        }
        // Size-dependent surface state is double-buffered: send it only when it changes, not every frame.
        if committedLayout?.width != width || committedLayout?.height != height || committedLayout?.scale != s {
            committedLayout = (width, height, s)
            if let viewport {
                wp_viewport_set_destination(viewport, Int32(width), Int32(height))
                wl_surface_set_buffer_scale(surface, 1)
            } else {
                wl_surface_set_buffer_scale(surface, Int32(s))
            }
            if let region = client.compositor.flatMap({ wl_compositor_create_region($0.proxy) }) {
                wl_region_add(region, 0, 0, Int32(width), Int32(height))
                wl_surface_set_opaque_region(surface, region)
                wl_region_destroy(region)
            }
        }
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        if let damage {
            for r in damage { wl_surface_damage_buffer(surface, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }
        } else {
            wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
        }
        if frameCallback == nil, let cb = wl_surface_frame(surface) {
            frameCallback = cb
            wl_callback_add_listener(cb, Window.frameListener.pointer, opaque(self))
        }
        buffers.attached(buffer)
        lastCommitSequence = client.presentation?.request(for: surface)
        wl_surface_commit(surface)
        lastCommitAt = monotonicMilliseconds()
        forceDraw = false
        configurePending = false
        return .committed
    }

    /// The title bar a frame drawn now would show (nil: none).
    private var titleBarToDraw: TitleBar.State? {
        let pixels = Int((Double(titleBarHeight) * scale).rounded())
        return hasClientTitleBar && pixels > 0 ? TitleBar.State(pixels: pixels, windowWidth: width, active: isActivated) : nil
    }

    /// Whether a frame drawn now would differ from the last one committed in size, scale or
    /// title bar (what the app draws inside is the app's business: `needsFrame`).
    private var differsFromCommitted: Bool {
        guard let committed = committedLayout else { return true }
        return committed.width != width || committed.height != height || committed.scale != scale
            || titleBarToDraw != committedTitleBar
    }

    func destroy() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
        buffers.destroyAll()
    }

    // MARK: configure

    private func applyConfigure(serial: UInt32) {
        let oldGeometry = geometry
        states = pendingStates
        if let mode = pendingDecorationMode {
            serverDecorated = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
            pendingDecorationMode = nil
        }
        let (w, h) = pendingSize
        // 0 means "choose your own size"; maximized/fullscreen sizes must be obeyed exactly.
        let first = !configured
        let chosen = configured ? (width, height) : fittedNaturalSize()
        width = w > 0 ? Int(w) : chosen.0
        height = h > 0 ? Int(h) : chosen.1
        configured = true
        if first {
            unackedSerial = serial
            forceDraw = true
        } else if differsFromCommitted {
            unackedSerial = serial
            if !configurePending {
                configurePending = true
                configurePendingSince = monotonicMilliseconds()
            }
        } else {
            // Nothing to draw (the same size and states again, or back to what is on screen
            // before a pending resize was drawn): ack it with a commit that carries no buffer.
            xdg_surface_ack_configure(xdgSurface, serial)
            wl_surface_commit(surface)
            unackedSerial = nil
            configurePending = false
        }
        if geometry != oldGeometry { onGeometryChange?() }
    }

    /// The size we ask for when the compositor lets us choose: `--size` as given, else the
    /// default shrunk to the compositor's bounds or, without them, to the smallest output (on a
    /// 720-px-wide phone the default 800 px would put the zoom buttons off-screen).
    private func fittedNaturalSize() -> (Int, Int) {
        guard fitScreen else { return naturalSize }
        var limit: (Int, Int)?
        if bounds.0 > 0, bounds.1 > 0 {
            limit = (Int(bounds.0), Int(bounds.1))
        } else {
            for size in client.outputs.values.compactMap(\.logicalSize) {
                limit = limit.map { (min($0.0, size.width), min($0.1, size.height)) } ?? (size.width, size.height)
            }
        }
        guard let limit else { return naturalSize }
        // Never below the minimum size we announce.
        return (max(200, min(naturalSize.0, limit.0)), max(200, min(naturalSize.1, limit.1)))
    }

    /// The surface entered or left an output: only a change of scale changes what we draw.
    private func enteredOutputsChanged(_ change: () -> Void) {
        let before = scale
        change()
        if scale != before { outputChanged() }
    }

    static let surfaceListener = ListenerTable(wl_surface_listener(
        enter: { data, _, output in
            guard let w = owner(data, as: Window.self), let output,
                  let o = w.client.outputs.values.first(where: { $0.proxy == output }) else { return }
            w.enteredOutputsChanged { w.enteredOutputs[ObjectIdentifier(o)] = o }
        },
        leave: { data, _, output in
            guard let w = owner(data, as: Window.self), let output,
                  let o = w.client.outputs.values.first(where: { $0.proxy == output }) else { return }
            w.enteredOutputsChanged { _ = w.enteredOutputs.removeValue(forKey: ObjectIdentifier(o)) }
        }
    ))

    static let xdgSurfaceListener = ListenerTable(xdg_surface_listener(
        configure: { data, _, serial in owner(data, as: Window.self)?.applyConfigure(serial: serial) }
    ))

    static let toplevelListener = ListenerTable(xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            guard let w = owner(data, as: Window.self) else { return }
            w.pendingSize = (max(0, width), max(0, height))
            var set = Set<UInt32>()
            if let states, let base = states.pointee.data {
                let count = states.pointee.size / MemoryLayout<UInt32>.size
                let values = base.bindMemory(to: UInt32.self, capacity: count)
                for i in 0..<count { set.insert(values[i]) }
            }
            w.pendingStates = set
        },
        close: { data, _ in owner(data, as: Window.self)?.onClose?() },
        configure_bounds: { data, _, width, height in
            owner(data, as: Window.self)?.bounds = (max(0, width), max(0, height))
        },
        wm_capabilities: { _, _, _ in }
    ))

    static let decorationListener = ListenerTable(zxdg_toplevel_decoration_v1_listener(
        configure: { data, _, mode in owner(data, as: Window.self)?.pendingDecorationMode = mode }
    ))

    static let fractionalListener = ListenerTable(wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, numerator in
            guard let w = owner(data, as: Window.self) else { return }
            // The scale is numerator / 120; keep it within sane bounds whatever the compositor says.
            let s = min(max(Double(numerator) / 120, 0.25), 8)
            if w.fractional != s {
                w.fractional = s
                w.outputChanged()
            }
        }
    ))

    static let frameListener = ListenerTable(wl_callback_listener(
        done: { data, callback, time in
            guard let w = owner(data, as: Window.self) else { return }
            if let callback { wl_callback_destroy(callback) }
            w.frameCallback = nil
            w.onFrameDone?(time)
        }
    ))
}

/// A rectangle in buffer pixels, for damage.
public struct PixelRect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
