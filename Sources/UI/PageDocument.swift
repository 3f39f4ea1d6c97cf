import Geo

/// The seam between the page and the open places document (module `Places`, wired in
/// `MeridianApp`): the page shows the document's places; the document hears of pin drags
/// through the log's `pinDragEnded` entries.
extension MeridianPage {
    /// Shows `new` (same ids in the same order: an undo, a redo, a rename) with pins at their
    /// coordinates. Returns false, changing nothing, when the ids differ: the caller builds a
    /// new page, since pins and rows are made once per place.
    @discardableResult
    public func showPlaces(_ new: [Place]) -> Bool {
        guard new.map(\.id) == places.map(\.id) else { return false }
        guard new != places || new.contains(where: { viewport.pinCoordinates[$0.id] != $0.coordinate }) else { return true }
        _ = list.replace(with: new)
        viewport.setPins(new)
        invalidate()
        return true
    }

    /// The pin id a place's pin has (`pin-<place id>`), and back.
    public static func pinID(ofPlace id: String) -> String { TargetID.pin(id).name }

    public static func placeID(ofPin pin: String) -> String? {
        if case .pin(let id)? = TargetID(name: pin) { id } else { nil }
    }
}

extension MeridianPage {
    /// Puts the page back where the user left it: the scroll (clamped to the page) and the
    /// selected place, if it still exists. The camera comes through `Configuration`.
    public func restoreView(scrollY: Double, selectedPlace: String?) {
        scroller.set(scrollY)
        scroller.clamp()
        if let id = selectedPlace, list.place(id) != nil { list.selected = id }
        invalidate()
    }
}

extension MeridianPage {
    /// Whether pins can be dragged: false for a read-only document, so a finger on a pin
    /// scrolls the page instead of moving a pin the file cannot keep. A tap still selects it.
    public func setPlacesEditable(_ editable: Bool) {
        for drag in graph.pinDrags { drag.isEnabled = editable }
        setEditingEnabled(editable)
    }
}
