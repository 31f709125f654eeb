/*
 * ax_session_dispatch.h - the Response to each request of the master,
 * by its type: the reads answered here, the one read path, from the cache
 * through mibview.c (RFC 2741 7.2.3); the set phases handed to the write
 * path.
 *
 * A Get varbind gets its value, noSuchObject or noSuchInstance; a
 * GetNext SearchRange (start, include, end) gets the first instance at
 * (include) or after start and before end (the null OID is no bound; any
 * other end, 0.0 included, bounds), else endOfMibView naming the start
 * OID whole; a GetBulk answers its non-repeaters as GetNext, then up to
 * max-repetitions rows of its repeaters, each continuing from its
 * previous answer, and stops early once every repeater is at
 * endOfMibView.  The set phases go to the one write path
 * (lib/write/agentx_write.c; without a writer the module is read-only:
 * TestSet notWritable at its first varbind, CommitSet and UndoSet
 * fail); CleanupSet has no Response.  The module is
 * registered in the default context only: a request for another gets
 * unsupportedContext.
 */
#ifndef HWR10K_AX_SESSION_DISPATCH_H
#define HWR10K_AX_SESSION_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "agentx/agentx_decode.h"
#include "agentx/agentx_encode.h"
#include "write/alarm_write.h"
#include "view/mibview.h"

/* The most varbinds a Response carries (a GetBulk is cut there). */
#define AX_ANSWER_MAX_VARBINDS 2048

/* The Response to r into b (sysUpTime uptime); false when r needs none
 * (CleanupSet).  A Response that cannot be built (out of memory) is a
 * genErr without varbinds. */
bool session_answer(const struct mib_view *v, struct alarm_writer *w,
		    const struct ax_request *r, uint32_t uptime,
		    struct ax_buf *b);

#endif
