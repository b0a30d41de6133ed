// What `assertSnapshot`'s parameters speak comes with `import OUDSSnapshotTesting`: the pipeline's
// values (names, colours, `LayoutOptions`, through `BulletListRenderer`'s own re-exports) and the
// record mode and diff options of `SnapshotTestSettings`, none of which is a product of its own.
@_exported import BulletListRenderer

@_exported import struct PixelDiff.DiffOptions
@_exported import enum Snapshot.SnapshotRecordMode
