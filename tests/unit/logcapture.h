/* logcapture.h - collect lib/ log messages in a buffer for assertions. */
#ifndef HWR10K_LOGCAPTURE_H
#define HWR10K_LOGCAPTURE_H

#include <stdio.h>
#include <string.h>

#include "util/log.h"

static char logbuf[16384];
/* the same, each message after its priority: "<4>text" */
static char logbuf_at[16384];

static void log_capture(int priority, const char *msg)
{
	size_t at = strlen(logbuf_at);
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
	snprintf(logbuf_at + at, sizeof(logbuf_at) - at, "<%d>%s", priority,
		 msg);
}

static inline void log_capture_start(void)
{
	logbuf[0] = logbuf_at[0] = '\0';
	util_log_set(log_capture);
}

/* text logged at priority (LOG_WARNING...), from a message's start */
#define assert_logged_at(priority, text)                                       \
	do {                                                                   \
		char want_[1024];                                              \
		snprintf(want_, sizeof(want_), "<%d>%s", (priority), (text));  \
		if (!strstr(logbuf_at, want_))                                 \
			fail_msg("expected '%s' in the log:\n%s", want_,       \
				 logbuf_at);                                   \
	} while (0)

#define assert_logged(text)                                                    \
	do {                                                                   \
		if (!strstr(logbuf, (text)))                                   \
			fail_msg("expected '%s' in the log:\n%s", (text),      \
				 logbuf);                                      \
	} while (0)

#endif
