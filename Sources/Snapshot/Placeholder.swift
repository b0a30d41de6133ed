// Snapshot: under construction.
