// The UI module; see docs/ARCHITECTURE.md.
