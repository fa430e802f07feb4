#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, and <libxml/encoding.h> then includes the system ICU headers,
   whose UErrorCode clashes with Foundation's bundled ICU in any module that sees both. ddkpi
   never touches the ICU converter fields of xmlCharEncodingHandler (it only holds pointers to
   it), so the ICU part of the headers is left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#endif
