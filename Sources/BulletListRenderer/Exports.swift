// The values the pipeline's API speaks come with it: a package that depends on the
// `BulletListRenderer` product writes `import BulletListRenderer` and has the names, colours,
// geometry and scenes (`Primitives`, `Scene`) and the layout options and results (`Layout`),
// none of which is a product of its own.
@_exported import Layout
@_exported import Primitives
@_exported import Scene
