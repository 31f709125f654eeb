/* rows.c - lib/tables/objects.def expanded into struct row (rows.h). */
#include "rows.h"

const struct row mib_model_rows[] = {
#define TC(n, h, syn, d)                                                       \
	{.kind = R_TC, .name = n, .hint = h, .syntax = syn, .descr = d},
#define BRANCH(n, p, a) {.kind = R_BRANCH, .name = n, .parent = p, .arc = a},
#define TABLE(t, e, ty, a, ix, td, ed)                                         \
	{.kind = R_TABLE,                                                      \
	 .name = t,                                                            \
	 .entry = e,                                                           \
	 .type = ty,                                                           \
	 .arc = a,                                                             \
	 .index = ix,                                                          \
	 .descr = td,                                                          \
	 .descr2 = ed},
#define INDEX(n, e, syn, seq, d)                                               \
	{.kind = R_INDEX,                                                      \
	 .name = n,                                                            \
	 .entry = e,                                                           \
	 .syntax = syn,                                                        \
	 .seqtype = seq,                                                       \
	 .descr = d},
#define SCALAR(n, p, a, syn, cs, ac, tg, g, u, d)                              \
	{.kind = R_SCALAR,                                                     \
	 .name = n,                                                            \
	 .parent = p,                                                          \
	 .arc = a,                                                             \
	 .syntax = syn,                                                        \
	 .csyn = cs,                                                           \
	 .acc = ac,                                                            \
	 .tbl = TBL_SCALAR,                                                    \
	 .tag = tg,                                                            \
	 .group = g,                                                           \
	 .units = u,                                                           \
	 .descr = d},
#define COLUMN(n, e, a, syn, seq, cs, ac, tb, tg, g, u, d)                     \
	{.kind = R_COLUMN,                                                     \
	 .name = n,                                                            \
	 .parent = e,                                                          \
	 .arc = a,                                                             \
	 .syntax = syn,                                                        \
	 .seqtype = seq,                                                       \
	 .csyn = cs,                                                           \
	 .acc = ac,                                                            \
	 .tbl = tb,                                                            \
	 .tag = tg,                                                            \
	 .group = g,                                                           \
	 .units = u,                                                           \
	 .descr = d},
#define METRICS(w, pre, p, syn, tg, g, u, d)                                   \
	{.kind = R_METRICS,                                                    \
	 .what = w,                                                            \
	 .name = pre,                                                          \
	 .parent = p,                                                          \
	 .syntax = syn,                                                        \
	 .tag = tg,                                                            \
	 .group = g,                                                           \
	 .units = u,                                                           \
	 .descr = d},
#define AGENT_NOTE(m, d) {.kind = R_NOTE, .name = m, .descr = d},
#define NOTIFICATION(n, a, inst, objs, d)                                      \
	{.kind = R_NOTIFICATION,                                               \
	 .name = n,                                                            \
	 .arc = a,                                                             \
	 .what = inst,                                                         \
	 .objects = objs,                                                      \
	 .descr = d},
#define GROUP(n, k, d)	 {.kind = R_GROUP, .name = n, .what = k, .descr = d},
#define COMPLIANCE(n, d) {.kind = R_COMPLIANCE, .name = n, .descr = d},
#include "tables/objects.def"
};
const size_t mib_model_nrows =
    sizeof(mib_model_rows) / sizeof(mib_model_rows[0]);
