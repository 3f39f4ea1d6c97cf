// The Gestures module; see docs/ARCHITECTURE.md.
