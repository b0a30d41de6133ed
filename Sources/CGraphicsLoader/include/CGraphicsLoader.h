#ifndef OUDS_CGRAPHICS_LOADER_H
#define OUDS_CGRAPHICS_LOADER_H

/* The door through which Graphics loads its C libraries when it first needs them (loader.c). */

/* 1 where the drawing libraries are loaded on first use (x86-64 Linux), 0 where they are linked. */
#if defined(__x86_64__) && defined(__linux__)
#define OUDS_GRAPHICS_LAZY 1
#else
#define OUDS_GRAPHICS_LAZY 0
#endif

/* 1 when the drawing libraries are loaded on first use, 0 when they are linked. */
int ouds_graphics_lazy(void);

/* Loads Cairo, Pango, fontconfig, FreeType, HarfBuzz and GLib (not librsvg) if they are not yet:
 * NULL once they are, else one line saying which library could not be loaded and why. Waits
 * for a load another thread started. */
const char *ouds_graphics_load_drawing(void);

/* fontconfig alone (and what it needs: FreeType, expat). */
const char *ouds_graphics_load_fontconfig(void);

/* The drawing libraries, and librsvg with GIO. */
const char *ouds_graphics_load_svg(void);

/* 1 when the library of this soname is loaded in the process, 0 when not, -1 when it is none of
 * the drawing libraries. */
int ouds_graphics_loaded(const char *soname);

/* librsvg's version numbers (loads librsvg); 0 when it cannot be loaded. */
int ouds_graphics_rsvg_version(unsigned *major, unsigned *minor, unsigned *micro);

#endif
