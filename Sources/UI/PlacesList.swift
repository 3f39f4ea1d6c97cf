import Gestures

/// The list of places on the page: the open document's places, one row view each (in page
/// coordinates, laid out by `PageLayout.rowFrame`), and which place is selected. The page
/// shows the selection on the row and on the place's pin.
final class PlacesList {
    private(set) var places: [Place]
    /// One row per place, in the document's order.
    let rows: [GestureView]
    /// The selected place's id.
    var selected: String? {
        didSet { if selected != oldValue { onSelect() } }
    }
    /// The selection changed (the selected row shows its editing controls).
    var onSelect: () -> Void = {}

    init(places: [Place], layout: PageLayout) {
        self.places = places
        rows = places.enumerated().map { i, place in GestureView(name: TargetID.row(place.id).name, frame: layout.rowFrame(i)) }
    }

    func apply(_ layout: PageLayout) {
        for (i, row) in rows.enumerated() { row.frame = layout.rowFrame(i) }
    }

    /// Takes `new` when it has the same ids in the same order (rows are made once per place).
    func replace(with new: [Place]) -> Bool {
        guard new.map(\.id) == places.map(\.id) else { return false }
        places = new
        return true
    }

    func place(_ id: String) -> Place? { places.first { $0.id == id } }

    /// The row view of a place.
    func row(of id: String) -> GestureView? { places.firstIndex { $0.id == id }.map { rows[$0] } }
}
