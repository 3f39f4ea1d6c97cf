import Input

// The mouse as a touch: clicks become taps and drags become pans through the same recognizers.

extension GestureSystem {
    /// The left button held down is a touch of kind `.mouse`; the other buttons, wheel and
    /// axis events are the UI's business.
    func handlePointer(_ f: PointerFrame) {
        if let p = f.entered { pointerPosition = p }
        if let p = f.moved {
            pointerPosition = p
            if mouseSerial != nil { touchMoved(id: -1, kind: .mouse, to: p) }
        }
        for (button, pressed) in f.buttons where button == .left {
            if pressed, mouseSerial == nil, let p = pointerPosition {
                touchDown(id: -1, kind: .mouse, at: p)
                mouseSerial = activeTouches.last?.serial
            } else if !pressed, mouseSerial != nil {
                touchUp(id: -1, kind: .mouse, at: pointerPosition ?? .zero)
                mouseSerial = nil
            }
        }
        if f.left {
            // The compositor keeps the pointer while a button is held, so leaving with the button
            // down means we lost it: cancel rather than invent a release position.
            if let s = mouseSerial { touchCancelled(serial: s) }
            mouseSerial = nil
            pointerPosition = nil
        }
    }
}
