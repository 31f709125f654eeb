/* varbind.c - the one place that maps our SMI types to ASN.1 tags. */
#include "varbind.h"

_Static_assert(sizeof(oid) == sizeof(unsigned long),
	       "mibview.h assumes net-snmp's oid is an unsigned long");

struct encoded {
	u_char type;
	const void *ptr;
	size_t len;
	struct counter64 c64;
	long l;
	u_long ul;
};

static void encode(const struct mib_value *v, struct encoded *e)
{
	switch (v->type) {
	case SYN_INTEGER32:
		e->type = ASN_INTEGER;
		e->l = v->v.i32;
		e->ptr = &e->l;
		e->len = sizeof(e->l);
		break;
	case SYN_UNSIGNED32:
	case SYN_COUNTER32:
	case SYN_TIMETICKS:
		e->type = v->type == SYN_UNSIGNED32  ? ASN_UNSIGNED
			  : v->type == SYN_COUNTER32 ? ASN_COUNTER
						     : ASN_TIMETICKS;
		e->ul = v->v.u32;
		e->ptr = &e->ul;
		e->len = sizeof(e->ul);
		break;
	case SYN_COUNTER64:
		e->type = ASN_COUNTER64;
		e->c64.high = (u_long)(v->v.u64 >> 32);
		e->c64.low = (u_long)(v->v.u64 & 0xffffffffu);
		e->ptr = &e->c64;
		e->len = sizeof(e->c64);
		break;
	case SYN_OCTETS:
		e->type = ASN_OCTET_STR;
		e->ptr = v->v.str.ptr;
		e->len = v->v.str.len;
		break;
	}
}

int varbind_set(netsnmp_variable_list *vb, const struct mib_value *v)
{
	struct encoded e = {0};
	encode(v, &e);
	return snmp_set_var_typed_value(vb, e.type, e.ptr, e.len);
}

int varbind_append(netsnmp_variable_list **vars, const oid *name, size_t len,
		   const struct mib_value *v)
{
	struct encoded e = {0};
	encode(v, &e);
	return snmp_varlist_add_variable(vars, name, len, e.type, e.ptr, e.len)
		   ? 0
		   : -1;
}
