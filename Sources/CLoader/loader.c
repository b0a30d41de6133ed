/* The loading shared by CGraphicsLoader and CHTTPLoader (see CLoader.h). Portable C: the same
 * code on every CPU. */

#include "CLoader.h"

#include <dlfcn.h>
#include <stdio.h>

static void load(struct ouds_library *library, int index, const struct ouds_symbol *symbols,
                 int symbol_count, int flags) {
  library->handle = dlopen(library->file, flags);
  if (library->handle == NULL) {
    const char *reason = dlerror();
    snprintf(library->message, sizeof library->message, "cannot load %s (Debian package %s): %s",
             library->file, library->package, reason ? reason : "unknown error");
    library->failure = library->message;
    return;
  }
  for (int i = 0; i < symbol_count; i++) {
    if (symbols[i].library != index) continue;
    void *address = dlsym(library->handle, symbols[i].name);
    if (address == NULL) {
      snprintf(library->message, sizeof library->message, "%s has no function %s (too old?)",
               library->file, symbols[i].name);
      library->failure = library->message;
      return;
    }
    __atomic_store_n(symbols[i].slot, address, __ATOMIC_RELEASE);
  }
}

const char *ouds_loader_open(struct ouds_library *libraries, int index,
                             const struct ouds_symbol *symbols, int symbol_count, int flags) {
  struct ouds_library *library = &libraries[index];
  if (!__atomic_load_n(&library->tried, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&library->lock);
    if (!library->tried) {
      load(library, index, symbols, symbol_count, flags);
      __atomic_store_n(&library->tried, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&library->lock);
  }
  return library->failure;
}
