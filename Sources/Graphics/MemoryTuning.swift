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

/// A large zero-filled byte buffer in a memory map of its own, unmapped in `deinit`.
///
/// With `hugePages`, Linux is asked for transparent huge pages (`madvise(MADV_HUGEPAGE)`): a
/// 9 MB buffer then costs a handful of page faults instead of about 2,300. A huge page is a
/// 2 MiB block of physical memory, though, which the kernel takes from its largest free blocks;
/// on a virtual machine that returns free memory to its host (virtio-balloon free page
/// reporting), those are the blocks the host took back, and each is faulted in again on the
/// host as it is first written. Ask for them only where that measured better. The bytes are the
/// same either way (the kernel hands out zeroed pages).
public final class LargeBuffer: @unchecked Sendable {
  /// The memory, `count` bytes, zero when created; valid while the buffer lives.
  public let bytes: UnsafeMutableRawBufferPointer
  private let mapped: Int

  /// The size of a transparent huge page on x86-64 and arm64 Linux: 2 MiB.
  public static let hugePage = 2 << 20

  /// Maps `count` zeroed bytes, on transparent huge pages if `hugePages` (Linux); nil when the
  /// system has no memory for them.
  public init?(count: Int, hugePages: Bool) {
    guard count > 0 else { return nil }
    let (rounded, overflow) = count.addingReportingOverflow(Self.hugePage - 1)
    guard !overflow else { return nil }
    let length = rounded / Self.hugePage * Self.hugePage
    let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let memory, memory != MAP_FAILED else { return nil }
    #if os(Linux)
      if hugePages { _ = madvise(memory, length, MADV_HUGEPAGE) }
    #endif
    bytes = UnsafeMutableRawBufferPointer(start: memory, count: count)
    mapped = length
  }

  deinit {
    if let base = bytes.baseAddress { munmap(base, mapped) }
  }
}
