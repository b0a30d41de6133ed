/* Loads the drawing libraries the first time one of their functions is needed.
 *
 * No target links Cairo, Pango, fontconfig, FreeType, HarfBuzz, GLib or librsvg: the dynamic
 * loader does not map them at start. Graphics calls their functions through the wrappers of
 * CGraphicsLoader.h, which read each function's address from one table. A slot starts empty; the
 * first call of a library's function lands in ouds_graphics_resolve, which opens that library
 * with dlopen (by its soname, searched as the dynamic loader searches it), fills the slot of each
 * of its functions with dlsym, and returns the function. A command that never draws (diff, help,
 * completion) never pays for them; one that draws may start loading them on a thread of its own
 * while it reads its input (GraphicsLibraries.preload). Portable C: the same code on every CPU. */

#include "CGraphicsLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ouds_graphics_table ouds_graphics_functions;

/* The checks, the libraries and the functions of symbols.h (CLoaderTables.h); the functions in
 * the order of enum ouds_graphics_symbol, which ouds_graphics_resolve indexes them by. */
#define OUDS_LOADER_LIST "symbols.h"
#define OUDS_LOADER_TABLE ouds_graphics_functions
#include "CLoaderTables.h"
_Static_assert(sizeof symbols / sizeof symbols[0] == OUDS_SYMBOL_COUNT,
               "symbols.h lists as many functions as enum ouds_graphics_symbol");

/* RTLD_LAZY: each function is bound at its first call, as the dynamic loader does at start
 * (binding all of them at once measured slower, even on the loading thread) */
static const char *load_once(int index) {
  return ouds_loader_open(libraries, index, symbols, OUDS_SYMBOL_COUNT, RTLD_LAZY | RTLD_GLOBAL);
}

/* Libraries [first, end) in order; the first failure, or NULL. */
static const char *load_range(int first, int end) {
  for (int index = first; index < end; index++) {
    const char *failure = load_once(index);
    if (failure != NULL) return failure;
  }
  return NULL;
}

void *ouds_graphics_resolve(enum ouds_graphics_symbol symbol) {
  if ((unsigned)symbol >= OUDS_SYMBOL_COUNT) {
    (void)!write(STDERR_FILENO, "error: a drawing function out of the loader's list\n", 51);
    _exit(1);
  }
  const char *failure = load_once(symbols[symbol].library);
  void *address = __atomic_load_n(symbols[symbol].slot, __ATOMIC_ACQUIRE);
  if (failure != NULL || address == NULL) {
    char line[640];
    int length = snprintf(line, sizeof line, "error: %s\n",
                          failure ? failure : "a drawing library is missing a function");
    if (length > 0) (void)!write(STDERR_FILENO, line, (size_t)length);
    _exit(1);
  }
  return address;
}

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
    if (strcmp(libraries[index].file, soname) != 0) continue;
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
