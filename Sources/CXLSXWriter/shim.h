#ifndef CXLSXWRITER_SHIM_H
#define CXLSXWRITER_SHIM_H
/* libxlsxwriter (Debian libxlsxwriter-dev): the C member of the XlsxWriter family. */
#include <xlsxwriter.h>
#endif
