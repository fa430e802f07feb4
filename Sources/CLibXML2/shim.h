#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#endif
