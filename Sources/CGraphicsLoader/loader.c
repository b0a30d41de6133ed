/* Loads the drawing libraries the first time one of their functions is called.
 *
 * On x86-64 Linux the executable does not name Cairo, Pango, fontconfig, FreeType, HarfBuzz,
 * GLib or librsvg among the libraries the dynamic loader maps at start: every function of
 * theirs that Graphics calls is a stub (trampolines_x86_64.S) that jumps through a slot. A slot
 * starts empty; the first call of a library's function lands in ouds_lazy_resolve, which opens
 * that library with dlopen (by its soname, searched as the dynamic loader searches it), fills the
 * slot of each of its functions with dlsym, and goes on with the call. A command that never
 * draws (diff, help, completion) never pays for them; one that draws may start loading them on
 * a thread of its own while it reads its input (GraphicsLibraries.preload).
 *
 * Elsewhere the libraries are linked as usual and every function here does nothing. */

#include "CGraphicsLoader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if OUDS_GRAPHICS_LAZY

#include <dlfcn.h>
#include <pthread.h>

enum {
#define OUDS_LIBRARY(id, soname, package) OUDS_LIBRARY_##id,
#define OUDS_SYMBOL(library, name)
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL
  OUDS_LIBRARY_COUNT
};

/* The slot of each stub: the address of the real function once its library is loaded. Read by
 * the stubs without a lock (an aligned 8-byte load), written once with release order. */
#define OUDS_LIBRARY(id, soname, package)
#define OUDS_SYMBOL(library, name) __attribute__((visibility("hidden"))) void *ouds_slot_##name;
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL

struct ouds_library {
  const char *soname;
  const char *package;
  pthread_once_t once;
  void *handle;
  /* NULL once loaded; else why it could not be */
  const char *failure;
};

static struct ouds_library libraries[OUDS_LIBRARY_COUNT] = {
#define OUDS_LIBRARY(id, soname, package) {soname, package, PTHREAD_ONCE_INIT, NULL, NULL},
#define OUDS_SYMBOL(library, name)
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL
};

struct ouds_symbol {
  void **slot;
  const char *name;
  int library;
};

static const struct ouds_symbol symbols[] = {
#define OUDS_LIBRARY(id, soname, package)
#define OUDS_SYMBOL(library, name) {&ouds_slot_##name, #name, OUDS_LIBRARY_##library},
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL
};

static const int symbol_count = (int)(sizeof symbols / sizeof symbols[0]);

/* Messages live as long as the process; one per library at most. */
static char failures[OUDS_LIBRARY_COUNT][512];

static void load(int index) {
  struct ouds_library *library = &libraries[index];
  /* each function is bound at its first call, as the dynamic loader does at start (binding all
   * of them at once measured slower, even on the loading thread) */
  library->handle = dlopen(library->soname, RTLD_LAZY | RTLD_GLOBAL);
  if (library->handle == NULL) {
    const char *reason = dlerror();
    snprintf(failures[index], sizeof failures[index], "cannot load %s (Debian package %s): %s",
             library->soname, library->package, reason ? reason : "unknown error");
    library->failure = failures[index];
    return;
  }
  for (int i = 0; i < symbol_count; i++) {
    if (symbols[i].library != index) continue;
    void *address = dlsym(library->handle, symbols[i].name);
    if (address == NULL) {
      snprintf(failures[index], sizeof failures[index], "%s has no function %s (too old?)",
               library->soname, symbols[i].name);
      library->failure = failures[index];
      return;
    }
    __atomic_store_n(symbols[i].slot, address, __ATOMIC_RELEASE);
  }
}

/* pthread_once takes a function without arguments: one per library. */
#define OUDS_LIBRARY(id, soname, package) \
  static void load_##id(void) { load(OUDS_LIBRARY_##id); }
#define OUDS_SYMBOL(library, name)
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL

static void (*const loaders[OUDS_LIBRARY_COUNT])(void) = {
#define OUDS_LIBRARY(id, soname, package) load_##id,
#define OUDS_SYMBOL(library, name)
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_SYMBOL
};

static const char *load_once(int index) {
  pthread_once(&libraries[index].once, loaders[index]);
  return libraries[index].failure;
}

/* Libraries [first, end) in order; the first failure, or NULL. */
static const char *load_range(int first, int end) {
  for (int index = first; index < end; index++) {
    const char *failure = load_once(index);
    if (failure != NULL) return failure;
  }
  return NULL;
}

/* Called by a stub whose slot is still empty, with that slot: loads the library, returns the
 * function. A library that cannot be loaded ends the process as the dynamic loader would have
 * at start, with one line; ouds_graphics_load_* report it as an error before that can happen. */
__attribute__((visibility("hidden"))) void *ouds_lazy_resolve(void **slot) {
  for (int i = 0; i < symbol_count; i++) {
    if (symbols[i].slot != slot) continue;
    const char *failure = load_once(symbols[i].library);
    void *address = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (failure != NULL || address == NULL) {
      char line[640];
      int length = snprintf(line, sizeof line, "error: %s\n",
                            failure ? failure : "a drawing library is missing a function");
      if (length > 0) (void)!write(STDERR_FILENO, line, (size_t)length);
      _exit(1);
    }
    return address;
  }
  (void)!write(STDERR_FILENO, "error: a stub without a symbol\n", 31);
  _exit(1);
}

int ouds_graphics_lazy(void) { return 1; }

const char *ouds_graphics_load_drawing(void) {
  return load_range(OUDS_LIBRARY_PANGOCAIRO, OUDS_LIBRARY_RSVG);
}

const char *ouds_graphics_load_fontconfig(void) { return load_once(OUDS_LIBRARY_FONTCONFIG); }

const char *ouds_graphics_load_svg(void) {
  /* librsvg first: it needs nearly all the others, which one dlopen then maps at once */
  const char *failure = load_range(OUDS_LIBRARY_RSVG, OUDS_LIBRARY_COUNT);
  return failure ? failure : ouds_graphics_load_drawing();
}

int ouds_graphics_loaded(const char *soname) {
  for (int index = 0; index < OUDS_LIBRARY_COUNT; index++) {
    if (strcmp(libraries[index].soname, soname) != 0) continue;
    void *handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL) return 0;
    dlclose(handle);
    return 1;
  }
  return -1;
}

int ouds_graphics_rsvg_version(unsigned *major, unsigned *minor, unsigned *micro) {
  if (ouds_graphics_load_svg() != NULL) return 0;
  void *handle = libraries[OUDS_LIBRARY_RSVG].handle;
  const unsigned *values[3] = {dlsym(handle, "rsvg_major_version"),
                               dlsym(handle, "rsvg_minor_version"),
                               dlsym(handle, "rsvg_micro_version")};
  if (!values[0] || !values[1] || !values[2]) return 0;
  *major = *values[0];
  *minor = *values[1];
  *micro = *values[2];
  return 1;
}

#else /* the libraries are linked: nothing to load */

extern const unsigned int rsvg_major_version, rsvg_minor_version, rsvg_micro_version;

int ouds_graphics_lazy(void) { return 0; }
const char *ouds_graphics_load_drawing(void) { return NULL; }

const char *ouds_graphics_load_svg(void) { return NULL; }
const char *ouds_graphics_load_fontconfig(void) { return NULL; }
int ouds_graphics_loaded(const char *soname) {
  (void)soname;
  return 1;
}

int ouds_graphics_rsvg_version(unsigned *major, unsigned *minor, unsigned *micro) {
  *major = rsvg_major_version;
  *minor = rsvg_minor_version;
  *micro = rsvg_micro_version;
  return 1;
}

#endif
