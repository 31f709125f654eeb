/* smi_types.c - the tables of lib/meta/objects.h's SMI_TYPES, its one map. */
#include "meta/objects.h"

const char *const meta_smi_type_name[SYN_COUNT] = {
#define SMI_NAME(name, wire) [name] = #name,
    SMI_TYPES(SMI_NAME)
#undef SMI_NAME
};

const unsigned char meta_smi_type_wire[SYN_COUNT] = {
#define SMI_WIRE(name, wire) [name] = wire,
    SMI_TYPES(SMI_WIRE)
#undef SMI_WIRE
};
