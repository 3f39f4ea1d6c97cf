// The Geo module; see docs/ARCHITECTURE.md.
