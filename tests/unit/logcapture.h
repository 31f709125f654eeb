/* logcapture.h - collect lib/ log messages in a buffer for assertions. */
#ifndef HWR10K_LOGCAPTURE_H
#define HWR10K_LOGCAPTURE_H

#include "util/log.h"

static char logbuf[16384];

static void log_capture(int priority, const char *msg)
{
	(void)priority;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

static inline void log_capture_start(void)
{
	logbuf[0] = '\0';
	hwr_log_set(log_capture);
}

#define assert_logged(text)                                                    \
	do {                                                                   \
		if (!strstr(logbuf, (text)))                                   \
			fail_msg("expected '%s' in the log:\n%s", (text),      \
				 logbuf);                                      \
	} while (0)

#endif
