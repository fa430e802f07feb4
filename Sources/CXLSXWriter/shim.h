#ifndef CXLSXWRITER_SHIM_H
#define CXLSXWRITER_SHIM_H
/* libxlsxwriter (Debian libxlsxwriter-dev): the C member of the XlsxWriter family. */
#include <xlsxwriter.h>
#include <malloc.h>

/* Fixes glibc's mmap threshold at `bytes` (a macro constant Swift cannot name), so that
   libxlsxwriter's large per-sheet arrays stay fresh, untouched mapped pages. */
static inline int CXLSXWriter_fixMmapThreshold(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
#endif
