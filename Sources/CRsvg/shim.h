#ifndef OUDS_CRSVG_SHIM_H
#define OUDS_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#endif
