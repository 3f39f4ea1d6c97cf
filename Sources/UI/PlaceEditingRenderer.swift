import CCairo
import Geo
import Gestures

/// Draws the editing controls (PlaceEditing.swift): the name field with its caret and an input
/// method's underlined pre-edit, the selected row's Delete, the callout's "Add place here", the
/// pin a long press is dropping, and the "Undo" after a delete.
extension PageRenderer {
    /// The name field in row `row`, when it is being edited; true when it was drawn.
    func drawNameField(_ page: MeridianPage, row: Int, place: Place, _ cr: OpaquePointer) -> Bool {
        guard let field = page.editing.field, field.placeID == place.id, row < page.editing.nameViews.count else { return false }
        let box = page.editing.nameViews[row].frame
        let f = page.layout.rowFrame(row)
        let r = Rect(x: f.minX + box.minX, y: f.minY + box.minY, width: box.size.width, height: box.size.height)
        cairo_set_source_rgb(cr, 1, 1, 1)
        roundedRect(cr, r, radius: 4)
        cairo_fill_preserve(cr)
        set(cr, Palette.focus)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
        let shown = field.state.displayed
        cairo_save(cr)
        cairo_rectangle(cr, r.minX + 2, r.minY, r.size.width - 4, r.size.height)
        cairo_clip(cr)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 18)
        let chars = Array(shown.text)
        func advance(_ n: Int) -> Double {
            var e = cairo_text_extents_t()
            cairo_text_extents(cr, String(chars.prefix(n)), &e)
            return e.x_advance
        }
        let x0 = r.minX + 6, baseline = r.minY + 23
        // Long names scroll so the caret stays in the box.
        let caretX = advance(shown.caret)
        let shift = max(0, caretX - (r.size.width - 16))
        set(cr, Palette.text)
        cairo_move_to(cr, x0 - shift, baseline)
        cairo_show_text(cr, shown.text)
        if let pre = shown.preeditRange {
            let a = advance(pre.lowerBound), b = advance(pre.upperBound)
            cairo_rectangle(cr, x0 - shift + a, baseline + 3, b - a, 1.5)
            cairo_fill(cr)
        }
        set(cr, Palette.focus)
        page.editing.caretInPage = Rect(x: x0 - shift + caretX, y: r.minY + 6, width: 2, height: r.size.height - 12)
        cairo_rectangle(cr, x0 - shift + caretX, r.minY + 6, 2, r.size.height - 12)
        cairo_fill(cr)
        cairo_restore(cr)
        cairo_new_path(cr)
        return true
    }

    func drawDeleteButton(_ page: MeridianPage, row: Int, _ cr: OpaquePointer) {
        guard row < page.editing.deleteViews.count else { return }
        let v = page.editing.deleteViews[row]
        guard !v.isHidden else { return }
        let f = page.layout.rowFrame(row)
        let r = Rect(x: f.minX + v.frame.minX, y: f.minY + v.frame.minY, width: v.frame.size.width, height: v.frame.size.height)
        cairo_set_source_rgb(cr, 0.72, 0.16, 0.12)
        roundedRect(cr, r, radius: 8)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        text(cr, "Delete", x: r.minX + 14, y: r.minY + 28, size: 16)
    }

    /// In map coordinates: the callout's action and the pin being dropped.
    func drawEditingOnMap(_ page: MeridianPage, _ cr: OpaquePointer) {
        let e = page.editing
        if !e.addPlace.isHidden {
            let r = e.addPlace.frame
            set(cr, Palette.pinSelected)
            roundedRect(cr, r, radius: 8)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            label(cr, "Add place here", in: r, size: 15)
        }
        if let c = e.provisional {
            let p = page.camera.screenPoint(of: c)
            set(cr, Palette.pinSelected)
            cairo_arc(cr, p.x, p.y, PageLayout.pinSize / 2 + 3, 0, 2 * Double.pi)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_arc(cr, p.x, p.y, 4, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
    }

    func drawUndo(_ page: MeridianPage, _ cr: OpaquePointer) {
        let v = page.editing.undo
        guard !v.isHidden else { return }
        cairo_set_source_rgba(cr, 0.13, 0.20, 0.29, 0.95)
        roundedRect(cr, v.frame, radius: 10)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        label(cr, "Undo", in: v.frame, size: 17)
    }

    /// One line centred in `r`.
    private func label(_ cr: OpaquePointer, _ s: String, in r: Rect, size: Double) {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, s, &e)
        cairo_move_to(cr, r.minX + (r.size.width - e.x_advance) / 2, r.minY + (r.size.height + size * 0.7) / 2)
        cairo_show_text(cr, s)
        cairo_new_path(cr)
    }
}
