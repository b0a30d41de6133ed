import CLIKit
import Graphics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `ouds-render`: render OUDS bullet lists, and keep their snapshots in check. The commands and
// their options are tables (Commands/, CommandTree.root); the parser, the help and the shell
// completions are generated from them (CLIKit).

// A closed descriptor or a broken pipe must not turn into a lost message or a signal.
prepareStandardDescriptors()

// Pango's own fontconfig start-up (the machine's whole configuration and font caches, for fonts
// never used: every font set has its own configuration) is skipped; nothing happens until a
// command makes its first font set.
FontSet.useEmptyDefaultFontconfigConfiguration()

// Large bitmaps reuse heap memory instead of page-faulting fresh maps (no output change).
MemoryTuning.keepLargeBuffersOnHeap()

let arguments = Array(CommandLine.arguments.dropFirst())
// A command that draws starts loading the drawing libraries now, on a thread of their own, before
// the command tree's tables are made (the dispatcher would start them later).
if CommandTree.draws(arguments) {
  GraphicsLibraries.preload()
}

let status = Dispatcher(
  root: CommandTree.root, printError: printError, willDraw: GraphicsLibraries.preload
).run(arguments)
// A command that failed early may leave the drawing libraries loading on another thread: exit
// only once they are loaded (a library's initialiser must not run while exit runs the handlers).
GraphicsLibraries.finishPreloading()
exit(status)
