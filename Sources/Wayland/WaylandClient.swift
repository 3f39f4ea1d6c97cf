import CWaylandClient
import CWaylandShims
import CProtocols
import Glibc
import Input

/// Options for the live window.
public struct WindowOptions: Sendable {
    public var title = "Meridian"
    public var appID = "org.meridian.Meridian"
    /// Logical size asked for when the compositor lets us choose.
    public var width = 800
    public var height = 1280
    /// Fullscreen, without decorations: kiosks and phone shells.
    public var fullscreen = false
    /// Shrink the asked-for size to what the screen can show (`xdg_toplevel.configure_bounds`,
    /// else the smallest output). Off when the user gave `--size`.
    public var fitScreen = true

    public init() {}
}

/// The live platform layer: one connection to the compositor, its globals, the window, the
/// seats, and the one loop (prepare_read / flush / poll / read_events / dispatch_pending) on
/// one thread, with the app's timers on the same poll.
public final class WaylandClient {
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private(set) var compositor: BoundGlobal?
    private(set) var shm: BoundGlobal?
    private(set) var wmBase: BoundGlobal?
    private(set) var decorationManager: BoundGlobal?
    private(set) var viewporter: BoundGlobal?
    private(set) var fractionalScaleManager: BoundGlobal?
    private(set) var pointerGestures: BoundGlobal?
    private(set) var textInputManager: BoundGlobal?
    /// `zwp_input_timestamps_manager_v1`, when offered: touch times to the nanosecond.
    private(set) var inputTimestamps: BoundGlobal?
    /// `wp_presentation`, when offered: feedback per commit for the pacer and the probe.
    private(set) var presentation: Presentation?
    private var pacer = FramePacer()
    /// The vblank each commit still waiting for feedback aimed at.
    private var targets: [UInt64: Double] = [:]
    /// When the pacer wants the loop to look again (a frame due then).
    private var drawDeadline: Double?
    /// The vblank the commit that asked for the outstanding frame callback aimed at.
    private var callbackTarget: Double?
    /// When the newest input frame was delivered to the app (monotonic ms).
    private var lastInputAt = -Double.infinity
    private(set) var outputs: [UInt32: Output] = [:]
    private var seats: [UInt32: Seat] = [:]
    private var seatCount = 0
    private(set) var window: Window?
    private(set) var cursor: Cursor?
    private weak var app: WaylandApp?
    private var running = true
    private var lastGeometry: WindowGeometry?
    private var wasSuspended = false
    /// `MERIDIAN_LATENCY_LOG`: input-to-commit times for `meridian-bench latency`; nil when off.
    private let latencyProbe = LatencyProbe.fromEnvironment()
    /// `MERIDIAN_FRAME_PACING=callbacks` paces on frame callbacks even with presentation
    /// feedback (to compare the two side by side).
    private let pacedByPresentation = getenv("MERIDIAN_FRAME_PACING").map { String(cString: $0) } != "callbacks"
    /// Whether the pacer learns the phase from frame callbacks: without `wp_presentation`, or
    /// when asked to pace on them. Then presentation feedback (if any) goes to the probe alone.
    private var pacesOnCallbacks: Bool { presentation == nil || !pacedByPresentation }
    /// `MERIDIAN_FULL_REDRAW=1` draws every frame whole (to compare, or to rule damage out).
    private let partialRedraws = getenv("MERIDIAN_FULL_REDRAW") == nil
    /// What was bound, for `--verbose` and the closing notes: interface → version.
    public private(set) var boundVersions: [String: UInt32] = [:]

    /// Routes SIGTERM and SIGINT to the loop (a clean exit) rather than killing the process.
    /// Call before any thread starts: threads inherit the blocked set.
    public static func routeTerminationSignalsToTheLoop() {
        _ = meridian_block_termination_signals()
    }

