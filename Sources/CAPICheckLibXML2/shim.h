#ifndef CAPICHECK_LIBXML2_SHIM_H
#define CAPICHECK_LIBXML2_SHIM_H

// xmlversion.h first, then drop ICU: a module that imports Foundation and libxml2 with ICU
// enabled fails clean builds ("'UErrorCode' has different definitions in different modules").
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// xmlFree is a global function pointer, which Swift 6 refuses as shared mutable state.
static inline void apicheck_xml_free(void *pointer) { xmlFree(pointer); }

#endif
