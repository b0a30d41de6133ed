#ifndef OUDS_CGRAPHICS_SHIM_H
#define OUDS_CGRAPHICS_SHIM_H
#include <cairo.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#if defined(__linux__)
#include <malloc.h>  /* mallopt, glibc only */
#endif
#endif
