/* alarm_format.c - an alarm row as words: the store's lines and the
 * log's (alarm_write.h declares them), and the owner as one word. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "write/alarm_write.h"

const char *write_format_row_status(enum alarm_row r)
{
	return r == ROW_ACTIVE		 ? "active"
	       : r == ROW_NOT_IN_SERVICE ? "notInService"
	       : r == ROW_NOT_READY	 ? "notReady"
					 : NULL;
}

const char *write_format_storage(enum alarm_storage s)
{
	static const char *const names[] = {
	    NULL, "other", "volatile", "nonVolatile", "permanent", "readOnly"};
	return s >= STORAGE_OTHER && s <= STORAGE_READONLY ? names[s] : NULL;
}

void write_format_owner(const char *owner, char *buf, size_t len)
{
	size_t o = 0;
	static const char hex[] = "0123456789ABCDEF";

	if (len < 4)
		return;
	if (!*owner)
		snprintf(buf, len, "-");
	for (const char *p = owner; *owner && *p && o + 4 < len; p++) {
		unsigned char ch = (unsigned char)*p;
		bool plain = ch > 0x20 && ch < 0x7f && ch != '%' &&
			     !(ch == '-' && p == owner && !p[1]);
		if (plain) {
			buf[o++] = (char)ch;
			continue;
		}
		buf[o++] = '%';
		buf[o++] = hex[ch >> 4];
		buf[o++] = hex[ch & 15];
	}
	if (*owner)
		buf[o] = '\0';
}

int write_parse_owner(const char *word, char *owner, size_t len)
{
	size_t o = 0;
	if (strcmp(word, "-") == 0) {
		owner[0] = '\0';
		return 0;
	}
	for (const char *p = word; *p; p++) {
		unsigned v = (unsigned char)*p;
		if (*p == '%' && sscanf(p + 1, "%2x", &v) == 1 &&
		    isxdigit((unsigned char)p[1]) &&
		    isxdigit((unsigned char)p[2]))
			p += 2;
		else if (*p == '%')
			return -1;
		if (v < 0x20 || v > 0x7e || o + 1 >= len)
			return -1;
		owner[o++] = (char)v;
	}
	owner[o] = '\0';
	return 0;
}

void write_format_def(const struct alarm_def *d, char *buf, size_t len)
{
	const struct alarm_config *c = &d->cfg;
	char scope[16], rising[24], owner[3 * ALARM_OWNER_MAX + 4];
	static const char *const startup[] = {"?", "rising", "falling", "both"};

	if (c->scope == SCOPE_CPU)
		snprintf(scope, sizeof(scope), "%u", c->cpu);
	else
		snprintf(scope, sizeof(scope), "%s",
			 c->scope == SCOPE_EACH_CPU ? "each" : "sum");
	snprintf(rising, sizeof(rising), "%llu", (unsigned long long)c->rising);
	const char *row = write_format_row_status(d->row);
	const char *st = write_format_storage(d->storage);
	write_format_owner(d->owner, owner, sizeof(owner));
	snprintf(buf, len, "%u %s %s %s %s %s %s %s %llu %s %s", d->index,
		 row ? row : "?", st ? st : "?", c->name,
		 d->given & ALARM_GIVEN_METRIC ? c->metric : "-", scope,
		 c->type == TYPE_RATE ? "rate" : "absolute",
		 d->given & ALARM_GIVEN_RISING ? rising : "-",
		 (unsigned long long)c->falling,
		 startup[c->startup <= STARTUP_BOTH ? c->startup : 0], owner);
}