    /// Connects to `WAYLAND_DISPLAY` and binds what Meridian needs.
    public init() throws(WaylandError) {
        guard let display = wl_display_connect(nil) else {
            let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
            throw WaylandError("cannot connect to the Wayland compositor '\(name)': \(String(cString: strerror(errno)))")
        }
        self.display = display
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw WaylandError("cannot get the Wayland registry")
        }
        self.registry = registry
        wl_registry_add_listener(registry, WaylandClient.registryListener.pointer, opaque(self))
        // First roundtrip: the globals. Second: the first events of what we bound (seat
        // capabilities, output scale, shm formats).
        try roundtrip()
        try roundtrip()
        for kind in GlobalKind.allCases where kind.isRequired && global(kind) == nil {
            throw WaylandError("the compositor does not offer \(kind.rawValue), which Meridian needs")
        }
    }

    private func global(_ kind: GlobalKind) -> BoundGlobal? {
        switch kind {
        case .compositor: return compositor
        case .shm: return shm
        case .wmBase: return wmBase
        case .decorationManager: return decorationManager
        case .viewporter: return viewporter
        case .fractionalScaleManager: return fractionalScaleManager
        case .pointerGestures: return pointerGestures
        case .textInputManager: return textInputManager
        case .inputTimestamps: return inputTimestamps
        case .presentation, .seat, .output: return nil
        }
    }

    private func roundtrip() throws(WaylandError) {
        if wl_display_roundtrip(display) < 0 { throw connectionError() }
    }

    /// The one line that explains why the connection is unusable.
    private func connectionError() -> WaylandError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let errorCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return WaylandError("protocol error on \(name)@\(id): code \(errorCode)")
        }
        if code == EPIPE || code == ECONNRESET || code == 0 {
            return WaylandError("the compositor closed the connection")
        }
        return WaylandError("lost the connection to the compositor: \(String(cString: strerror(code)))")
    }

    // MARK: registry

    private func bind(_ kind: GlobalKind, name: UInt32, advertised: UInt32) -> BoundGlobal? {
        let version = min(advertised, kind.implementedVersion)
        guard version >= 1, let raw = wl_registry_bind(registry, name, kind.interface, version) else { return nil }
        boundVersions[kind.rawValue] = version
        return BoundGlobal(name: name, version: version, proxy: OpaquePointer(raw))
    }

    private func globalAdded(name: UInt32, interface: String, version: UInt32) {
        guard let kind = GlobalKind(rawValue: interface) else { return }
        switch kind {
        case .compositor where compositor == nil: compositor = bind(kind, name: name, advertised: version)
        case .shm where shm == nil: shm = bind(kind, name: name, advertised: version)
        case .wmBase where wmBase == nil:
            wmBase = bind(kind, name: name, advertised: version)
            if let p = wmBase?.proxy { xdg_wm_base_add_listener(p, WaylandClient.wmBaseListener.pointer, opaque(self)) }
        case .decorationManager where decorationManager == nil: decorationManager = bind(kind, name: name, advertised: version)
        case .viewporter where viewporter == nil: viewporter = bind(kind, name: name, advertised: version)
        case .fractionalScaleManager where fractionalScaleManager == nil:
            fractionalScaleManager = bind(kind, name: name, advertised: version)
        case .pointerGestures where pointerGestures == nil: pointerGestures = bind(kind, name: name, advertised: version)
        case .inputTimestamps where inputTimestamps == nil: inputTimestamps = bind(kind, name: name, advertised: version)
        case .textInputManager where textInputManager == nil:
            textInputManager = bind(kind, name: name, advertised: version)
            if let m = textInputManager?.proxy { for seat in seats.values { seat.attachTextInput(manager: m) } }
        case .presentation where presentation == nil:
            if let g = bind(kind, name: name, advertised: version) { presentation = makePresentation(g.proxy) }
        case .seat:
            if let g = bind(kind, name: name, advertised: version) {
                let seat = Seat(globalName: name, version: g.version, proxy: g.proxy, client: self, index: seatCount)
                if let m = textInputManager?.proxy { seat.attachTextInput(manager: m) }
                seats[name] = seat
                seatCount += 1
            }
        case .output:
            if let g = bind(kind, name: name, advertised: version) {
                let o = Output(globalName: name, version: g.version, proxy: g.proxy)
                o.onChange = { [weak self] in self?.window?.outputChanged() }
                outputs[name] = o
            }
        default:
            break
        }
    }

    private func globalRemoved(name: UInt32) {
        if let seat = seats.removeValue(forKey: name) { seat.destroy() }
        if let output = outputs.removeValue(forKey: name) {
            window?.outputRemoved(output)
            output.destroy()
        }
    }

    private func makePresentation(_ proxy: OpaquePointer) -> Presentation {
        let p = Presentation(proxy: proxy)
        p.onPresented = { [weak self] sequence, time, refresh in
            guard let self else { return }
            let target = targets.removeValue(forKey: sequence)
            if !pacesOnCallbacks {
                if refresh == nil, let mode = outputs.values.map(\.refreshMilliHertz).max() { pacer.outputRefresh(milliHertz: mode) }
                pacer.presented(at: time, refresh: refresh, target: target)
            }
            latencyProbe?.presented(sequence, at: time)
        }
        p.onDiscarded = { [weak self] sequence in
            self?.targets.removeValue(forKey: sequence)
            self?.latencyProbe?.discarded(sequence)
        }
        return p
    }

    static let registryListener = ListenerTable(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let c = owner(data, as: WaylandClient.self), let interface else { return }
            c.globalAdded(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in owner(data, as: WaylandClient.self)?.globalRemoved(name: name) }
    ))

    static let wmBaseListener = ListenerTable(xdg_wm_base_listener(
        ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) }
    ))

    // MARK: input plumbing

    func deliver(_ frame: InputFrame) {
        let arrival = latencyProbe.map { _ in monotonicMilliseconds() }
        lastInputAt = arrival ?? monotonicMilliseconds()
        pacer.input(at: lastInputAt)
        app?.handle(frame)
        if let arrival, let app { latencyProbe?.delivered(frame, at: arrival, visible: app.needsFrame) }
    }

    var cursorScale: Int32 { Int32(max(1, (window?.scale ?? 1).rounded(.up))) }

    /// A press on the title bar we draw: the close button closes, the rest moves the window.
    func titleBarPressed(at p: Point, seat: Seat, serial: UInt32) {
        guard let window else { return }
        if TitleBar.closeButton(windowWidth: window.width).contains(p) {
            running = false
        } else {
            xdg_toplevel_move(window.toplevel, seat.proxy, serial)
        }
    }

    // MARK: the loop

    /// Shows `app` in a window and runs until the window is closed. Throws when the compositor
    /// goes away or reports a protocol error.
    public func run(_ app: WaylandApp, options: WindowOptions) throws(WaylandError) {
        self.app = app
        if let c = compositor?.proxy, let s = shm?.proxy { cursor = Cursor(compositor: c, shm: s) }
        let window = try Window(client: self, title: options.title, appID: options.appID,
                                size: (max(1, options.width), max(1, options.height)), fitScreen: options.fitScreen,
                                fullscreen: options.fullscreen)
        self.window = window
        window.onClose = { [weak self] in self?.running = false }
        window.onFrameDone = { [weak self] time in self?.frameCallbackAnswered(time: time) }
        defer { teardown() }
        let fd = wl_display_get_fd(display)
        // SIGTERM and SIGINT end the run cleanly (state written, window destroyed) through the poll.
        let signalFD = meridian_termination_signal_fd()
        defer { if signalFD >= 0 { close(signalFD) } }
        while running {
            let now = monotonicMilliseconds()
            app.advance(to: now)
            for seat in seats.values { seat.keyboard?.fireRepeats(now: now) }
            // The focused field (or none) as the on-screen keyboard should know it.
            let field = app.textInput
            for seat in seats.values { seat.textInput?.update(field) }
            try renderIfNeeded(app, window)
            // Drain what is queued, then announce that we are about to read.
            while wl_display_prepare_read(display) != 0 {
                if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
            }
            var wantWrite = false
            if wl_display_flush(display) < 0 {
                if errno == EAGAIN {
                    wantWrite = true   // the socket is full; wait until it drains
                } else if errno != EPIPE {
                    wl_display_cancel_read(display)
                    throw connectionError()
                }
                // EPIPE: read anyway, so that the compositor's error message reaches us.
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0),
                       pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)]
            for extra in app.wakeupFileDescriptors { fds.append(pollfd(fd: extra, events: Int16(POLLIN), revents: 0)) }
            let timeout = pollTimeout(app: app, now: monotonicMilliseconds())
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 && errno != EINTR {
                wl_display_cancel_read(display)
                throw WaylandError("poll failed: \(String(cString: strerror(errno)))")
            }
            if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                if wl_display_read_events(display) < 0 { throw connectionError() }
            } else {
                wl_display_cancel_read(display)
            }
            if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
            for seat in seats.values { seat.touch?.endOfBatch() }
            if fds[1].revents & Int16(POLLIN) != 0 { running = false }
            for p in fds.dropFirst(2) where p.revents & Int16(POLLIN) != 0 { app.wakeup(p.fd) }
        }
    }

    /// Callback pacing: the answer to our frame callback (and its time for the frame, `time`
    /// ms on the compositor's clock) gives the pacer the phase.
    private func frameCallbackAnswered(time: UInt32) {
        let target = callbackTarget
        callbackTarget = nil
        guard pacesOnCallbacks else { return }
        let now = monotonicMilliseconds()
        let mode = outputs.values.map(\.refreshMilliHertz).max() ?? 0
        pacer.frameCallbackDone(at: now, stamp: EventClock.monotonic(time, now: now),
                                refresh: mode >= 1000 ? 1_000_000 / Double(mode) : nil, target: target)
    }

    /// Milliseconds until the earliest timer, or -1 (sleep until an event) when nothing is due.
    private func pollTimeout(app: WaylandApp, now: Double) -> Int32 {
        var deadlines = seats.values.compactMap { $0.keyboard?.nextDeadline }
        if let d = app.nextDeadline { deadlines.append(d) }
        if let d = drawDeadline {
            // A frame is due then: wake a little early rather than late (whole milliseconds).
            deadlines.append(d.rounded(.down) - 0.5)
        }
        guard let next = deadlines.min() else { return -1 }
        return Int32(max(0, min((next - now).rounded(.up), 60_000)))
    }

    /// The earlier of the deadlines that end a wait for the frame callback (nil: none).
    private func holdDeadline(_ a: Double?, _ b: Double?) -> Double? {
        [a, b].compactMap { $0 }.min()
    }

    private func renderIfNeeded(_ app: WaylandApp, _ window: Window) throws(WaylandError) {
        guard window.configured else { return }
        let suspended = window.isSuspended
        if suspended != wasSuspended {
            wasSuspended = suspended
            app.setSuspended(suspended)
        }
        let geometry = window.geometry
        if geometry != lastGeometry {
            lastGeometry = geometry
            window.damageHistory.invalidate()
            app.resize(to: geometry)
        }
        // The first configure and a new scale draw at once, even if the compositor is holding
        // callbacks back. A configure that changed the size is paced like any frame (a burst of
        // them draws once per refresh, at the newest size), but waits for the compositor at most
        // Window.configureGrace: a configure must be acked with a frame eventually.
        drawDeadline = nil
        var target: Double?
        if window.forceDraw {
            target = pacer.target(startingAt: monotonicMilliseconds())
        } else {
            let configure = window.configurePending
            guard configure || (app.needsFrame && !suspended) else {
                pacer.cancelPlan()
                return
            }
            let now = monotonicMilliseconds()
            let ackDeadline = window.configurePendingSince + Window.configureGrace
            let overdue = configure && now >= ackDeadline - 2
            // An outstanding frame callback only holds us back while the compositor has not
            // yet taken our last frame (a hidden window, a stalled compositor). With presentation
            // feedback the pacer times the frame; without it, the callback holds it until
            // answered, and the pacer, which learned the phase from the answers, times it then.
            let consumed = !pacesOnCallbacks && (window.lastCommitSequence.map { !(presentation?.isPending($0) ?? true) } ?? false)
            // Input since our last commit, with the callback for that commit still out: drawn
            // at the latest Window.callbackStallGrace after the commit (the callback was lost).
            let inputWaiting = lastInputAt > window.lastCommitAt
            let stallDeadline = window.lastCommitAt + Window.callbackStallGrace
            let stalled = inputWaiting && window.frameCallbackPending && now >= stallDeadline - 2
            if overdue || stalled {
                target = pacer.target(startingAt: now)
            } else if let queued = pacer.replacementTarget(now: now) {
                // Input the queued commit does not show, in time for its vblank: draw again for it.
                target = queued
            } else if window.frameCallbackPending && !consumed {
                drawDeadline = holdDeadline(configure ? ackDeadline : nil, inputWaiting ? stallDeadline : nil)
                return
            } else if let decision = pacer.decide(now: now, holdsForTouch: !inputWaiting && seats.values.contains { $0.touch?.isTouching == true }) {
                switch decision {
                case .wait(let until):
                    drawDeadline = configure ? min(until, ackDeadline) : until
                    return
                case .draw(let t):
                    target = t
                }
            } else if window.frameCallbackPending {
                drawDeadline = holdDeadline(configure ? ackDeadline : nil, inputWaiting ? stallDeadline : nil)
                return
            }
        }
        let titleBar = window.hasClientTitleBar
        let windowWidth = window.width
        let drawStart = monotonicMilliseconds()
        latencyProbe?.drawing(at: drawStart)
        let active = window.isActivated
        let previousTitleBar = window.committedTitleBar
        let callbackWasPending = window.frameCallbackPending
        let committed = try window.present { buffer, geometry, titleBarPixels in
            // The title bar is drawn into a buffer only when that buffer shows another one.
            let bar = titleBar && titleBarPixels > 0 ? TitleBar.State(pixels: titleBarPixels, windowWidth: windowWidth, active: active) : nil
            if let bar, buffer.titleBar != bar {
                TitleBar.draw(into: buffer.pixels, width: buffer.width, height: titleBarPixels, stride: buffer.stride,
                              scale: geometry.scale, windowWidth: windowWidth, active: active)
            }
            buffer.titleBar = bar
            window.committedTitleBar = bar
            let content = buffer.pixels + titleBarPixels * buffer.stride
            let contentHeight = buffer.height - titleBarPixels
            // Buffer age: move a scroll's rows, then redraw what changed since this buffer last
            // showed a frame.
            let damage = app.damage(width: buffer.width, height: contentHeight, geometry: geometry)
            let redraw = window.damageHistory.prepare(content, width: buffer.width, height: contentHeight, stride: buffer.stride,
                                                      damage: partialRedraws ? damage : nil, bufferDrawnAt: buffer.drawnFrame).redraw
            app.draw(into: content, width: buffer.width, height: contentHeight, stride: buffer.stride,
                     geometry: geometry, clip: redraw)
            // What the compositor must look at again: everything, when the content scrolled.
            guard let damage, damage.scroll == 0 else { return nil }
            guard titleBarPixels > 0 else { return damage.rects }
            // The app speaks in content pixels; the buffer has the title bar above them.
            return damage.rects.map { $0.offset(dy: titleBarPixels) }
                + (bar == previousTitleBar ? [] : [PixelRect(x: 0, y: 0, width: buffer.width, height: titleBarPixels)])
        }
        guard committed != .busy else { return }
        let now = monotonicMilliseconds()
        pacer.drew(duration: now - drawStart)
        pacer.committed(target: target, drawnFrom: drawStart)
        if !callbackWasPending && window.frameCallbackPending { callbackTarget = target }
        if committed == .unchanged { latencyProbe?.unchanged() }
        guard committed == .committed else { return }
        if let sequence = window.lastCommitSequence, let target { targets[sequence] = target }
        latencyProbe?.committed(at: now, sequence: window.lastCommitSequence, target: target)
    }

    private func teardown() {
        // Devices released at exit cancel their touches; that is not input the app should see or record.
        app = nil
        for seat in seats.values { seat.destroy() }
        if let m = textInputManager?.proxy { zwp_text_input_manager_v3_destroy(m) }
        textInputManager = nil
        seats.removeAll()
        window?.destroy()
        window = nil
        cursor?.destroy()
        presentation?.destroy()
        presentation = nil
        _ = wl_display_flush(display)
        latencyProbe?.flush()
    }

    deinit {
        for o in outputs.values { o.destroy() }
        wl_display_disconnect(display)
    }
}
