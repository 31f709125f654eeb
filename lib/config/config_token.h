/*
 * config_token.h - one row per config token, generic and per backend
 * alike: its name and usage (-H, hw-r10kevctr.conf(5): tests/docs.sh
 * checks the man page, the README and the commented config against -H),
 * how its words are parsed and where they are stored, and whether a
 * change reopens the backend (the reload decision, backend_keep).  Adding
 * a token is a row here, plus its parser when no kind below fits.
 */
#ifndef HWR10K_CONFIG_TOKEN_H
#define HWR10K_CONFIG_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum token_kind {
	TK_UINT,   /* unsigned, min..max */
	TK_U64,	   /* uint64_t, min..max */
	TK_YESNO,  /* bool: yes or no */
	TK_STRING, /* char *, one word (malloc'ed; NULL = not set) */
	TK_CUSTOM, /* parse, same and release given */
	TK_STRINGS, /* char *[N] (one per metric, say), parse given;
		     * compared and freed here, NULL = not set */
};

struct config_token {
	const char *token, *usage;
	enum token_kind kind;
	size_t offset, size; /* the field in the owner's settings */
	uint64_t min, max;   /* TK_UINT, TK_U64 */
	bool reopens;	     /* a change reopens the backend */
	/* TK_CUSTOM: one line into settings (-1 with a message in err) */
	int (*parse)(void *settings, const char *token, char **w, int n,
		     char *err, size_t len);
	/* TK_CUSTOM: do settings a and b agree on this token?  NULL:
	 * the field's bytes are compared */
	bool (*same)(const void *a, const void *b);
	/* TK_CUSTOM: free what parse allocated (NULL: nothing) */
	void (*release)(void *settings);
};

#define TOKEN_FIELD(type, field) offsetof(type, field), sizeof(((type *)0)->field)
#define TOKEN_UINT(name, usage, type, field, lo, hi, reopens)                  \
	{name, usage, TK_UINT, TOKEN_FIELD(type, field), lo, hi, reopens,      \
	 NULL, NULL, NULL}
#define TOKEN_U64(name, usage, type, field, lo, hi, reopens)                   \
	{name, usage, TK_U64, TOKEN_FIELD(type, field), lo, hi, reopens,       \
	 NULL, NULL, NULL}
#define TOKEN_YESNO(name, usage, type, field, reopens)                         \
	{name, usage, TK_YESNO, TOKEN_FIELD(type, field), 0, 1, reopens,       \
	 NULL, NULL, NULL}
#define TOKEN_STRING(name, usage, type, field, reopens)                        \
	{name, usage, TK_STRING, TOKEN_FIELD(type, field), 0, 0, reopens,      \
	 NULL, NULL, NULL}
/* A field the parser fills; compared byte for byte unless same is given */
#define TOKEN_CUSTOM(name, usage, type, field, reopens, parse, same, release)  \
	{name, usage, TK_CUSTOM, TOKEN_FIELD(type, field), 0, 0, reopens,      \
	 parse, same, release}
/* An array of strings the parser fills, one element per line (a metric's
 * event or PCP name): compared and freed element by element. */
#define TOKEN_STRINGS(name, usage, type, field, reopens, parse)               \
	{name, usage, TK_STRINGS, TOKEN_FIELD(type, field), 0, 0, reopens,     \
	 parse, NULL, NULL}
#define TOKEN_END {NULL, NULL, TK_UINT, 0, 0, 0, 0, false, NULL, NULL, NULL}

/* The row of token (any case) in a NULL-terminated table; NULL if none. */
const struct config_token *config_token_find(const struct config_token *table,
					     const char *token);
/* One line of t into settings: the words w[0..n). */
int config_token_apply(const struct config_token *t, void *settings, char **w,
		       int n, char *err, size_t len);
/* Do settings a and b agree on every token of table that reopens? */
bool config_token_table_same(const struct config_token *table, const void *a,
			     const void *b);
/* Free what the table's parsers allocated in settings. */
void config_token_table_release(const struct config_token *table,
				void *settings);

#endif
