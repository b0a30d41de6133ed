import Graphics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `ouds-render`: render OUDS bullet lists, and keep their snapshots in check. The commands and
// their options are tables (Commands/, CommandTree.root); the parser, the help and the shell
// completions are generated from them (CLI/).

// A closed descriptor or a broken pipe must not turn into a lost message or a signal.
prepareStandardDescriptors()

// Pango's own fontconfig start-up (the machine's whole configuration and font caches, for fonts
// never used: every font set has its own configuration) is skipped; nothing happens until a
// command makes its first font set.
FontSet.useEmptyDefaultFontconfigConfiguration()

// Large bitmaps reuse heap memory instead of page-faulting fresh maps (no output change).
MemoryTuning.keepLargeBuffersOnHeap()

exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst()), root: CommandTree.root))
