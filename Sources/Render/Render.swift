// The Render module; see docs/ARCHITECTURE.md.
