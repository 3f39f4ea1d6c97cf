import Geo
import Gestures
import Input

/// What the page asks of the open document. The page never edits places itself: it queues
/// these, the app applies them to the document (which keeps undo and saves), and the page is
/// shown the result (`showPlaces`, or a new page when places were added or deleted).
public enum PlaceRequest: Sendable, Equatable {
    case add(Coordinate)
    case rename(placeID: String, name: String)
    case delete(placeID: String)
    case undo
}

/// The page's editing controls and their state: the long press that drops a new place, the
/// tapped point's "Add place here", each selected row's name field and delete button, and the
/// on-screen "Undo" after a delete. The text editing itself is `TextFieldState`.
public final class PlaceEditing {
    /// The name being edited: which place, and the field.
    public internal(set) var field: (placeID: String, state: TextFieldState)?
    /// While a long press drops a new place: where its pin is (it follows the finger).
    public internal(set) var provisional: Coordinate?
    /// Where the renderer last drew the field's caret, in page px (nil before it was drawn).
    public internal(set) var caretInPage: Rect?
    /// The on-screen "Undo" shows until then.
    public internal(set) var undoUntil: Double?
    /// False for a read-only document: no control that edits is shown or takes a touch.
    public internal(set) var editable = true
    var requests: [PlaceRequest] = []

    /// `addPlace`: in the tapped point's callout (a child of the map).
    let addPlace: GestureView
    /// `undo`: over the bottom of the window (a child of the window).
    let undo: GestureView
    /// Per row, `delete-<id>` and `name-<id>` (children of the row), shown in the selected row.
    let deleteViews: [GestureView]
    let nameViews: [GestureView]
    /// A press held still on the map (not on a pin or button): a new place under the finger.
    let addPress = LongPressGestureRecognizer(name: "mapAddPress")

    /// How long "Undo" stays after a delete, in ms.
    public static let undoDuration = 6000.0
    public static let buttonHeight = 44.0
    public static let addPlaceWidth = 150.0
    public static let undoWidth = 160.0

    init(places: [Place]) {
        addPlace = GestureView(name: TargetID.addPlace.name,
                               frame: Rect(x: 0, y: 0, width: PlaceEditing.addPlaceWidth, height: PlaceEditing.buttonHeight))
        undo = GestureView(name: TargetID.undo.name, frame: Rect(x: 0, y: 0, width: PlaceEditing.undoWidth, height: PlaceEditing.buttonHeight))
        deleteViews = places.map { GestureView(name: TargetID.delete($0.id).name, frame: .zero) }
        nameViews = places.map { GestureView(name: TargetID.nameField($0.id).name, frame: .zero) }
        for v in [addPlace, undo] + deleteViews + nameViews {
            v.isHidden = true
            v.hitInsets = EdgeInsets.enlarging(Size(width: PlaceEditing.addPlaceWidth, height: PlaceEditing.buttonHeight),
                                               toAtLeast: PageLayout.minimumTarget)
        }
    }

    /// Every view that takes taps, for the gesture graph.
    var targets: [GestureView] { [addPlace, undo] + deleteViews + nameViews }
}

extension MeridianPage {
    /// Adds the editing views to the tree; called once by the initializer, before the graph.
    func attachEditingViews() {
        map.addChild(editing.addPlace)
        for (row, (delete, name)) in zip(list.rows, zip(editing.deleteViews, editing.nameViews)) {
            row.addChild(name)
            row.addChild(delete)
        }
        window.addChild(editing.undo)
        layoutEditing()
    }

    /// Binds the editing gestures; called once by `wireGestures`.
    func wireEditing() {
        let press = editing.addPress
        map.addGestureRecognizer(press)
        mapTap.require(toFail: press)
        mapObserver.require(toFail: press)
        press.shouldBegin = { [unowned self] r in
            editing.editable && r.startView === map && !graph.isMapGroupActive && !pageScroll.state.isActive
        }
        press.action = { [unowned self] p in longPressed(p) }
        // Taps (and Return on a focused control) go through `activate`, like every target.
        for view in editing.targets {
            guard let id = TargetID(name: view.name) else { continue }
            for case let tap as TapGestureRecognizer in view.gestureRecognizers {
                tap.action = { [unowned self] tap in if tap.state == .recognized { activate(id) } }
            }
        }
    }

