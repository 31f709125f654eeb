/* config_token.c - the kinds of config_token.h: parse, compare, free. */
#include "config/config_token.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"

const struct config_token *config_token_find(const struct config_token *table,
					     const char *token)
{
	for (const struct config_token *t = table; t && t->token; t++)
		if (strcasecmp(t->token, token) == 0)
			return t;
	return NULL;
}

static void *field(void *settings, const struct config_token *t)
{
	return (char *)settings + t->offset;
}

static const void *cfield(const void *settings, const struct config_token *t)
{
	return (const char *)settings + t->offset;
}

int config_token_apply(const struct config_token *t, void *settings, char **w,
		       int n, char *err, size_t len)
{
	uint64_t v;
	void *f = field(settings, t);

	switch (t->kind) {
	case TK_UINT:
	case TK_U64:
		if (util_parse_number(t->token, w, n, t->min, t->max, &v, err,
				      len))
			return -1;
		if (t->kind == TK_UINT)
			*(unsigned *)f = (unsigned)v;
		else
			*(uint64_t *)f = v;
		return 0;
	case TK_YESNO:
		if (n != 1 || (strcmp(w[0], "yes") && strcmp(w[0], "no")))
			return util_parse_fail(
			    err, len, "%s: expected yes or no", t->token);
		*(bool *)f = strcmp(w[0], "yes") == 0;
		return 0;
	case TK_STRING: {
		if (n != 1)
			return util_parse_fail(err, len, "%s: expected one %s",
					       t->token, t->usage);
		char *s = strdup(w[0]);
		if (!s)
			return util_parse_fail(err, len, "out of memory");
		free(*(char **)f);
		*(char **)f = s;
		return 0;
	}
	case TK_CUSTOM:
	case TK_STRINGS:
		break;
	}
	return t->parse(settings, t->token, w, n, err, len);
}

static bool same_string(const char *x, const char *y)
{
	return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static bool same(const struct config_token *t, const void *a, const void *b)
{
	if (t->kind == TK_CUSTOM && t->same)
		return t->same(a, b);
	if (t->kind == TK_STRING || t->kind == TK_STRINGS) {
		char *const *x = cfield(a, t), *const *y = cfield(b, t);
		for (size_t i = 0; i < t->size / sizeof(char *); i++)
			if (!same_string(x[i], y[i]))
				return false;
		return true;
	}
	return memcmp(cfield(a, t), cfield(b, t), t->size) == 0;
}

bool config_token_table_same(const struct config_token *table, const void *a,
			     const void *b)
{
	for (const struct config_token *t = table; t && t->token; t++)
		if (t->reopens && !same(t, a, b))
			return false;
	return true;
}

void config_token_table_release(const struct config_token *table,
				void *settings)
{
	for (const struct config_token *t = table; t && t->token; t++) {
		if (t->kind == TK_STRING || t->kind == TK_STRINGS) {
			char **x = field(settings, t);
			for (size_t i = 0; i < t->size / sizeof(char *); i++) {
				free(x[i]);
				x[i] = NULL;
			}
		} else if (t->kind == TK_CUSTOM && t->release) {
			t->release(settings);
		}
	}
}
