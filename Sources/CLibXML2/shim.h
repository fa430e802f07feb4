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

/* libxml2 reports some errors without a parser context, through its per-thread generic error
   function (printing to standard error by default): a byte sequence invalid in the declared
   encoding is one, after which it goes on in another encoding. Swift cannot define the variadic
   callback, so these count such errors for the calling thread while a parse runs. */
static void CLibXML2_countGenericError(void *counter, const char *message, ...) {
    (void)message;
    if (counter) (*(int *)counter)++;
}

/* Counts this thread's context-free libxml2 errors into `counter` (and prints none). */
static inline void CLibXML2_countGenericErrors(int *counter) {
    xmlSetGenericErrorFunc(counter, CLibXML2_countGenericError);
}

/* Restores libxml2's default generic error function for this thread. */
static inline void CLibXML2_restoreGenericErrors(void) {
    xmlSetGenericErrorFunc(NULL, NULL);
}
#endif