    /// What the editing controls do (`activate` sends them here).
    func activateEditing(_ target: TargetID) {
        guard editing.editable else { return }
        switch target {
        case .addPlace:
            guard let c = callout?.coordinate else { return }
            record("targetTap", [("id", .text(target.name))])
            callout = nil
            requestEdit(.add(c))
        case .undo:
            guard editing.undoUntil != nil else { return }
            record("targetTap", [("id", .text(target.name))])
            editing.undoUntil = nil
            layoutEditing()
            requestEdit(.undo)
        case .delete(let id):
            record("targetTap", [("id", .text(target.name))])
            closeNameField(commit: false)
            requestEdit(.delete(placeID: id))
        case .nameField(let id):
            record("targetTap", [("id", .text(target.name))])
            editName(ofPlace: id)
        default:
            break
        }
    }

    private func requestEdit(_ r: PlaceRequest) {
        editing.requests.append(r)
        invalidate()
    }

    /// What the page asked of the document since the last call, oldest first.
    public func takePlaceRequests() -> [PlaceRequest] {
        defer { editing.requests.removeAll() }
        return editing.requests
    }

    private func longPressed(_ p: LongPressGestureRecognizer) {
        let at = p.location(in: map)
        switch p.state {
        case .began:
            viewport.stopMotion()
            callout = nil
            let c = camera.coordinate(at: ScreenPoint(x: at.x, y: at.y))
            let w = map.convert(toWindow: at)
            record("mapLongPress", [("x", .number(w.x)), ("y", .number(w.y)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
            editing.provisional = c
            invalidateMap()
        case .changed:
            // The new pin follows the finger until it lifts.
            editing.provisional = camera.coordinate(at: ScreenPoint(x: at.x, y: at.y))
            invalidateMap()
        case .ended:
            if let c = editing.provisional { requestEdit(.add(c)) }
        case .cancelled, .failed:
            editing.provisional = nil
            invalidateMap()
        default:
            break
        }
    }

    // MARK: The name field

    /// Selects the place and gives its name field the keyboard (a new place, a tap on the name).
    public func editName(ofPlace id: String) {
        guard editing.editable, let place = list.place(id) else { return }
        if editing.field?.placeID == id { return }
        closeNameField(commit: true)
        list.selected = id
        editing.field = (id, TextFieldState(text: place.name))
        revealRow(of: id)
        layoutEditing()
        invalidate()
    }

    /// The field loses the keyboard: Enter, a tap elsewhere (commit) or Escape (forget).
    func closeNameField(commit: Bool) {
        guard let f = editing.field else { return }
        editing.field = nil
        editing.caretInPage = nil
        let name = String(f.state.text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if commit, !name.isEmpty, name != f.state.original { requestEdit(.rename(placeID: f.placeID, name: name)) }
        invalidate()
    }

    /// A key while the name field has focus (true when the field took it); with none, F2
    /// renames the selected place, as in file managers.
    func handleEditingKey(_ k: KeyEvent) -> Bool {
        guard var f = editing.field else {
            guard k.keysym == "F2", k.state == .pressed, k.modifiers.isEmpty, editing.editable,
                  let id = list.selected else { return false }
            modifiers = k.modifiers
            editName(ofPlace: id)
            return editing.field != nil
        }
        modifiers = k.modifiers
        switch f.state.handle(k) {
        case .ignored:
            return false
        case .edited:
            editing.field = f
            invalidate()
        case .committed:
            editing.field = f
            closeNameField(commit: true)
        case .cancelled:
            closeNameField(commit: false)
        }
        return true
    }

    /// An on-screen keyboard's change (`zwp_text_input_v3`).
    func handleTextInput(_ e: TextInputEvent) {
        guard case .done(let update) = e, var f = editing.field else { return }
        f.state.apply(update)
        editing.field = f
        invalidate()
    }

    /// A finger or the button came down at `p` (window): outside the name field, it commits.
    func editingPointerDown(at p: Point) {
        guard let id = editing.field?.placeID, let i = places.firstIndex(where: { $0.id == id }) else { return }
        if editing.nameViews[i].hitFrameInWindow.contains(p) { return }
        closeNameField(commit: true)
    }

    /// What an on-screen keyboard needs: whether a field has focus, its text and caret, and
    /// where the caret is (window px) so the keyboard can keep clear of it.
    public var textInputRequest: TextInputRequest? {
        guard let f = editing.field, let i = places.firstIndex(where: { $0.id == f.placeID }) else { return nil }
        // The caret as last drawn, else the whole field: the keyboard keeps clear of it.
        let frame = editing.caretInPage.map { Rect(x: $0.minX, y: $0.minY - scrollY, width: $0.size.width, height: $0.size.height) }
            ?? editing.nameViews[i].frameInWindow
        let s = f.state.surrounding
        return TextInputRequest(text: s.text, cursor: s.cursor,
                                field: (frame.minX, frame.minY, frame.size.width, frame.size.height))
    }

    private func revealRow(of id: String) {
        guard let i = places.firstIndex(where: { $0.id == id }) else { return }
        let row = layout.rowFrame(i)
        guard row.minY < scrollY + PageLayout.headerHeight || row.maxY > scrollY + layout.windowHeight else { return }
        let target = min(max(row.maxY - layout.windowHeight + 96, 0), maxScrollY)
        scroller.animate(by: target - exactScrollY, at: now)
    }

    // MARK: Undo after a delete

    /// Shows the on-screen "Undo" for `undoDuration` from now (the app calls it after a delete).
    public func showUndo(until time: Double? = nil) {
        guard editing.editable else { return }
        editing.undoUntil = time ?? now + PlaceEditing.undoDuration
        layoutEditing()
        invalidate()
    }

    public var undoShownUntil: Double? { editing.undoUntil }

    func advanceEditing() {
        if let u = editing.undoUntil, u <= now {
            editing.undoUntil = nil
            layoutEditing()
            invalidate()
        }
    }

    // MARK: Layout

    /// Where the editing controls are now and which are shown: after a camera change, a callout,
    /// a selection, a resize.
    func layoutEditing() {
        let e = editing
        if e.editable, let c = callout?.coordinate {
            let p = camera.screenPoint(of: c)
            // Above the coordinate label, or below the point near the map's top edge.
            let y = p.y - 44 - 8 - PlaceEditing.buttonHeight >= 0 ? p.y - 44 - 8 - PlaceEditing.buttonHeight : p.y + 12
            e.addPlace.frame = Rect(x: p.x - PlaceEditing.addPlaceWidth / 2, y: y, width: PlaceEditing.addPlaceWidth, height: PlaceEditing.buttonHeight)
            let size = camera.size
            e.addPlace.isHidden = p.x < 0 || p.x > size.width || p.y < 0 || p.y > size.height
        } else {
            e.addPlace.isHidden = true
        }
        let w = layout.windowWidth
        for (i, place) in places.enumerated() where i < e.deleteViews.count {
            let shown = e.editable && list.selected == place.id
            let delete = e.deleteViews[i], name = e.nameViews[i]
            delete.frame = Rect(x: w - PageLayout.margin - 88, y: (PageLayout.rowHeight - PlaceEditing.buttonHeight) / 2,
                                width: 88, height: PlaceEditing.buttonHeight)
            name.frame = Rect(x: PageLayout.margin + 28, y: 8, width: max(48, delete.frame.minX - PageLayout.margin - 36), height: 32)
            delete.hitInsets = EdgeInsets.enlarging(delete.frame.size, toAtLeast: PageLayout.minimumTarget)
            name.hitInsets = EdgeInsets.enlarging(name.frame.size, toAtLeast: PageLayout.minimumTarget)
            delete.isHidden = !shown
            name.isHidden = !shown
        }
        e.undo.frame = Rect(x: (w - PlaceEditing.undoWidth) / 2, y: layout.windowHeight - 48 - 16 - PlaceEditing.buttonHeight,
                            width: PlaceEditing.undoWidth, height: PlaceEditing.buttonHeight)
        e.undo.hitInsets = EdgeInsets.enlarging(e.undo.frame.size, toAtLeast: PageLayout.minimumTarget)
        e.undo.isHidden = !(e.editable && e.undoUntil != nil)
    }

    /// Shows or hides every control that edits (false: a read-only document).
    func setEditingEnabled(_ on: Bool) {
        editing.editable = on
        editing.addPress.isEnabled = on
        if !on {
            editing.field = nil
            editing.provisional = nil
            editing.undoUntil = nil
        }
        layoutEditing()
        invalidate()
    }

    /// The editing controls shown now, for the state dump's `targets`.
    var editingTargets: [GestureView] { editing.targets.filter { !$0.isHidden } }
}

