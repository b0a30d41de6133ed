internal import CGraphicsLoader
import Fonts
import SafeInput
import Threads

/// The C libraries that draw — Cairo, Pango, fontconfig, FreeType, HarfBuzz, GLib, and librsvg
/// for SVG icons — loaded the first time they are needed rather than when the process starts.
///
/// No executable or test bundle of the package links these libraries: Graphics calls their
/// functions through one table of function pointers (`CGraphicsLoader`, the same C on every CPU),
/// and the first call of a library's function loads that library (by its soname, as the dynamic
/// loader would). A process that never draws never maps them, and one that will draw can start
/// loading them at once on a thread of its own (``preload()``) while it reads its input. The
/// entry points of this module that draw call ``load()`` first, so that a missing library is a
/// ``GraphicsError`` naming it rather than the loader's last resort, one line on standard error
/// and exit status 1.
public enum GraphicsLibraries {
  /// Loads the drawing libraries but librsvg, if they are not yet (waiting for a ``preload()``
  /// under way).
  /// - Throws: ``GraphicsError/libraryUnavailable(reason:)`` naming the library that could not
  ///   be loaded and its Debian package.
  public static func load() throws(GraphicsError) {
    if let failure = ouds_graphics_load_drawing() {
      throw .libraryUnavailable(reason: String(cString: failure))
    }
  }

  /// Loads the drawing libraries and librsvg (with GIO), for SVG icons.
  /// - Throws: ``GraphicsError/libraryUnavailable(reason:)`` as ``load()``.
  public static func loadSVG() throws(GraphicsError) {
    if let failure = ouds_graphics_load_svg() {
      throw .libraryUnavailable(reason: String(cString: failure))
    }
  }

  /// Starts loading the drawing libraries but librsvg on a thread of their own, and reading
  /// fontconfig's font folders (remembered by ``FontconfigFolderCache``) on another, and returns
  /// at once: a command that will draw calls it first, so that both overlap its reading of lists
  /// and tokens. Call
  /// ``finishPreloading()`` before the process exits.
  public static func preload() {
    let first = loader.withLock { state in
      defer { state.started = true }
      if !state.started { state.loading = true }
      return !state.started
    }
    guard first else { return }
    // Both threads are made now, before anything loads: pthread_create waits for the dynamic
    // loader's lock, which dlopen holds while it loads.
    FontLocator.prefetchFontconfigFolders(in: preloading)
    preloading.start {
      _ = try? load()
      // then what was asked for while the libraries loaded, on this thread (a thread made
      // meanwhile would have waited for the loading)
      while let task = loader.withLock({ state in state.next() }) {
        task()
      }
    }
  }

  /// Runs `task` on another thread, counted in `group`: while a ``preload()`` is loading the
  /// libraries, on its thread once they are loaded (a thread made meanwhile would wait for the
  /// loading anyway: pthread_create takes the dynamic loader's lock, which dlopen holds); else at
  /// once on a new thread of `group`.
  public static func whenLoaded(in group: ThreadGroup, _ task: @escaping @Sendable () -> Void) {
    whenLoaded(in: group, later: false, task)
  }

  /// ``whenLoaded(in:_:)``, where a task that is `later` runs on the loading thread only once no
  /// other is waiting: librsvg, needed when the icons are drawn, loads after the font sets, which
  /// the layout needs first.
  static func whenLoaded(
    in group: ThreadGroup, later: Bool, _ task: @escaping @Sendable () -> Void
  ) {
    group.enter()
    let queued = loader.withLock { state in
      guard state.loading else { return false }
      let entry: @Sendable () -> Void = {
        task()
        group.leave()
      }
      if later { state.later.append(entry) } else { state.queue.append(entry) }
      return true
    }
    if !queued {
      group.start(task)
      group.leave()
    }
  }

  /// Whether a preload started, whether it is still loading, and what waits for it.
  struct LoaderState {
    var started = false
    var loading = false
    /// Tasks in the order they came, run before any of ``later``.
    var queue: [@Sendable () -> Void] = []
    /// Tasks that wait for the others (the librsvg preload).
    var later: [@Sendable () -> Void] = []

    /// The loading thread's next task, or nil (and no longer loading) when none is left.
    mutating func next() -> (@Sendable () -> Void)? {
      if !queue.isEmpty { return queue.removeFirst() }
      if !later.isEmpty { return later.removeFirst() }
      loading = false
      return nil
    }
  }

  private static let loader = Locked(LoaderState())

  /// Waits until what ``preload()`` and ``preloadSVG()`` started is done: a process calls it
  /// before it exits (a library must not be half-loaded on one thread while another runs the
  /// exit handlers), and before it counts its file descriptors.
  public static func finishPreloading() {
    preloading.wait()
  }

  /// The work ``preload()`` and ``preloadSVG()`` started.
  private static let preloading = ThreadGroup()

  /// Starts loading librsvg (and the drawing libraries, if they are not yet) on a thread of its
  /// own, once per process, and returns at once: a command whose list has SVG icons calls it
  /// once it has read the list, so that librsvg is ready when the icons are drawn. While a
  /// ``preload()`` is loading, it runs on the loading thread after every other task queued
  /// there, even one queued after it (the font sets, which the layout needs before any icon).
  /// Call ``finishPreloading()`` before the process exits.
  public static func preloadSVG() {
    let first = svgPreloadStarted.withLock { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    whenLoaded(in: preloading, later: true) { _ = try? loadSVG() }
  }

  private static let svgPreloadStarted = Locked(false)

  /// Whether the library of this soname (`libcairo.so.2`, `librsvg-2.so.2`…) is loaded in the
  /// process; nil when it is not one of the drawing libraries.
  public static func isLoaded(_ soname: String) -> Bool? {
    switch ouds_graphics_loaded(soname) {
    case 1: true
    case 0: false
    default: nil
    }
  }

  /// librsvg's run-time version, `major.minor.micro`; loads librsvg.
  static func librsvgVersion() -> String {
    var (major, minor, micro): (UInt32, UInt32, UInt32) = (0, 0, 0)
    guard ouds_graphics_rsvg_version(&major, &minor, &micro) != 0 else { return "unknown" }
    return "\(major).\(minor).\(micro)"
  }
}
