internal import CGraphics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-wide allocator settings for programs that draw many large bitmaps.
public enum MemoryTuning {
  /// Keeps large buffers (a 1080×2160 bitmap is 9 MB) on the heap instead of fresh memory maps,
  /// so each picture reuses the memory of the previous one rather than page-faulting it in
  /// again. Call once, early; it changes no output. glibc only: elsewhere it does nothing.
  public static func keepLargeBuffersOnHeap() {
    #if os(Linux)
      _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)  // the largest value glibc accepts on 64-bit
      _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
    #endif
  }
}
