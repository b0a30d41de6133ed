// OUDSSnapshotTesting: under construction.
