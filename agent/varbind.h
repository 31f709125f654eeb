/* varbind.h - struct mib_value -> net-snmp varbind, for answers and traps. */
#ifndef HWR10K_VARBIND_H
#define HWR10K_VARBIND_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "mibview.h"

/* Set vb's value (type and bytes) from v. */
int varbind_set(netsnmp_variable_list *vb, const struct mib_value *v);
/* Append name = v to *vars. */
int varbind_append(netsnmp_variable_list **vars, const oid *name, size_t len,
		   const struct mib_value *v);

#endif
